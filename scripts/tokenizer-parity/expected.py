#!/usr/bin/env python3
"""Compute the reference token ids of texts.jsonl with Hugging Face `tokenizers`.

Reads {"id","text"} lines, writes {"id","text","ids","count"} lines: `ids` with truncation to --max-length
(padding off), `count` the untruncated length (special tokens included).

Usage: python expected.py --model DIR --max-length 256 IN.jsonl OUT.jsonl
       python expected.py --model DIR --fixture N IN.jsonl OUT.jsonl   (a covering sample of about N texts)
"""

import argparse
import json
import random
from pathlib import Path

from tokenizers import Tokenizer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", required=True)
    parser.add_argument("--max-length", type=int, default=0, help="default: sentence_bert_config.json")
    parser.add_argument("--fixture", type=int, default=0, help="write a covering sample of about N texts")
    parser.add_argument("input")
    parser.add_argument("output")
    args = parser.parse_args()
    model = Path(args.model)
    max_length = args.max_length or json.loads((model / "sentence_bert_config.json").read_text())["max_seq_length"]
    full = Tokenizer.from_file(str(model / "tokenizer.json"))
    full.no_padding()
    full.no_truncation()
    cut = Tokenizer.from_file(str(model / "tokenizer.json"))
    cut.no_padding()
    cut.enable_truncation(max_length)

    rows = [json.loads(line) for line in open(args.input, encoding="utf-8")]
    if args.fixture:
        rows = covering_sample(rows, args.fixture)
    texts = [row["text"] for row in rows]
    counts = [len(e.ids) for e in full.encode_batch(texts)]
    ids = [e.ids for e in cut.encode_batch(texts)]
    with open(args.output, "w", encoding="utf-8") as out:
        for row, count, row_ids in zip(rows, counts, ids):
            out.write(json.dumps({"id": row["id"], "text": row["text"], "ids": row_ids, "count": count},
                                 ensure_ascii=False) + "\n")
    print("expected: %d texts, max_length %d -> %s" % (len(rows), max_length, args.output))


def covering_sample(rows, size):
    """Every edge case and random string, then per source: non-ASCII texts first, a few long ones, the rest."""
    rng = random.Random(7)
    chosen = [r for r in rows if r["id"].startswith("edge:")]
    randoms = [r for r in rows if r["id"].startswith("random:")]
    chosen += randoms[:450] + randoms[-250:]  # the last ones are the combining-mark strings
    budget = max(0, size - len(chosen))
    for source in ("py:", "man:", "doc:"):
        pool = [r for r in rows if r["id"].startswith(source) and len(r["text"]) <= 6000]
        share = budget // 3
        long_texts = [r for r in pool if len(r["text"]) > 1500]
        non_ascii = [r for r in pool if not r["text"].isascii() and len(r["text"]) <= 1500]
        plain = [r for r in pool if r["text"].isascii() and len(r["text"]) <= 1500]
        picks = rng.sample(long_texts, min(len(long_texts), share // 10))
        picks += rng.sample(non_ascii, min(len(non_ascii), share // 2))
        picks += rng.sample(plain, min(len(plain), share - len(picks)))
        chosen += sorted(picks, key=lambda r: r["id"])
    return chosen


if __name__ == "__main__":
    main()
