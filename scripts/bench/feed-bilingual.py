#!/usr/bin/env python3
"""Feeds in two languages: interest ranking and related items when the documents are in English and Chinese.

A multilingual model should put a Chinese post about games near English posts about games. This measures
whether `hush rank` and `hush related` do, with multilingual-e5-small, on one store that holds:
  * the English Debian package descriptions of feed-quality.py (its corpus.jsonl: 20 sections, the section is
    the topic), and
  * the Chinese translations of Debian descriptions of debian-descriptions.py (its sets A and C, title = the
    package name), for packages whose Section (from `apt-cache dumpavail`) is one of those 20, id "zh:<name>".
    Those whose package is also in the English corpus are its translation ("twins"; their topic is the
    English one's).

What it measures (chance levels in brackets)
  * interest ranking: TRIALS per section that has at least 20 Chinese documents that are not twins; in each,
    the liked documents are 10 English ones of the section ("liked en") or 5 English and 5 Chinese ("liked
    en+zh"), and the 100 candidates are 10 English and 10 Chinese of the section and 40 English and 40
    Chinese of other sections (twins never). `hush rank --alpha 1`: precision@20 (0.20), and the share of
    Chinese among the on-topic documents it puts in its first 20 (0.50 if language does not matter);
  * related items (`hush related --k 10`) of every Chinese document of those sections that is not a twin,
    and of 10 English ones per section: precision@10 by section, and the share of the other language;
  * twins: for each twin pair, both ways, the reciprocal rank of the translation among the 10 related items
    (0 when absent), and how often it is first.

    feed-bilingual.py data OUT                  OUT/corpus.jsonl and OUT/trials.json (FEED, DEBDESC below)
    feed-bilingual.py cli OUT LABEL HUSH        HUSH rank / related on OUT/e5.hush -> OUT/cli-LABEL.json
    feed-bilingual.py report OUT LABEL...       the markdown table of those runs (with 95 % bootstrap
                                                intervals) on stdout
    feed-bilingual.py all OUT                   data, the store (built by HUSH), cli for HUSH_BEFORE (when set)
                                                and HUSH, report; each step skipped when its output exists

Environment: FEED (/tmp/hush-feed: feed-quality.py's OUT, for its corpus.jsonl), DEBDESC (/tmp/hush-debdesc:
debian-descriptions.py's OUT, for A/ and C/corpus-name.jsonl), HUSH (/tmp/hush-feed-bin), HUSH_BEFORE (a
second binary to compare, same store), NICE (19). Every hush call runs with one thread; everything is
deterministic (fixed seeds, sorted inputs).
"""
import importlib.util, json, os, random, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
FEED = os.environ.get("FEED", "/tmp/hush-feed")
DEBDESC = os.environ.get("DEBDESC", "/tmp/hush-debdesc")
HUSH = os.environ.get("HUSH", "/tmp/hush-feed-bin")
HUSH_BEFORE = os.environ.get("HUSH_BEFORE", "")
NICE = os.environ.get("NICE", "19")
SEED = 35
MIN_ZH = 20
TRIALS = 10
RELATED_EN = 10


def load(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, file))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


fq = load("feed_quality", "feed-quality.py")  # stanzas, read_corpus, SECTIONS, precision_at, fmt
dd = load("debian_descriptions", "debian-descriptions.py")  # write_jsonl; its qm: read_jsonl


