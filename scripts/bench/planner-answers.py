#!/usr/bin/env python3
"""Does the first hit answer a planner question? Measures `hush search` on the planner set (planner_set.py).

    scripts/bench/planner-answers.py --hush PATH [--model e5-small] [--set scripts/bench/data/planner]
        [--split all|dev|heldout|fresh|fresh2|...|fresh12] [--mode hybrid] [--k 3] [--explain] [--work DIR] [--rebuild]
        [--show-failures] [--json OUT]

Builds a store from SET/records.jsonl (WORK/planner-MODEL.sqlite; reused when it exists, re-indexed
incrementally when the records are newer, made anew with --rebuild), then runs one `hush search --json --k K`
per question of SET/questions.jsonl and reports, per split (dev, heldout, all, fresh, fresh2, fresh3, fresh4, fresh5, fresh6, fresh7, fresh8, fresh9):

- splits: "all" is dev + heldout only, as before the fresh split existed, so that its figures stay comparable
  with earlier runs. "fresh" is a second held-out set of answerable questions (ids f-...), written after the
  engine's field rules by someone who had not seen them; it has no unanswerable questions, so its score
  spreads, AUCs and goodMatch share for unanswerable questions are "–". "fresh2" (ids g-...) is a third, written
  the same way after the cues that reading fresh's failures added, so that those cues have a blind figure;
  "fresh3" (ids h-...) a fourth, after the rules that reading fresh2's failures added; "fresh4" (ids k-...) a
  fifth, after the cues from fresh3's; "fresh5" (ids p-...) a sixth, after those from fresh4's; "fresh6" (ids r-...) a
  seventh, after those from fresh5's; "fresh7" (ids s-...) an eighth, after those from fresh6's; "fresh8" (ids t-...) a
  ninth, after those from fresh7's and the rule that a title's words name the record; "fresh9" (ids v-...) a tenth,
  after those from fresh8's and the rule that a question naming no field is shown what was decided; "fresh10"
  (ids w-...) an eleventh, after those from fresh9's, and the first fresh split with unanswerable questions (ids
  x-..., 12 general, 24 near-domain), written after the rule that a name the store never mentions lowers relevance;
  "fresh11" (ids y-... and z-...) a twelfth, the same way, after the rule that a question about a cost is not
  answered by a record that states no amount; "fresh12" (ids b-... and c-...) a thirteenth, after the rules that a
  cost question is shown the line with the amount and "how many X" the line with a number of X.
  --split all (the default) runs every question and reports every split (the fresh ones only when the set has
  them); --split dev|heldout|fresh|...|fresh12 runs and reports that split alone;

- answerable questions: the first hit is the relevant record (top-1), the relevant record is among the first K
  (top-K), the answer (a short substring of one field of the record, matched case-insensitively) is in the
  first hit's `snippet`, in its `text`, or in the snippet of the relevant record among the first K. These
  count only the relevant record's hit; "snippet, any record" counts the first hit's snippet whatever its id
  (an attendee's name or a room is in many records). "field@1": the first hit's `field` is the question's
  field (only when the output has per-hit `field`);
- the first hit's score for answerable and unanswerable questions (min / median / max), the share with
  `goodMatch` true (when the output has the key), and the AUC of the first hit's score (and of its
  `relevance`, when present) separating answerable from unanswerable questions (ties count half; a question
  without hits scores lowest);
- "answer in the first snippet" per field and per question style (named: the question names the meeting;
  content: it asks about what was said), for "all" and for "fresh" (or for the one split asked for).

--show-failures prints every answerable question whose first snippet lacks the answer. The JSON (--json)
holds the settings, the tables and every question's first hits. Standard library only.
"""
import argparse
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

SPLITS = ("dev", "heldout", "all", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh7", "fresh8",
          "fresh9", "fresh10", "fresh11", "fresh12")
FRESH = ("fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh7", "fresh8", "fresh9", "fresh10",
         "fresh11", "fresh12")
