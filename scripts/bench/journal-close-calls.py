#!/usr/bin/env python3
"""Close calls in a reflection journal: does a typed worry find the reading of its own category, or one of
another category that merely shares a word with it?

Indexes the journal set's readings (scripts/bench/journal_set.py writes it) into WORK/journal.hush with
`hush index --model MODEL`, runs `hush search --db ... --json --k 5 --mode MODE "WORRY"` for every worry and
mode, and reports, per mode and split:

    cat@1   % of worries whose top hit is a reading of the worry's category
    rel@1   % whose top hit is one of the worry's `relevant` readings
    MRR@5   mean reciprocal rank of the first relevant reading in the top 5 (0 when none is)

for all the worries and for the close calls: the worries that share a word with a reading of another
category (title or text; an English word of 4+ letters, case-insensitive, not one of STOPWORDS: function words and
words of time and routine such as week, keep, people, which every category uses;
for Chinese, a 2-character sequence of Han characters, not one holding a function character of ZH_FUNCTION
or one of ZH_STOP_PAIRS). --list-close-calls prints each close call's shared words and the readings holding them.

    journal-close-calls.py --hush BINARY [--model e5-small] [--set scripts/bench/data/journal]
        [--split all|dev|heldout] [--modes hybrid,semantic,calibrated] [--work DIR] [--rebuild]
        [--json OUT] [--show-failures] [--list-close-calls] [--threads 1]

The store is rebuilt when --rebuild is given, when WORK/journal.hush is missing, or when the model, the
binary's path or the readings changed since it was built (WORK/journal.stamp). Search results are kept in
WORK/results-MODEL.json, keyed by mode and query, and dropped with the store. Every search process loads the
model (about 0.3 s for e5-small).
"""
import argparse
import hashlib
import json
import os
import re
import subprocess
import sys

STOPWORDS = set("""
about above after again against also always another anyone anything around away back because been before
being below between both cant can't come comes could couldn't didn't does doesn't doing done don't down
during each even ever every everyone everything from further have haven't having here hers herself himself
into it's itself just know like lets made make makes many might more most much must myself never nothing
once only other ought ours ourselves over really same says shall she'd should shouldn't some someone
something still such take than that that's their theirs them themselves then there there's these they
they'll they're thing things think this those though through till time under until upon very want wants
wasn't we're were weren't what what's when where which while whom whose will with within without won't
would wouldn't your you're yours yourself yourselves feel feels feeling felt i'm ive i've im
day days week weeks month months year years hour hours today tomorrow tonight next last since ago soon
keep keeps kept going goes said says need needs look looks making taking found talk talking seeing stop
stopped answers answering people someone anyone whole already reason better front check start started
""".split())
ZH_FUNCTION = set("的了是我你他她它们在和也就都不这那有个一着过会要把被让给对说很吗呢吧啊还又再才只而与或等之地得到")
ZH_STOP_PAIRS = set("自己 觉得 总是 时候 什么 怎么 么办 可以 知道 每天 已经 因为 所以 如果 但是 然后 其实 事情 东西 感觉 之后 以后 "
                    "越来 来越 多人 点小 好几 下来 特别 告诉 别人 心里 一直 现在 最近 天天".split())
HAN = re.compile(r"[\u4e00-\u9fff]+")
WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def terms(text):
    """The words a close call is judged by: English words of 4+ letters and Chinese character pairs."""
    found = {w for w in WORD.findall(text.lower()) if len(w) >= 4 and w not in STOPWORDS}
    for run in HAN.findall(text):
        for i in range(len(run) - 1):
            pair = run[i:i + 2]
            if not (set(pair) & ZH_FUNCTION) and pair not in ZH_STOP_PAIRS:
                found.add(pair)
    return found


def close_calls(worries, readings):
    """Worry id -> {shared term: [ids of other-category readings holding it]} for the worries with any."""
    reading_terms = [(r, terms((r.get("title") or "") + "\n" + r.get("text", ""))) for r in readings]
    calls = {}
    for w in worries:
        shared = {}
        for term in sorted(terms(w["query"])):
            hits = [r["id"] for r, ts in reading_terms if r["category"] != w["category"] and term in ts]
            if hits:
                shared[term] = hits
        if shared:
            calls[w["id"]] = shared
    return calls


