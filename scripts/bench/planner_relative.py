#!/usr/bin/env python3
"""The planner's questions that name a time relative to the day they are asked ("last week", "yesterday",
"上周"), or the start or end of the year. Writes SET/relative.jsonl for planner-times.py:

    python3 scripts/bench/planner_relative.py [scripts/bench/data/planner]

Each question carries its own "today" (a day of 2026) and the one meeting that answers it; "needs_time" says
whether another meeting on the same topic exists at another time, so that only the time tells them apart.
Written by a helper that saw only the records (2026-11-29, after the rules for months, before those for
relative times); the check below recomputes each expression's days with Python's calendar (Monday-to-Sunday
weeks, calendar months; "at the start/end of the year" January/December of today's year; "a month ago" the
same day a month before, give or take a week) and fails when a meeting falls outside its own. Standard library
only.
"""
import calendar
import datetime as dt
import json
import os
import re
import sys

# (question, today, meeting id, the time expression, needs the time to tell the meeting apart)
RELATIVE = [
 # kind: day words
 ("what did the board end up saying yesterday about hiring and the fundraise", "2026-09-18", "m-078", "yesterday", True),
 ("the partner beta went live this morning - how many bookings so far, any problems?", "2026-11-16", "m-093", "this morning", True),
 ("which crash did we end up hotfixing in the war room today", "2026-07-14", "m-060", "today", True),
 ("crash-free numbers from the app v2 check-in the day before yesterday", "2026-06-12", "m-049", "the day before yesterday", True),
 ("Jonas and I talked about eng managers yesterday - who gets platform?", "2026-10-28", "m-088", "yesterday", True),
 # last week
 ("what ask did we settle on for the board in last week's prep", "2026-09-15", "m-076", "last week", True),
 ("when do the friendly studios get the beta? came up in the weekly app status last week", "2026-04-16", "m-029", "last week", True),
 ("my 1:1 last week, what did I say I'd raise with Jonas", "2026-06-24", "m-051", "last week", True),
 ("the high finding Redline reported last week - who's fixing it and by when?", "2026-05-06", "m-036", "last week", True),
 ("who got the offer after last week's interview debrief", "2026-10-21", "m-084", "last week", True),
 # this week
 ("how much did marketing's events budget get cut this week", "2026-01-16", "m-004", "this week", True),
 ("is the high pentest finding finally closed? retest results came in this week", "2026-06-20", "m-053", "this week", True),
 ("movers we picked this week and what they cost", "2026-07-24", "m-063", "this week", True),
 ("SOC 2 this week: how many controls pass and what's still missing", "2026-10-09", "m-083", "this week", True),
 ("who's coming to the call about hiring testers this week?", "2026-05-25", "m-045", "this week", True),
 # next week
 ("where is the board meeting next week and who's coming from Northwind", "2026-03-13", "m-025", "next week", True),
 ("who should I expect at the SOC 2 run-through next week", "2026-11-06", "m-092", "next week", True),
 ("agenda for my 1:1 with Jonas next week?", "2026-02-20", "m-017", "next week", True),
 ("Redline testers start next week - who's on the call with them", "2026-04-15", "m-033", "next week", True),
 ("where's the half-day leadership thing next week", "2026-10-09", "m-085", "next week", True),
 # last month
 ("how much did we take out of H2 in the budget meeting last month", "2026-08-12", "m-064", "last month", True),
 ("what did we end up promising FitHaus last month", "2026-10-05", "m-077", "last month", True),
 ("Sam's 1:1 last month - what did he want from me?", "2026-06-03", "m-043", "last month", False),
 ("churn target the board gave us last month?", "2026-04-08", "m-025", "last month", True),
 ("why do small studios cancel, according to the churn analysis last month", "2026-10-12", "m-080", "last month", False),
 # this month
 ("2027 spend and number of new hires from this month's budget review", "2026-11-20", "m-090", "this month", True),
 ("we moved the app launch this month, what's the new date and why", "2026-05-27", "m-039", "this month", True),
 ("what did I promise Daniel in our one-on-one this month", "2026-08-27", "m-068", "this month", False),
 ("Priya 1:1 this month — what is she taking on next?", "2026-07-20", "m-058", "this month", True),
 # N ago
 ("what slipped on the app, per the weekly status two weeks ago", "2026-03-18", "m-019", "two weeks ago", True),
 ("dates for the Redline retest we booked 3 days ago", "2026-05-29", "m-044", "3 days ago", True),
 ("what did Priya and I agree about headcount a month ago", "2026-02-12", "m-003", "a month ago", True),
 ("new salary band for the backend role from the hiring sync two weeks ago", "2026-02-04", "m-006", "two weeks ago", True),
 ("root cause of the customer escalation 5 days ago", "2026-06-17", "m-050", "5 days ago", True),
 # start / end of the year
 ("the three company goals from the all-hands at the start of the year", "2026-06-30", "m-001", "at the start of the year", True),
 ("what price did we agree with Redline at the beginning of the year", "2026-05-02", "m-005", "at the beginning of the year", True),
 ("how many members were hit by the FitHaus problem at the start of the year", "2026-09-16", "m-008", "at the start of the year", True),
 ("where's the all-hands at the end of the year", "2026-11-30", "m-100", "at the end of the year", True),
 ("what does the board have to approve at the end of the year meeting", "2026-10-01", "m-098", "at the end of the year", True),
 ("who's coming to the SOC 2 wrap-up at the end of the year", "2026-11-13", "m-097", "at the end of the year", True),
 # other languages
 ("Was haben wir letzte Woche für die erste Version der Partner-API festgelegt?", "2026-08-26", "m-069", "letzte Woche", True),
 ("Welche drei Prioritäten fürs Quartal haben wir gestern beschlossen", "2026-04-15", "m-031", "gestern", True),
 ("on a choisi quel bureau la semaine dernière, et c'est quoi les conditions du bail ?", "2026-04-01", "m-027", "la semaine dernière", True),
 ("qu'est-ce qu'on a décidé hier avec Lena pour les entretiens d'évaluation", "2026-09-09", "m-075", "hier", True),
 ("¿qué banda salarial pusimos la semana pasada para el puesto de seguridad?", "2026-09-02", "m-071", "la semana pasada", True),
 ("qué nos pidió ayer la dueña de Yoga Loft para firmar con todos sus estudios", "2026-03-11", "m-022", "ayer", True),
 ("上周SOC 2的会上定了哪家审计公司？", "2026-08-12", "m-065", "上周", True),
 ("上个月讨论春季团建，预算上限定了多少", "2026-03-09", "m-012", "上个月", True),
]


