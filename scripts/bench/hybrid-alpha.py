#!/usr/bin/env python3
"""Hybrid weight sweep with an even/odd split (issue #35): the semantic weight of Hush's default hybrid search,
chosen on the even-numbered queries and reported on the odd-numbered ones, so the choice is not scored on the
queries that made it.

For each RUN (a store and its labelled queries, same language), `hush eval --mode hybrid --alpha A --evidence`
is run for every weight A; nDCG@10 is recomputed per query from the evidence (quality-multilingual.py's
formula) and averaged over the even and the odd query numbers. The table gives, per weight, the mean over the
runs of each half, and each run's full-set score.

    hybrid-alpha.py HUSH OUT RUN [RUN ...] [--alphas 0.5,0.6,...] [--threads 2]

RUN is NAME=STORE:QUERIES. Results go to OUT/alpha-sweep.json; the evidence files to OUT/alpha-evidence/.
Stores come from scripts/bench/chunk-curve.sh (for example /tmp/hush-chunk-curve/stores/...).
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
quality = __import__("quality-multilingual")


def per_query(evidence, queries):
    ev = quality.read_jsonl(evidence)
    qs = quality.read_jsonl(queries)
    if len(ev) != len(qs):
        sys.exit(f"{evidence}: {len(ev)} evidence lines for {len(qs)} queries")
    return [quality.ndcg_at_10([h["id"] for h in e["hits"]], q["relevant"]) for e, q in zip(ev, qs)]


def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("hush")
    parser.add_argument("out")
    parser.add_argument("runs", nargs="+")
    parser.add_argument("--alphas", default="0.5,0.55,0.6,0.65,0.7,0.75,0.8,0.85,0.9")
    parser.add_argument("--threads", default="2")
    args = parser.parse_args()
    alphas = [float(a) for a in args.alphas.split(",")]
    os.makedirs(os.path.join(args.out, "alpha-evidence"), exist_ok=True)
    runs = []
    for spec in args.runs:
        name, paths = spec.split("=", 1)
        store, queries = paths.split(":", 1)
        runs.append((name, store, queries))

    results = {}
    for name, store, queries in runs:
        for alpha in alphas:
            evidence = os.path.join(args.out, "alpha-evidence", f"{name}__a{alpha:.2f}.jsonl")
            if not os.path.exists(evidence):
                subprocess.run(
                    ["nice", "-n", "19", args.hush, "eval", "--db", store, "--queries", queries, "--mode", "hybrid",
                     "--alpha", str(alpha), "--threads", args.threads, "--evidence", evidence + ".tmp", "--json"],
                    check=True, stdout=subprocess.DEVNULL)
                os.replace(evidence + ".tmp", evidence)
            scores = per_query(evidence, queries)
            results.setdefault(name, {})[alpha] = {
                "all": mean(scores), "even": mean(scores[0::2]), "odd": mean(scores[1::2])}
            print(f"  {name} alpha {alpha:.2f}: {mean(scores):.4f}", file=sys.stderr)

    names = [name for name, _, _ in runs]
    print("| alpha | even (mean of runs) | odd (mean of runs) | " + " | ".join(names) + " |")
    print("| ---: | ---: | ---: | " + " | ".join("---:" for _ in names) + " |")
    best = max(alphas, key=lambda a: mean([results[n][a]["even"] for n in names]))
    for alpha in alphas:
        even = mean([results[n][alpha]["even"] for n in names])
        odd = mean([results[n][alpha]["odd"] for n in names])
        mark = "**" if alpha == best else ""
        cells = [f"{results[n][alpha]['all']:.3f}" for n in names]
        print(f"| {mark}{alpha:.2f}{mark} | {even:.4f} | {odd:.4f} | " + " | ".join(cells) + " |")
    print(f"\nchosen on the even queries: {best:.2f}")
    with open(os.path.join(args.out, "alpha-sweep.json"), "w", encoding="utf-8") as f:
        json.dump({"alphas": alphas, "chosen": best, "runs": {n: {f"{a:.2f}": v for a, v in r.items()}
                                                              for n, r in results.items()}}, f, indent=1)


if __name__ == "__main__":
    main()
