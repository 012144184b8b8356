#!/usr/bin/env python3
"""Builds the multilingual embedding-benchmark data from real text: Debian manual-page excerpts in many
languages, taken from the tokenizer fixture Tests/HushEmbeddingTests/Fixtures/e5-tokenizer-parity.jsonl.gz
(lines {"t": text, "ids": [...], "s": source}; see e5-fixtures-meta.json for where the texts come from).

  bench/data/multilingual-corpus.jsonl   1,000 passages, 20..250 ids each (ids as in the fixture: the text's
                                         multilingual-e5 tokens plus <s> and </s>, no "passage: " prefix)
  bench/data/multilingual-queries.jsonl  200 short queries, 5..20 ids each, none of them also in the corpus
Each line is {"text": ..., "lang": ...}, lang being the man-page locale (de, fr, zh_CN, ...).

Only the "man:<lang>" sources are used (not the one long excerpt per language). The texts are spread evenly
over all languages present: each language gets an equal share (a language with too few texts gives its rest
to the others). The choice is deterministic: within a language, texts are ranked by sha256(SEED + text), and
the output interleaves languages round-robin, so any prefix of the file (e.g. the first 100 lines) is spread
over languages too. Stdlib only.
Usage: scripts/bench/make-multilingual-bench-data.py [--corpus 1000] [--queries 200]
"""
import argparse, collections, gzip, hashlib, json, os, statistics

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURE = os.path.join(REPO, "Tests/HushEmbeddingTests/Fixtures/e5-tokenizer-parity.jsonl.gz")
OUT = os.path.join(REPO, "bench/data")
SEED = "hush-multilingual-bench-1"
REQUIRED = {"zh_CN", "de", "fr", "es", "ru", "ja", "en"}


def rank(text):
    return hashlib.sha256((SEED + "\0" + text).encode("utf-8")).hexdigest()


def allocate(total, available):
    """Equal shares of `total` over the languages in `available` ({lang: count}); a language that has fewer
    texts than its share gives the rest to the others. Remainders go to languages in sorted order."""
    quota, open_langs, left = {}, sorted(available), total
    while open_langs and left > 0:
        share, extra = divmod(left, len(open_langs))
        short = [l for l in open_langs if available[l] - quota.get(l, 0) < share + (1 if extra else 0)]
        if not short:
            for i, l in enumerate(open_langs):
                quota[l] = quota.get(l, 0) + share + (1 if i < extra else 0)
            return quota
        for l in short:  # give these all they have, then share the rest again
            left -= available[l] - quota.get(l, 0)
            quota[l] = available[l]
            open_langs.remove(l)
    if left > 0:
        raise SystemExit(f"only {total - left} texts available, {total} wanted")
    return quota


def pick(pool, total):
    """pool: {lang: [(text, n_ids)]} -> [(lang, text, n_ids)] interleaved round-robin by rank."""
    quota = allocate(total, {l: len(v) for l, v in pool.items() if v})
    chosen = {l: sorted(pool[l], key=lambda x: rank(x[0]))[:q] for l, q in quota.items()}
    out = []
    for i in range(max(quota.values())):
        for l in sorted(chosen):
            if i < len(chosen[l]):
                out.append((l,) + chosen[l][i])
    return out


def write(path, rows):
    with open(path, "w", encoding="utf-8") as f:
        for lang, text, _ in rows:
            f.write(json.dumps({"text": text, "lang": lang}, ensure_ascii=False) + "\n")


def report(name, rows, path):
    by = collections.defaultdict(list)
    for lang, _, n in rows:
        by[lang].append(n)
    print(f"{name}: {len(rows)} texts in {len(by)} languages -> {os.path.relpath(path, REPO)} "
          f"({os.path.getsize(path):,} bytes); mean ids {statistics.mean(n for _, _, n in rows):.1f} "
          f"(with <s> </s>, without the e5 prefix)")
    print("  lang     texts  mean ids")
    for lang in sorted(by):
        print(f"  {lang:<8} {len(by[lang]):>5}  {statistics.mean(by[lang]):>8.1f}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", type=int, default=1000)
    ap.add_argument("--queries", type=int, default=200)
    a = ap.parse_args()
    seen = set()
    passages, queries = collections.defaultdict(list), collections.defaultdict(list)
    with gzip.open(FIXTURE, "rt", encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            parts = r["s"].split(":")
            if parts[0] != "man" or len(parts) != 2 or r["t"] in seen:
                continue
            seen.add(r["t"])
            n = len(r["ids"])
            if 20 <= n <= 250:
                passages[parts[1]].append((r["t"], n))
            if 5 <= n <= 20:
                queries[parts[1]].append((r["t"], n))
    missing = REQUIRED - set(passages)
    if missing:
        raise SystemExit(f"fixture lacks languages {sorted(missing)}")
    os.makedirs(OUT, exist_ok=True)
    corpus = pick(passages, a.corpus)
    in_corpus = {t for _, t, _ in corpus}  # a 20-id text may be in both pools; keep it out of the queries
    qs = pick({l: [x for x in v if x[0] not in in_corpus] for l, v in queries.items()}, a.queries)
    cpath = os.path.join(OUT, "multilingual-corpus.jsonl")
    qpath = os.path.join(OUT, "multilingual-queries.jsonl")
    write(cpath, corpus)
    write(qpath, qs)
    report("corpus", corpus, cpath)
    report("queries", qs, qpath)


if __name__ == "__main__":
    main()
