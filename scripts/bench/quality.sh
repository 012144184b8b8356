#!/usr/bin/env bash
# Retrieval quality on a real corpus no one here wrote (Python standard-library docstrings: query = summary
# line, document = the rest, plus distractors): hush eval in each mode against ../shared/bench/peers_quality.py
# (FTS5 bm25, sentence-transformers exact, RRF and convex hybrids) on the same data, first 2,000 queries.
#   scripts/bench/quality.sh [PEER_PYTHON]      (takes ~15-30 min on 2 cores: both systems embed ~20k docs)
set -euo pipefail
cd "$(dirname "$0")/../.."
py=${1:-$HOME/.cache/hush-peers/bin/python}
peers=${PEERS_DIR:-../shared/bench}
work=${WORK:-$(mktemp -d)}
swift build -c release --product hush >/dev/null
hush=.build/release/hush
"$py" scripts/corpus/docstrings.py --out "$work" 2>&1 | tail -1
# Hush sees exactly what the peer sees: id and text (no title).
python3 -c "
import json
with open('$work/corpus-hush.jsonl', 'w') as f:
    for l in open('$work/corpus.jsonl'):
        d = json.loads(l); f.write(json.dumps({'id': d['id'], 'text': d['text']}) + '\n')"
[ -f "$work/corpus_st.npy" ] || "$py" "$peers/peers_embed.py" "$work/corpus.jsonl" --n 0 --threads 2 --save "$work/corpus_st.npy" >/dev/null 2>&1
[ -f "$work/q.hush" ] || "$hush" index --model minilm --db "$work/q.hush" --quiet "$work/corpus-hush.jsonl"
{
    for mode in semantic keyword hybrid rrf; do
        "$hush" eval --db "$work/q.hush" --queries "$work/queries.jsonl" --limit 2000 --mode "$mode" --json
    done
    "$py" "$peers/peers_quality.py" "$work" --queries 2000 2>/dev/null
} | tee "$work/quality.jsonl"
python3 - "$work/quality.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
print("\n| system | nDCG@10 | MRR@10 | Recall@10 | Recall@100 |")
print("| --- | --- | --- | --- | --- |")
for r in rows:
    name = f"hush {r['mode']}" if "mode" in r else r["system"]
    print(f"| {name} | {r['ndcg@10']:.4f} | {r['mrr@10']:.4f} | {r['recall@10']:.4f} | {r['recall@100']:.4f} |")
PY
