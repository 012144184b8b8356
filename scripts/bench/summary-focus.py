#!/usr/bin/env python3
"""Query-focused summaries (`hush summarize --query`): how often the chosen sentences are about what was asked.

Data: Debian bookworm main's package descriptions, read with debian-descriptions.py from its apt lists
(Translation-en, and Translation-zh_CN paired with the English original by Description-md5). A pool holds the
packages with a non-empty long description whose short description and long description are each unique in
the pool (for Chinese: both short descriptions), sorted by sha1 of the name. Package A is taken from the pool's
first N packages whose long description has at least 3 sentences (split on ". " and "。", roughly), package B
from the next N of the others with at least 2, and N more of the others are distractors; so A and B are far
apart in the order and about different things. Documents (no title, so that no package name leaks): N mixed
ones, id "A+B", text = A's long description, a blank line, B's; and the N distractors, id = package name,
text = its long description. The query of "A+B" is A's short description; the sentences of A's part are the
ones that answer it.

Variants: en (English documents and queries), zh (Chinese documents and queries, of the packages that have
both), en-zh (English queries against the zh documents and stores). Stores: `hush index --model e5-small`, and
`--model minilm` for en, built once by HUSH_NEW. Per query and binary (HUSH_OLD, HUSH_NEW): `hush summarize
--query Q --k 3 --sentences 2 --json`. A chosen sentence is on-topic when it comes from "A+B" and its text
(whitespace collapsed; Hush's "[link]" matching any URL) lies in A's part, off-topic when it comes from B's part
or from any other document (counted apart too: those from another document whose text is also in A's part,
such as "This package contains the documentation."), unmatched when it comes from "A+B" but from neither part
as written. Per variant and model: the shares of the chosen sentences on-topic and off-topic, the mean number
of sentences, the share of queries whose hits hold "A+B" ("found") and the on-topic share over those queries
only, and the queries where the new binary picks more (fewer) on-topic sentences than the old one.

    summary-focus.py all [OUT]      data, index, run, report (each step skipped when its output exists:
                                    OUT/meta.json, OUT/<store>.index.json, OUT/runs/*.jsonl; delete it to redo)
    summary-focus.py data [OUT]     OUT/<variant>/corpus.jsonl and queries.jsonl
    summary-focus.py index [OUT]    the stores OUT/<variant>-<model>.hush
    summary-focus.py run [OUT]      the summaries of both binaries, OUT/runs/<variant>-<model>-<old|new>.jsonl
    summary-focus.py report [OUT]   the markdown table on stdout, all numbers to OUT/results.json

Environment: OUT (/tmp/hush-summary-focus), HUSH_OLD and HUSH_NEW (the two `hush` binaries; HUSH_NEW defaults to
the package's .build/release/hush), LISTS (/tmp/hush-debdesc/apt-lists: debian-descriptions.py's apt lists),
N (300), K (3), SENTENCES (2), JOBS (2: summaries run at once, one thread each), NICE (10: every hush call runs
under `nice -n $NICE`; stores are built with 2 threads). Everything is deterministic (sorted inputs, no
sampling).
"""
import collections, json, os, re, subprocess, sys, time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench_steps as steps  # noqa: E402
from bench_steps import HUSH_NEW, HUSH_OLD, JOBS, LISTS, NICE  # noqa: E402
OUT = os.environ.get("OUT", "/tmp/hush-summary-focus")
N = int(os.environ.get("N", "300"))
K = int(os.environ.get("K", "3"))
SENTENCES = int(os.environ.get("SENTENCES", "2"))
# variant -> (corpus folder, query language, models)
VARIANTS = {"en": ("en", "en", ["e5-small", "minilm"]), "zh": ("zh", "zh", ["e5-small"]),
            "en-zh": ("zh", "en", ["e5-small"])}


dd = steps.load("debian_descriptions", "debian-descriptions.py")  # translations, zh_long_text, write_jsonl, last_json
fq, qm = dd.fq, dd.qm  # long_text; read_jsonl


def rough_sentences(text):
    return len([s for s in re.split(r"\.\s+|。", text) if s.strip()])


