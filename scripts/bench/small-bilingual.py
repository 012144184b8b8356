#!/usr/bin/env python3
"""Search across languages in small bilingual stores (a journal of a few entries per language), two binaries.

From set A of debian-descriptions.py (Debian bookworm packages whose long description has a Chinese
translation): every store holds N_EN packages by their English long description and N_ZH other packages by their
Chinese one (no package in both languages; no title; the language given). Each stored package is asked for by
its short description in English and in Chinese, so each query has exactly one relevant document, in its own
language ("same") or the other ("cross"). Every binary indexes its own copy of each store (`hush index
--threads 1`) and answers with `hush eval --mode semantic|hybrid --evidence`; MRR@10 and nDCG@10 are computed per
query from the evidence file, and the report gives each binary's mean and the paired difference with a 95 %
bootstrap interval (10,000 resamples of the queries, seed 35).

    small-bilingual.py data OUT                 the stores' JSON Lines and query files (from OUT/../hush-debdesc)
    small-bilingual.py run OUT NAME HUSH        index and evaluate every store with binary HUSH, results OUT/NAME
    small-bilingual.py report OUT BEFORE AFTER  the markdown table

Environment: DEBDESC (/tmp/hush-debdesc, made by debian-descriptions.py data), SEED (35).
"""
import glob, json, math, os, random, re, subprocess, sys

DEBDESC = os.environ.get("DEBDESC", "/tmp/hush-debdesc")
SEED = int(os.environ.get("SEED", "35"))
# (English documents, Chinese documents, stores)
CONFIGS = [(4, 4, 25), (10, 10, 12), (25, 25, 6), (100, 100, 3), (3, 30, 8), (30, 3, 8)]


