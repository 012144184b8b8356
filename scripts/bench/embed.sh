#!/usr/bin/env bash
# Embedding benchmark: Hush against sentence-transformers (PyTorch) on the same 1,000 real texts and 200
# short queries, in one run, at 1 and 2 threads; plus Hush's peak memory embedding the 1,000 texts.
#   scripts/bench/embed.sh [PEER_PYTHON]   (default ~/.cache/hush-peers/bin/python, made by
#                                          ../shared/bench/setup-peers.sh)
# Prints JSON lines, then a Markdown table for docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
py=${1:-$HOME/.cache/hush-peers/bin/python}
peers=${PEERS_DIR:-../shared/bench}
out=${OUT:-bench-results/embed-$(date +%Y%m%d-%H%M%S).jsonl}
mkdir -p "$(dirname "$out")"
hush=.build/release/hush
hush_bench=.build/release/hush-bench
for binary in "$hush" "$hush_bench"; do
    [ -x "$binary" ] || { echo "no $binary: swift build -c release (this script does not build)" >&2; exit 1; }
done
# The core's instruction rates, which bound the tokens/s below (stderr, so the JSON lines stay clean).
scripts/bench/isa-peak.sh >&2
corpus=bench/data/embed-corpus.jsonl
queries=bench/data/queries.jsonl
: >"$out"
for threads in 1 2; do
    "$hush_bench" embed --model minilm --thread-counts "$threads" --repeats 3 --json | grep '"embed"' | tee -a "$out"
    "$py" "$peers/peers_embed.py" "$corpus" --n 1000 --threads "$threads" --batch 32 2>/dev/null | tee -a "$out"
done
for threads in 1 2; do
    "$hush_bench" embed --model minilm --thread-counts "$threads" --repeats 1 --json | grep 'query-latency' | tee -a "$out"
    "$py" scripts/bench/st-query-latency.py "$queries" --threads "$threads" 2>/dev/null | tee -a "$out"
done
python3 -c "import json,sys
for l in open('$corpus'): print(json.loads(l)['text'].replace('\n',' '))" >"${out%.jsonl}.texts"
# The whole process (model load, reading, JSON output) on the same 1,000 texts: the median of 3 runs.
for threads in 1 2; do
    for run in 1 2 3; do
        /usr/bin/time -f %e -o "${out%.jsonl}.wall" "$hush" embed --model minilm --threads "$threads" \
            <"${out%.jsonl}.texts" >/dev/null
        cat "${out%.jsonl}.wall"
    done | sort -n | sed -n 2p | xargs -I{} echo "{\"bench\":\"embed-process\",\"system\":\"hush\",\"threads\":$threads,\"seconds\":{}}" | tee -a "$out"
done
/usr/bin/time -v "$hush" embed --model minilm --threads 2 <"${out%.jsonl}.texts" 2>"${out%.jsonl}.time" >/dev/null
rss=$(awk -F: '/Maximum resident/ {gsub(/ /,"",$2); print $2}' "${out%.jsonl}.time")
weights=$(stat -c %s "${HUSH_MODEL_DIR:-$HOME/.cache/hush/models/all-MiniLM-L6-v2}/model.safetensors")
echo "{\"bench\":\"embed-memory\",\"system\":\"hush\",\"peak_rss_kb\":$rss,\"weights_kb\":$((weights / 1024))}" | tee -a "$out"
python3 scripts/bench/embed-table.py "$out"
