#!/usr/bin/env python3
"""Helper for scripts/bench/quality-multilingual.sh (standard library only).

    quality-multilingual.py split OUT LANGS     per-language corpus/queries files under OUT/lang/<lang>/
    quality-multilingual.py counts OUT LANGS    eval-set counts per language (from the split files)
    quality-multilingual.py report OUT LANGS    markdown tables from OUT/evals/*.json, all numbers to
                                                OUT/results.json
"""
import json, os, sys

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


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("split", "counts", "report"):
        sys.exit(__doc__)
    cmd, out, langs = sys.argv[1], sys.argv[2], [l for l in sys.argv[3].split(",") if l]
    {"split": split, "counts": print_counts, "report": report}[cmd](out, langs)


if __name__ == "__main__":
    main()
