#!/usr/bin/env bash
# Score calibration of the default hybrid search: fits each model's table on half of the labelled queries of
# the multilingual man-page set and measures it on the other half (AUC of the first hit's score between
# answerable and unanswerable queries, what the default threshold keeps, nDCG@10 against the min-max fusion).
#
#   scripts/bench/calibration.sh fit       # evidence of the fitting half -> coefficients (prints Swift)
#   scripts/bench/calibration.sh measure   # the held-out half with the built binary -> table
#   scripts/bench/calibration.sh apps      # after fit: what a good-match threshold keeps on the planner's and the
#                                          journal's held-out halves, shipped table against refits (an experiment)
#   scripts/bench/calibration.sh bound     # the held-out half's evidence -> what a perfect judge of the labels reaches,
#                                          and what the shipped score keeps at its best per-language threshold
#
# Needs the eval set and stores of scripts/bench/quality-multilingual.sh (OUT, default
# /tmp/hush-multilingual-eval); lexical stores are made here. HUSH=path/to/hush (default .build/release/hush).
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/hush-multilingual-eval}
HUSH=${HUSH:-.build/release/hush}
LANGS=${LANGS:-en,zh_CN,de,fr,es,ru,ja}
MODELS=${MODELS:-"e5-small minilm lexical"}
WORK="$OUT/calibration"
mkdir -p "$WORK"
IFS=, read -r -a langs <<<"$LANGS"
step=${1:-measure}

# Split each language's queries: even lines fit, odd lines measure.
for lang in "${langs[@]}"; do
    awk 'NR % 2 == 1' "$OUT/lang/$lang/queries.jsonl" >"$WORK/$lang.fit.jsonl"
    awk 'NR % 2 == 0' "$OUT/lang/$lang/queries.jsonl" >"$WORK/$lang.test.jsonl"
done

# Cross-language pairs (multilingual model only): English queries against each other language's store and
# each language's queries against the English store; relevant = the same page in the store's language. These
# have no words in common with their answer, as a paraphrase in a journal has few.
python3 - "$OUT" "$WORK" "$LANGS" <<'PY'
import json, sys
out, work, langs = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
def ids(lang):
    return {json.loads(l)["id"] for l in open(f"{out}/lang/{lang}/corpus.jsonl", encoding="utf-8")}
def page(i):
    return i.split("/", 1)[1]
for q_lang in langs:
    for d_lang in langs:
        if (q_lang == "en") == (d_lang == "en"):
            continue  # only en <-> other
        have = {page(i): i for i in ids(d_lang)}
        lines = open(f"{out}/lang/{q_lang}/queries.jsonl", encoding="utf-8").read().splitlines()
        for half, parity in (("fit", 0), ("test", 1)):
            with open(f"{work}/{q_lang}-{d_lang}.{half}.jsonl", "w", encoding="utf-8") as f:
                for n, line in enumerate(lines):
                    if n % 2 != parity:
                        continue
                    q = json.loads(line)
                    rel = [have[page(r)] for r in q["relevant"] if page(r) in have]
                    if rel:
                        f.write(json.dumps({"query": q["query"], "relevant": rel}, ensure_ascii=False) + "\n")
PY

store() {  # store MODEL LANG -> path (makes lexical stores)
    local db="$OUT/stores/${1}__${2}.hush"
    if [ "$1" = lexical ] && [ ! -s "$db.index.json" ]; then
        rm -f "$db" "$db-wal" "$db-shm"
        "$HUSH" index --db "$db" --lexical --quiet --json "$OUT/lang/$2/corpus.jsonl" >"$db.index.json"
    fi
    echo "$db"
}

# evaluate DB QUERIES NAME: the fitting step writes NAME's evidence, the measuring step one result per mode.
evaluate() {
    case $step in
        fit)
            "$HUSH" eval --db "$1" --queries "$WORK/$2.fit.jsonl" --mode calibrated --unanswerable \
                --evidence "$WORK/$3.evidence.jsonl" --json >"$WORK/$3.fit.json"
            ;;
        bound)
            "$HUSH" eval --db "$1" --queries "$WORK/$2.test.jsonl" --mode calibrated --unanswerable \
                --evidence "$WORK/$3.bound.jsonl" --json >/dev/null
            ;;
        measure)
            for mode in calibrated hybrid semantic; do
                "$HUSH" eval --db "$1" --queries "$WORK/$2.test.jsonl" --mode "$mode" --unanswerable \
                    --json >"$WORK/$3__${mode}.test.json"
            done
            ;;
    esac
}

if [ "$step" = apps ]; then
    # The app-like sets (scripts/bench/calibration_domains.py): one store per model and set, every hit's evidence
    # of their dev (fit) and held-out (test) halves; the man pages' evidence is the fit step's.
    python3 scripts/bench/calibration_domains.py "$WORK"
    for model in $MODELS; do
        for set in planner journal; do
            db="$WORK/${set}__${model}.hush"
            records=scripts/bench/data/$set/$([ "$set" = planner ] && echo records || echo readings).jsonl
            if [ ! -s "$db.index.json" ]; then
                rm -f "$db" "$db-wal" "$db-shm"
                if [ "$model" = lexical ]; then how=(--lexical); else how=(--model "$model"); fi
                "$HUSH" index --db "$db" "${how[@]}" --quiet --json "$records" >"$db.index.json"
            fi
            for half in fit test; do
                # No --unanswerable: a set's own unanswerable questions are in its file.
                "$HUSH" eval --db "$db" --queries "$WORK/$set.$half.jsonl" --mode calibrated \
                    --evidence "$WORK/${model}__app-$set.$half.evidence.jsonl" --json >/dev/null
            done
        done
    done
    python3 scripts/bench/calibration.py apps "$WORK" "$LANGS" "$MODELS"
    exit 0
fi

echo "== $(lscpu | grep -m1 'Model name' | sed 's/  */ /g'), $(nproc) cores; $HUSH"
for model in $MODELS; do
    for lang in "${langs[@]}"; do
        evaluate "$(store "$model" "$lang")" "$lang" "${model}__${lang}"
        echo "   $model $lang done"
    done
    [ "$model" = e5-small ] && [ "$step" != bound ] || continue
    for q_lang in "${langs[@]}"; do
        for d_lang in "${langs[@]}"; do
            # English queries against the other languages' pages, and the other languages' against English.
            if [ "$q_lang" = en ] && [ "$d_lang" = en ]; then continue; fi
            if [ "$q_lang" != en ] && [ "$d_lang" != en ]; then continue; fi
            evaluate "$(store "$model" "$d_lang")" "${q_lang}-${d_lang}" "${model}__x${q_lang}-${d_lang}"
        done
    done
    echo "   $model cross-language done"
done
case $step in
    fit) python3 scripts/bench/calibration.py fit "$WORK" "$LANGS" "$MODELS" ;;
    measure) python3 scripts/bench/calibration.py report "$WORK" "$LANGS" "$MODELS" ;;
    bound) python3 scripts/bench/calibration.py bound "$WORK" "$LANGS" "$MODELS" ;;
esac
