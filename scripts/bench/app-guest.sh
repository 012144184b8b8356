#!/usr/bin/env bash
# Hush as a guest in an app (issue [app-citizen]): the figures of docs/benchmarks.md#a-guest-in-an-app, on this
# machine, for this build and, with OLD=path/to/an/older/hush-bench, for that one in the same run (alternated).
#
#   1. beside: `hush-bench app beside`: a store of 500 short multilingual texts (bench/data), then 5 pages of 100
#      more upserted one after another while searches run 20 ms apart (no query cache: every search embeds);
#      p50/p95 of the idle searches and of those beside the pages. Goal: p95 beside <= 3 x idle p95 + 20 ms.
#   2. models: `hush-bench app models`: two stores opened by one model name and searched, then both closed;
#      resident memory at each step. Goal: the second store adds <= 25 MiB; after both close, <= 10 MiB above
#      before the first open.
#   3. debug: the same `beside` run, smaller (100 texts stored, 2 pages of 50), from a Debug build of hush-bench
#      against the Release one. Goal: within 5 x.
#   4. query: `hush-bench embed`'s single-query latency at 2 threads, e5 against MiniLM.
#
# ROUNDS (2) rounds of 1 and 4 per model. Builds what is missing (release and debug hush-bench).
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${ROUNDS:-2}
[ -x .build/release/hush-bench ] || swift build -c release --product hush-bench >&2
[ -x .build/debug/hush-bench ] || swift build --product hush-bench >&2
new=.build/release/hush-bench
old=${OLD:-}
small=$(mktemp)
trap 'rm -f "$small"' EXIT
head -n 200 bench/data/multilingual-corpus.jsonl >"$small"
run() { # run LABEL BINARY ARGS...: one line, labelled
    local label=$1 binary=$2
    shift 2
    echo "$label $("$binary" "$@")"
}
echo "== CPU: $(.build/release/hush model info --lexical 2>/dev/null | grep -i cpu || grep -m1 'model name' /proc/cpuinfo)"
for round in $(seq "$rounds"); do
    for model in e5-small minilm; do
        [ -z "$old" ] || run "before" "$old" app beside --model "$model"
        run "after " "$new" app beside --model "$model"
    done
done
for model in e5-small minilm; do
    [ -z "$old" ] || run "before" "$old" app models --model "$model"
    run "after " "$new" app models --model "$model"
done
for round in $(seq "$rounds"); do
    for model in e5-small minilm; do
        run "release" "$new" app beside --model "$model" --corpus "$small" --page 50 --idle 20
        run "debug  " .build/debug/hush-bench app beside --model "$model" --corpus "$small" --page 50 --idle 20
    done
done
for round in $(seq "$rounds"); do
    for model in e5-small minilm; do
        run "$model" "$new" embed --model "$model" --thread-counts 2 --repeats 1 | grep query-latency
    done
done