def key(text):
    return " ".join(text.split()).lower()


def pools(lists):
    """{"en": [...], "zh": [...]}: packages (name, short descriptions, long text) sorted by sha1 of the name,
    those with an empty long description or a short or long description shared in their pool left out."""
    en, zh, _, _ = dd.translations(lists)
    rows = {"en": [], "zh": []}
    seen = set()
    for r in sorted(en, key=lambda r: steps.sha1(r["Package"])):
        short, _, rest = r["Description-en"].partition("\n")
        if r["Package"] not in seen:
            seen.add(r["Package"])
            rows["en"].append({"name": r["Package"], "short": {"en": short.strip()},
                               "text": fq.long_text(rest.split("\n")) if rest else ""})
    en_by = {(r["Package"], r["Description-md5"]): r["Description-en"] for r in en}
    seen = set()
    for r in sorted(zh, key=lambda r: steps.sha1(r["Package"])):
        english = en_by.get((r["Package"], r["Description-md5"]))
        short, _, rest = r["Description-zh_CN"].partition("\n")
        if english is not None and r["Package"] not in seen:
            seen.add(r["Package"])
            rows["zh"].append({"name": r["Package"], "short": {"en": english.partition("\n")[0].strip(),
                                                               "zh": short.strip()},
                               "text": dd.zh_long_text(rest.split("\n"))})
    result = {}
    for lang, pool in rows.items():
        pool = [p for p in pool if p["text"].strip() and all(s.strip() for s in p["short"].values())]
        counts = collections.Counter(f"text:{key(p['text'])}" for p in pool)
        for p in pool:
            counts.update(f"{l}:{key(s)}" for l, s in p["short"].items())
        result[lang] = [p for p in pool if counts[f"text:{key(p['text'])}"] == 1
                        and all(counts[f"{l}:{key(s)}"] == 1 for l, s in p["short"].items())]
    return result


def pick(pool, n):
    """(A, B, distractors): the first n of the pool with at least 3 sentences, the first n of the others with
    at least 2, the next n of the others."""
    a = [p for p in pool if rough_sentences(p["text"]) >= 3][:n]
    taken = {p["name"] for p in a}
    b = [p for p in pool if p["name"] not in taken and rough_sentences(p["text"]) >= 2][:n]
    taken |= {p["name"] for p in b}
    d = [p for p in pool if p["name"] not in taken][:n]
    if min(len(a), len(b), len(d)) < n:
        sys.exit(f"pool too small for N={n}: {len(a)} A, {len(b)} B, {len(d)} distractors")
    return a, b, d


def cmd_data(out):
    meta_path = os.path.join(out, "meta.json")
    if os.path.exists(meta_path):
        with open(meta_path) as f:
            if json.load(f)["N"] != N:
                sys.exit(f"{out} was made with another N: use another OUT")
        return
    meta = {"N": N, "K": K, "sentences": SENTENCES, "lists": LISTS, "corpora": {}}
    chosen = {}
    for lang, pool in pools(LISTS).items():
        a, b, d = pick(pool, N)
        chosen[lang] = (a, b)
        docs = [{"id": f"{x['name']}+{y['name']}", "text": x["text"] + "\n\n" + y["text"], "language": lang}
                for x, y in zip(a, b)]
        docs += [{"id": p["name"], "text": p["text"], "language": lang} for p in d]
        if len({doc["id"] for doc in docs}) != len(docs):
            sys.exit(f"{lang}: ids collide")
        dd.write_jsonl(os.path.join(out, lang, "corpus.jsonl"), docs)
        meta["corpora"][lang] = {"pool": len(pool), "documents": len(docs),
                                 "A_sentences_mean": sum(rough_sentences(p["text"]) for p in a) / N,
                                 "B_sentences_mean": sum(rough_sentences(p["text"]) for p in b) / N,
                                 "text_chars_mean": sum(len(doc["text"]) for doc in docs) / len(docs)}
    for variant, (corpus, qlang, _) in VARIANTS.items():
        a, b = chosen[corpus]
        dd.write_jsonl(os.path.join(out, variant, "queries.jsonl"),
                       [{"query": x["short"][qlang], "id": f"{x['name']}+{y['name']}", "a": x["text"],
                         "b": y["text"]} for x, y in zip(a, b)])
    with open(meta_path, "w", encoding="utf-8") as f:
        json.dump(meta, f, ensure_ascii=False, indent=1)
    print(json.dumps(meta["corpora"]), flush=True)


