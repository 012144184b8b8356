#!/usr/bin/env bash
# Import speed of precomputed vectors: `hush import` of each Python-layout SOURCE into a new file, RUNS times
# (/usr/bin/time -v), printing per run the wall time, documents/s, user CPU and peak RSS, then the medians.
# Usage: scripts/bench/import-rate.sh NAME=SOURCE.sqlite [...]   (RUNS=3; KEEP=DIR keeps the last run's store as
#        DIR/NAME.hush)
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for spec in "$@"; do
    name="${spec%%=*}"
    source="${spec#*=}"
    documents=$(python3 -c "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT COUNT(*) FROM documents').fetchone()[0])" "$source")
    for run in $(seq "${RUNS:-3}"); do
        rm -f "$work/$name.hush" "$work/$name.hush-wal" "$work/$name.hush-shm"
        /usr/bin/time -v .build/release/hush import --from "$source" --db "$work/$name.hush" --quiet \
            > /dev/null 2> "$work/time.txt"
        python3 - "$name" "$run" "$documents" "$work/time.txt" <<'PY' | tee -a "$work/runs.jsonl"
import json, re, sys
name, run, documents, path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
text = open(path).read()
clock = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", text).group(1).split(":")
wall = sum(float(part) * 60 ** i for i, part in enumerate(reversed(clock)))
user = float(re.search(r"User time \(seconds\): (\S+)", text).group(1))
peak = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", text).group(1)) * 1024
print(json.dumps({"name": name, "run": run, "documents": documents, "wall_s": round(wall, 2),
                  "documents_per_s": round(documents / wall), "user_s": user, "peak_rss_bytes": peak}))
PY
    done
    if [[ -n "${KEEP:-}" ]]; then mv "$work/$name.hush" "$KEEP/$name.hush"; fi
done
python3 - "$work/runs.jsonl" <<'PY'
import json, statistics, sys
runs = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    runs.setdefault(r["name"], []).append(r)
print("| source | documents | runs | wall (median) | documents/s (median; each run) | user CPU (median) | peak RSS (median) |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for name, rs in runs.items():
    med = lambda key: statistics.median(r[key] for r in rs)
    print(f"| {name} | {rs[0]['documents']:,} | {len(rs)} | {med('wall_s'):.1f} s | **{med('documents_per_s'):,.0f}** "
          f"({', '.join(format(r['documents_per_s'], ',') for r in rs)}) | {med('user_s'):.1f} s | "
          f"{med('peak_rss_bytes') / 1048576:.0f} MiB |")
PY
