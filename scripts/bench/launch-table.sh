#!/usr/bin/env bash
# The launch table (docs/benchmarks.md, "Opening at launch") in one run, for each store given as
# NAME=SOURCE.sqlite:STORE.hush (STORE imported from SOURCE with `hush import`):
#   - cold opens in new processes (scripts/bench/launch.sh: open, open + first semantic query, the store's resident
#     share, process peak; medians of RUNS);
#   - semantic search latency after the first (hush-bench search, 200 queries made of the first 8 words of 200
#     stored texts, REPEATS timed passes; query embeddings are cached after the untimed pass, so this is the
#     search itself);
#   - recall@10 through the store against numpy's exact answer (scripts/bench/launch_recall.py, RECALL_QUERIES);
#   - with a third path TABLES (a copy of STORE whose memory image was deleted, so that a read-only open loads the
#     f32 vectors into memory as every open did before the image): search p50 on STORE and on TABLES, alternated,
#     PAIRS times each (the query-latency goal: no worse than HNSW with the vectors in memory).
# Prints one JSON line per store, then a Markdown table.
# Usage: scripts/bench/launch-table.sh NAME=SOURCE:STORE[:TABLES] [...]   (PYTHON: a python with numpy; RUNS=5
#        REPEATS=3 RECALL_QUERIES=200 PAIRS=2)
set -euo pipefail
cd "$(dirname "$0")/../.."
python="${PYTHON:-python3}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for spec in "$@"; do
    name="${spec%%=*}"
    paths="${spec#*=}"
    source="${paths%%:*}"
    rest="${paths#*:}"
    store="${rest%%:*}"
    tables=""
    [[ "$rest" == *:* ]] && tables="${rest#*:}"
    "$python" - "$source" "$work/$name.queries.jsonl" <<'PY'
import json, sqlite3, sys
rows = sqlite3.connect(sys.argv[1]).execute("SELECT content FROM documents ORDER BY id").fetchall()
step = max(1, len(rows) // 200)
with open(sys.argv[2], "w") as out:
    for (content,) in rows[::step][:200]:
        out.write(json.dumps({"text": " ".join(content.split()[:8])}) + "\n")
PY
    RUNS="${RUNS:-5}" scripts/bench/launch.sh "$store" | tail -1 > "$work/$name.open.json"
    .build/release/hush-bench search --db "$store" --queries "$work/$name.queries.jsonl" --modes semantic \
        --repeats "${REPEATS:-3}" --json > "$work/$name.search.json"
    "$python" scripts/bench/launch_recall.py "$source" "$store" --queries "${RECALL_QUERIES:-200}" | tail -1 \
        > "$work/$name.recall.json"
    echo '{}' > "$work/$name.pairs.json"
    if [[ -n "$tables" ]]; then
        for _ in $(seq "${PAIRS:-2}"); do
            for which in image tables; do
                path="$store"
                [[ "$which" == tables ]] && path="$tables"
                .build/release/hush-bench search --db "$path" --queries "$work/$name.queries.jsonl" --modes semantic \
                    --repeats "${REPEATS:-3}" --json | "$python" -c \
                    "import json, sys; print(sys.argv[1], json.load(sys.stdin)['p50_ms'])" "$which" \
                    >> "$work/$name.pairs.txt"
            done
        done
        "$python" - "$work/$name.pairs.txt" > "$work/$name.pairs.json" <<'PY'
import json, sys
runs = {"image": [], "tables": []}
for line in open(sys.argv[1]):
    which, p50 = line.split()
    runs[which].append(round(float(p50), 3))
print(json.dumps(runs))
PY
    fi
    "$python" - "$name" "$work" <<'PY'
import json, sys
name, work = sys.argv[1], sys.argv[2]
row = {"name": name}
for part in ("open", "search", "recall", "pairs"):
    row.update({f"{part}.{k}": v for k, v in json.load(open(f"{work}/{name}.{part}.json")).items()})
print(json.dumps(row))
with open(f"{work}/rows.jsonl", "a") as out:
    out.write(json.dumps(row) + "\n")
PY
done
"$python" - "$work/rows.jsonl" <<'PY'
import json, sys
mib = lambda b: f"{b / 1048576:.1f} MiB"
print("| store | open | + first query | open + first | store's resident share | process peak | search p50 | recall@10 "
      "| search p50, image / vectors in memory (alternated) |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for line in open(sys.argv[1]):
    r = json.loads(line)
    print(f"| {r['name']} | {r['open.open_ms']:.1f} ms | {r['open.first_query_ms']:.1f} ms | "
          f"{r['open.open_plus_first_ms']:.1f} ms | {mib(r['open.store_rss_bytes'])} "
          f"({r['open.store_rss_bytes'] / 1e6:.1f} MB) | {mib(r['open.peak_rss_bytes'])} | "
          f"{r['search.p50_ms']:.2f} ms | {r['recall.recall_at_10']:.3f} | "
          + (" / ".join(", ".join(f"{v:.2f}" for v in r.get(f"pairs.{w}", [])) for w in ("image", "tables"))
             + " ms" if r.get("pairs.image") else "") + " |")
PY