def cmd_data(out):
    english = fq.read_corpus(FEED)
    by_id = {d["id"]: d for d in english}
    packages = subprocess.run(["apt-cache", "dumpavail"], capture_output=True, text=True, check=True).stdout
    section = {r.get("Package"): r.get("Section", "").split("/")[-1] for r in fq.stanzas(packages)}
    chinese, twins, seen = [], [], set()
    for key in ("A", "C"):
        for d in dd.qm.read_jsonl(os.path.join(DEBDESC, key, "corpus-name.jsonl")):
            name = d["id"]
            topic = by_id[name]["category"] if name in by_id else section.get(name)
            if name in seen or topic not in fq.SECTIONS:
                continue
            seen.add(name)
            chinese.append({"id": f"zh:{name}", "title": d["title"], "text": d["text"], "language": "zh",
                            "category": topic, "date": "2026-01-01"})
            if name in by_id:
                twins.append(name)
    corpus = english + sorted(chinese, key=lambda d: d["id"])
    dd.write_jsonl(os.path.join(out, "corpus.jsonl"), corpus)

    twin_ids = {f"zh:{t}" for t in twins} | set(twins)
    topic = {d["id"]: d["category"] for d in corpus}
    pools = {}
    for d in corpus:
        if d["id"] not in twin_ids:
            pools.setdefault((d["category"], d["language"]), []).append(d["id"])
    sections = [s for s in fq.SECTIONS if len(pools.get((s, "zh"), [])) >= MIN_ZH]
    trials, related = [], []
    for si, s in enumerate(sections):
        others = {lang: sorted(i for (t, l), ids in pools.items() if t != s and l == lang for i in ids)
                  for lang in ("en", "zh")}
        for liked_kind in ("en", "en+zh"):
            for t in range(TRIALS):
                rng = random.Random(SEED * 1000 + si * 10 + t + (500 if liked_kind == "en+zh" else 0))
                if liked_kind == "en":
                    en = rng.sample(pools[(s, "en")], 20)
                    zh = rng.sample(pools[(s, "zh")], 10)
                    liked, same = en[:10], en[10:] + zh
                else:
                    en = rng.sample(pools[(s, "en")], 15)
                    zh = rng.sample(pools[(s, "zh")], 15)
                    liked, same = en[:5] + zh[:5], en[5:] + zh[5:]
                candidates = same + rng.sample(others["en"], 40) + rng.sample(others["zh"], 40)
                rng.shuffle(candidates)
                trials.append({"section": s, "liked_kind": liked_kind, "trial": t, "liked": liked,
                               "candidates": candidates})
        related += pools[(s, "zh")]
        related += random.Random(SEED * 7 + si).sample(pools[(s, "en")], RELATED_EN)
    spec = {"seed": SEED, "sections": sections, "trials": trials, "related": related, "twins": twins,
            "topic": topic, "documents": {"en": len(english), "zh": len(chinese), "twins": len(twins)}}
    with open(os.path.join(out, "trials.json"), "w", encoding="utf-8") as f:
        json.dump(spec, f)
    print(f"{len(english)} English + {len(chinese)} Chinese documents ({len(twins)} twins); sections {sections}; "
          f"{len(trials)} interest trials, {len(related)} related-items sources")


def hush(binary, *args):
    proc = subprocess.run(["nice", "-n", NICE, binary, *args, "--threads", "1", "--json"], capture_output=True,
                          text=True, check=True)
    return json.loads(proc.stdout)["results"]


def cmd_cli(out, label, binary):
    with open(os.path.join(out, "trials.json"), encoding="utf-8") as f:
        spec = json.load(f)
    store = os.path.join(out, "e5.hush")
    topic = spec["topic"]
    language = {i: ("zh" if i.startswith("zh:") else "en") for i in topic}
    result = {"binary": binary, "rank": [], "related": [], "twins": []}
    for trial in spec["trials"]:
        order = [r["id"] for r in hush(binary, "rank", "--db", store, "--liked", ",".join(trial["liked"]),
                                       "--candidates", ",".join(trial["candidates"]), "--alpha", "1")]
        assert sorted(order) == sorted(trial["candidates"]), "rank returned other ids"
        on_topic = [i for i in order[:20] if topic[i] == trial["section"]]
        result["rank"].append({"liked_kind": trial["liked_kind"], "section": trial["section"],
                               "p20": len(on_topic) / 20,
                               "zh_share": sum(language[i] == "zh" for i in on_topic) / max(1, len(on_topic))})
    for source in spec["related"]:
        hits = [r["id"] for r in hush(binary, "related", "--db", store, source, "--k", "10")]
        result["related"].append({"id": source, "language": language[source],
                                  "p10": fq.precision_at(hits, topic[source], topic, 10),
                                  "other": sum(language[i] != language[source] for i in hits) / max(1, len(hits))})
    for name in spec["twins"]:
        for source, twin in ((name, f"zh:{name}"), (f"zh:{name}", name)):
            hits = [r["id"] for r in hush(binary, "related", "--db", store, source, "--k", "10")]
            rr = 1 / (hits.index(twin) + 1) if twin in hits else 0.0
            result["twins"].append({"id": source, "language": language[source], "rr": rr})
    with open(os.path.join(out, f"cli-{label}.json"), "w") as f:
        json.dump(result, f)
    print(f"{label}: done ({len(result['rank'])} rankings, {len(result['related'])} + {len(result['twins'])} "
          "related-items calls)")


