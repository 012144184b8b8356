#!/usr/bin/env python3
"""Does a time named relative to today put the right meeting first? Runs the planner's relative-time questions
(SET/relative.jsonl, written by planner_relative.py) through `hush search`, each with its own `--today`. A question may say that its time is not when its meeting was
("time_is_meeting": false: "what are we launching next week?", decided weeks before): those are counted apart.

    scripts/bench/planner-times.py --hush PATH [--baseline PATH] [--model e5-small] [--work DIR] [--json OUT]

The store is planner-answers.py's (WORK/planner-MODEL.sqlite; run that first, or give --db). A baseline binary
whose `hush search` has no --today runs the questions without it (it reads no relative time). Reports, per
binary, the share of questions whose first hit is the meeting that answers it, and in the first three; over
all, over those that need the time (another meeting on the topic exists at another time), and per kind of
expression. Standard library only.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


OTHER_LANGUAGES = {"gestern", "hier", "ayer", "letzte Woche", "la semaine dernière", "la semana pasada", "上周", "上个月",
                   "vorige Woche", "avant-hier", "el mes pasado", "昨天"}


def kind(expr):
    if expr in OTHER_LANGUAGES:
        return "other languages"
    if expr.endswith("ago"):
        return "N days / weeks / a month ago"
    if "year" in expr:
        return "start / end of the year"
    if expr in ("today", "this morning", "yesterday", "the day before yesterday", "tomorrow",
                "the day after tomorrow"):
        return "today, yesterday, tomorrow"
    if expr.startswith("earlier this") or expr.startswith("in the past"):
        return "earlier this week or month, the past two weeks"
    if expr in ("next month", "the week after next"):
        return "next week"
    return expr


def run(binary, db, questions, with_today):
    rows = []
    for q in questions:
        cmd = [binary, "search", "--db", db, "--json", "--k", "3"]
        if with_today:
            cmd += ["--today", q["today"]]
        done = subprocess.run(cmd + ["--", q["query"]], capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"search failed: {' '.join(cmd)}\n{done.stderr}")
        ids = [hit["id"] for hit in json.loads(done.stdout)["results"]]
        rows.append({"id": q["id"], "first": ids[:1] == q["relevant"], "top3": q["relevant"][0] in ids,
                     "hits": ids, "kind": kind(q["expr"]), "needs_time": q["needs_time"],
                     "time_is_meeting": q.get("time_is_meeting", True), "split": q.get("split", "relative")})
    return rows


def share(rows, key):
    return f"{sum(r[key] for r in rows)}/{len(rows)} ({100 * sum(r[key] for r in rows) / max(len(rows), 1):.1f} %)"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--hush", required=True)
    p.add_argument("--baseline")
    p.add_argument("--model", default="e5-small")
    p.add_argument("--set", default=os.path.join(REPO, "scripts", "bench", "data", "planner"))
    p.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "hush-planner"))
    p.add_argument("--db", help="the planner's store (default WORK/planner-MODEL.sqlite)")
    p.add_argument("--json", dest="json_out")
    args = p.parse_args()
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", os.path.basename(args.model.rstrip("/")) or "model")
    db = args.db or os.path.join(args.work, f"planner-{name}.sqlite")
    if not os.path.exists(db):
        sys.exit(f"{db}: no store; run scripts/bench/planner-answers.py --model {args.model} first")
    with open(os.path.join(args.set, "relative.jsonl"), encoding="utf-8") as f:
        questions = [json.loads(line) for line in f]
    report = {}
    for label, binary in (("baseline", args.baseline), ("hush", args.hush)):
        if not binary:
            continue
        helps = subprocess.run([binary, "search", "--help"], capture_output=True, text=True).stdout
        report[label] = run(binary, db, questions, "--today" in helps)
    first = next(iter(report.values()))
    kinds = sorted({r["kind"] for r in first})
    splits = list(dict.fromkeys(r["split"] for r in first))

    def row(label, keep, key="first"):
        print(f"| {label} | " + " | ".join(share([r for r in rows if keep(r)], key) for rows in report.values()) + " |")

    print(f"| {len(questions)} questions ({args.model}) | " + " | ".join(report) + " |")
    print("| --- |" + " ---: |" * len(report))
    for split in splits:
        row(f"{split}: the right meeting first", lambda r: r["split"] == split)
        row(f"{split}: in the first three", lambda r: r["split"] == split, "top3")
        row(f"{split}: first, of those that need the time", lambda r: r["split"] == split and r["needs_time"])
        if any(r["split"] == split and not r["time_is_meeting"] for r in first):
            row(f"{split}: first, where the time is not the meeting's",
                lambda r: r["split"] == split and not r["time_is_meeting"])
    for k in kinds:
        row(f"first: {k}", lambda r: r["kind"] == k)
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as f:
            json.dump({"db": db, "model": args.model, "runs": report}, f, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