def english_descriptions():
    """Package -> English long description, from the bookworm Translation-en in DEBDESC/apt-lists."""
    path = glob.glob(os.path.join(DEBDESC, "apt-lists", "*_debian_dists_bookworm_main_i18n_Translation-en*"))[0]
    text = subprocess.run(["lz4cat", path] if path.endswith(".lz4") else ["cat", path], capture_output=True,
                          text=True, check=True).stdout
    found = {}
    for stanza in text.split("\n\n"):
        package, lines, inside = None, [], False
        for line in stanza.split("\n"):
            if line.startswith("Package: "):
                package = line[9:].strip()
            elif line.startswith("Description-en: "):
                inside = True
            elif inside and line.startswith(" "):
                lines.append("" if line.strip() == "." else line.strip())
            else:
                inside = False
        if package and lines and package not in found:
            found[package] = re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()
    return found


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def write_jsonl(path, rows):
    with open(path, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")


def single_queries(path):
    return {q["relevant"][0]: q["query"] for q in read_jsonl(path) if len(q["relevant"]) == 1}


def data(out):
    english = english_descriptions()
    chinese = {d["id"]: d["text"] for d in read_jsonl(os.path.join(DEBDESC, "A", "corpus-name.jsonl"))}
    ask = {"en": single_queries(os.path.join(DEBDESC, "A", "queries-en.jsonl")),
           "zh": single_queries(os.path.join(DEBDESC, "A", "queries-zh.jsonl"))}
    packages = sorted(p for p in chinese if p in english and p in ask["en"] and p in ask["zh"])
    text = {"en": english, "zh": chinese}
    rng = random.Random(SEED)
    os.makedirs(out, exist_ok=True)
    for n_en, n_zh, stores in CONFIGS:
        for index in range(stores):
            name = f"en{n_en}-zh{n_zh}-{index:02d}"
            chosen = rng.sample(packages, n_en + n_zh)
            language = {p: ("en" if i < n_en else "zh") for i, p in enumerate(chosen)}
            write_jsonl(os.path.join(out, name + ".jsonl"),
                        [{"id": p, "text": text[language[p]][p], "language": language[p]} for p in chosen])
            for query_language in ("en", "zh"):
                for kind in ("same", "cross"):
                    rows = [{"query": ask[query_language][p], "relevant": [p]} for p in chosen
                            if (language[p] == query_language) == (kind == "same")]
                    write_jsonl(os.path.join(out, f"{name}.q-{query_language}-{kind}.jsonl"), rows)
    print(len(packages), "packages;", sum(c[2] for c in CONFIGS), "stores in", out)


def run(out, label, hush, stores="en*-zh*-??.jsonl"):
    """Indexes every store OUT/STORES with HUSH and evaluates its query files (also many-languages.py's)."""
    folder = os.path.join(out, label)
    os.makedirs(folder, exist_ok=True)
    for corpus in sorted(glob.glob(os.path.join(out, stores))):
        name = os.path.basename(corpus)[:-len(".jsonl")]
        store = os.path.join(folder, name + ".hush")
        if not os.path.exists(store):
            subprocess.run([hush, "index", "--db", store, "--model", "e5-small", "--threads", "1", corpus],
                           check=True, capture_output=True)
        for queries in sorted(glob.glob(os.path.join(out, name + ".q-*.jsonl"))):
            if not read_jsonl(queries):
                continue
            part = os.path.basename(queries)[len(name) + 3:-len(".jsonl")]
            for mode in ("semantic", "hybrid"):
                evidence = os.path.join(folder, f"{name}.{part}.{mode}.evidence.jsonl")
                if not os.path.exists(evidence):
                    subprocess.run([hush, "eval", "--db", store, "--queries", queries, "--mode", mode, "--evidence",
                                    evidence, "--json"], check=True, capture_output=True)
    print("done", folder)


def per_query(folder):
    """(config, query language, same/cross, mode, query) -> (reciprocal rank@10, nDCG@10)."""
    found = {}
    for path in glob.glob(os.path.join(folder, "*.evidence.jsonl")):
        name, part, mode = os.path.basename(path).split(".")[:3]
        config = name.rsplit("-", 1)[0]
        language, kind = part.split("-")
        for line in read_jsonl(path):
            hits = [h["relevant"] for h in line["hits"][:10]]
            rank = hits.index(True) + 1 if True in hits else None
            found[(config, language, kind, mode, name, line["query"])] = (
                1 / rank if rank else 0.0, 1 / math.log2(rank + 1) if rank else 0.0)
    return found


def interval(values, rng, resamples=10_000):
    n = len(values)
    means = sorted(sum(values[rng.randrange(n)] for _ in range(n)) / n for _ in range(resamples))
    return means[int(0.025 * resamples)], means[int(0.975 * resamples) - 1]


def report(out, before, after):
    a, b = per_query(os.path.join(out, before)), per_query(os.path.join(out, after))
    keys = sorted(set(a) & set(b))
    rng = random.Random(SEED)
    print(f"| store (English + Chinese documents) | query → document | mode | queries | MRR@10 {before} | "
          f"MRR@10 {after} | Δ MRR@10 [95 %] | nDCG@10 {before} | nDCG@10 {after} |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    order = {f"en{e}-zh{z}": i for i, (e, z, _) in enumerate(CONFIGS)}
    groups = sorted({k[:4] for k in keys}, key=lambda g: (order[g[0]], g[3] != "semantic", g[2] != "cross", g[1]))
    for group in groups:
        chosen = [k for k in keys if k[:4] == group]
        config, language, kind, mode = group
        other = "zh" if language == "en" else "en"
        target = language if kind == "same" else other
        diffs = [b[k][0] - a[k][0] for k in chosen]
        low, high = interval(diffs, rng)
        mean = lambda values: sum(values) / len(values)
        e, z = config[2:].split("-zh")
        print(f"| {e} + {z} | {language} → {target} | {mode} | {len(chosen)} | {mean([a[k][0] for k in chosen]):.3f} | "
              f"{mean([b[k][0] for k in chosen]):.3f} | {mean(diffs):+.3f} [{low:+.3f}, {high:+.3f}] | "
              f"{mean([a[k][1] for k in chosen]):.3f} | {mean([b[k][1] for k in chosen]):.3f} |")


if __name__ == "__main__":
    step = sys.argv[1] if len(sys.argv) > 1 else ""
    if step == "data":
        data(sys.argv[2])
    elif step == "run":
        run(sys.argv[2], sys.argv[3], sys.argv[4])
    elif step == "report":
        report(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(__doc__)
