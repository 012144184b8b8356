#!/usr/bin/env python3
"""How well Hush's portable language identifier (the one every platform without NaturalLanguage uses) names
the language of real text: Debian's package descriptions in each language their translators write.

What it measures
  Per language, up to N long descriptions (the translation's long text, paragraphs joined) and up to N short
  ones (the one-line summaries, 12 letters or more), from Debian 13 (trixie) main's Translation-* files: the
  share Hush files under the right language, and what it files the others under. Texts are indexed with
  `hush index --lexical` (no model: the language is guessed while a document is prepared) and read back from
  the store's `documents.language` column. A translation identical to the English text is left out.
  Packages are split by sha1 of their name: even ones to look at while writing profiles, odd ones to report.

    language-id.py data OUT      apt lists into OUT/apt (the system's are not touched), OUT/texts.jsonl
    language-id.py run OUT       the store and OUT/results.json (HUSH = the binary)
    language-id.py report OUT    accuracy tables (markdown) on stdout

    language-id.py compare OUT A B   two runs side by side (OUT/A.json, OUT/B.json: results files kept by renaming)

Environment: OUT (/tmp/hush-langid), HUSH (.build/release/hush), N (300 per language and kind), SPLIT (odd)
"""
import collections, glob, hashlib, importlib.util, json, os, sqlite3, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.environ.get("OUT", "/tmp/hush-langid")
HUSH = os.environ.get("HUSH", os.path.join(HERE, "..", "..", ".build", "release", "hush"))
N = int(os.environ.get("N", "300"))
SPLIT = os.environ.get("SPLIT", "odd")
# Debian translation code -> the code Hush should answer (pt_BR is Portuguese, nb Norwegian Bokmål).
LANGUAGES = {"en": "en", "de": "de", "fr": "fr", "es": "es", "it": "it", "pt_BR": "pt", "pt": "pt", "nl": "nl",
             "pl": "pl", "cs": "cs", "sk": "sk", "da": "da", "sv": "sv", "nb": "nb", "fi": "fi", "hu": "hu",
             "tr": "tr", "ro": "ro", "vi": "vi", "id": "id", "ca": "ca", "hr": "hr", "ru": "ru", "uk": "uk"}
SOURCES = """Types: deb
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
"""


def load(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, file))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


fq = load("feed_quality", "feed-quality.py")  # stanzas, long_text


def half(name):
    return "even" if int(hashlib.sha1(name.encode()).hexdigest(), 16) % 2 == 0 else "odd"


def cmd_data(out):
    lists = os.path.join(out, "apt")
    if not glob.glob(os.path.join(lists, "*Translation-pl*")):
        os.makedirs(os.path.join(lists, "partial"), exist_ok=True)
        sources = os.path.join(out, "trixie.sources")
        with open(sources, "w") as f:
            f.write(SOURCES)
        subprocess.run(["apt-get", "update", "-o", f"Dir::State::Lists={lists}",
                        "-o", "Acquire::Languages=" + ",".join(LANGUAGES), "-o", "APT::Sandbox::User=root",
                        "-o", f"Dir::Etc::SourceList={sources}", "-o", "Dir::Etc::SourceParts=/dev/null"],
                       check=True)
    english = {}
    rows = []
    files = {}
    for path in glob.glob(os.path.join(lists, "*_i18n_Translation-*")):
        code = path.split("_i18n_Translation-")[1].split(".")[0].replace("%5f", "_")
        if code in LANGUAGES:
            files[code] = path
    def read(path):
        return subprocess.run(["/usr/lib/apt/apt-helper", "cat-file", path], capture_output=True, text=True,
                              check=True).stdout
    for r in fq.stanzas(read(files["en"])):
        english[r.get("Package"), r.get("Description-md5")] = r.get("Description-en", "")
    for code in sorted(files):
        counts = collections.Counter()
        entries = sorted(fq.stanzas(read(files[code])), key=lambda r: hashlib.sha1(r.get("Package", "").encode()).hexdigest())
        for r in entries:
            text = r.get(f"Description-{code}")
            name = r.get("Package", "")
            if not text or not name:
                continue
            lines = text.split("\n")
            short, long = lines[0].strip(), fq.long_text(lines[1:])
            original = english.get((name, r.get("Description-md5")), "")
            if code != "en" and original.split("\n")[0].strip() == short:
                continue  # not translated
            split = half(name)
            for kind, body in (("long", long), ("short", short)):
                letters = sum(ch.isalpha() for ch in body)
                if letters < (12 if kind == "short" else 60) or counts[split, kind] >= N:
                    continue
                counts[split, kind] += 1
                rows.append({"id": f"{code}/{kind}/{name}", "text": body, "expected": LANGUAGES[code],
                             "debian": code, "kind": kind, "split": split})
        print(code, dict(counts))
    with open(os.path.join(out, "texts.jsonl"), "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")


