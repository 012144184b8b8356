#!/usr/bin/env bash
# Search-speed benchmark: the exact f32 scan of 100k x 384 vectors against the streaming-read floor, Hush's
# store-level semantic search, and numpy / faiss / sqlite-vec on the same vectors in the same run; then
# indexing throughput against pure embedding throughput on the same 1,000 texts.
#   scripts/bench/search.sh [PEER_PYTHON]
set -euo pipefail
cd "$(dirname "$0")/../.."
py=${1:-$HOME/.cache/hush-peers/bin/python}
peers=${PEERS_DIR:-../shared/bench}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift build -c release >/dev/null
hush=.build/release/hush
hush_bench=.build/release/hush-bench
"$py" -c "
import numpy as np
rng = np.random.default_rng(5); X = rng.standard_normal((100000, 384)).astype(np.float32)
X /= np.linalg.norm(X, axis=1, keepdims=True); np.save('$work/x.npy', X)"
{
    "$hush_bench" scan --vectors "$work/x.npy" --queries 200 --json
    "$py" "$peers/peers_ann.py" "$work/x.npy" --queries 200 --only numpy,faiss,sqlitevec 2>/dev/null | grep -v hnsw
    "$hush_bench" embed --model minilm --thread-counts 2 --repeats 1 --json | grep '"embed"'
    "$hush" index --model minilm --db "$work/index.hush" --json --quiet --threads 2 bench/data/embed-corpus.jsonl |
        python3 -c "import json,sys; d=json.load(sys.stdin); print(json.dumps({'bench': 'index', 'docs': d['added'], 'chunks': d['chunks_embedded'], 'seconds': d['seconds'], 'docs_per_s': d['added'] / d['seconds']}))"
} | tee "$work/out.jsonl"
python3 - "$work/out.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
scan = {r["system"]: r for r in rows if "ms_per_query" in r}
floor = scan["hush-floor"]["ms_per_query"]
vec0 = scan.get("sqlite-vec-vec0", {}).get("ms_per_query")
print("\n| 100k x 384 f32, 1 query at a time | ms/query | x floor | vs sqlite-vec vec0 |")
print("| --- | --- | --- | --- |")
for name in ("hush-floor", "hush-scan", "hush-store", "numpy-flat-1by1", "faiss-flat-1by1", "sqlite-vec-vec0"):
    if name in scan:
        ms = scan[name]["ms_per_query"]
        print(f"| {name} | {ms:.2f} | {ms / floor:.2f}x | {vec0 / ms:.1f}x faster |" if vec0 else f"| {name} | {ms:.2f} | {ms / floor:.2f}x | |")
embed = next(r for r in rows if r.get("bench") == "embed")
index = next(r for r in rows if r.get("bench") == "index")
print(f"\nIndexing {index['docs']} texts ({index['chunks']} chunks) end to end: {index['docs_per_s']:.1f} docs/s; "
      f"pure embedding of the same texts: {embed['sent_per_s']:.1f} texts/s; ratio {index['docs_per_s'] / embed['sent_per_s']:.2f}x.")
PY
