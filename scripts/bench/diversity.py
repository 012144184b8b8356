#!/usr/bin/env python3
"""Diversified search (`hush search --diverse`, MMR with λ 0.7 over the stored document vectors): does it keep
near-duplicates from crowding the top, and does the answer stay on top?

Data: Debian bookworm main's package descriptions, read with debian-descriptions.py from its apt lists (the
Packages file for each binary package's source package and Description-md5, Translation-en for its English
description). A family is a source package (a binary package without a Source field is its own). Families of 2
to 8 binary packages, each with a non-empty long description and not all the same, are natural near-duplicates
(foo, foo-data, foo-doc, libfoo-dev describe the same software with small differences); families of one package
are background. Taken in order of the sha1 of the source name: FAMILIES such families and SINGLES single ones.
Documents: id = title = package name, text = the long description, language en. Queries: the first QUERIES
families; the query is the short description of the family's first package (by name), relevant = every package
of the family.

Stores: `hush index --model e5-small` and `--model minilm`, built once by HUSH_NEW (both binaries read them).
Per model, mode (hybrid, semantic), binary (HUSH_OLD, HUSH_NEW) and query: `hush search --k 10 --json`, without
and with --diverse. Per (model, mode, binary, diverse), means over the queries of: distinct families in the top
10; the share of the top 10 from the query's family; the family's recall (its packages in the top 10 over
min(family size, 10)); MRR@10 of the first hit from the family (and, in results.json only, of the package whose
short description is the query); the distinct other families in the top 10; the share of same-family pairs
among the top 10's pairs and their mean pairwise word-set Jaccard (intra-list redundancy). And the share of
queries whose top 10 --diverse re-orders (changes) against the same binary without it. Without --diverse both
binaries should give the same hits; the report says where they do not.

    diversity.py all [OUT]      data, index, run, report (each step skipped when its output exists: OUT/meta.json,
                                OUT/<model>.index.json, OUT/runs/*.jsonl; delete it to redo)
    diversity.py data [OUT]     OUT/corpus.jsonl and OUT/queries.jsonl
    diversity.py index [OUT]    the stores OUT/<model>.hush
    diversity.py run [OUT]      the searches, OUT/runs/<model>-<mode>-<old|new>-<plain|diverse>.jsonl
    diversity.py report [OUT]   the markdown table on stdout, all numbers to OUT/results.json

Environment: OUT (/tmp/hush-diversity), HUSH_OLD and HUSH_NEW (the two `hush` binaries; HUSH_NEW defaults to the
package's .build/release/hush), LISTS (/tmp/hush-debdesc/apt-lists: debian-descriptions.py's apt lists),
FAMILIES (1500), SINGLES (3000), QUERIES (300), MODES (hybrid,semantic), MODELS (e5-small,minilm), JOBS (2:
searches run at once, one thread each), NICE (10: every hush call runs under `nice -n $NICE`; stores are built
with 2 threads). Everything is deterministic (sorted inputs, no sampling).
"""
import collections, glob, itertools, json, os, subprocess, sys, time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench_steps as steps  # noqa: E402
from bench_steps import HUSH_NEW, HUSH_OLD, JOBS, LISTS, NICE  # noqa: E402
OUT = os.environ.get("OUT", "/tmp/hush-diversity")
FAMILIES = int(os.environ.get("FAMILIES", "1500"))
SINGLES = int(os.environ.get("SINGLES", "3000"))
QUERIES = int(os.environ.get("QUERIES", "300"))
MODES = os.environ.get("MODES", "hybrid,semantic").split(",")
MODELS = os.environ.get("MODELS", "e5-small,minilm").split(",")
K = 10
SUITE = "bookworm"


dd = steps.load("debian_descriptions", "debian-descriptions.py")  # read_index, write_jsonl, last_json
fq, qm = dd.fq, dd.qm  # long_text; read_jsonl