# Expression -> (unit, offset) for the check.
EXPRESSIONS = {
    "today": ("day", 0), "this morning": ("day", 0), "yesterday": ("day", -1), "gestern": ("day", -1),
    "hier": ("day", -1), "ayer": ("day", -1), "the day before yesterday": ("day", -2),
    "last week": ("week", -1), "letzte Woche": ("week", -1), "la semaine dernière": ("week", -1),
    "la semana pasada": ("week", -1), "上周": ("week", -1), "this week": ("week", 0), "next week": ("week", 1),
    "two weeks ago": ("week", -2), "last month": ("month", -1), "上个月": ("month", -1), "this month": ("month", 0),
    "a month ago": ("month-ago", 1), "at the start of the year": ("year-month", 1),
    "at the beginning of the year": ("year-month", 1), "at the end of the year": ("year-month", 12),
}


def add_months(day, n):
    index = day.year * 12 + day.month - 1 + n
    year, month = divmod(index, 12)
    return dt.date(year, month + 1, min(day.day, calendar.monthrange(year, month + 1)[1]))


def days_of(expr, today):
    """The first and last day `expr` names on `today`."""
    match = re.fullmatch(r"(\d+) days ago", expr)
    unit, n = ("day", -int(match.group(1))) if match else EXPRESSIONS[expr]
    if unit == "day":
        return today + dt.timedelta(days=n), today + dt.timedelta(days=n)
    if unit == "week":
        monday = today - dt.timedelta(days=today.weekday()) + dt.timedelta(weeks=n)
        return monday, monday + dt.timedelta(days=6)
    if unit == "month":
        first = add_months(today.replace(day=1), n)
        return first, first.replace(day=calendar.monthrange(first.year, first.month)[1])
    if unit == "month-ago":
        day = add_months(today, -n)
        return day - dt.timedelta(days=7), day + dt.timedelta(days=7)
    return dt.date(today.year, n, 1), dt.date(today.year, n, calendar.monthrange(today.year, n)[1])


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "scripts/bench/data/planner"
    with open(os.path.join(folder, "records.jsonl"), encoding="utf-8") as f:
        dates = {r["id"]: dt.date.fromisoformat(r["date"]) for r in map(json.loads, f) if r["type"] == "meeting"}
    problems = []
    for n, (query, today, meeting, expr, _) in enumerate(RELATIVE, 1):
        first, last = days_of(expr, dt.date.fromisoformat(today))
        if not first <= dates[meeting] <= last:
            problems.append(f"d-{n:03d} {expr!r} on {today} is {first}..{last}, {meeting} is {dates[meeting]}")
    if len({q[0].lower() for q in RELATIVE}) != len(RELATIVE):
        problems.append("duplicate questions")
    if problems:
        sys.exit("\n".join(problems))
    with open(os.path.join(folder, "relative.jsonl"), "w", encoding="utf-8") as f:
        for n, (query, today, meeting, expr, needs) in enumerate(RELATIVE, 1):
            f.write(json.dumps({"id": f"d-{n:03d}", "query": query, "today": today, "relevant": [meeting],
                                "expr": expr, "needs_time": needs}, ensure_ascii=False) + "\n")
    print(f"{folder}/relative.jsonl: {len(RELATIVE)} questions, {sum(q[4] for q in RELATIVE)} need the time")


if __name__ == "__main__":
    main()