def cmd_run(out):
    store = os.path.join(out, "langid.hush")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(store + suffix):
            os.remove(store + suffix)
    texts = os.path.join(out, "texts.jsonl")
    docs = os.path.join(out, "docs.jsonl")
    with open(texts, encoding="utf-8") as f, open(docs, "w", encoding="utf-8") as g:
        for line in f:
            row = json.loads(line)
            g.write(json.dumps({"id": row["id"], "text": row["text"]}, ensure_ascii=False) + "\n")
    subprocess.run([HUSH, "index", "--db", store, "--lexical", "--quiet", docs], check=True)
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    found = dict(db.execute("SELECT external_id, language FROM documents"))
    db.close()
    results = []
    with open(texts, encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            results.append({**{k: row[k] for k in ("id", "expected", "debian", "kind", "split")},
                            "found": found.get(row["id"])})
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump(results, f)


def cmd_report(out):
    with open(os.path.join(out, "results.json")) as f:
        results = [r for r in json.load(f) if SPLIT == "all" or r["split"] == SPLIT]
    by = collections.defaultdict(list)
    for r in results:
        by[r["expected"], r["kind"]].append(r["found"])
    print(f"Packages: {SPLIT}. Share filed under the right language (n), and the commonest wrong answers.\n")
    print("| language | long: right | long: wrong as | short: right | short: wrong as |")
    print("| --- | ---: | --- | ---: | --- |")
    for language in sorted({k[0] for k in by}):
        cells = []
        for kind in ("long", "short"):
            found = by.get((language, kind), [])
            if not found:
                cells += ["–", ""]
                continue
            right = sum(x == language for x in found)
            wrong = collections.Counter(x for x in found if x != language).most_common(3)
            cells += [f"{right / len(found):.3f} ({len(found)})", ", ".join(f"{k} {v}" for k, v in wrong)]
        print(f"| {language} | " + " | ".join(cells) + " |")


def cmd_compare(out, before, after):
    def load(name):
        with open(os.path.join(out, name + ".json")) as f:
            rows = [r for r in json.load(f) if SPLIT == "all" or r["split"] == SPLIT]
        by = collections.defaultdict(list)
        for r in rows:
            by[r["expected"], r["kind"]].append(r["found"] == r["expected"])
        return by
    a, b = load(before), load(after)
    print(f"Packages: {SPLIT}. Share filed under the right language, {before} -> {after} (n).\n")
    print("| language | long | short |")
    print("| --- | ---: | ---: |")
    for language in sorted({k[0] for k in b}):
        cells = []
        for kind in ("long", "short"):
            x, y = a.get((language, kind), []), b.get((language, kind), [])
            cells.append(f"{sum(x) / len(x):.3f} → {sum(y) / len(y):.3f} ({len(y)})" if y else "–")
        print(f"| {language} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    step = sys.argv[1] if len(sys.argv) > 1 else "report"
    out = sys.argv[2] if len(sys.argv) > 2 else OUT
    os.makedirs(out, exist_ok=True)
    if step == "compare":
        cmd_compare(out, sys.argv[3], sys.argv[4])
    else:
        {"data": cmd_data, "run": cmd_run, "report": cmd_report}[step](out)