def one(pattern):
    files = sorted(glob.glob(os.path.join(LISTS, pattern)))
    if len(files) != 1:
        sys.exit(f"expected one {pattern} in {LISTS}, found {files}")
    return files[0]


def families():
    """{source: {package: (short description, long text)}} of the suite's main component, and the two files."""
    packages_file = one(f"*_dists_{SUITE}_main_binary-*_Packages*")
    en_file = one(f"*_dists_{SUITE}_main_i18n_Translation-en*")
    english = {r["Description-md5"]: r["Description-en"] for r in dd.read_index(en_file)}
    result = collections.defaultdict(dict)
    for r in dd.read_index(packages_file):
        description = english.get(r.get("Description-md5"), "")
        short, _, rest = description.partition("\n")
        source = r.get("Source", r["Package"]).split(" ")[0]
        result[source].setdefault(r["Package"], (short.strip(), fq.long_text(rest.split("\n")) if rest else ""))
    return result, packages_file, en_file


def cmd_data(out):
    meta_path = os.path.join(out, "meta.json")
    if os.path.exists(meta_path):
        with open(meta_path) as f:
            made = json.load(f)
        if [made[k] for k in ("families", "singles", "queries")] != [FAMILIES, SINGLES, QUERIES]:
            sys.exit(f"{out} was made with other FAMILIES/SINGLES/QUERIES: use another OUT")
        return
    fams, packages_file, en_file = families()
    complete = {s: v for s, v in fams.items() if all(text.strip() for _, text in v.values())}
    multi = sorted((s for s, v in complete.items() if 2 <= len(v) <= 8 and len({t for _, t in v.values()}) > 1),
                   key=steps.sha1)
    single = sorted((s for s, v in complete.items() if len(v) == 1), key=steps.sha1)
    if len(multi) < FAMILIES or len(single) < SINGLES or QUERIES > FAMILIES:
        sys.exit(f"too few families: {len(multi)} multi, {len(single)} single")
    chosen = multi[:FAMILIES] + single[:SINGLES]
    docs = [{"id": name, "title": name, "text": fams[s][name][1], "language": "en"}
            for s in sorted(chosen) for name in sorted(fams[s])]
    if len({d["id"] for d in docs}) != len(docs):
        sys.exit("ids collide")
    dd.write_jsonl(os.path.join(out, "corpus.jsonl"), docs)
    dd.write_jsonl(os.path.join(out, "families.jsonl"),
                   [{"family": s, "packages": sorted(fams[s])} for s in chosen])
    queries = []
    for s in multi[:QUERIES]:
        first = sorted(fams[s])[0]
        queries.append({"query": fams[s][first][0], "family": s, "first": first, "relevant": sorted(fams[s])})
    dd.write_jsonl(os.path.join(out, "queries.jsonl"), queries)
    sizes = collections.Counter(len(fams[s]) for s in multi[:FAMILIES])
    meta = {"families": FAMILIES, "singles": SINGLES, "queries": QUERIES, "lists": LISTS,
            "packages_file": os.path.basename(packages_file), "en_file": os.path.basename(en_file),
            "eligible_multi": len(multi), "eligible_single": len(single), "documents": len(docs),
            "family_sizes": dict(sorted(sizes.items())),
            "query_family_size_mean": sum(len(q["relevant"]) for q in queries) / len(queries),
            "text_chars_mean": sum(len(d["text"]) for d in docs) / len(docs),
            "query_chars_mean": sum(len(q["query"]) for q in queries) / len(queries)}
    with open(meta_path, "w", encoding="utf-8") as f:
        json.dump(meta, f, ensure_ascii=False, indent=1)
    print(json.dumps(meta), flush=True)


