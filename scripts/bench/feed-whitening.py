#!/usr/bin/env python3
"""Feed quality with whitened document vectors (issue #35): does whitening beyond centring lift e5?

What it measures
  On feed-quality.py's Debian set and trials (OUT/corpus.jsonl, OUT/trials.json, OUT/stores/{e5,minilm}.hush
  built by the current hush), recomputed in numpy from the stored chunk vectors, per model and per variant of
  the document vector: interest P@40 (the 100 trials, centroid of the 10 liked, as `hush rank --alpha 1`) and
  related items P@10 / MRR (the 200 sampled documents, as `hush related --k 10`). Means with 95 % bootstrap
  intervals (feed-quality.py's `bootstrap`: 10,000 resamples of trials or queries; paired for differences)
  against the current method and e5 − MiniLM. Also, less noisy, on 400 fresh trials (20 per section, drawn
  like feed-quality.py's, another seed) and related items of all 3,057 documents.

  Variants (S = sum of a document's chunk vectors, n its chunk count, μ the store's mean chunk vector as Hush
  takes it: of every ceil(rows/4096)-th row, c = N/(N+16) Hush's shrinkage of the centre for N documents,
  unit() = L2 normalisation; covariances are of the chunk vectors about their exact mean):
    a  current        unit(S − n c μ)  (checked against OUT/cli-KEY.json when present: `feed-quality.py cli`)
    b  standardised   unit((S − n c μ) / σ), σ the per-coordinate standard deviation of the chunk vectors
    c  whitened α     unit(W (S − n c μ)), W = U diag(1/sqrt(λ + α mean λ)) Uᵀ from the chunk covariance
                      (W is linear, so whitening each chunk and summing is the same vector: checked); also
                      each whitened chunk normalised before the sum, and W estimated from the finished
                      (current) document vectors instead of the chunks
       (α 10 and 30 in addition: the way back to plain centring, α → ∞)
    d  top-k removed  the k first principal directions of the chunks projected out of S − n c μ
    e  subsample      μ (and W, best α) from the chunks of 100 / 300 random documents (5 draws, per-trial mean)
    f  extras         partial whitening (λ^-1/4); Rocchio centroid unit(mean liked − β mean candidates);
                      per-item top-3 aggregation; a CSLS-style hubness penalty (score = cos − γ r(doc), r the
                      document's mean cosine to its 10 nearest documents), for interest and related items

How to run (after feed-quality.sh's data, trials, stores and, for the check, cli steps)
  OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 nice -n 19 ~/.cache/hush-peers/bin/python \\
      scripts/bench/feed-whitening.py OUT        -> OUT/whitening.json, markdown tables on stdout (~1 min)
  feed-whitening.py report OUT                   the tables again from OUT/whitening.json
"""
import importlib.util, json, os, random, sqlite3, sys, time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, file))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


fq = load("feed_quality", "feed-quality.py")  # store_chunks, unit, topk_order, bootstrap, fmt, trials, corpus

ALPHAS = [0.03, 0.1, 0.3, 1, 3]
ALPHAS_LARGE = [10, 30]  # towards plain centring (α → ∞)
TOPK_REMOVED = [1, 2, 4]
SUBSAMPLES = [100, 300]
DRAWS = 5
ROCCHIO = [0.25, 0.5, 1.0]
HUB_K = 10  # CSLS-style hubness penalty: a document's mean cosine to its HUB_K nearest documents
HUB_GAMMA = [0.25, 0.5]
FRESH_PER_SECTION = 20
CENTRE_PRIOR = 16  # Hush: store centre × N / (N + 16) (StoreMemory+Documents.swift, documentCentres)


class Store:
    """The chunk vectors of one store, by document (rows of `ids`)."""

    def __init__(self, path, ids):
        row = {i: k for k, i in enumerate(ids)}
        chunks = fq.store_chunks(path)
        self.C = np.stack([v for _, _, _, v in chunks]).astype(np.float64)
        self.doc = np.array([row[i] for i, _, _, _ in chunks])
        self.n = np.bincount(self.doc, minlength=len(ids)).astype(np.float64)
        self.S = np.zeros((len(ids), self.C.shape[1]))
        np.add.at(self.S, self.doc, self.C)
        self.mu = self.C.mean(axis=0)
        self.hush_mu = hush_centre(path)
        self.shrink = len(ids) / (len(ids) + CENTRE_PRIOR)
        self.eig = eigen(self.C, self.mu)

    def centred_sums(self, mu=None, shrink=None):
        """S − n × shrink × mu; by default Hush's centre (hush_mu, shrunk by N / (N + 16))."""
        mu = self.hush_mu if mu is None else mu
        return self.S - self.n[:, None] * ((self.shrink if shrink is None else shrink) * mu)


