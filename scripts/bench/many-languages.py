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

    many-languages.py data OUT                  gnome-user-docs (apt-get download), the stores and query files
    many-languages.py run OUT NAME HUSH         index and evaluate every store with binary HUSH, results OUT/NAME
    many-languages.py report OUT BEFORE AFTER   the markdown table

Environment: SEED (35).
"""
import glob, html, importlib.util, os, random, re, subprocess, sys

_spec = importlib.util.spec_from_file_location(
    "small_bilingual", os.path.join(os.path.dirname(os.path.abspath(__file__)), "small-bilingual.py"))
small_bilingual = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(small_bilingual)
read_jsonl, write_jsonl, interval = small_bilingual.read_jsonl, small_bilingual.write_jsonl, small_bilingual.interval

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
    rng = random.Random(SEED)
    for languages, per, stores in CONFIGS:
        for index in range(stores):
            name = f"l{languages}x{per}-{index:02d}"
            chosen_languages = rng.sample([c for c in codes if c != "en"], languages - 1) + ["en"]
            rng.shuffle(chosen_languages)
            candidates = [p for p in sorted(pages) if all(c in pages[p] for c in chosen_languages)]
            chosen = rng.sample(candidates, languages * per)
            language = {p: chosen_languages[i // per] for i, p in enumerate(chosen)}
            write_jsonl(os.path.join(out, name + ".jsonl"), [{"id": p, "text": pages[p][language[p]][1]} for p in chosen])
            queries = {"same": [], "cross": []}
            for p in chosen:
                others = [c for c in chosen_languages if c not in (language[p], "en")]
                asked = {"en", language[p]} | ({rng.choice(others)} if others else set())
                for code in sorted(asked):
                    kind = "same" if code == language[p] else "cross"
                    queries[kind].append({"query": pages[p][code][0], "relevant": [p], "language": code,
                                          "document": language[p]})
            for kind, rows in queries.items():
                write_jsonl(os.path.join(out, f"{name}.q-{kind}.jsonl"), rows)
    print(len(pages), "pages,", len(codes), "languages:", " ".join(codes), "-",
          sum(c[2] for c in CONFIGS), "stores in", out)


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
    steps = {"data": (data, 1), "run": (run, 3), "report": (report, 3)}
    step, arguments = sys.argv[1] if len(sys.argv) > 1 else "", sys.argv[2:]
    if step not in steps or len(arguments) != steps[step][1]:
        sys.exit(__doc__)
    steps[step][0](*arguments)
