#!/usr/bin/env python3
"""The lead chunk's share of a document's semantic score (issue #35): two `hush` binaries, the same stores and
queries, interleaved run by run; nDCG@10 per run and the mean over runs of the even- and odd-numbered queries.

    lead-chunk.py BEFORE AFTER [OUT]

Runs whatever of these sets exists (make them first; nothing here builds a store):
  * the parallel man-page set of scripts/bench/chunk-curve.sh (CURVE, default /tmp/hush-chunk-curve): the
    stores short__e5-small__t256o32__{en,zh_CN,ja,de}.hush, same-language semantic and hybrid, and the
    cross-language pairs of its cross/ folder, semantic and hybrid; plus MINILM_EN (a MiniLM store of the
    English pages, default /tmp/hush-lead/en-minilm.hush) when it exists;
  * the Debian descriptions of scripts/bench/debian-descriptions.py (DEBDESC, default /tmp/hush-debdesc):
    the stores DEBDESC/stores/{A-name,A-short,B}-e5.hush (`hush build --model e5-small`).
Per run: `hush eval --evidence`, scored again here with the same nDCG@10 as quality-multilingual.py.
Writes OUT/results.json (default /tmp/hush-lead) and prints a markdown table.
"""
import glob, json, math, os, subprocess, sys

CURVE = os.environ.get("CURVE", "/tmp/hush-chunk-curve")
DEBDESC = os.environ.get("DEBDESC", "/tmp/hush-debdesc")


def ndcg_at_10(ranked, relevant):
    rel = set(relevant)
    dcg = sum(1.0 / math.log2(i + 2) for i, d in enumerate(ranked[:10]) if d in rel)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(len(rel), 10)))
    return dcg / ideal if ideal > 0 else 0.0


def runs(out):
    found = []
    sets = f"{CURVE}/sets/short"
    store = lambda lang: f"{CURVE}/stores/short__e5-small__t256o32__{lang}.hush"
    for lang in ["en", "zh_CN", "ja", "de"]:
        if os.path.exists(store(lang)):
            for mode in ["semantic", "hybrid"]:
                found.append((f"man e5 {lang}", mode, store(lang), f"{sets}/lang/{lang}/queries.jsonl"))
    for path in sorted(glob.glob(f"{sets}/cross/*__*.jsonl")):
        a, b = os.path.basename(path)[:-6].split("__")
        if os.path.exists(store(b)):
            for mode in ["semantic", "hybrid"]:
                found.append((f"man e5 {a}→{b}", mode, store(b), path))
    minilm = os.environ.get("MINILM_EN", f"{out}/en-minilm.hush")
    if os.path.exists(minilm):
        for mode in ["semantic", "hybrid"]:
            found.append(("man MiniLM en", mode, minilm, f"{sets}/lang/en/queries.jsonl"))
    for name, queries in [("A-name", ["en", "zh"]), ("A-short", ["en", "zh"]), ("B", ["en"])]:
        path = f"{DEBDESC}/stores/{name}-e5.hush"
        if os.path.exists(path):
            for q in queries:
                for mode in ["semantic", "hybrid"]:
                    found.append((f"Debian {name} e5 {q}", mode, path, f"{DEBDESC}/{name[0]}/queries-{q}.jsonl"))
    return found


def evaluate(binary, store, queries, mode, evidence):
    subprocess.run([binary, "eval", "--db", store, "--queries", queries, "--mode", mode, "--evidence", evidence,
                    "--threads", "2", "--json"], check=True, stdout=subprocess.DEVNULL)
    with open(queries, encoding="utf-8") as f:
        relevant = [json.loads(line)["relevant"] for line in f if line.strip()]
    with open(evidence, encoding="utf-8") as f:
        hits = [[h["id"] for h in json.loads(line)["hits"]] for line in f if line.strip()]
    return [ndcg_at_10(h, r) for h, r in zip(hits, relevant)]


def mean(values):
    return sum(values) / len(values) if values else float("nan")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    before, after = sys.argv[1], sys.argv[2]
    out = sys.argv[3] if len(sys.argv) > 3 else os.environ.get("OUT", "/tmp/hush-lead")
    os.makedirs(out, exist_ok=True)
    results = []
    for name, mode, store, queries in runs(out):
        row = {"run": name, "mode": mode}
        for key, binary in [("before", before), ("after", after)]:
            row[key] = evaluate(binary, store, queries, mode, f"{out}/evidence.jsonl")
        results.append(row)
        print(f"{name} {mode}: {mean(row['before']):.4f} -> {mean(row['after']):.4f}", file=sys.stderr, flush=True)
    with open(f"{out}/results.json", "w", encoding="utf-8") as f:
        json.dump(results, f)
    print("| run | mode | queries | before | after | change |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for r in results:
        b, a = mean(r["before"]), mean(r["after"])
        print(f"| {r['run']} | {r['mode']} | {len(r['before'])} | {b:.3f} | {a:.3f} | {a - b:+.3f} |")
    print()
    for group, test in [("man pages, e5", lambda r: r["run"].startswith("man e5")),
                        ("all runs", lambda r: True)]:
        chosen = [r for r in results if test(r)]
        for half, start in [("even", 0), ("odd", 1)]:
            b = mean([mean(r["before"][start::2]) for r in chosen])
            a = mean([mean(r["after"][start::2]) for r in chosen])
            print(f"- {group}, {half}-numbered queries, mean of {len(chosen)} runs: {b:.4f} -> {a:.4f} ({a - b:+.4f})")


if __name__ == "__main__":
    main()
