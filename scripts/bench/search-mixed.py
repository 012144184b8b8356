#!/usr/bin/env python3
"""Search in a mixed-language store: nDCG@10 when each man page is stored in English or in Chinese, not both.

A user's store is rarely in one language. This measures semantic, hybrid and calibrated search (`hush eval`,
default model multilingual-e5-small) on stores built from the parallel man pages of scripts/bench/chunk-curve.sh
(its sets/short/lang/en and sets/short/lang/zh_CN): of the pages present in both languages, a random half
(per seed) is stored in English only and the other half in Chinese only. The English and the Chinese queries
of those pages are asked of the same store; each has exactly one target, the one stored document of its page
(queries with several relevant pages are left out). A query's target is in its own language ("same", about
half of them) or in the other one ("cross"); "all" is both. The table gives, per mode, query language and
subset, the mean nDCG@10 over the seeds and its min–max range, and, for two binaries, the mean of the
per-seed differences.

    search-mixed.py data OUT                  OUT/seed-S/corpus.jsonl and queries-L-{all,same,cross}.jsonl
    search-mixed.py store OUT                 OUT/seed-S/e5.hush, built by HUSH (skipped when it exists)
    search-mixed.py cli OUT LABEL HUSH [ARG...]
                                              HUSH eval (with ARG..., e.g. --no-across-languages) on every store and
                                              queries file -> OUT/cli-LABEL.json
    search-mixed.py report OUT LABEL...       the markdown table of those runs on stdout
    search-mixed.py all OUT                   data, store, cli for HUSH_BEFORE (when set, label "before") and for
                                              HUSH with raw cosines (--no-across-languages, "raw") and as it is
                                              ("default", across languages), report of the last two; each step
                                              skipped when its output exists

Environment: CHUNKCURVE (/tmp/hush-chunk-curve: chunk-curve.sh's OUT), MIXED_LANGS (en,zh_CN: the languages the
pages are shared out among, equally at random for more than two; any of en, zh_CN, ja, de), HUSH (/tmp/hush-mixed-bin), HUSH_BEFORE
(a second binary to compare on the same stores), NICE (19). Every hush call runs under `nice -n NICE`; stores
are built with 2 threads, queries embedded with 1. Everything is deterministic (fixed seeds, sorted inputs).
"""
import importlib.util, json, os, random, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
CHUNKCURVE = os.environ.get("CHUNKCURVE", "/tmp/hush-chunk-curve")
HUSH = os.environ.get("HUSH", "/tmp/hush-mixed-bin")
HUSH_BEFORE = os.environ.get("HUSH_BEFORE", "")
NICE = os.environ.get("NICE", "19")
SEEDS = (1, 2, 3)
LANGS = tuple(os.environ.get("MIXED_LANGS", "en,zh_CN").split(","))
MODES = ("semantic", "hybrid", "calibrated")
SUBSETS = ("all", "same", "cross")


def load(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, file))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


dd = load("debian_descriptions", "debian-descriptions.py")  # write_jsonl
qm = dd.qm  # read_jsonl, page_key


def source(lang, name):
    return qm.read_jsonl(os.path.join(CHUNKCURVE, "sets", "short", "lang", lang, name))


