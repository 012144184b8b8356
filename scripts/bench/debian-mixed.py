#!/usr/bin/env python3
"""Held-out check of "search across languages" on mixed-language stores of Debian package descriptions.

Nothing here was used to choose the rule (docs/cli.md, `explain.language_shift`): the data are Debian 13
(trixie) main's Translation-* files, and every package seen before is left out, i.e. those of
debian-descriptions.py's sets A, B and C (DEBDESC/A/corpus-name.jsonl, C/corpus-name.jsonl, B/corpus.jsonl) and
every package with a zh_CN translation. A translation is paired with its English original by (Package,
Description-md5) and kept only when its long description is non-empty and differs from the English one; one
package per English Description-md5.

Each package is stored in exactly one language ("kept" language): languages are filled scarcest first, each
with the first packages, in its own order (sha1 of "LANG:name"), that have a usable translation in it and are
not yet taken; English last, from the packages left that have a usable translation in at least one of LANGS.
Documents: id = title = package name, text = the long description in the kept language (" ." lines are
paragraph breaks, wrapped lines joined; Japanese as debian-descriptions.py's zh_long_text), no "language"
field (Hush guesses it).

Stores (e5-small):
  E-bal    QUOTA_BAL (250) packages in each of LANGS (the languages with at least MIN_TRANSLATED usable
           translations) and in English
  E-unbal  QUOTA_EN (3000) in English and QUOTA_UNBAL (250) in each of UNBAL_LANGS (de, ja, ru)
Query sets per store and kept language L (short descriptions; identical texts grouped, relevant = every
package of the set with that text; sets under MIN_QUERIES (50) left out, the others cut to MAX_QUERIES (300) by
sha1 of the text):
  L        the short description in L of the packages kept in L ("own")
  en-L     the English short description of the packages kept in L (L ≠ en)
  L-en     the short description in L of the packages kept in English that have an L translation
A short description in L equal to the English one is not an L query (left out of L and L-en).

Per store: `hush build --model e5-small --threads $THREADS`, `hush stats --json`, the guessed document languages
(read from the store's documents table, as `hush stats` does not show them); per query set `hush eval --mode
semantic|hybrid`, each with `--no-across-languages` ("raw") and without ("default"), with `--evidence` (for
the share of queries whose first hit is in the query set's target language).

    debian-mixed.py all [OUT]      data, run, report (data and each store, stats and eval of run skipped when
                                   its output exists, i.e. OUT/meta.json, OUT/stores/*, OUT/evals/*: delete it
                                   to redo; report only reads them and is always rewritten)
    debian-mixed.py data [OUT]     apt lists into OUT/apt-lists (own folder and sources file; the system's
                                   lists are not touched), corpora and query files under OUT/<store>/
    debian-mixed.py run [OUT]      stores, stats, evals
    debian-mixed.py report [OUT]   markdown tables to stdout and OUT/report.md, all numbers to
                                   OUT/results.json

Environment: OUT (/tmp/hush-debmixed), HUSH (/tmp/s48/hush-final2), NICE (19: every apt-get and hush call
runs under `nice -n $NICE`), THREADS (1: hush's worker threads), STORES (E-bal,E-unbal: the stores `run`
makes), DEBDESC (/tmp/hush-debdesc: debian-descriptions.py's OUT,
for the packages to leave out), SUITE (trixie), MIRROR (http://deb.debian.org/debian), CANDIDATE_LANGS
(de,fr,it,ja,ru,es,pt_BR,nl,pl), MIN_TRANSLATED (400), UNBAL_LANGS (de,ja,ru), QUOTA_BAL (250), QUOTA_EN (3000),
QUOTA_UNBAL (250), MIN_QUERIES (50), MAX_QUERIES (300).
"""
import collections, glob, hashlib, importlib.util, json, os, sqlite3, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.environ.get("OUT", "/tmp/hush-debmixed")
HUSH = os.environ.get("HUSH", "/tmp/s48/hush-final2")
NICE = os.environ.get("NICE", "19")
DEBDESC = os.environ.get("DEBDESC", "/tmp/hush-debdesc")
SUITE = os.environ.get("SUITE", "trixie")
MIRROR = os.environ.get("MIRROR", "http://deb.debian.org/debian")
CANDIDATE_LANGS = os.environ.get("CANDIDATE_LANGS", "de,fr,it,ja,ru,es,pt_BR,nl,pl").split(",")
MIN_TRANSLATED = int(os.environ.get("MIN_TRANSLATED", "400"))
UNBAL_LANGS = os.environ.get("UNBAL_LANGS", "de,ja,ru").split(",")
QUOTA_BAL = int(os.environ.get("QUOTA_BAL", "250"))
QUOTA_EN = int(os.environ.get("QUOTA_EN", "3000"))
QUOTA_UNBAL = int(os.environ.get("QUOTA_UNBAL", "250"))
MIN_QUERIES = int(os.environ.get("MIN_QUERIES", "50"))
MAX_QUERIES = int(os.environ.get("MAX_QUERIES", "300"))
MODES = ["semantic", "hybrid"]
VARIANTS = {"raw": ["--no-across-languages"], "default": []}
STORES = os.environ.get("STORES", "E-bal,E-unbal").split(",")
THREADS = os.environ.get("THREADS", "1")
WIDE = {"ja"}  # long text joined as debian-descriptions.py's zh_long_text


