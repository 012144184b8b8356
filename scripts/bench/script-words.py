#!/usr/bin/env python3
"""Keyword search in scripts written with vowel marks or without spaces between words, two binaries.

What: whether the keyword index finds the words of Indic scripts (vowel signs are combining marks, which
`unicode61` cut words at: "खाना" was held as "ख", "न") and of Thai and Khmer (no spaces between words: "กาแฟ" was
not found inside "ร้านกาแฟนี้"), on held-out real text, with controls in scripts the change should leave alone.

The set: one store per language of up to PAGES pages (a page's body, at most 1,200 characters, no title, the
language given), from Debian bookworm (apt-get download):
  - gnome-user-docs, GNOME's desktop help (Mallard pages): ta te gu mr as, and the controls en de fa;
  - libreoffice-help-*, LibreOffice's help pages: hi and km;
  - libreoffice-l10n-*, LibreOffice's interface: th, bn, ne and the control ar, a page being the help tips
    (`extended_tip`) of one dialog, joined; a dialog more than half of whose tips an earlier one has is left out.
A page counts in its language when its title and paragraphs are translated: a paragraph is kept when at least half
its letters and marks are of the language's script (and, in gnome-user-docs, it is not one of the English page's
paragraphs); the title too (and is not the English title); the kept paragraphs give at least 200 characters; no
other page has the same title. A language is used when at least MINIMUM pages count. Left out for too few pages:
kn pa he hi in gnome-user-docs (hi comes from LibreOffice's help), and ml or kn si pa he in LibreOffice's tips;
bn ml or ne si th km my lo ar ur have no gnome-user-docs translation, my and lo no Debian package of pages.

Queries, each with its page as the one relevant document: "title", the page's title as written (LibreOffice's
interface has none); "span", 2 or 3 consecutive words from the middle half of the body, each in the language's
script and of at least 3 letters (category L, marks not counted), with nothing but spaces between them, as a user
types a phrase they remember (zero-width spaces, which Khmer text uses between words, left out). Words are ICU's
word breaks (its dictionaries segment Thai and Khmer), so the data step needs PyICU (Debian's python3-icu: run it
with /usr/bin/python3).

Method: every binary indexes its own copy of each store (`hush index --model e5-small --threads 1`) and answers
with `hush eval --mode keyword|hybrid --threads 1 --evidence`; MRR@10 and Recall@10 come per query from the
evidence file, and the report gives each binary's mean and the paired difference with a 95 % bootstrap interval
(10,000 resamples of the queries, seed 35), per language, query kind and mode, and pooled over the languages of
each group: scripts with marks (ta te gu mr as hi bn ne), unspaced scripts (th km), controls (en de fa ar).

    script-words.py data OUT                  the packages, the stores and query files
    script-words.py run OUT NAME HUSH         index and evaluate every store with binary HUSH, results OUT/NAME
    script-words.py report OUT BEFORE AFTER   the markdown table

Environment: SEED (35), PAGES (120), MINIMUM (40).
"""
import collections, glob, os, random, re, subprocess, sys, time, unicodedata

import bench_steps

many_languages = bench_steps.load("many_languages", "many-languages.py")
language_priors = many_languages.language_priors
read_jsonl, write_jsonl, interval = many_languages.read_jsonl, many_languages.write_jsonl, many_languages.interval

SEED = int(os.environ.get("SEED", "35"))
PAGES = int(os.environ.get("PAGES", "120"))
MINIMUM = int(os.environ.get("MINIMUM", "40"))
# (language, group, source, script: the first word of its letters' Unicode names)
LANGUAGES = [
    ("ta", "marks", "gnome", "TAMIL"), ("te", "marks", "gnome", "TELUGU"), ("gu", "marks", "gnome", "GUJARATI"),
    ("mr", "marks", "gnome", "DEVANAGARI"), ("as", "marks", "gnome", "BENGALI"), ("hi", "marks", "help", "DEVANAGARI"),
    ("bn", "marks", "tips", "BENGALI"), ("ne", "marks", "tips", "DEVANAGARI"),
    ("th", "unspaced", "tips", "THAI"), ("km", "unspaced", "help", "KHMER"),
    ("en", "controls", "gnome", "LATIN"), ("de", "controls", "gnome", "LATIN"), ("fa", "controls", "gnome", "ARABIC"),
    ("ar", "controls", "tips", "ARABIC"), ("he", "controls", "tips", "HEBREW"),
]
GROUPS = {"marks": "scripts with marks", "unspaced": "unspaced scripts", "controls": "controls"}
KINDS, MODES = ("title", "span"), ("keyword", "hybrid")


def unpacked(out, package):
    """The folder Debian's `package` is unpacked into (downloaded the first time)."""
    root = os.path.join(out, package)
    if not os.path.isdir(root):
        subprocess.run(["apt-get", "download", package], cwd=out, check=True, capture_output=True)
        subprocess.run(["dpkg-deb", "-x", glob.glob(os.path.join(out, f"{package}_*.deb"))[0], root], check=True)
    return root