def hush_centre(path):
    """The store's mean chunk vector as Hush takes it (documentCentres, one language): the float32 mean of every
    step-th row of the index matrix in row order, step = ceil(rows / 4096) (MiniLM's 4,880 rows: every 2nd)."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    rows = db.execute("SELECT vector FROM vectors ORDER BY row").fetchall()
    db.close()
    step = max(1, (len(rows) + 4095) // 4096)
    sample = np.stack([np.frombuffer(v, dtype="<f4") for (v,) in rows[::step]])
    return (sample.sum(axis=0, dtype=np.float32) / np.float32(len(sample))).astype(np.float64)


def eigen(C, mu):
    """Eigenvalues (descending) and eigenvectors of the covariance of the rows of C about mu."""
    X = C - mu
    lam, U = np.linalg.eigh(X.T @ X / len(X))
    order = np.argsort(lam)[::-1]
    return np.clip(lam[order], 0, None), U[:, order]


def whitener(eig, alpha, power=1.0):
    """U diag((λ + α mean λ)^(-power/2)) Uᵀ (symmetric)."""
    lam, U = eig
    return (U * (lam + alpha * lam.mean()) ** (-power / 2)) @ U.T


def fresh_trials(corpus):
    """FRESH_PER_SECTION interest trials per section, drawn as feed-quality.py's cmd_trials with another seed."""
    section_of = {d["id"]: d["category"] for d in corpus}
    ids = sorted(section_of)
    trials = []
    for si, section in enumerate(fq.SECTIONS):
        own = [i for i in ids if section_of[i] == section]
        others = [i for i in ids if section_of[i] != section]
        for t in range(FRESH_PER_SECTION):
            rng = random.Random(fq.SEED * 100000 + 50000 + si * 100 + t)
            picked = rng.sample(own, fq.LIKED + fq.SAME)
            candidates = picked[fq.LIKED:] + rng.sample(others, fq.OTHER)
            rng.shuffle(candidates)
            trials.append({"section": section, "liked": picked[:fq.LIKED], "candidates": candidates})
    return trials


def interest(D, trials, index, section_arr, beta=0.0, penalty=None, how="centroid"):
    """P@40 per trial: candidates by cosine to unit(mean of liked − beta × mean of candidates), less
    `penalty` (per document) when given; how="top3": the mean of each candidate's 3 best cosines to the liked."""
    out = []
    for trial in trials:
        liked = np.array([index[i] for i in trial["liked"]])
        cands = np.array([index[i] for i in trial["candidates"]])
        if how == "top3":
            scores = np.sort(D[cands] @ D[liked].T, axis=1)[:, -3:].mean(axis=1)
        else:
            c = D[liked].mean(axis=0) - beta * D[cands].mean(axis=0)
            scores = D[cands] @ (c / np.linalg.norm(c))
        if penalty is not None:
            scores = scores - penalty[cands]
        top = fq.topk_order(scores, fq.TOP)
        out.append(float((section_arr[cands[top]] == trial["section"]).mean()))
    return out


def related(D, queries, section_arr, penalty=None):
    """P@10 and first-hit reciprocal rank per query document over the whole store (cosine less `penalty`)."""
    p, rr = [], []
    for q in queries:
        scores = D @ D[q] - (0 if penalty is None else penalty)
        scores[q] = -np.inf
        same = section_arr[fq.topk_order(scores, fq.RELATED_K)] == section_arr[q]
        p.append(float(same.mean()))
        rr.append(float(1 / (np.argmax(same) + 1)) if same.any() else 0.0)
    return p, rr


def hubness(D, k=HUB_K):
    """Per document, the mean cosine to its k nearest other documents (CSLS's r)."""
    S = D @ D.T
    np.fill_diagonal(S, -np.inf)
    return np.sort(np.partition(S, -k, axis=1)[:, -k:], axis=1).mean(axis=1)