def load(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, file))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


dd = load("debian_descriptions", "debian-descriptions.py")  # read_index, grouped_queries, zh_long_text, write_jsonl
fq, qm = dd.fq, dd.qm  # long_text; read_jsonl


def sha1(text):
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def list_file(lists, lang):
    found = glob.glob(os.path.join(lists, f"*_{SUITE}_main_i18n_Translation-{lang.replace('_', '%5f')}*"))
    return found[0] if found else None


def fetch_lists(lists, sources, langs):
    """Translation-en, the candidates' and zh_CN (to leave its packages out) into `lists`; skipped when the
    English and zh_CN files are there."""
    if list_file(lists, "en") and list_file(lists, "zh_CN"):
        return
    os.makedirs(os.path.join(lists, "partial"), exist_ok=True)
    with open(sources, "w") as f:
        f.write(f"Types: deb\nURIs: {MIRROR}\nSuites: {SUITE}\nComponents: main\n"
                "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n")
    subprocess.run(["nice", "-n", NICE, "apt-get", "update", "-o", f"Dir::State::Lists={lists}",
                    "-o", "Acquire::Languages=" + ",".join(["en", *langs, "zh_CN"]), "-o", "APT::Sandbox::User=root",
                    "-o", f"Dir::Etc::SourceList={sources}", "-o", "Dir::Etc::SourceParts=/dev/null"], check=True)


def split_description(description, lang):
    """(short description, long text) of a Description-* field."""
    short, _, rest = description.partition("\n")
    lines = rest.split("\n") if rest else []
    text = dd.zh_long_text(lines) if lang in WIDE else fq.long_text(lines)
    return " ".join(short.split()), text


def used_before():
    names = set()
    for path in ("A/corpus-name.jsonl", "C/corpus-name.jsonl", "B/corpus.jsonl"):
        names |= {d["id"] for d in qm.read_jsonl(os.path.join(DEBDESC, path))}
    return names


def assign(pool, usable, quotas):
    """Package -> kept language: the scarcest language first, each taking the first packages of `pool` usable
    in it and not yet taken, in its own order (sha1 of "LANG:name"), so that one language's packages are not
    the others' leftovers."""
    kept = {}
    for lang in sorted(quotas, key=lambda l: (len(usable[l]), l)):
        order = sorted((p for p in pool if p not in kept and p in usable[lang]), key=lambda p: sha1(f"{lang}:{p}"))
        kept.update((p, lang) for p in order[:quotas[lang]])
    return kept


def capped(queries):
    """At most MAX_QUERIES, the first by sha1 of the text, in their original order."""
    if len(queries) <= MAX_QUERIES:
        return queries
    keep = set(sorted((sha1(q["query"]) for q in queries))[:MAX_QUERIES])
    return [q for q in queries if sha1(q["query"]) in keep]


