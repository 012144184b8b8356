#!/usr/bin/env bash
# Tokenizer parity: build the real-text corpus, compute reference ids with Hugging Face `tokenizers`,
# then check the Swift WordPieceTokenizer against every text (release build) and print "N/N identical"
# and the measured tokens/s.
#
#   scripts/tokenizer-parity/run.sh [work-folder]        (default /tmp/hush-tokenizer-parity)
#   PYTHON=/path/to/python HUSH_MODEL_DIR=/path/to/model scripts/tokenizer-parity/run.sh
#   FIXTURE=1 scripts/tokenizer-parity/run.sh            also rewrite the committed test fixture
set -euo pipefail
cd "$(dirname "$0")/../.."
python="${PYTHON:-/root/.cache/hush-peers/bin/python}"
model="${HUSH_MODEL_DIR:-$HOME/.cache/hush/models/all-MiniLM-L6-v2}"
work="${1:-/tmp/hush-tokenizer-parity}"
mkdir -p "$work"

"$python" scripts/corpus/docstrings.py --out "$work"
"$python" scripts/tokenizer-parity/expected.py --model "$model" "$work/texts.jsonl" "$work/expected.jsonl"
if [ "${FIXTURE:-0}" = 1 ]; then
    "$python" scripts/tokenizer-parity/expected.py --model "$model" --fixture 2600 "$work/texts.jsonl" \
        Tests/HushEmbeddingTests/Fixtures/tokenizer-parity.jsonl
fi

log="$work/swift-test.log"
set +e
HUSH_MODEL_DIR="$model" HUSH_TOKENIZER_CORPUS="$work/expected.jsonl" \
    swift test -c release -Xswiftc -enable-testing --filter TokenizerParityTests >"$log" 2>&1
status=$?
set -e
grep -E "MISMATCH|identical|tokens/s" "$log" || true
if [ $status -ne 0 ]; then
    echo "tokenizer parity: swift test failed (exit $status), see $log" >&2
    tail -20 "$log" >&2
fi
exit $status