def cmd_index(out):
    for model in MODELS:
        report = os.path.join(out, f"{model}.index.json")
        if os.path.exists(report):
            continue
        started = time.time()
        proc = subprocess.run(["nice", "-n", NICE, HUSH_NEW, "index", "--db", os.path.join(out, f"{model}.hush"),
                               "--model", model, "--threads", "2", "--quiet", "--json",
                               os.path.join(out, "corpus.jsonl")], capture_output=True, text=True, check=True)
        result = dd.last_json(proc.stdout)
        result["wall_seconds"] = time.time() - started
        with open(report, "w") as f:
            json.dump(result, f)
        print(f"indexed {model}: {result['wall_seconds']:.0f} s", flush=True)


def search(binary, db, mode, diverse, query):
    started = time.time()
    proc = subprocess.run(["nice", "-n", NICE, binary, "search", "--db", db, "--k", str(K), "--mode", mode,
                           "--threads", "1", *(["--diverse"] if diverse else []), "--json", query],
                          capture_output=True, text=True)
    seconds = time.time() - started
    if proc.returncode != 0:
        return {"error": proc.stderr.strip()[-500:], "seconds": seconds}
    result = json.loads(proc.stdout)
    return {"ids": [h["id"] for h in result["results"]], "scores": [h.get("score") for h in result["results"]],
            "seconds": seconds}


def run_names():
    """[(run name, model, mode, binary label, diverse)] in the order they run."""
    return [(f"{model}-{mode}-{label}-{'diverse' if diverse else 'plain'}", model, mode, label, diverse)
            for model in MODELS for mode in MODES for label in ("old", "new") for diverse in (False, True)]


def cmd_run(out):
    binaries = {"old": HUSH_OLD, "new": HUSH_NEW}
    for label, binary in binaries.items():
        if not binary or not os.access(binary, os.X_OK):
            sys.exit(f"HUSH_{label.upper()} is not an executable: {binary!r}")
    os.makedirs(os.path.join(out, "runs"), exist_ok=True)
    queries = qm.read_jsonl(os.path.join(out, "queries.jsonl"))
    for name, model, mode, label, diverse in run_names():
        path = os.path.join(out, "runs", f"{name}.jsonl")
        if os.path.exists(path):
            continue
        db = os.path.join(out, f"{model}.hush")
        started = time.time()
        with ThreadPoolExecutor(JOBS) as pool:
            results = list(pool.map(lambda q: search(binaries[label], db, mode, diverse, q["query"]), queries))
        dd.write_jsonl(path + ".part", results)
        os.replace(path + ".part", path)
        errors = sum("error" in r for r in results)
        print(f"ran {name}: {len(results)} queries, {errors} errors, {time.time() - started:.0f} s", flush=True)


def jaccard(a, b):
    return len(a & b) / len(a | b) if a | b else 1.0


def measures(queries, runs, family_of, words):
    rows = []
    for q, r in zip(queries, runs):
        ids = r.get("ids", [])[:K]
        fams = [family_of.get(i, f"?{i}") for i in ids]
        own = [f == q["family"] for f in fams]
        first = next((n + 1 for n, o in enumerate(own) if o), None)
        exact = ids.index(q["first"]) + 1 if q["first"] in ids else None
        pairs = list(itertools.combinations(range(len(ids)), 2))
        rows.append({"distinct": len(set(fams)), "own_share": sum(own) / K,
                     "own_recall": sum(own) / min(len(q["relevant"]), K), "rr": 1 / first if first else 0.0,
                     "rr_exact": 1 / exact if exact else 0.0,
                     "others": len(set(fams) - {q["family"]}),
                     "same_pairs": sum(fams[a] == fams[b] for a, b in pairs) / len(pairs) if pairs else 0.0,
                     "jaccard": sum(jaccard(words[ids[a]], words[ids[b]]) for a, b in pairs) / len(pairs)
                     if pairs else 0.0,
                     "hits": len(ids)})
    return {key: sum(row[key] for row in rows) / len(rows) for key in rows[0]}


def fmt(value, digits=3):
    return "—" if value is None else f"{value:.{digits}f}"