ALL = ("dev", "heldout")  # the "all" split: dev + heldout, not fresh, so that earlier figures stay comparable
FIELD_ORDER = ("Attendees", "Purpose", "Outcomes", "Action items", "Location")
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--hush", required=True, help="the hush binary")
    p.add_argument("--model", default="e5-small", help="model for a new store (default e5-small)")
    p.add_argument("--set", default=os.path.join(REPO, "scripts", "bench", "data", "planner"),
                   help="folder with records.jsonl and questions.jsonl")
    p.add_argument("--split", choices=SPLITS, default="all")
    p.add_argument("--mode", default=None, help="hush search --mode (default: hush's, hybrid)")
    p.add_argument("--k", type=int, default=3, help="hits per question (default 3)")
    p.add_argument("--explain", action="store_true", help="pass --explain (kept in the JSON)")
    p.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "hush-planner"),
                   help="folder for the store")
    p.add_argument("--rebuild", action="store_true", help="index into a new store")
    p.add_argument("--show-failures", action="store_true")
    p.add_argument("--json", dest="json_out", help="write the results as JSON here")
    return p.parse_args()


def store_path(args):
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", os.path.basename(args.model.rstrip("/")) or "model")
    return os.path.join(args.work, f"planner-{name}.sqlite")


def build_store(args, records, db):
    os.makedirs(args.work, exist_ok=True)
    if args.rebuild:
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(db + suffix):
                os.remove(db + suffix)
    if os.path.exists(db) and os.path.getmtime(db) >= os.path.getmtime(records):
        print(f"store: {db} (reused)", file=sys.stderr)
        return
    started = time.time()
    cmd = [args.hush, "index", "--db", db, "--model", args.model, "--quiet", records]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"index failed ({done.returncode}): {' '.join(cmd)}\n{done.stderr}")
    print(f"store: {db} (indexed in {time.time() - started:.1f} s)", file=sys.stderr)


def search(args, db, query):
    cmd = [args.hush, "search", "--db", db, "--json", "--k", str(args.k)]
    if args.mode:
        cmd += ["--mode", args.mode]
    if args.explain:
        cmd.append("--explain")
    cmd += ["--", query] if query.startswith("-") else [query]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"search failed ({done.returncode}): {' '.join(cmd)}\n{done.stderr}")
    return json.loads(done.stdout)


def in_split(row, split):
    """Whether a question (or its row) belongs to `split`; "all" is dev + heldout only."""
    return row["split"] in ALL if split == "all" else row["split"] == split


def contains(haystack, needle):
    return haystack is not None and needle.lower() in haystack.lower()


def evaluate(q, out):
    hits = out.get("results") or []
    top = hits[0] if hits else {}
    row = {
        "id": q["id"], "query": q["query"], "split": q["split"], "relevant": q["relevant"],
        "answerable": bool(q["relevant"]), "goodMatch": out.get("goodMatch"),
        "goodMatchThreshold": out.get("goodMatchThreshold"), "mode": out.get("mode"),
        "top_score": top.get("score"), "top_relevance": top.get("relevance"),
        "hits": [{k: h.get(k) for k in ("id", "score", "relevance", "field", "title", "snippet", "text", "explain")
                  if k in h} for h in hits],
    }
    if q["relevant"]:
        relevant = set(q["relevant"])
        answer = q["answer"]
        own = [h for h in hits if h.get("id") in relevant]
        row.update({
            "field": q["field"], "answer": answer, "style": q.get("style"),
            "top1": top.get("id") in relevant,
            "topk": bool(own),
            "snippet1": top.get("id") in relevant and contains(top.get("snippet"), answer),
            "text1": top.get("id") in relevant and contains(top.get("text"), answer),
            "snippetk": any(contains(h.get("snippet"), answer) for h in own),
            "snippet1_any": contains(top.get("snippet"), answer),
            "field1": (top.get("field") == q["field"]) if "field" in top else None,
        })
    else:
        row["kind"] = q.get("kind")
    return row


