#!/usr/bin/env bash
# Multilingual retrieval quality: nDCG@10 of semantic, keyword and hybrid search (plus a hybrid alpha sweep
# and rrf) with multilingual-e5-small and all-MiniLM-L6-v2, one store per (model, language), on Debian's
# translated man pages (query = the page's NAME description, relevant = that page; see
# scripts/fixtures/make-multilingual-eval.py).
#
#   scripts/bench/quality-multilingual.sh
#
# Environment (all optional):
#   OUT=/tmp/hush-multilingual-eval   work folder: eval set, stores, per-run results, results.json
#   HUSH=path/to/hush                 the binary (default: a copy of .build/release/hush in $OUT; this script
#                                     does not build)
#   LANGS=en,zh_CN,de,fr,es,ru,ja     generator language codes
#   MAX_PER_LANG=200  MAX_CHARS=2000  eval-set size (only used when $OUT has no eval set yet)
#   MODELS="e5-small minilm"          THREADS=<cores>
#
# Reruns skip what exists: the eval set ($OUT/corpus.jsonl), finished stores ($OUT/stores/*.index.json marks
# a finished one; an unfinished store is rebuilt) and finished evals ($OUT/evals/*.json; delete the folder to
# measure again with another binary). Takes roughly 30 min on 2 cores with 200 pages per language (300 would be ~45 min).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
helper="$root/scripts/bench/quality-multilingual.py"
OUT=${OUT:-/tmp/hush-multilingual-eval}
LANGS=${LANGS:-en,zh_CN,de,fr,es,ru,ja}
MAX_PER_LANG=${MAX_PER_LANG:-200}
MAX_CHARS=${MAX_CHARS:-2000}
MODELS=${MODELS:-"e5-small minilm"}
THREADS=${THREADS:-$(nproc)}
mkdir -p "$OUT/stores" "$OUT/evals"

if [ -z "${HUSH:-}" ]; then
    [ -x .build/release/hush ] || { echo "no .build/release/hush: swift build -c release --product hush" >&2; exit 1; }
    cp .build/release/hush "$OUT/hush"   # a copy: a rebuild cannot swap the binary mid-run
    HUSH="$OUT/hush"
fi

now() { date +%s.%N; }
elapsed() { python3 -c "import sys; print(round(float(sys.argv[2]) - float(sys.argv[1]), 2))" "$1" "$2"; }
# add_seconds FILE SECONDS: adds "seconds" to the JSON object in FILE.
add_seconds() {
    python3 - "$1" "$2" <<'PY'
import json, sys
with open(sys.argv[1], encoding="utf-8") as f:
    d = json.loads([l for l in f if l.lstrip().startswith("{")][-1])
d["seconds"] = float(sys.argv[2])
with open(sys.argv[1], "w", encoding="utf-8") as f:
    json.dump(d, f, ensure_ascii=False)
PY
}

t_start=$(now)
echo "== machine"
lscpu | grep -m1 'Model name' | sed 's/  */ /g'
echo "cores: $(nproc)   threads: $THREADS   hush: $HUSH"

# ---------------------------------------------------------------------------------------------- eval set
if [ -s "$OUT/corpus.jsonl" ] && [ -s "$OUT/queries.jsonl" ] && [ -s "$OUT/manifest.json" ]; then
    echo "== eval set: reusing $OUT (delete corpus.jsonl to rebuild)"
else
    echo "== eval set: building into $OUT (langs $LANGS, max $MAX_PER_LANG pages, $MAX_CHARS chars)"
    scripts/fixtures/make-multilingual-eval.sh "$OUT" --langs "$LANGS" --max-chars "$MAX_CHARS" \
        --max-per-lang "$MAX_PER_LANG"
fi
python3 "$helper" split "$OUT" "$LANGS"
python3 "$helper" counts "$OUT" "$LANGS"

python3 - "$OUT/run-meta.json" "$HUSH" "$LANGS" "$THREADS" "$MODELS" <<'PY'
import hashlib, json, os, subprocess, sys, time
path, hush, langs, threads, models = sys.argv[1:]
def run(*cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True).stdout.strip()
    except OSError:
        return ""
cpu = next((l.split(":", 1)[1].strip() for l in run("lscpu").splitlines() if l.startswith("Model name")), "")
models_info = {m: run(hush, "model", "info", "--model", m) for m in models.split()}
meta = {"date": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "cpu": cpu, "cores": os.cpu_count(),
        "threads": int(threads), "hush_sha256": hashlib.sha256(open(hush, "rb").read()).hexdigest(),
        "git_commit": run("git", "rev-parse", "HEAD"), "git_dirty": bool(run("git", "status", "--porcelain")),
        "langs": langs.split(","), "models": models_info}
json.dump(meta, open(path, "w"), ensure_ascii=False, indent=1)
PY

# ---------------------------------------------------------------------------------------------- stores
IFS=, read -r -a langs <<<"$LANGS"
for model in $MODELS; do
    for lang in "${langs[@]}"; do
        db="$OUT/stores/${model}__${lang}.hush"
        mark="$db.index.json"
        if [ -s "$mark" ]; then
            echo "== index $model $lang: exists"
            continue
        fi
        rm -f "$db" "$db-wal" "$db-shm" "$db-journal"
        echo "== index $model $lang ($(wc -l <"$OUT/lang/$lang/corpus.jsonl") docs) ..."
        t0=$(now)
        "$HUSH" index --db "$db" --model "$model" --threads "$THREADS" --quiet --json \
            "$OUT/lang/$lang/corpus.jsonl" >"$mark.tmp"
        secs=$(elapsed "$t0" "$(now)")
        add_seconds "$mark.tmp" "$secs"
        mv "$mark.tmp" "$mark"
        echo "   $secs s: $(cat "$mark")"
    done
done

# ---------------------------------------------------------------------------------------------- evals
for model in $MODELS; do
    for lang in "${langs[@]}"; do
        db="$OUT/stores/${model}__${lang}.hush"
        q="$OUT/lang/$lang/queries.jsonl"
        for run in semantic keyword hybrid hybrid-a0 hybrid-a0.3 hybrid-a0.5 hybrid-a0.6 hybrid-a0.7 hybrid-a0.75 hybrid-a0.8 rrf; do
            res="$OUT/evals/${model}__${lang}__${run}.json"
            [ -s "$res" ] && continue
            case $run in
                hybrid-a*) args=(--mode hybrid --alpha "${run#hybrid-a}") ;;
                *) args=(--mode "$run") ;;
            esac
            t0=$(now)
            "$HUSH" eval --db "$db" --threads "$THREADS" --queries "$q" "${args[@]}" --json >"$res.tmp"
            secs=$(elapsed "$t0" "$(now)")
            add_seconds "$res.tmp" "$secs"
            mv "$res.tmp" "$res"
            echo "== eval $model $lang $run: $(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(f\"nDCG@10 {d['ndcg@10']:.4f}  ({d['seconds']} s)\")" "$res")"
        done
    done
done

# ---------------------------------------------------------------------------------------------- report
echo
echo "== $(lscpu | grep -m1 'Model name' | sed 's/  */ /g'), $(nproc) cores"
echo
python3 "$helper" counts "$OUT" "$LANGS"
echo
python3 "$helper" report "$OUT" "$LANGS"
echo "total wall time this run: $(elapsed "$t_start" "$(now)") s"
