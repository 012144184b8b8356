#!/usr/bin/env python3
"""Search across languages in small stores of many languages (a social feed), two binaries.

The set: GNOME's desktop help (Debian's gnome-user-docs, bookworm), whose 295 pages are translated into the
languages below; a page's translation is the same page, so each query has exactly one relevant document. A
page counts as translated into a language when at most a tenth of its paragraphs are the English ones, and a
language is used when at least 100 pages are (bookworm: ca cs de es fr hr hu id ko nl pl pt ru sr sv uk and en).

Every store holds LANGS languages × PER pages, each page in one language only (its body, at most 1,200
characters, no title; the language is not given, so Hush guesses it as an app's writes would). Each stored page
is asked for by its title in English, in its own language and in one other language of the store, so a query
finds its document in its own language ("same") or another ("cross"). Every binary indexes its own copy of each
store (`hush index --threads 1`) and answers with `hush eval --mode semantic|hybrid --evidence`; the report gives
MRR@10 per binary and the paired difference with a 95 % bootstrap interval (10,000 resamples, seed 35).

A second set, for every language of Hush's language table (38): single LibreOffice interface sentences that
scripts/fixtures/make-language-priors.py did not measure the table on, each stored in one language and asked for
by the same sentence in English and in one other language of the store (cross-language queries only).

    many-languages.py data OUT                  gnome-user-docs (apt-get download), the stores and query files
    many-languages.py data-libreoffice OUT      the LibreOffice set (packages as make-language-priors.py's, in WORK)
    many-languages.py run OUT NAME HUSH         index and evaluate every store with binary HUSH, results OUT/NAME
    many-languages.py report OUT BEFORE AFTER   the markdown table

Environment: SEED (35), WORK (make-language-priors.py's: /tmp/hush-language-priors).
"""
import glob, html, importlib.util, os, random, re, subprocess, sys

_spec = importlib.util.spec_from_file_location(
    "small_bilingual", os.path.join(os.path.dirname(os.path.abspath(__file__)), "small-bilingual.py"))
small_bilingual = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(small_bilingual)
read_jsonl, write_jsonl, interval = small_bilingual.read_jsonl, small_bilingual.write_jsonl, small_bilingual.interval
_spec = importlib.util.spec_from_file_location(
    "language_priors", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures",
                                    "make-language-priors.py"))
language_priors = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(language_priors)

SEED = int(os.environ.get("SEED", "35"))
# Languages Hush's identifier names (pt_BR is "pt"); gnome-user-docs' others (as, gu, kn, lt, lv, mr, pa, sl, te, gl)
# are left out: Hush would file them under another language or none.
LANGUAGES = ["en", "ca", "cs", "da", "de", "el", "es", "fa", "fi", "fr", "he", "hi", "hr", "hu", "id", "it", "ja",
             "ko", "nl", "pl", "pt_BR", "ro", "ru", "sr", "sv", "ta", "tr", "uk", "vi", "zh_CN"]
# (languages per store, pages per language, stores)
CONFIGS = [(2, 4, 12), (6, 2, 10), (12, 1, 10), (8, 3, 6), (4, 10, 4)]


def plain(fragment):
    text = re.sub(r"<[^>]+>", "", fragment)
    return re.sub(r"\s+", " ", html.unescape(text)).strip()


def parse(path):
    """(title, paragraphs) of a Mallard page (the <info> block left out)."""
    with open(path, encoding="utf-8") as f:
        page = f.read()
    page = re.sub(r"<info>.*?</info>", "", page, flags=re.S)
    title = re.search(r"<title[^>]*>(.*?)</title>", page, flags=re.S)
    paragraphs = [plain(p) for p in re.findall(r"<p(?:\s[^>]*)?>(.*?)</p>", page, flags=re.S)]
    return (plain(title.group(1)) if title else ""), [p for p in paragraphs if len(p) > 1]


def data(out):
    os.makedirs(out, exist_ok=True)
    root = os.path.join(out, "gnome-user-docs")
    if not os.path.isdir(root):
        subprocess.run(["apt-get", "download", "gnome-user-docs"], cwd=out, check=True, capture_output=True)
        deb = glob.glob(os.path.join(out, "gnome-user-docs_*.deb"))[0]
        subprocess.run(["dpkg-deb", "-x", deb, root], check=True)
    help_dir = os.path.join(root, "usr/share/help")
    english = {os.path.basename(p)[:-5]: parse(p) for p in glob.glob(os.path.join(help_dir, "C/gnome-help/*.page"))}
    pages = {}  # page -> language -> (title, body)
    for language in LANGUAGES:
        folder = "C" if language == "en" else language
        for path in glob.glob(os.path.join(help_dir, folder, "gnome-help/*.page")):
            page = os.path.basename(path)[:-5]
            title, paragraphs = parse(path)
            en_title, en_paragraphs = english.get(page, ("", []))
            body = " ".join(paragraphs)
            if not title or len(body) < 200:
                continue
            if language != "en":
                shared = sum(1 for p in paragraphs if p in set(en_paragraphs))
                if title == en_title or shared > 0.1 * len(paragraphs):
                    continue
            code = "pt" if language == "pt_BR" else language.split("_")[0]
            pages.setdefault(page, {})[code] = (title, body[:1200].rsplit(" ", 1)[0] if len(body) > 1200 else body)
    # Languages with at least 100 translated pages (the others have too few to fill a store).
    codes = sorted(c for c in {c for found in pages.values() for c in found}
                   if sum(c in found for found in pages.values()) >= 100)
    write_stores(out, codes, lambda page, code: pages[page].get(code), sorted(pages), lambda page, code: (
        pages[page][code][1], pages[page][code][0]), same=True)
    print(len(pages), "pages,", len(codes), "languages:", " ".join(codes), "-",
          sum(c[2] for c in CONFIGS), "stores in", out)