def in_script(text, script):
    """Whether at least half the letters and marks of `text` are of `script`."""
    letters = [c for c in text if unicodedata.category(c)[0] in "LM"]
    return bool(letters) and 2 * sum(unicodedata.name(c, "").startswith(script + " ") for c in letters) >= len(letters)


def gnome_pages(out, language, script):
    """(title, kept paragraphs) of gnome-user-docs' pages in `language`."""
    help_dir = os.path.join(unpacked(out, "gnome-user-docs"), "usr/share/help")
    english = {os.path.basename(p)[:-5]: many_languages.parse(p)
               for p in glob.glob(os.path.join(help_dir, "C/gnome-help/*.page"))}
    for path in sorted(glob.glob(os.path.join(help_dir, "C" if language == "en" else language, "gnome-help/*.page"))):
        title, paragraphs = many_languages.parse(path)
        en_title, en_paragraphs = english[os.path.basename(path)[:-5]] if language != "en" else ("", [])
        if title != en_title and in_script(title, script):
            yield title, [p for p in paragraphs if p not in en_paragraphs and in_script(p, script)]


def help_pages(out, language, script):
    """(title, kept paragraphs) of LibreOffice's help pages in `language`."""
    root = unpacked(out, f"libreoffice-help-{language}")
    for path in sorted(glob.glob(os.path.join(root, "usr/share/libreoffice/help", language, "text/**/*.html"),
                                 recursive=True)):
        with open(path, encoding="utf-8") as f:
            page = f.read()
        title = many_languages.plain(re.search(r"<title>(.*?)</title>", page, flags=re.S).group(1))
        shown = page.split('id="DisplayArea"', 1)[-1]
        paragraphs = [many_languages.plain(p) for p in re.findall(r'<p [^>]*class="paragraph"[^>]*>(.*?)</p>', shown,
                                                                  flags=re.S)]
        if in_script(title, script):
            yield title, [p for p in paragraphs if in_script(p, script)]


def tip_pages(out, language, script):
    """("", kept tips) of each dialog of LibreOffice's interface in `language`."""
    catalogue = language_priors.catalogue(language, os.path.join(out, "libreoffice-l10n"))
    dialogs = collections.defaultdict(list)
    for (file, key), text in sorted(catalogue.items()):
        if "|extended_tip|" in key and in_script(text, script):
            dialogs[(file, key.split("|")[0])].append(language_priors.one_line(text))
    seen = set()
    for dialog in sorted(dialogs):
        tips = dialogs[dialog]
        if 2 * sum(t in seen for t in tips) <= len(tips):
            seen.update(tips)
            yield "", tips


def words(text, language):
    """(start, end, letters) of each word of `text` by ICU's word breaks."""
    import icu
    breaker = icu.BreakIterator.createWordInstance(icu.Locale(language))
    breaker.setText(text)
    index, offset = {0: 0}, 0  # UTF-16 offset -> index in text
    for i, c in enumerate(text):
        offset += 2 if ord(c) > 0xFFFF else 1
        index[offset] = i + 1
    found, start = [], 0
    for end in breaker:
        if breaker.getRuleStatus() >= 200:  # a word of letters (not digits, spaces or punctuation)
            word = text[index[start]:index[end]]
            found.append((index[start], index[end], sum(unicodedata.category(c)[0] == "L" for c in word)))
        start = end
    return found


