#!/usr/bin/env bash
# A store inside an app (issue [in-the-app]): the three figures of docs/benchmarks.md#inside-an-app, on this machine.
#
#   1. launch: `hush-bench app launch` in RUNS (5) fresh processes on a 10,000-document multilingual-e5-small store:
#      HushStore.open(path:) (the model known from the file's stamp, not loaded) + the first keyword search, and
#      the resident memory above the process before it; then a semantic search (the model loads) and
#      releaseModel(). Medians. `hush --help` under /usr/bin/time -v gives an empty process's resident memory.
#   2. typing: `hush-bench app typing`: every keystroke prefix of 200 real queries, keyword search as you type on
#      the same store; p50/p99 per keystroke, and whether each query's target keeps its rank with the whole query.
#   3. cancel: `hush-bench app cancel`: an e5 upsert of 2,000 real documents into a new store, cancelled after a
#      random delay (50 ms to 6 s), resumed, cancelled again (30 times), at 1 and 2 model threads: cancel() to throw, p50/p99;
#      integrity_check, committed documents present, and the resuming calls embedding only what was not committed.
#
# Data: Debian package descriptions, set B of scripts/bench/debian-descriptions.py (10,000 English packages; the
# queries are their short descriptions, the target their package): made with `debian-descriptions.py data` into
# $DEBDESC (default /tmp/hush-debdesc) when missing. Stores and logs go to $OUT (default /tmp/hush-app).
set -euo pipefail
cd "$(dirname "$0")/../.."
debdesc=${DEBDESC:-/tmp/hush-debdesc}
out=${OUT:-/tmp/hush-app}
runs=${RUNS:-5}
mkdir -p "$out"
[ -x .build/release/hush ] && [ -x .build/release/hush-bench ] || swift build -c release >&2
hush=.build/release/hush
bench=.build/release/hush-bench
corpus="$debdesc/B/corpus.jsonl"
queries="$debdesc/B/queries-en.jsonl"
[ -f "$corpus" ] || python3 scripts/bench/debian-descriptions.py data "$debdesc" >&2

store="$out/debian-10k-e5.hush"
if [ ! -f "$store" ]; then
    echo "indexing 10,000 documents with multilingual-e5-small (minutes)" >&2
    nice -n "${NICE:-0}" "$hush" index --model e5-small --quiet --db "$store" "$corpus" >&2
fi

echo "machine: $("$hush" model info 2>/dev/null | sed -n 's/^compute: *//p')"
/usr/bin/time -v "$hush" --help >/dev/null 2>"$out/empty.time"
echo "empty process (hush --help): $(sed -n 's/.*Maximum resident set size (kbytes): //p' "$out/empty.time") kB peak resident"

: >"$out/launch.jsonl"
for _ in $(seq "$runs"); do "$bench" app launch --db "$store" --json >>"$out/launch.jsonl"; done
"$bench" app typing --db "$store" --queries "$queries" --count 200 --json | tee "$out/typing.jsonl"
: >"$out/cancel.jsonl"
for threads in 1 2; do
    "$bench" app cancel --corpus "$corpus" --count 2000 --threads "$threads" --trials "${TRIALS:-30}" --json |
        tee -a "$out/cancel.jsonl"
done

python3 - "$out" <<'PY'
import json, statistics, sys
out = sys.argv[1]
rows = [json.loads(l) for l in open(f"{out}/launch.jsonl") if l.startswith("{")]
med = lambda k: statistics.median(r[k] for r in rows)
mib = lambda b: b / 1048576
print(f"launch ({len(rows)} runs, medians): open + first keyword search {med('open_plus_keyword_ms'):.1f} ms, "
      f"{mib(med('keyword_rss_above_empty')):.1f} MiB above the process before it; model loaded by it: "
      f"{any(r['model_loaded_by_keyword'] for r in rows)}; first semantic search {med('first_semantic_ms'):.0f} ms, "
      f"model {mib(med('model_rss_above_empty')):.1f} MiB above; after releaseModel() "
      f"{mib(med('released_rss_above_keyword')):+.1f} MiB from the keyword-only figure")
t = json.loads(open(f"{out}/typing.jsonl").read().strip().splitlines()[-1])
print(f"typing: {t['keystrokes']} keystrokes of {t['queries']} queries on {t['documents']} documents: "
      f"p50 {t['p50_ms']:.3f} ms, p99 {t['p99_ms']:.3f} ms, max {t['max_ms']:.2f} ms; "
      f"target rank with the whole query unchanged for {t['same_rank_whole_query']}/{t['queries']}")
for line in open(f"{out}/cancel.jsonl"):
    if not line.startswith("{"): continue
    c = json.loads(line)
    print(f"cancel, {c['threads']} thread(s): {c['cancellations']} cancels: p50 {c['p50_ms']:.1f} ms, "
          f"p99 {c['p99_ms']:.1f} ms, max {c['max_ms']:.1f} ms; after each: integrity ok {c['integrity_ok']}, "
          f"committed documents present {c['committed_found']}, whole batches kept {c['whole_batches_kept']}; "
          f"the last call found {c['final_unchanged']} of the {c['committed_before_last_call']} committed unchanged "
          f"and added {c['final_added']}")
PY