def cmd_data(out):
    if os.path.exists(os.path.join(out, "meta.json")):
        return
    lists = os.path.join(out, "apt-lists")
    fetch_lists(lists, os.path.join(out, f"{SUITE}.sources"), CANDIDATE_LANGS)
    en_rows = dd.read_index(list_file(lists, "en"))
    skip = used_before()
    skipped_before = len(skip)
    skip |= {r["Package"] for r in dd.read_index(list_file(lists, "zh_CN"))}
    english, seen_md5 = {}, set()  # package -> (md5, short, text)
    for r in sorted(en_rows, key=lambda r: sha1(r["Package"])):
        name, md5 = r["Package"], r["Description-md5"]
        if name in skip or md5 in seen_md5 or name in english:
            continue
        short, text = split_description(r["Description-en"], "en")
        if short and text.strip():
            seen_md5.add(md5)
            english[name] = (md5, short, text)

    # Usable translations per language: paired by (Package, Description-md5), long text non-empty and not the
    # English one.
    trans, coverage, dropped = {}, {}, {}
    for lang in CANDIDATE_LANGS:
        path = list_file(lists, lang)
        if path is None:
            dropped[lang] = "no Translation file fetched"
            continue
        found = {}
        for r in dd.read_index(path):
            name = r["Package"]
            if name not in english or r["Description-md5"] != english[name][0]:
                continue
            short, text = split_description(r.get(f"Description-{lang}", ""), lang)
            if text.strip() and text.strip() != english[name][2].strip():
                found[name] = (short, text)
        coverage[lang] = len(found)
        if len(found) < MIN_TRANSLATED:
            dropped[lang] = f"{len(found)} usable translations (< {MIN_TRANSLATED})"
        else:
            trans[lang] = found
    langs = [l for l in CANDIDATE_LANGS if l in trans]
    pool = sorted((p for p in english if any(p in trans[l] for l in langs)), key=sha1)

    meta = {"suite": SUITE, "en_entries": len(en_rows), "left_out_used_before": skipped_before,
            "left_out_with_zh_CN": len(skip), "english_usable": len(english), "usable_translations": coverage,
            "dropped_languages": dropped, "languages": langs, "pool": len(pool), "stores": {}}
    for path in glob.glob(os.path.join(lists, "*_InRelease")):
        head = open(path, encoding="utf-8", errors="replace").read(4000)
        meta["release"] = dict(line.split(": ", 1) for line in head.splitlines()
                               if line.startswith(("Suite: ", "Version: ", "Date: ")))

    quotas = {"E-bal": {**{l: QUOTA_BAL for l in langs}, "en": QUOTA_BAL},
              "E-unbal": {**{l: QUOTA_UNBAL for l in UNBAL_LANGS if l in trans}, "en": QUOTA_EN}}
    for store, quota in quotas.items():
        usable = {l: trans[l] for l in quota if l != "en"}
        usable["en"] = set(pool)
        kept = assign(pool, usable, quota)
        docs = [{"id": p, "title": p, "text": english[p][2] if l == "en" else trans[l][p][1]}
                for p, l in sorted(kept.items())]
        dd.write_jsonl(os.path.join(out, store, "corpus.jsonl"), docs)
        with open(os.path.join(out, store, "kept.json"), "w") as f:
            json.dump(kept, f, indent=0, sort_keys=True)
        by_lang = collections.defaultdict(list)
        for p, l in sorted(kept.items()):
            by_lang[l].append(p)
        sets = {}
        for lang in quota:
            own = by_lang[lang]
            pairs = {lang: [(english[p][1] if lang == "en" else trans[lang][p][0], p) for p in own
                            if lang == "en" or trans[lang][p][0] != english[p][1]]}
            if lang != "en":
                pairs[f"en-{lang}"] = [(english[p][1], p) for p in own]
                pairs[f"{lang}-en"] = [(trans[lang][p][0], p) for p in by_lang["en"]
                                       if p in trans[lang] and trans[lang][p][0] != english[p][1]]
            for name, rows in pairs.items():
                grouped = dd.grouped_queries(rows)
                info = {"target": lang if name != f"{lang}-en" else "en", "grouped": len(grouped)}
                if len(grouped) >= MIN_QUERIES:
                    grouped = capped(grouped)
                    dd.write_jsonl(os.path.join(out, store, f"queries-{name}.jsonl"), grouped)
                info["queries"] = len(grouped) if len(grouped) >= MIN_QUERIES else 0
                sets[name] = info
        meta["stores"][store] = {"documents": len(docs), "kept": {l: len(by_lang[l]) for l in quota},
                                 "text_chars_mean": {l: round(sum(len(trans[l][p][1] if l != "en" else english[p][2])
                                                                  for p in by_lang[l]) / max(1, len(by_lang[l])))
                                                     for l in quota},
                                 "query_sets": sets}
    with open(os.path.join(out, "meta.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f, ensure_ascii=False, indent=1)
    print(json.dumps({k: meta[k] for k in ("usable_translations", "dropped_languages", "languages", "pool")}))
    for store, m in meta["stores"].items():
        print(store, m["kept"], {k: v["queries"] for k, v in m["query_sets"].items()})


def hush(*args):
    proc = subprocess.run(["nice", "-n", NICE, HUSH, *args], capture_output=True, text=True, check=True)
    return json.loads([line for line in proc.stdout.splitlines() if line.lstrip().startswith("{")][-1])


def guessed_languages(db):
    """Documents per language Hush guessed, from the store's documents table (read only)."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as c:
        rows = c.execute("SELECT external_id, language FROM documents").fetchall()
    return dict(rows)


def query_sets(out, store):
    meta = json.load(open(os.path.join(out, "meta.json"), encoding="utf-8"))
    return {k: v for k, v in meta["stores"][store]["query_sets"].items() if v["queries"]}


def cmd_run(out):
    os.makedirs(os.path.join(out, "stores"), exist_ok=True)
    os.makedirs(os.path.join(out, "evals"), exist_ok=True)
    for store in STORES:
        db = os.path.join(out, "stores", f"{store}.hush")
        build = os.path.join(out, "stores", f"{store}.build.json")
        if not os.path.exists(build):
            started = time.time()
            report = hush("build", "--from", os.path.join(out, store, "corpus.jsonl"), "--out", db, "--model",
                          "e5-small", "--threads", THREADS, "--quiet", "--json", "--force")
            report["wall_seconds"] = time.time() - started
            with open(build, "w") as f:
                json.dump(report, f)
            print(f"built {store}: {report.get('documents')} documents, {report.get('chunks')} chunks, "
                  f"{report['wall_seconds']:.0f} s", flush=True)
        stats = os.path.join(out, "stores", f"{store}.stats.json")
        if not os.path.exists(stats):
            with open(stats, "w") as f:
                json.dump({"stats": hush("stats", "--db", db, "--json"), "guessed": guessed_languages(db)}, f)
        for name in query_sets(out, store):
            for mode in MODES:
                for variant, extra in VARIANTS.items():
                    stem = os.path.join(out, "evals", f"{store}__{name}__{mode}__{variant}")
                    if os.path.exists(stem + ".json"):
                        continue
                    started = time.time()
                    result = hush("eval", "--db", db, "--queries", os.path.join(out, store, f"queries-{name}.jsonl"),
                                  "--mode", mode, "--threads", THREADS, "--json", "--evidence", stem + ".evidence.jsonl",
                                  *extra)
                    result["wall_seconds"] = time.time() - started
                    with open(stem + ".json", "w") as f:
                        json.dump(result, f)
                    print(f"eval {store} {name} {mode} {variant}: nDCG@10 {result['ndcg@10']:.3f} "
                          f"({result['wall_seconds']:.0f} s)", flush=True)


def first_hits(path, kept, target):
    """Share of the queries whose first hit is kept in `target`, and the first hits' kept languages."""
    counts, n = collections.Counter(), 0
    for line in qm.read_jsonl(path):
        if line["hits"]:
            counts[kept.get(line["hits"][0]["id"], "?")] += 1
        n += 1
    return counts[target] / max(1, n), dict(counts)


def cmd_report(out):
    meta = json.load(open(os.path.join(out, "meta.json"), encoding="utf-8"))
    results = {"meta": meta, "stores": {}, "evals": {}}
    lines = ["| store | query set → target | n | semantic raw → default | hybrid raw → default "
             "| first hit in target, semantic raw → default | hybrid raw → default |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    composition = ["| store | kept language | documents | mean text chars | guessed by Hush |",
                   "| --- | --- | ---: | ---: | --- |"]
    timing = ["| store | documents / chunks | build s | evals s (all) |", "| --- | ---: | ---: | ---: |"]
    by_kind = collections.defaultdict(list)  # (store, kind, mode, variant) -> the query sets' nDCG@10
    for store in STORES:
        kept = json.load(open(os.path.join(out, store, "kept.json")))
        stats_path = os.path.join(out, "stores", f"{store}.stats.json")
        if not os.path.exists(stats_path):
            continue
        stats = json.load(open(stats_path))
        build = json.load(open(os.path.join(out, "stores", f"{store}.build.json")))
        m = meta["stores"][store]
        confusion = collections.defaultdict(collections.Counter)
        for doc, guess in stats["guessed"].items():
            confusion[kept[doc]][guess] += 1
        results["stores"][store] = {"stats": stats["stats"], "build_seconds": build["wall_seconds"],
                                    "guessed_by_kept": {k: dict(v) for k, v in confusion.items()}}
        for lang, n in m["kept"].items():
            guesses = ", ".join(f"{g} {c}" for g, c in confusion[lang].most_common())
            composition.append(f"| {store} | {lang} | {n} | {m['text_chars_mean'][lang]} | {guesses} |")
        eval_seconds = 0.0
        for name, info in query_sets(out, store).items():
            cells, firsts = {}, {}
            for mode in MODES:
                for variant in VARIANTS:
                    stem = os.path.join(out, "evals", f"{store}__{name}__{mode}__{variant}")
                    if not os.path.exists(stem + ".json"):
                        continue
                    r = json.load(open(stem + ".json"))
                    share, langs = first_hits(stem + ".evidence.jsonl", kept, info["target"])
                    r["first_hit_target_share"], r["first_hit_languages"] = share, langs
                    results["evals"][f"{store}__{name}__{mode}__{variant}"] = r
                    eval_seconds += r["wall_seconds"]
                    cells[(mode, variant)], firsts[(mode, variant)] = r["ndcg@10"], share
                    kind = "own" if "-" not in name else ("en → L" if name.startswith("en-") else "L → en")
                    by_kind[(store, kind, mode, variant)].append(r["ndcg@10"])

            def nd(mode):
                if (mode, "raw") not in cells or (mode, "default") not in cells:
                    return "—"
                raw, new = cells[(mode, "raw")], cells[(mode, "default")]
                return f"{raw:.3f} → {new:.3f} ({new - raw:+.3f})"

            def fh(mode):
                if (mode, "raw") not in firsts or (mode, "default") not in firsts:
                    return "—"
                return f"{firsts[(mode, 'raw')]:.0%} → {firsts[(mode, 'default')]:.0%}"

            lines.append(f"| {store} | {name} → {info['target']} | {info['queries']} | {nd('semantic')} "
                         f"| {nd('hybrid')} | {fh('semantic')} | {fh('hybrid')} |")
        timing.append(f"| {store} | {stats['stats'].get('documents')} / {stats['stats'].get('chunks')} "
                      f"| {build['wall_seconds']:.0f} | {eval_seconds:.0f} |")
    summary = ["| store | query sets | semantic raw → default | hybrid raw → default |", "| --- | --- | ---: | ---: |"]
    for store in STORES:
        for kind in ("own", "en → L", "L → en"):
            cells = []
            for mode in MODES:
                raw, new = by_kind.get((store, kind, mode, "raw")), by_kind.get((store, kind, mode, "default"))
                if not raw or not new:
                    break
                raw, new = sum(raw) / len(raw), sum(new) / len(new)
                cells.append(f"{raw:.3f} → {new:.3f} ({new - raw:+.3f})")
            if len(cells) == len(MODES):
                n = len(by_kind[(store, kind, MODES[0], "raw")])
                summary.append(f"| {store} | {kind} ({n}) | " + " | ".join(cells) + " |")
    skipped = [f"{store} {name} ({info['grouped']})" for store in STORES
               for name, info in meta["stores"][store]["query_sets"].items() if not info["queries"]]
    text = "\n".join(
        ["## nDCG@10, raw (`--no-across-languages`) → default", "", *lines, "",
         f"Query sets left out (fewer than {MIN_QUERIES} queries): " + (", ".join(skipped) or "none") + ".", "",
         "## Mean over the query sets of each kind (unweighted)", "", *summary, "",
         "## Store composition", "", *composition, "", "## Run times (one thread, nice 19)", "", *timing, "",
         f"Languages: {', '.join(meta['languages'])}; dropped: "
         + (", ".join(f"{l} ({why})" for l, why in meta["dropped_languages"].items()) or "none") + "."])
    print(text)
    with open(os.path.join(out, "report.md"), "w", encoding="utf-8") as f:
        f.write(text + "\n")
    with open(os.path.join(out, "results.json"), "w", encoding="utf-8") as f:
        json.dump(results, f, ensure_ascii=False, indent=1)


def cmd_all(out):
    cmd_data(out)
    cmd_run(out)
    cmd_report(out)


if __name__ == "__main__":
    args = sys.argv[1:]
    commands = {"all": cmd_all, "data": cmd_data, "run": cmd_run, "report": cmd_report}
    if not args or args[0] not in commands:
        sys.exit(__doc__)
    target = args[1] if len(args) > 1 else OUT
    os.makedirs(target, exist_ok=True)
    commands[args[0]](target)