def stores():
    """[(store name, corpus folder, model)], each store once (en-zh asks zh's)."""
    seen = {}
    for corpus, _, models in VARIANTS.values():
        for model in models:
            seen[f"{corpus}-{model}"] = (corpus, model)
    return [(name, corpus, model) for name, (corpus, model) in seen.items()]


def cmd_index(out):
    for name, corpus, model in stores():
        report = os.path.join(out, f"{name}.index.json")
        if os.path.exists(report):
            continue
        started = time.time()
        proc = subprocess.run(["nice", "-n", NICE, HUSH_NEW, "index", "--db", os.path.join(out, f"{name}.hush"),
                               "--model", model, "--threads", "2", "--quiet", "--json",
                               os.path.join(out, corpus, "corpus.jsonl")], capture_output=True, text=True, check=True)
        result = dd.last_json(proc.stdout)
        result["wall_seconds"] = time.time() - started
        with open(report, "w") as f:
            json.dump(result, f)
        print(f"indexed {name}: {result['wall_seconds']:.0f} s", flush=True)


def summarize(binary, db, query):
    started = time.time()
    proc = subprocess.run(["nice", "-n", NICE, binary, "summarize", "--db", db, "--query", query, "--k", str(K),
                           "--sentences", str(SENTENCES), "--threads", "1", "--json"], capture_output=True, text=True)
    seconds = time.time() - started
    if proc.returncode != 0:
        return {"error": proc.stderr.strip()[-500:], "seconds": seconds}
    return {**dd.last_json(proc.stdout), "seconds": seconds}


def cmd_run(out):
    binaries = {"old": HUSH_OLD, "new": HUSH_NEW}
    for label, binary in binaries.items():
        if not binary or not os.access(binary, os.X_OK):
            sys.exit(f"HUSH_{label.upper()} is not an executable: {binary!r}")
    os.makedirs(os.path.join(out, "runs"), exist_ok=True)
    for variant, (corpus, _, models) in VARIANTS.items():
        queries = qm.read_jsonl(os.path.join(out, variant, "queries.jsonl"))
        for model in models:
            db = os.path.join(out, f"{corpus}-{model}.hush")
            for label, binary in binaries.items():
                path = os.path.join(out, "runs", f"{variant}-{model}-{label}.jsonl")
                if os.path.exists(path):
                    continue
                started = time.time()
                with ThreadPoolExecutor(JOBS) as pool:
                    results = list(pool.map(lambda q: summarize(binary, db, q["query"]), queries))
                dd.write_jsonl(path + ".part", results)
                os.replace(path + ".part", path)
                errors = sum("error" in r for r in results)
                print(f"ran {variant} {model} {label}: {len(results)} queries, {errors} errors, "
                      f"{time.time() - started:.0f} s", flush=True)


def squash(text):
    return " ".join(text.split())


def within(sentence, text):
    """Whether the sentence lies in the text as written (whitespace collapsed; "[link]" and "@user", which
    Hush's cleaner puts in place of URLs and mentions, match any run of characters)."""
    sentence, text = squash(sentence), squash(text)
    if sentence in text:
        return True
    pieces = [p.strip() for p in re.split(r"\[link\]|@user", sentence)]
    if len(pieces) == 1:
        return False
    at = 0
    for piece in pieces:
        found = text.find(piece, at)
        if found < 0:
            return False
        at = found + len(piece)
    return True