def file_digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def ensure_store(args, readings_path):
    os.makedirs(args.work, exist_ok=True)
    db = os.path.join(args.work, "journal.hush")
    stamp_path = os.path.join(args.work, "journal.stamp")
    cache_path = os.path.join(args.work, f"results-{args.model}.json")
    stamp = {"model": args.model, "hush": os.path.abspath(args.hush), "readings": file_digest(readings_path)}
    old = None
    if os.path.exists(stamp_path):
        with open(stamp_path) as f:
            old = json.load(f)
    if args.rebuild or old != stamp or not os.path.exists(db):
        for name in os.listdir(args.work):
            if name.startswith("journal.hush") or name.startswith("results-"):
                os.remove(os.path.join(args.work, name))
        cmd = [args.hush, "index", "--db", db, "--model", args.model, "--threads", str(args.threads), "--quiet",
               "--json", readings_path]
        print("$ " + " ".join(cmd), file=sys.stderr)
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"hush index failed ({done.returncode}):\n{done.stderr}{done.stdout}")
        print(done.stdout.strip(), file=sys.stderr)
        with open(stamp_path, "w") as f:
            json.dump(stamp, f)
    cache = {}
    if os.path.exists(cache_path):
        with open(cache_path, encoding="utf-8") as f:
            cache = json.load(f)
    return db, cache, cache_path


def search(args, db, mode, query):
    cmd = [args.hush, "search", "--db", db, "--json", "--k", "5", "--mode", mode, "--threads", str(args.threads),
           query]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        print(f"warning: {mode} {query!r}: exit {done.returncode}: {done.stderr.strip()[:300]}", file=sys.stderr)
        return {"error": done.stderr.strip()[:300], "results": []}
    out = json.loads(done.stdout)
    return {"results": [{"id": r["id"], "category": r.get("category"), "score": r.get("score"),
                         "title": r.get("title"), "language": r.get("language")} for r in out.get("results", [])],
            "goodMatch": out.get("goodMatch")}


def scores(worry, hits):
    ids = [h["id"] for h in hits[:5]]
    top = hits[0] if hits else None
    rr = next((1.0 / (i + 1) for i, h in enumerate(ids) if h in worry["relevant"]), 0.0)
    return {"cat1": bool(top and top["category"] == worry["category"]),
            "rel1": bool(top and top["id"] in worry["relevant"]), "rr": rr}


def summarize(rows):
    n = len(rows)
    if not n:
        return {"n": 0, "cat_at_1": None, "rel_at_1": None, "mrr_at_5": None}
    return {"n": n, "cat_at_1": round(100.0 * sum(r["cat1"] for r in rows) / n, 1),
            "rel_at_1": round(100.0 * sum(r["rel1"] for r in rows) / n, 1),
            "mrr_at_5": round(sum(r["rr"] for r in rows) / n, 3)}