def pct(rows, key):
    return 100.0 * sum(1 for r in rows if r[key]) / len(rows) if rows else float("nan")


def auc(positives, negatives):
    """P(score of a positive > score of a negative), ties half. None scores are lowest."""
    if not positives or not negatives:
        return None
    low = -math.inf
    pos = [low if s is None else s for s in positives]
    neg = [low if s is None else s for s in negatives]
    wins = 0.0
    for p in pos:
        for n in neg:
            wins += 1.0 if p > n else 0.5 if p == n else 0.0
    return wins / (len(pos) * len(neg))


def spread(values):
    values = [v for v in values if v is not None]
    if not values:
        return None
    return {"min": min(values), "median": statistics.median(values), "max": max(values)}


def summarize(rows):
    ans = [r for r in rows if r["answerable"]]
    una = [r for r in rows if not r["answerable"]]
    s = {"answerable": len(ans), "unanswerable": len(una)}
    for key in ("top1", "topk", "snippet1", "text1", "snippetk", "snippet1_any"):
        s[key] = pct(ans, key)
    with_field = [r for r in ans if r["field1"] is not None]
    s["field1"] = pct(with_field, "field1") if with_field else None
    for name, group in (("answerable", ans), ("unanswerable", una),
                        ("general", [r for r in una if r.get("kind") == "general"]),
                        ("near-domain", [r for r in una if r.get("kind") == "near-domain"])):
        s[f"score_{name}"] = spread([r["top_score"] for r in group])
        known = [r for r in group if r["goodMatch"] is not None]
        s[f"goodmatch_{name}"] = ({"true": pct(known, "goodMatch"), "known": len(known)} if known else None)
    s["auc_score"] = auc([r["top_score"] for r in ans], [r["top_score"] for r in una])
    s["auc_score_right"] = auc([r["top_score"] for r in ans if r["top1"]], [r["top_score"] for r in una])
    if any(r["top_relevance"] is not None for r in rows):
        s["auc_relevance"] = auc([r["top_relevance"] for r in ans], [r["top_relevance"] for r in una])
    return s


def f1(x):
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.1f}"


def f3(x):
    return "–" if x is None else f"{x:.3f}"


def spread_text(s):
    return "–" if s is None else f"{s['min']:.3f} / {s['median']:.3f} / {s['max']:.3f}"


def good_text(g):
    return "–" if g is None else f"{g['true']:.0f} % true"


def markdown(args, mode, splits, summaries, rows, k):
    lines = [f"Planner set `{os.path.relpath(args.set)}`, model `{args.model}`, mode `{mode}`, k = {k}", ""]
    has_field = any(summaries[s]["field1"] is not None for s in splits)
    head = ["split", "answerable", "top-1", f"top-{k}", "answer in top snippet", "in top text",
            f"in a top-{k} snippet", "top snippet, any record"] + (["field@1"] if has_field else [])
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for sp in splits:
        s = summaries[sp]
        cells = [sp, str(s["answerable"]), f1(s["top1"]), f1(s["topk"]), f1(s["snippet1"]), f1(s["text1"]),
                 f1(s["snippetk"]), f1(s["snippet1_any"])] + ([f1(s["field1"])] if has_field else [])
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    has_rel = any("auc_relevance" in summaries[s] for s in splits)
    head = ["split", "top score, answerable (min / median / max)", "unanswerable (n)",
            "top score, unanswerable", "general", "near-domain", "AUC", "AUC, right top-1 only"] \
        + (["AUC of relevance"] if has_rel else []) + ["goodMatch: answerable", "unanswerable"]
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for sp in splits:
        s = summaries[sp]
        cells = [sp, spread_text(s["score_answerable"]), str(s["unanswerable"] or "–"),
                 spread_text(s["score_unanswerable"]),
                 spread_text(s["score_general"]), spread_text(s["score_near-domain"]), f3(s["auc_score"]),
                 f3(s["auc_score_right"])] + ([f3(s.get("auc_relevance"))] if has_rel else []) \
            + [good_text(s["goodmatch_answerable"]), good_text(s["goodmatch_unanswerable"])]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    for sel in [sp for sp in splits if sp in ("all",) + FRESH] or splits[-1:]:
        ans = [r for r in rows if r["answerable"] and in_split(r, sel)]
        if not ans:
            continue
        head = ["field / style (" + sel + ")", "n", "top-1", f"top-{k}", "answer in top snippet", "in top text",
                f"in a top-{k} snippet"]
        lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        groups = [(f, [r for r in ans if r["field"] == f]) for f in FIELD_ORDER]
        groups += [(f"style: {st}", [r for r in ans if r.get("style") == st]) for st in ("named", "content")]
        for name, g in groups:
            if g:
                lines.append("| " + " | ".join([name, str(len(g)), f1(pct(g, "top1")), f1(pct(g, "topk")),
                                                f1(pct(g, "snippet1")), f1(pct(g, "text1")),
                                                f1(pct(g, "snippetk"))]) + " |")
        lines.append("")
    return "\n".join(lines).rstrip("\n")