def cmd_report(out):
    with open(os.path.join(out, "meta.json")) as f:
        meta = json.load(f)
    queries = qm.read_jsonl(os.path.join(out, "queries.jsonl"))
    family_of = {p: row["family"] for row in qm.read_jsonl(os.path.join(out, "families.jsonl"))
                 for p in row["packages"]}
    words = {d["id"]: set((d["title"] + " " + d["text"]).lower().split())
             for d in qm.read_jsonl(os.path.join(out, "corpus.jsonl"))}
    results = {"meta": meta, "binaries": {"old": HUSH_OLD, "new": HUSH_NEW}, "stores": {}, "runs": {},
               "plain_old_vs_new": {}}
    for model in MODELS:
        path = os.path.join(out, f"{model}.index.json")
        if os.path.exists(path):
            with open(path) as f:
                results["stores"][model] = json.load(f)
    runs = {}
    for name, *_ in run_names():
        path = os.path.join(out, "runs", f"{name}.jsonl")
        if os.path.exists(path):
            runs[name] = qm.read_jsonl(path)
    lines = ["| model | mode | binary | diverse | distinct families@10 | own-family share@10 | own-family recall@10 "
             "| MRR@10 | other families@10 | same-family pairs@10 | word Jaccard@10 | re-ordered / changed |",
             "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name, model, mode, label, diverse in run_names():
        if name not in runs:
            continue
        r = runs[name]
        entry = {**measures(queries, r, family_of, words), "errors": sum("error" in x for x in r),
                 "seconds_mean": sum(x["seconds"] for x in r) / len(r)}
        moved = "—"
        plain = runs.get(name.replace("-diverse", "-plain")) if diverse else None
        if plain:
            reordered = sum(x.get("ids") != p.get("ids") for x, p in zip(r, plain)) / len(r)
            changed = sum(set(x.get("ids", [])) != set(p.get("ids", [])) for x, p in zip(r, plain)) / len(r)
            entry.update({"reordered_vs_plain": reordered, "set_changed_vs_plain": changed})
            moved = f"{reordered:.2f} / {changed:.2f}"
        results["runs"][name] = entry
        lines.append(f"| {model} | {mode} | {label} | {'on' if diverse else 'off'} | {fmt(entry['distinct'], 2)} "
                     f"| {fmt(entry['own_share'])} | {fmt(entry['own_recall'])} | {fmt(entry['rr'])} "
                     f"| {fmt(entry['others'], 2)} | {fmt(entry['same_pairs'])} | {fmt(entry['jaccard'])} "
                     f"| {moved} |")
    print("\n".join(lines))
    notes = []
    for model in MODELS:
        for mode in MODES:
            old, new = runs.get(f"{model}-{mode}-old-plain"), runs.get(f"{model}-{mode}-new-plain")
            if old and new:
                differ = [q["query"] for q, a, b in zip(queries, old, new) if a.get("ids") != b.get("ids")]
                results["plain_old_vs_new"][f"{model}-{mode}"] = {"queries_differ": len(differ),
                                                                  "examples": differ[:5]}
                if differ:
                    notes.append(f"{model} {mode}: without --diverse the binaries differ on {len(differ)} queries")
    errors = {k: v["errors"] for k, v in results["runs"].items() if v["errors"]}
    print(f"\n{meta['documents']} documents ({meta['families']} families of 2–8 packages, {meta['singles']} "
          f"single), {len(queries)} queries (family size {meta['query_family_size_mean']:.2f} on average)")
    print("without --diverse the binaries agree on every query" if not notes and results["plain_old_vs_new"]
          else "\n".join(notes))
    if errors:
        print(f"failed searches: {errors}")
    steps.write_results(out, results)


if __name__ == "__main__":
    steps.main(__doc__, {"data": cmd_data, "index": cmd_index, "run": cmd_run, "report": cmd_report}, OUT)