def span(body, language, script, rng):
    """2 or 3 consecutive words of `script` of at least 3 letters from the middle half of `body`, only spaces
    between them, as typed (no zero-width spaces); None when it has none."""
    found = words(body, language)
    middle = found[len(found) // 4:(3 * len(found)) // 4]
    for size in rng.sample([2, 3], 2):
        candidates = [i for i in range(len(middle) - size + 1)
                      if all(w[2] >= 3 and in_script(body[w[0]:w[1]], script) for w in middle[i:i + size])
                      and all(body[a[1]:b[0]].replace("\u200b", " ").isspace() or a[1] == b[0]
                              for a, b in zip(middle[i:i + size], middle[i + 1:i + size]))]
        if candidates:
            i = rng.choice(candidates)
            return " ".join(body[middle[i][0]:middle[i + size - 1][1]].replace("\u200b", "").split())
    return None


def data(out):
    os.makedirs(out, exist_ok=True)
    sources = {"gnome": gnome_pages, "help": help_pages, "tips": tip_pages}
    for language, _, source, script in LANGUAGES:
        pages = []
        for title, paragraphs in sources[source](out, language, script):
            body = " ".join(paragraphs)
            if len(body) >= 200:
                pages.append((title, body[:1200].rsplit(" ", 1)[0] if len(body) > 1200 else body))
        titles = collections.Counter(title for title, _ in pages)
        pages = [(title, body) for title, body in pages if titles[title] == 1 or not title]
        if len(pages) < MINIMUM:
            print(f"{language}: {len(pages)} pages, left out")
            continue
        rng = random.Random(f"{SEED} {language}")
        chosen = rng.sample(pages, min(PAGES, len(pages)))
        ids = [f"{language}-{i:03d}" for i in range(len(chosen))]
        write_jsonl(os.path.join(out, language + ".jsonl"),
                    [{"id": i, "text": body, "language": language} for i, (_, body) in zip(ids, chosen)])
        queries = {"title": [{"query": title, "relevant": [i]} for i, (title, _) in zip(ids, chosen) if title],
                   "span": [{"query": q, "relevant": [i]} for i, (_, body) in zip(ids, chosen)
                            for q in [span(body, language, script, rng)] if q]}
        for kind, rows in queries.items():
            if rows:
                write_jsonl(os.path.join(out, f"{language}.q-{kind}.jsonl"), rows)
        print(f"{language}: {len(pages)} pages, {len(chosen)} stored,",
              ", ".join(f"{len(rows)} {kind}" for kind, rows in queries.items() if rows))


def run(out, label, hush):
    """Indexes every store with HUSH and evaluates its query files in keyword and hybrid mode."""
    folder = os.path.join(out, label)
    os.makedirs(folder, exist_ok=True)
    began = time.monotonic()
    for language, *_ in LANGUAGES:
        corpus = os.path.join(out, language + ".jsonl")
        if not os.path.exists(corpus):
            continue
        store = os.path.join(folder, language + ".hush")
        if not os.path.exists(store):
            subprocess.run([hush, "index", "--db", store, "--model", "e5-small", "--threads", "1", corpus],
                           check=True, capture_output=True)
        for kind in KINDS:
            queries = os.path.join(out, f"{language}.q-{kind}.jsonl")
            for mode in MODES:
                evidence = os.path.join(folder, f"{language}.{kind}.{mode}.evidence.jsonl")
                if os.path.exists(queries) and not os.path.exists(evidence):
                    subprocess.run([hush, "eval", "--db", store, "--queries", queries, "--mode", mode, "--threads",
                                    "1", "--evidence", evidence, "--json"], check=True, capture_output=True)
        print(f"{language}: {time.monotonic() - began:.0f} s", flush=True)
    print("done", folder)


def per_query(folder):
    """(language, kind, mode, query number) -> (reciprocal rank@10, recall@10)."""
    found = {}
    for path in glob.glob(os.path.join(folder, "*.evidence.jsonl")):
        language, kind, mode = os.path.basename(path).split(".")[:3]
        for number, line in enumerate(read_jsonl(path)):
            hits = [h["relevant"] for h in line["hits"][:10]]
            found[(language, kind, mode, number)] = (1 / (hits.index(True) + 1), 1.0) if True in hits else (0.0, 0.0)
    return found


def report(out, before, after):
    a, b = per_query(os.path.join(out, before)), per_query(os.path.join(out, after))
    keys = sorted(set(a) & set(b))
    rng = random.Random(SEED)
    mean = lambda values: sum(values) / len(values)
    print(f"| group | language | pages | query | mode | queries | MRR@10 {before} | MRR@10 {after} | Δ MRR@10 [95 %] | "
          f"R@10 {before} | R@10 {after} | Δ R@10 [95 %] |")
    print("| --- | --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")

    def row(group, language, pages, kind, mode, chosen):
        cells = []
        for measure in (0, 1):
            diffs = [b[k][measure] - a[k][measure] for k in chosen]
            low, high = interval(diffs, rng)
            cells.append(f"{mean([a[k][measure] for k in chosen]):.3f} | {mean([b[k][measure] for k in chosen]):.3f} | "
                         f"{mean(diffs):+.3f} [{low:+.3f}, {high:+.3f}]")
        print(f"| {group} | {language} | {pages} | {kind} | {mode} | {len(chosen)} | {cells[0]} | {cells[1]} |")

    stored = {language: len(read_jsonl(os.path.join(out, language + ".jsonl")))
              for language, *_ in LANGUAGES if os.path.exists(os.path.join(out, language + ".jsonl"))}
    for group, name in GROUPS.items():
        for language, in_group, *_ in LANGUAGES:
            for kind in KINDS:
                for mode in MODES:
                    chosen = [k for k in keys if k[:3] == (language, kind, mode)]
                    if in_group == group and chosen:
                        row(name, language, stored[language], kind, mode, chosen)
    for group, name in GROUPS.items():
        members = [language for language, in_group, *_ in LANGUAGES if in_group == group and language in stored]
        for kind in KINDS:
            for mode in MODES:
                chosen = [k for k in keys if k[0] in members and k[1:3] == (kind, mode)]
                if chosen:
                    row(f"**{name}**", " ".join(members), sum(stored[m] for m in members), kind, mode, chosen)


if __name__ == "__main__":
    steps = {"data": (data, 1), "run": (run, 3), "report": (report, 3)}
    step, arguments = sys.argv[1] if len(sys.argv) > 1 else "", sys.argv[2:]
    if step not in steps or len(arguments) != steps[step][1]:
        sys.exit(__doc__)
    steps[step][0](*arguments)
