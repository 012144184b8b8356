#!/usr/bin/env bash
# ANN benchmark: Hush (exact f32, int8 + rescore, binary + rescore, HNSW) against the peers of
# ../shared/bench/peers_ann.py on the SAME vectors and queries, in one run, 1 thread.
#   scripts/bench/ann.sh [N] [PEER_PYTHON]     (N default 100000; vectors are synthetic clustered 384-d)
#   VECTORS=file.npy QUERIES=file.npy scripts/bench/ann.sh   to use real embeddings instead.
#   PEERS=numpy,faiss,hnswlib (default hnswlib,faiss) selects peers; THREADS=2 builds with two threads (both sides).
# Prints JSON lines, then a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${1:-100000}
py=${2:-$HOME/.cache/hush-peers/bin/python}
peers=${PEERS_DIR:-../shared/bench}
out=${OUT:-bench-results/ann-$(date +%Y%m%d-%H%M%S).jsonl}
mkdir -p "$(dirname "$out")"
vectors=${VECTORS:-${out%.jsonl}-vectors.npy}
queries=${QUERIES:-${out%.jsonl}-queries.npy}
if [ -z "${VECTORS:-}" ]; then "$py" scripts/bench/ann-data.py "$vectors" "$queries" --n "$n" --queries 1000; fi
swift build -c release --product hush-bench >/dev/null
: >"$out"
.build/release/hush-bench ann --vectors "$vectors" --query-file "$queries" --queries 1000 \
    --m 16 --ef-construction 200 --ef-search 16,32,64,128,256 --threads "${THREADS:-1}" --json | tee -a "$out"
OMP_NUM_THREADS=${THREADS:-1} "$py" "$peers/peers_ann.py" "$vectors" --qfile "$queries" --queries 1000 --threads "${THREADS:-1}" \
    --only "${PEERS:-hnswlib,faiss}" | tee -a "$out"
python3 scripts/bench/ann-table.py "$out"