def fmt(s):
    if not s["n"]:
        return "– | – | –"
    return f"{s['cat_at_1']:.1f} | {s['rel_at_1']:.1f} | {s['mrr_at_5']:.3f}"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hush", required=True, help="the hush binary")
    p.add_argument("--model", default="e5-small")
    p.add_argument("--set", default="scripts/bench/data/journal", help="folder with readings.jsonl and worries.jsonl")
    p.add_argument("--split", default="all", choices=["all", "dev", "heldout"])
    p.add_argument("--modes", default="hybrid,semantic,calibrated")
    p.add_argument("--work", default="/tmp/journal-work")
    p.add_argument("--rebuild", action="store_true", help="re-index and drop cached results")
    p.add_argument("--json", metavar="OUT", help="write the numbers (and the failures) as JSON")
    p.add_argument("--show-failures", action="store_true", help="list the top-1 wrong-category cases")
    p.add_argument("--list-close-calls", action="store_true", help="list the close calls and their shared words")
    p.add_argument("--threads", type=int, default=1, help="--threads for hush index and search (default 1)")
    args = p.parse_args()
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]

    readings_path = os.path.join(args.set, "readings.jsonl")
    readings = read_jsonl(readings_path)
    worries = read_jsonl(os.path.join(args.set, "worries.jsonl"))
    by_id = {r["id"]: r for r in readings}
    calls = close_calls(worries, readings)
    if args.list_close_calls:
        for w in worries:
            if w["id"] in calls:
                shared = "; ".join(f"{t}: " + ",".join(f"{i}({by_id[i]['category']})" for i in ids[:3])
                                   + ("…" if len(ids) > 3 else "") for t, ids in calls[w["id"]].items())
                print(f"{w['id']} [{w['category']}] {w['query']}  ->  {shared}")
        print()

    db, cache, cache_path = ensure_store(args, readings_path)
    splits = ["all", "dev", "heldout"] if args.split == "all" else [args.split]
    chosen = [w for w in worries if args.split == "all" or w["split"] == args.split]
    results = {}  # (mode, worry id) -> search output
    done = 0
    for mode in modes:
        for w in chosen:
            key = f"{mode}\t{w['query']}"
            if key not in cache:
                cache[key] = search(args, db, mode, w["query"])
                done += 1
                if done % 20 == 0:
                    print(f"  {done} searches", file=sys.stderr)
                    with open(cache_path, "w", encoding="utf-8") as f:
                        json.dump(cache, f, ensure_ascii=False)
            results[(mode, w["id"])] = cache[key]
    with open(cache_path, "w", encoding="utf-8") as f:
        json.dump(cache, f, ensure_ascii=False)

    per = {(mode, w["id"]): scores(w, results[(mode, w["id"])]["results"]) for mode in modes for w in chosen}
    table = []
    print(f"\nJournal close calls: {args.model}, {len(readings)} readings, {len(chosen)} worries "
          f"({sum(1 for w in chosen if w['id'] in calls)} close calls), k=5\n")
    print("| mode | split | n | cat@1 % | rel@1 % | MRR@5 | close n | close cat@1 % | close rel@1 % | close MRR@5 |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for mode in modes:
        for split in splits:
            ws = [w for w in chosen if split == "all" or w["split"] == split]
            every = summarize([per[(mode, w["id"])] for w in ws])
            close = summarize([per[(mode, w["id"])] for w in ws if w["id"] in calls])
            table.append({"mode": mode, "split": split, "all": every, "close_calls": close})
            print(f"| {mode} | {split} | {every['n']} | {fmt(every)} | {close['n']} | {fmt(close)} |")
    by_language = []
    print("\nBy the worry's language (split " + args.split + "):\n")
    print("| mode | language | n | cat@1 % | rel@1 % | MRR@5 | close n | close cat@1 % | close rel@1 % | close MRR@5 |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for mode in modes:
        for language in sorted({w["language"] for w in chosen}):
            ws = [w for w in chosen if w["language"] == language]
            every = summarize([per[(mode, w["id"])] for w in ws])
            close = summarize([per[(mode, w["id"])] for w in ws if w["id"] in calls])
            by_language.append({"mode": mode, "language": language, "all": every, "close_calls": close})
            print(f"| {mode} | {language} | {every['n']} | {fmt(every)} | {close['n']} | {fmt(close)} |")

    failures = []
    for mode in modes:
        for w in chosen:
            hits = results[(mode, w["id"])]["results"]
            if per[(mode, w["id"])]["cat1"]:
                continue
            top = hits[0] if hits else None
            shared = calls.get(w["id"], {})
            lured = sorted(t for t, ids in shared.items() if top and top["id"] in ids)
            others = {m: {"top": (results[(m, w["id"])]["results"] or [{}])[0].get("id"),
                          "cat1": per[(m, w["id"])]["cat1"], "rel1": per[(m, w["id"])]["rel1"]}
                      for m in modes if m != mode}
            failures.append({"mode": mode, "worry": w["id"], "split": w["split"], "query": w["query"],
                             "category": w["category"], "relevant": w["relevant"], "close_call": bool(shared),
                             "shared_with_top": lured, "top": top, "rr": per[(mode, w["id"])]["rr"],
                             "other_modes": others})
    if args.show_failures:
        for mode in modes:
            fs = [f for f in failures if f["mode"] == mode]
            print(f"\n{mode}: {len(fs)} top-1 wrong-category worries "
                  f"({sum(f['close_call'] for f in fs)} close calls)")
            for f in fs:
                top = f["top"]
                hit = (f"{top['id']} [{top['category']}] \"{top['title']}\" {top['score']:.3f}" if top
                       else "no results")
                mark = "close call" + (f", shares {', '.join(f['shared_with_top'])} with the top hit"
                                       if f["shared_with_top"] else "") if f["close_call"] else "not a close call"
                other = "; ".join(f"{m}: " + ("ok" if o["rel1"] else "category ok" if o["cat1"] else "wrong")
                                  + f" ({o['top']})" for m, o in f["other_modes"].items())
                print(f"  {f['worry']} [{f['category']}, {f['split']}] {f['query']!r}\n"
                      f"      top: {hit}; relevant {','.join(f['relevant'])} RR {f['rr']:.2f}; {mark}"
                      + (f"\n      {other}" if other else ""))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"model": args.model, "hush": args.hush, "set": args.set, "split": args.split, "k": 5,
                       "readings": len(readings), "worries": len(chosen),
                       "close_calls": sorted(w["id"] for w in chosen if w["id"] in calls),
                       "table": table, "by_language": by_language, "failures": failures},
                      f, ensure_ascii=False, indent=1)
        print(f"\nwrote {args.json}", file=sys.stderr)


if __name__ == "__main__":
    main()