def cmd_data(out):
    docs = {lang: {qm.page_key(d["id"]): d for d in source(lang, "corpus.jsonl")} for lang in LANGS}
    queries = {lang: source(lang, "queries.jsonl") for lang in LANGS}
    pages = sorted(set.intersection(*(set(docs[lang]) for lang in LANGS)))
    for seed in SEEDS:
        if LANGS == ("en", "zh_CN"):
            english = set(random.Random(seed).sample(pages, len(pages) // 2))
            stored = {p: ("en" if p in english else "zh_CN") for p in pages}
        else:  # an equal share of the pages per language, at random
            shuffled = random.Random(seed).sample(pages, len(pages))
            stored = {p: LANGS[k % len(LANGS)] for k, p in enumerate(shuffled)}
        dd.write_jsonl(os.path.join(out, f"seed-{seed}", "corpus.jsonl"), [docs[stored[p]][p] for p in pages])
        counts = []
        for lang in LANGS:
            subsets = {s: [] for s in SUBSETS}
            for q in queries[lang]:
                keys = [qm.page_key(i) for i in q["relevant"]]
                if len(keys) != 1 or keys[0] not in stored:
                    continue
                target = stored[keys[0]]
                row = {"query": q["query"], "relevant": [f"{target}/{keys[0]}"]}
                subsets["all"].append(row)
                subsets["same" if target == lang else "cross"].append(row)
            for s, rows in subsets.items():
                dd.write_jsonl(os.path.join(out, f"seed-{seed}", f"queries-{lang}-{s}.jsonl"), rows)
            counts.append(f"{lang} {len(subsets['same'])} same + {len(subsets['cross'])} cross")
        shares = ", ".join(f"{sum(1 for v in stored.values() if v == lang)} in {lang}" for lang in LANGS)
        print(f"seed {seed}: pages {shares}; queries " + ", ".join(counts))


def hush(binary, *args):
    proc = subprocess.run(["nice", "-n", NICE, binary, *args, "--json"], capture_output=True, text=True,
                          check=True)
    return json.loads(proc.stdout)


def cmd_store(out):
    for seed in SEEDS:
        store = os.path.join(out, f"seed-{seed}", "e5.hush")
        if not os.path.exists(store):
            hush(HUSH, "index", "--db", store, "--threads", "2", "--quiet",
                 os.path.join(out, f"seed-{seed}", "corpus.jsonl"))


def cmd_cli(out, label, binary, *extra):
    result = {"binary": binary, "arguments": list(extra), "ndcg@10": {}, "queries": {}}
    for seed in SEEDS:
        folder = os.path.join(out, f"seed-{seed}")
        for mode in MODES:
            for lang in LANGS:
                for subset in SUBSETS:
                    queries = os.path.join(folder, f"queries-{lang}-{subset}.jsonl")
                    e = hush(binary, "eval", "--db", os.path.join(folder, "e5.hush"), "--threads", "1",
                             "--queries", queries, "--mode", mode, *extra)
                    key = f"seed-{seed}/{mode}/{lang}/{subset}"
                    result["ndcg@10"][key] = e["ndcg@10"]
                    result["queries"][key] = len(qm.read_jsonl(queries))
    with open(os.path.join(out, f"cli-{label}.json"), "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
    print(f"{label}: {len(result['ndcg@10'])} evals")


def summary(values):
    return f"{sum(values) / len(values):.3f} ({min(values):.2f}–{max(values):.2f})"


def cmd_report(out, labels):
    runs = {}
    for label in labels:
        with open(os.path.join(out, f"cli-{label}.json")) as f:
            runs[label] = json.load(f)
    first = runs[labels[0]]
    print(f"nDCG@10 on {len(SEEDS)} mixed stores (seeds {', '.join(map(str, SEEDS))}): the man pages shared out "
          f"equally among {', '.join(LANGS)}, multilingual-e5-small; mean over the seeds (min–max).\n")
    two = len(labels) == 2
    print("| mode | queries | target | n per seed | " + " | ".join(labels)
          + (f" | {labels[1]} − {labels[0]}" if two else "") + " |")
    print("| --- | --- | --- | --- |" + " ---: |" * (len(labels) + two))
    for mode in MODES:
        for lang in LANGS:
            for subset in SUBSETS:
                keys = [f"seed-{s}/{mode}/{lang}/{subset}" for s in SEEDS]
                n = "/".join(str(first["queries"][k]) for k in keys)
                cells = [summary([runs[label]["ndcg@10"][k] for k in keys]) for label in labels]
                if two:
                    a, b = (runs[label]["ndcg@10"] for label in labels)
                    diff = sum(b[k] - a[k] for k in keys) / len(keys)
                    cells.append(f"{diff:+.3f}")
                print(f"| {mode} | {lang} | {subset} | {n} | " + " | ".join(cells) + " |")


def timed(step, function, *args):
    start = time.monotonic()
    function(*args)
    print(f"[{step}: {time.monotonic() - start:.0f} s]", file=sys.stderr)


def cmd_all(out):
    if not os.path.exists(os.path.join(out, f"seed-{SEEDS[-1]}", f"queries-{LANGS[-1]}-cross.jsonl")):
        timed("data", cmd_data, out)
    timed("store", cmd_store, out)
    runs = ([("before", HUSH_BEFORE, [])] if HUSH_BEFORE else []) + [
        ("raw", HUSH, ["--no-across-languages"]), ("default", HUSH, [])]
    for label, binary, extra in runs:
        if not os.path.exists(os.path.join(out, f"cli-{label}.json")):
            timed(f"cli {label}", cmd_cli, out, label, binary, *extra)
    cmd_report(out, [label for label, _, _ in runs][-2:])


COMMANDS = {"data": cmd_data, "store": cmd_store, "cli": cmd_cli, "all": cmd_all,
            "report": lambda out, *labels: cmd_report(out, list(labels))}


def main(argv):
    if len(argv) < 3 or argv[1] not in COMMANDS:
        sys.exit(__doc__)
    os.makedirs(argv[2], exist_ok=True)
    COMMANDS[argv[1]](argv[2], *argv[3:])


if __name__ == "__main__":
    main(sys.argv)