def score(query, result):
    """(on, off, unmatched, found, elsewhere but also in A's part) for one summary."""
    on = off = unmatched = echo = 0
    for s in result.get("sentences", []):
        if s["id"] != query["id"]:
            off += 1
            echo += within(s["text"], query["a"])
        elif within(s["text"], query["a"]):
            on += 1
        elif within(s["text"], query["b"]):
            off += 1
        else:
            unmatched += 1
    return on, off, unmatched, query["id"] in result.get("documents", []), echo


def share(part, whole):
    return part / whole if whole else None


def measures(rows):
    """Totals and shares over score()'s tuples."""
    chosen = sum(r[0] + r[1] + r[2] for r in rows)
    found = [r for r in rows if r[3]]
    chosen_found = sum(r[0] + r[1] + r[2] for r in found)
    return {"queries": len(rows), "found": share(len(found), len(rows)), "sentences": chosen,
            "sentences_mean": share(chosen, len(rows)), "on": share(sum(r[0] for r in rows), chosen),
            "off": share(sum(r[1] for r in rows), chosen), "unmatched": sum(r[2] for r in rows),
            "off_elsewhere_also_in_a": sum(r[4] for r in rows),
            "on_found": share(sum(r[0] for r in found), chosen_found),
            "off_found": share(sum(r[1] for r in found), chosen_found),
            "queries_all_on": share(sum(1 for r in rows if r[0] == SENTENCES), len(rows))}


def fmt(value):
    return "—" if value is None else f"{value:.3f}"


def pair(old, new, field, digits=3):
    a, b = old[field], new[field]
    if a is None or b is None:
        return "—"
    return f"{a:.{digits}f} → {b:.{digits}f}"


def cmd_report(out):
    with open(os.path.join(out, "meta.json")) as f:
        meta = json.load(f)
    results = {"meta": meta, "binaries": {"old": HUSH_OLD, "new": HUSH_NEW}, "stores": {}, "runs": {}}
    for name, _, _ in stores():
        path = os.path.join(out, f"{name}.index.json")
        if os.path.exists(path):
            with open(path) as f:
                results["stores"][name] = json.load(f)
    lines = ["| variant | model | queries | found old → new | on-topic old → new | on-topic, found old → new "
             "| off-topic old → new | sentences old → new | queries new better / worse |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for variant, (_, _, models) in VARIANTS.items():
        queries = qm.read_jsonl(os.path.join(out, variant, "queries.jsonl"))
        for model in models:
            scored = {}
            for label in ("old", "new"):
                path = os.path.join(out, "runs", f"{variant}-{model}-{label}.jsonl")
                if not os.path.exists(path):
                    continue
                runs = qm.read_jsonl(path)
                scored[label] = [score(q, r) for q, r in zip(queries, runs)]
                results["runs"][f"{variant}-{model}-{label}"] = {
                    **measures(scored[label]), "errors": sum("error" in r for r in runs),
                    "seconds_mean": sum(r["seconds"] for r in runs) / len(runs)}
            if len(scored) < 2:
                continue
            old, new = (results["runs"][f"{variant}-{model}-{label}"] for label in ("old", "new"))
            better = sum(n[0] > o[0] for o, n in zip(scored["old"], scored["new"]))
            worse = sum(n[0] < o[0] for o, n in zip(scored["old"], scored["new"]))
            results["runs"][f"{variant}-{model}-new"].update({"better": better, "worse": worse})
            lines.append(f"| {variant} | {model} | {len(queries)} | {pair(old, new, 'found')} "
                         f"| {pair(old, new, 'on')} | {pair(old, new, 'on_found')} | {pair(old, new, 'off')} "
                         f"| {pair(old, new, 'sentences_mean', 2)} | {better} / {worse} |")
    print("\n".join(lines))
    unmatched = {k: v["unmatched"] for k, v in results["runs"].items() if v["unmatched"]}
    errors = {k: v["errors"] for k, v in results["runs"].items() if v["errors"]}
    if unmatched or errors:
        print(f"\nunmatched sentences (from A+B, in neither part): {unmatched}; failed summaries: {errors}")
    steps.write_results(out, results)


if __name__ == "__main__":
    steps.main(__doc__, {"data": cmd_data, "index": cmd_index, "run": cmd_run, "report": cmd_report}, OUT)