def related_all(D, section_arr, penalty=None):
    """P@10 per document over all documents (each its own query)."""
    S = D @ D.T - (0 if penalty is None else penalty[None, :])
    np.fill_diagonal(S, -np.inf)
    top = np.argpartition(-S, fq.RELATED_K, axis=1)[:, :fq.RELATED_K]
    return (section_arr[top] == section_arr[:, None]).mean(axis=1).tolist()


def check_cli(out, key, D, trials, related_queries, index, ids, section_arr):
    """Does variant a reproduce `hush rank` / `hush related` (OUT/cli-KEY.json)?"""
    path = os.path.join(out, f"cli-{key}.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        cli = json.load(f)
    mine = interest(D, trials, index, section_arr)
    same_p, same_set, same_order, max_cos = 0, 0, 0, 0.0
    for trial, run, p in zip(trials, cli["rank"], mine):
        liked = np.array([index[i] for i in trial["liked"]])
        c = D[liked].mean(axis=0)
        c /= np.linalg.norm(c)
        cands = np.array([index[i] for i in trial["candidates"]])
        scores = D[cands] @ c
        order = [trial["candidates"][k] for k in np.argsort(-scores, kind="stable")]
        cos = D[np.array([index[i] for i in run["order"]])] @ c
        max_cos = max(max_cos, float(np.abs(cos - np.array(run["cos"], dtype=np.float64)).max()))
        same_p += abs(p - run["p40"]) < 1e-9
        same_set += set(order[:fq.TOP]) == set(run["order"][:fq.TOP])
        same_order += order == run["order"]
    p10, _ = related(D, [index[i] for i in related_queries], section_arr)
    same_hits = 0
    for q, r in zip(related_queries, cli["related"]):
        scores = D @ D[index[q]]
        scores[index[q]] = -np.inf
        same_hits += [ids[k] for k in fq.topk_order(scores, fq.RELATED_K)] == r["hits"]
    return {"trials": len(trials), "same_p40": same_p, "same_top40_set": same_set, "same_full_order": same_order,
            "max_abs_cos_diff": max_cos, "cli_p40": float(np.mean([r["p40"] for r in cli["rank"]])),
            "numpy_p40": float(np.mean(mine)),
            "related_same_p10": sum(abs(a - r["p10"]) < 1e-9 for a, r in zip(p10, cli["related"])),
            "related_same_hits": same_hits, "related_queries": len(cli["related"]),
            "cli_related_p10": float(np.mean([r["p10"] for r in cli["related"]])),
            "numpy_related_p10": float(np.mean(p10))}


def spectrum(eig, mu):
    """The norm of the mean chunk vector, and the shares of the chunk variance (about it) on the first
    principal directions, the effective rank (exp of the entropy of the shares) and the participation ratio."""
    lam = eig[0]
    share = lam / lam.sum()
    return {"mu_norm": float(np.linalg.norm(mu)), "top1": float(share[0]), "top4": float(share[:4].sum()),
            "top10": float(share[:10].sum()),
            "effective_rank": float(np.exp(-(share[share > 0] * np.log(share[share > 0])).sum())),
            "participation_ratio": float(lam.sum() ** 2 / (lam ** 2).sum())}


def main(out):
    started = time.time()
    corpus = fq.read_corpus(out)
    ids = sorted(d["id"] for d in corpus)
    index = {i: k for k, i in enumerate(ids)}
    section_arr = np.array([d["category"] for d in sorted(corpus, key=lambda d: d["id"])])
    spec = fq.load_trials(out)
    trials, queries = spec["trials"], [index[i] for i in spec["related"]]
    fresh = fresh_trials(corpus)
    result = {"alphas": ALPHAS, "variants": {}, "check": {}, "spectrum": {}, "seconds": {}, "whiten_linear": {}}

    def evaluate(key, name, D, beta=0.0, penalty=None, how="centroid"):
        """Interest (and, unless the variant is about the interest centroid only, related items) of D."""
        both = beta == 0 and how == "centroid"
        p10, rr = related(D, queries, section_arr, penalty) if both else (None, None)
        entry = {"p40": interest(D, trials, index, section_arr, beta, penalty, how),
                 "p40_fresh": interest(D, fresh, index, section_arr, beta, penalty, how), "p10": p10, "rr": rr,
                 "p10_all": related_all(D, section_arr, penalty) if both else None}
        result["variants"].setdefault(name, {})[key] = entry

    stores = {}
    for key in fq.MODELS:
        t0 = time.time()
        st = stores[key] = Store(os.path.join(out, "stores", f"{key}.hush"), ids)
        result["spectrum"][key] = spectrum(st.eig, st.mu)
        R = st.centred_sums()
        current = fq.unit(R)
        result["check"][key] = check_cli(out, key, current, trials, spec["related"], index, ids, section_arr)
        evaluate(key, "a current (centred)", current)
        evaluate(key, "a' centred on the exact chunk mean, c = 1", fq.unit(st.centred_sums(st.mu, 1.0)))
        sigma = (st.C - st.mu).std(axis=0)
        evaluate(key, "b standardised per coordinate", fq.unit(R / sigma))
        for alpha in ALPHAS + ALPHAS_LARGE:
            W = whitener(st.eig, alpha)
            evaluate(key, f"c whitened α={alpha}", fq.unit(R @ W))
        for k in TOPK_REMOVED:
            Uk = st.eig[1][:, :k]
            evaluate(key, f"d top {k} removed", fq.unit(R - (R @ Uk) @ Uk.T))
        for beta in ROCCHIO:
            evaluate(key, f"f Rocchio β={beta} (current vectors)", current, beta)
        for alpha in (0.03, 0.3):
            evaluate(key, f"f partial whitening λ^-1/4, α={alpha}", fq.unit(R @ whitener(st.eig, alpha, 0.5)))
        evaluate(key, "f top-3 mean of per-liked cosines (current vectors; interest only)", current, how="top3")
        r = hubness(current)
        for gamma in HUB_GAMMA:
            evaluate(key, f"f hubness penalty cos − {gamma}·r{HUB_K}(doc) (current vectors)", current,
                     penalty=gamma * r)
        result["seconds"][key] = time.time() - t0

    # The best α: highest mean interest P@40 of the two models on the 100 trials (chosen on them: the fresh
    # trials are the less biased check).
    score = {a: np.mean([np.mean(result["variants"][f"c whitened α={a}"][k]["p40"]) for k in fq.MODELS])
             for a in ALPHAS}
    alpha = max(ALPHAS, key=lambda a: (score[a], a))  # within the asked range (not ALPHAS_LARGE)
    result["best_alpha"] = alpha
    for key, st in stores.items():
        t0 = time.time()
        R = st.centred_sums()
        W = whitener(st.eig, alpha)
        # Whitening each chunk, then summing, is the same vector as whitening the centred sum (W is linear).
        per_chunk = np.zeros_like(st.S)
        np.add.at(per_chunk, st.doc, (st.C - st.shrink * st.hush_mu) @ W)
        result["whiten_linear"][key] = float(np.abs(fq.unit(per_chunk) - fq.unit(R @ W)).max())
        Z = fq.unit((st.C - st.shrink * st.hush_mu) @ W)
        normed = np.zeros_like(st.S)
        np.add.at(normed, st.doc, Z)
        evaluate(key, f"c whitened α={alpha}, each chunk normalised before the sum", fq.unit(normed))
        current = fq.unit(R)
        dm = current.mean(axis=0)
        evaluate(key, f"c whitened α={alpha}, W from the finished document vectors",
                 fq.unit((current - dm) @ whitener(eigen(current, dm), alpha)))
        evaluate(key, f"f whitened α={alpha} + Rocchio β=0.5", fq.unit(R @ W), 0.5)
        # Subsamples: μ (and W) from the chunks of m random documents, as a store of m documents would have.
        for m in SUBSAMPLES:
            runs = {"centred": [], "whitened": []}
            for draw in range(DRAWS):
                picks = np.random.default_rng(fq.SEED + 1000 * m + draw).choice(len(ids), m, replace=False)
                rows = np.isin(st.doc, picks)
                mu = st.C[rows].mean(axis=0)
                Rs = st.centred_sums(mu, m / (m + CENTRE_PRIOR))
                runs["centred"].append(fq.unit(Rs))
                runs["whitened"].append(fq.unit(Rs @ whitener(eigen(st.C[rows], mu), alpha)))
            for what, Ds in runs.items():
                per = [dict(zip(("p40", "p40_fresh", "p10", "rr", "p10_all"),
                                (interest(D, trials, index, section_arr), interest(D, fresh, index, section_arr),
                                 *related(D, queries, section_arr), related_all(D, section_arr)))) for D in Ds]
                name = f"e {what} ({'μ' if what == 'centred' else f'μ, W α={alpha}'}) from {m} docs' chunks"
                result["variants"].setdefault(name, {})[key] = {
                    f: np.mean([p[f] for p in per], axis=0).tolist() for f in per[0]}
                result["variants"][name][key]["draw_means_p40"] = [float(np.mean(p["p40"])) for p in per]
        result["seconds"][key] += time.time() - t0
    result["seconds"]["total"] = time.time() - started
    with open(os.path.join(out, "whitening.json"), "w") as f:
        json.dump(result, f)
    report(result)


def report(result):
    V = result["variants"]
    base = "a current (centred)"
    d = lambda a, b: [x - y for x, y in zip(a, b)]
    m = lambda v: f"{np.mean(v):.3f}" if v is not None else "–"

    def table(title, last_four):
        print(f"### {title}\n")
        print("| variant | e5 P@40 | MiniLM P@40 | e5 − MiniLM (paired) | e5 Δ vs current | MiniLM Δ vs current | "
              + " | ".join(last_four) + " |")
        print("| --- |" + " ---: |" * 9)

    table("Interest P@40 (100 trials) and related items (200 queries), numpy from the stored chunk vectors",
          ["related P@10 e5", "MiniLM", "MRR e5", "MiniLM"])
    for name, r in V.items():
        e, n = r["e5"], r["minilm"]
        print(f"| {name} | {m(e['p40'])} | {m(n['p40'])} | {fq.fmt(d(e['p40'], n['p40']), True)} | "
              f"{fq.fmt(d(e['p40'], V[base]['e5']['p40']), True)} | "
              f"{fq.fmt(d(n['p40'], V[base]['minilm']['p40']), True)} | "
              f"{m(e['p10'])} | {m(n['p10'])} | {m(e['rr'])} | {m(n['rr'])} |")
    print()
    table("Less noisy: 400 fresh interest trials, related P@10 of all 3,057 documents",
          ["related-all P@10 e5", "MiniLM", "e5 Δ", "MiniLM Δ"])
    for name, r in V.items():
        e, n = r["e5"], r["minilm"]
        rel = "– | – | – | –"
        if e["p10_all"]:
            rel = (f"{m(e['p10_all'])} | {m(n['p10_all'])} | "
                   f"{fq.fmt(d(e['p10_all'], V[base]['e5']['p10_all']), True)} | "
                   f"{fq.fmt(d(n['p10_all'], V[base]['minilm']['p10_all']), True)}")
        print(f"| {name} | {m(e['p40_fresh'])} | {m(n['p40_fresh'])} | "
              f"{fq.fmt(d(e['p40_fresh'], n['p40_fresh']), True)} | "
              f"{fq.fmt(d(e['p40_fresh'], V[base]['e5']['p40_fresh']), True)} | "
              f"{fq.fmt(d(n['p40_fresh'], V[base]['minilm']['p40_fresh']), True)} | {rel} |")
    print(f"\nBest α (mean interest P@40 of both models, 100 trials): {result['best_alpha']}")
    print("Whitening each chunk then summing vs whitening the centred sum, max |difference| of the unit vectors: "
          + ", ".join(f"{k} {v:.1e}" for k, v in result["whiten_linear"].items()))
    print("\n| model | norm of μ | top-1 variance share (centred chunks) | top-4 | top-10 | effective rank | "
          "participation ratio |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for key, s in result["spectrum"].items():
        print(f"| {key} | {s['mu_norm']:.3f} | {s['top1']:.3f} | {s['top4']:.3f} | {s['top10']:.3f} | "
              f"{s['effective_rank']:.1f} | "
              f"{s['participation_ratio']:.1f} |")
    for key, c in result["check"].items():
        print(f"\ncheck {key} against hush (cli-{key}.json): {c}")
    print("\nseconds: " + ", ".join(f"{k} {v:.1f}" for k, v in result["seconds"].items()))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "report":
        with open(os.path.join(sys.argv[2], "whitening.json")) as f:
            report(json.load(f))
    elif len(sys.argv) == 2:
        main(sys.argv[1])
    else:
        sys.exit(__doc__)