def one_line(text, width=200):
    text = re.sub(r"\s+", " ", text or "").strip()
    return text if len(text) <= width else text[:width - 1] + "…"


def main():
    args = parse_args()
    records = os.path.join(args.set, "records.jsonl")
    with open(os.path.join(args.set, "questions.jsonl"), encoding="utf-8") as f:
        questions = [json.loads(line) for line in f if line.strip()]
    if args.split != "all":  # --split all runs every question, fresh included; the "all" row is dev + heldout
        questions = [q for q in questions if in_split(q, args.split)]
    db = store_path(args)
    build_store(args, records, db)

    started = time.time()
    rows, modes = [], set()
    for n, q in enumerate(questions, 1):
        out = search(args, db, q["query"])
        row = evaluate(q, out)
        modes.add(row["mode"])
        rows.append(row)
        if n % 25 == 0:
            print(f"  {n}/{len(questions)} questions, {time.time() - started:.0f} s", file=sys.stderr)
    mode = "/".join(sorted(m for m in modes if m)) or (args.mode or "default")

    if args.split == "all":  # dev, heldout, all (= dev + heldout), then the fresh splits the set has
        splits = tuple(sp for sp in SPLITS if sp not in FRESH or any(r["split"] == sp for r in rows))
    else:
        splits = (args.split,)
    summaries = {sp: summarize([r for r in rows if in_split(r, sp)]) for sp in splits}
    print(markdown(args, mode, splits, summaries, rows, args.k))

    if args.show_failures:
        print("\nAnswerable questions whose first snippet lacks the answer:\n")
        for r in rows:
            if r["answerable"] and not r["snippet1"]:
                top = r["hits"][0] if r["hits"] else {}
                rank = next((i + 1 for i, h in enumerate(r["hits"]) if h.get("id") in r["relevant"]), None)
                print(f"- {r['id']} [{r['split']}] {r['query']!r}\n"
                      f"  expected {','.join(r['relevant'])} {r['field']}: {r['answer']!r}"
                      f" (relevant at rank {rank or '>' + str(args.k)})\n"
                      f"  top {top.get('id')} {top.get('field') or ''} {f3(top.get('score'))}:"
                      f" {one_line(top.get('snippet'))}")

    if args.json_out:
        report = {"settings": {"hush": args.hush, "model": args.model, "set": args.set, "split": args.split,
                               "mode": mode, "k": args.k, "store": db},
                  "summary": summaries, "questions": rows}
        with open(args.json_out, "w", encoding="utf-8") as f:
            json.dump(report, f, ensure_ascii=False, indent=1)
        print(f"\nwrote {args.json_out}", file=sys.stderr)


if __name__ == "__main__":
    main()