def cmd_report(out, labels):
    runs = {}
    for label in labels:
        with open(os.path.join(out, f"cli-{label}.json")) as f:
            runs[label] = json.load(f)
    with open(os.path.join(out, "trials.json"), encoding="utf-8") as f:
        spec = json.load(f)
    docs = spec["documents"]
    print(f"{docs['en']} English and {docs['zh']} Chinese documents in one multilingual-e5-small store "
          f"({docs['twins']} translation pairs); sections {', '.join(spec['sections'])}.\n")
    print("| measure | " + " | ".join(labels) + " |")
    print("| --- |" + " ---: |" * len(labels))
    rows = []
    for kind in ("en", "en+zh"):
        rows.append((f"interest P@20, liked {kind} (chance 0.20)",
                     lambda r, k=kind: [x["p20"] for x in r["rank"] if x["liked_kind"] == k]))
        rows.append((f"  Chinese share of its on-topic top 20, liked {kind}",
                     lambda r, k=kind: [x["zh_share"] for x in r["rank"] if x["liked_kind"] == k]))
    for lang in ("zh", "en"):
        rows.append((f"related P@10 from {lang} documents",
                     lambda r, g=lang: [x["p10"] for x in r["related"] if x["language"] == g]))
        rows.append((f"  share of the other language in them",
                     lambda r, g=lang: [x["other"] for x in r["related"] if x["language"] == g]))
    for lang in ("en", "zh"):
        rows.append((f"translation's MRR@10 among related items, from {lang}",
                     lambda r, g=lang: [x["rr"] for x in r["twins"] if x["language"] == g]))
        rows.append((f"  translation first, from {lang}",
                     lambda r, g=lang: [float(x["rr"] == 1) for x in r["twins"] if x["language"] == g]))
    for name, get in rows:
        print(f"| {name} | " + " | ".join(fq.fmt(get(runs[label])) for label in labels) + " |")
    if len(labels) == 2:
        a, b = (runs[label] for label in labels)
        print(f"\nPaired differences ({labels[1]} − {labels[0]}, 95 % bootstrap over the same trials or sources):")
        for name, get in rows:
            if name.startswith("  "):
                continue
            diffs = [y - x for x, y in zip(get(a), get(b))]
            print(f"- {name}: {fq.fmt(diffs, signed=True)}")


def cmd_all(out):
    if not os.path.exists(os.path.join(out, "trials.json")):
        cmd_data(out)
    store = os.path.join(out, "e5.hush")
    if not os.path.exists(store):
        subprocess.run(["nice", "-n", NICE, HUSH, "build", "--from", os.path.join(out, "corpus.jsonl"), "--out",
                        store, "--model", "e5-small", "--threads", "1", "--quiet", "--json"], check=True,
                       stdout=subprocess.DEVNULL)
    labels = (["before"] if HUSH_BEFORE else []) + ["after" if HUSH_BEFORE else "hush"]
    for label, binary in zip(labels, ([HUSH_BEFORE] if HUSH_BEFORE else []) + [HUSH]):
        if not os.path.exists(os.path.join(out, f"cli-{label}.json")):
            cmd_cli(out, label, binary)
    cmd_report(out, labels)


def main(argv):
    if len(argv) < 3 or argv[1] not in ("data", "cli", "report", "all"):
        sys.exit(__doc__)
    out = argv[2]
    os.makedirs(out, exist_ok=True)
    if argv[1] == "data":
        cmd_data(out)
    elif argv[1] == "cli":
        cmd_cli(out, argv[3], argv[4])
    elif argv[1] == "report":
        cmd_report(out, argv[3:])
    else:
        cmd_all(out)


if __name__ == "__main__":
    main(sys.argv)
