#!/usr/bin/env bash
# Cold opens, alternated, in new processes: `hush-bench open` on each store RUNS times (default 5), one JSON
# line per run, then the median of each figure per store.
# Usage: scripts/bench/launch.sh STORE.hush [STORE2.hush ...]   (RUNS=9 QUERIES=q.jsonl to change)
set -euo pipefail
cd "$(dirname "$0")/../.."
runs="${RUNS:-5}"
bench=.build/release/hush-bench
[ -x "$bench" ] || swift build -c release --product hush-bench >&2
out=$(mktemp)
for _ in $(seq "$runs"); do
    for store in "$@"; do
        "$bench" open --db "$store" ${QUERIES:+--queries "$QUERIES"} --json | tee -a "$out"
    done
done
python3 - "$out" <<'PY'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1]) if line.startswith("{")]
by = {}
for row in rows: by.setdefault(row["db"], []).append(row)
keys = ["model_ms", "open_ms", "first_query_ms", "open_plus_first_ms", "store_rss_bytes", "peak_rss_bytes", "later_p50_ms"]
for db, runs in by.items():
    med = {k: statistics.median(r[k] for r in runs) for k in keys if k in runs[0]}
    print(json.dumps({"db": db, "runs": len(runs), "vectors_in_memory": runs[0]["vectors_in_memory"], **med}))
PY
rm -f "$out"