def write_stores(out, codes, has, items, text_and_query, same):
    """The CONFIGS stores of `items` (each in one language of `codes`, with `has(item, code)` true) and their
    queries: per stored item its query in English, in one other language of the store, and (with `same`) in its
    own; `text_and_query(item, code)` gives both in a language."""
    rng = random.Random(SEED)
    for languages, per, stores in CONFIGS:
        for index in range(stores):
            name = f"l{languages}x{per}-{index:02d}"
            chosen_languages = rng.sample([c for c in codes if c != "en"], languages - 1) + ["en"]
            rng.shuffle(chosen_languages)
            candidates = [p for p in items if all(has(p, c) for c in chosen_languages)]
            chosen = rng.sample(candidates, languages * per)
            language = {p: chosen_languages[i // per] for i, p in enumerate(chosen)}
            write_jsonl(os.path.join(out, name + ".jsonl"),
                        [{"id": p, "text": text_and_query(p, language[p])[0]} for p in chosen])
            queries = {"same": [], "cross": []}
            for p in chosen:
                others = [c for c in chosen_languages if c not in (language[p], "en")]
                asked = {"en"} | ({rng.choice(others)} if others else set()) | ({language[p]} if same else set())
                for code in sorted(asked - ({language[p]} if not same else set())):
                    kind = "same" if code == language[p] else "cross"
                    queries[kind].append({"query": text_and_query(p, code)[1], "relevant": [p], "language": code,
                                          "document": language[p]})
            for kind, rows in queries.items():
                if rows:
                    write_jsonl(os.path.join(out, f"{name}.q-{kind}.jsonl"), rows)


def data_libreoffice(out):
    """Stores of single LibreOffice interface sentences that make-language-priors.py did not use, each in one of
    the table's languages (pt and zh from the pt and zh-cn packages), asked for in English and in one other
    language of the store (the same language would be the same text)."""
    os.makedirs(out, exist_ok=True)
    work = os.environ.get("WORK", language_priors.WORK)
    packages = {code: package for package, code in language_priors.PACKAGES.items()
                if package not in ("pt-br", "zh-tw")}
    catalogues = {package: language_priors.catalogue(package, work) for package in language_priors.PACKAGES}
    used = language_priors.used_keys(catalogues)
    held_out = [key for key in language_priors.ordered_keys(catalogues) if key not in used]

    def text(key, code):
        if code == "en":
            return language_priors.one_line(language_priors.english(key))
        found = catalogues[packages[code]].get(key)
        return language_priors.one_line(found) if found and found != language_priors.english(key) else None

    ids = {key: f"s{index:05d}" for index, key in enumerate(held_out)}
    by_id = {ids[key]: key for key in held_out}
    codes = sorted(set(packages) | {"en"})
    write_stores(out, codes, lambda item, code: text(by_id[item], code) is not None, sorted(by_id),
                 lambda item, code: (text(by_id[item], code),) * 2, same=False)
    print(len(held_out), "held-out sentences,", len(codes), "languages -", sum(c[2] for c in CONFIGS), "stores in",
          out)


def run(out, label, hush):
    small_bilingual.run(out, label, hush, stores="l*x*-??.jsonl")


def per_query(out, folder):
    """(config, same/cross, mode, store, query) -> reciprocal rank@10."""
    found = {}
    for path in glob.glob(os.path.join(folder, "*.evidence.jsonl")):
        name, part, mode = os.path.basename(path).split(".")[:3]
        asked = read_jsonl(os.path.join(out, f"{name}.q-{part}.jsonl"))
        for line, query in zip(read_jsonl(path), asked):
            hits = [h["relevant"] for h in line["hits"][:10]]
            rank = hits.index(True) + 1 if True in hits else None
            found[(name.rsplit("-", 1)[0], part, mode, name, query["language"], query["query"])] = (
                1 / rank if rank else 0.0)
    return found


def report(out, before, after):
    a, b = per_query(out, os.path.join(out, before)), per_query(out, os.path.join(out, after))
    keys = sorted(set(a) & set(b))
    rng = random.Random(SEED)
    print(f"| store (languages × pages) | query → document | mode | queries | MRR@10 {before} | MRR@10 {after} | "
          f"Δ [95 %] |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: |")
    order = {f"l{l}x{p}": i for i, (l, p, _) in enumerate(CONFIGS)}
    groups = sorted({k[:3] for k in keys}, key=lambda g: (order[g[0]], g[2] != "semantic", g[1] != "cross"))
    for group in groups:
        chosen = [k for k in keys if k[:3] == group]
        diffs = [b[k] - a[k] for k in chosen]
        low, high = interval(diffs, rng)
        mean = lambda values: sum(values) / len(values)
        languages, per = group[0][1:].split("x")
        print(f"| {languages} × {per} | {group[1]} | {group[2]} | {len(chosen)} | {mean([a[k] for k in chosen]):.3f} | "
              f"{mean([b[k] for k in chosen]):.3f} | {mean(diffs):+.3f} [{low:+.3f}, {high:+.3f}] |")


if __name__ == "__main__":
    steps = {"data": (data, 1), "data-libreoffice": (data_libreoffice, 1), "run": (run, 3), "report": (report, 3)}
    step, arguments = sys.argv[1] if len(sys.argv) > 1 else "", sys.argv[2:]
    if step not in steps or len(arguments) != steps[step][1]:
        sys.exit(__doc__)
    steps[step][0](*arguments)
