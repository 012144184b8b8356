#!/usr/bin/env python3
"""The planner's questions that name a time relative to the day they are asked ("last week", "yesterday",
"上周"), or the start or end of the year, and some whose time is not their meeting's. Writes SET/relative.jsonl
for planner-times.py:

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

# A second set, written blind to the rules (after them, by a helper that saw only the records): 28 questions whose
# time is when the meeting was, and 12 whose time is not (asked about a plan made earlier: "what are we launching
# next week?"). (question, today, meeting id, expression, needs the time, the time is the meeting's)
RELATIVE2 = [
 ("office we saw yesterday: how much per square metre and from when is it free?", "2026-02-06", "m-010", "yesterday", True, True),
 ("what did the board ask us to do at yesterday's meeting?", "2026-06-05", "m-047", "yesterday", True, True),
 ("jonas 1:1 yesterday - what did we agree?", "2026-10-28", "m-088", "yesterday", True, True),
 ("SOC 2 exceptions the auditors raised the day before yesterday", "2026-12-03", "m-097", "the day before yesterday", True, True),
 ("did anything slip in the app status call the day before yesterday?", "2026-03-04", "m-019", "the day before yesterday", True, True),
 ("why was FitHaus unhappy last week and what did we promise them?", "2026-09-23", "m-077", "last week", True, True),
 ("where's the Berlin summer party? we planned it last week", "2026-06-24", "m-052", "last week", False, True),
 ("what did the board approve this week", "2026-03-20", "m-025", "this week", True, True),
 ("hotel cap per night in the expense rules we agreed this week", "2026-04-17", "m-032", "this week", False, True),
 ("who is joining the partner API design review next week?", "2026-08-28", "m-074", "next week", True, True),
 ("which room is the board meeting in next week?", "2026-11-26", "m-098", "next week", True, True),
 ("remind me of the company goals Maria presented at the all-hands last month", "2026-02-09", "m-001", "last month", True, True),
 ("Priya and I had a 1:1 last month - anything I need to follow up on?", "2026-08-10", "m-058", "last month", True, True),
 ("is the high pentest finding finally closed? Redline's retest results came in this month", "2026-06-26", "m-053", "this month", True, True),
 ("what did I promise to do in my 1:1 4 days ago", "2026-05-25", "m-043", "4 days ago", True, True),
 ("interview debrief 10 days ago: who got the offer and when do they start?", "2026-10-23", "m-084", "10 days ago", True, True),
 ("main reason studios cancel, from the churn analysis six days ago", "2026-09-30", "m-080", "six days ago", False, True),
 ("how long does the Yoga Loft beta run? we met them two weeks ago", "2026-07-29", "m-061", "two weeks ago", True, True),
 ("partner API scope we settled three weeks ago - what's in v1?", "2026-09-09", "m-069", "three weeks ago", True, True),
 ("office move plan from a couple of weeks ago - when do we pack and when is moving day?", "2026-08-07", "m-063", "a couple of weeks ago", True, True),
 ("Redline call earlier this month: when's the retest and does it cost extra?", "2026-05-29", "m-044", "earlier this month", True, True),
 ("booth number and lead goal from the conference prep earlier this week", "2026-10-08", "m-082", "earlier this week", True, True),
 ("partner API GA date - we set it sometime in the past two weeks, right?", "2026-12-11", "m-099", "in the past two weeks", True, True),
 ("which office did we pick in the past two weeks and what are the lease terms?", "2026-04-03", "m-027", "in the past two weeks", True, True),
 ("Was haben wir vorige Woche im Hiring-Meeting zur Backend-Stelle entschieden?", "2026-01-26", "m-006", "vorige Woche", True, True),
 ("Qu'est-ce qu'Urban Sports Club attend de notre API ? On les a vus avant-hier.", "2026-08-08", "m-066", "avant-hier", True, True),
 ("¿En qué quedamos en la reunión de presupuesto del mes pasado?", "2026-12-09", "m-090", "el mes pasado", True, True),
 ("昨天准备董事会的时候，我们决定向董事会提什么要求？", "2026-09-11", "m-076", "昨天", True, True),
 ("how's the Android rollout going to work for tomorrow's launch?", "2026-07-13", "m-057", "tomorrow", False, False),
 ("Redline retest next week - which days, and when do we get the written report?", "2026-06-12", "m-044", "next week", False, False),
 ("who are the movers this week and which day is packing?", "2026-08-17", "m-063", "this week", False, False),
 ("auditors show up the day after tomorrow; who handles their requests?", "2026-11-21", "m-092", "the day after tomorrow", False, False),
 ("Lisbon team lands next week - which hotel, and where's the team dinner?", "2026-09-18", "m-073", "next week", False, False),
 ("office shuts this week - from what day, and how is support covered?", "2026-12-21", "m-094", "this week", False, False),
 ("partner beta starting next week: how many studios, and what do they pay per booking afterwards?", "2026-11-13", "m-086", "next week", False, False),
 ("which performance review deadlines fall this month?", "2026-11-03", "m-081", "this month", False, False),
 ("Series A kicks off next month - how much are we raising and at what valuation?", "2026-12-16", "m-096", "next month", False, False),
 ("new website goes live next week - is the German version launching at the same time?", "2026-04-24", "m-030", "next week", False, False),
 ("Amir starts the week after next - who's his buddy and what's his first project?", "2026-04-02", "m-028", "the week after next", False, False),
 ("the FitHaus payment-date report is due tomorrow - who was supposed to spec it?", "2026-10-14", "m-077", "tomorrow", False, False),
]


# Expression -> (unit, offset) for the check.
EXPRESSIONS = {
    "today": ("day", 0), "this morning": ("day", 0), "yesterday": ("day", -1), "gestern": ("day", -1),
    "hier": ("day", -1), "ayer": ("day", -1), "the day before yesterday": ("day", -2),
    "last week": ("week", -1), "letzte Woche": ("week", -1), "la semaine dernière": ("week", -1),
    "la semana pasada": ("week", -1), "上周": ("week", -1), "this week": ("week", 0), "next week": ("week", 1),
    "two weeks ago": ("week", -2), "last month": ("month", -1), "上个月": ("month", -1), "this month": ("month", 0),
    "a month ago": ("month-ago", 1), "at the start of the year": ("year-month", 1),
    "avant-hier": ("day", -2), "昨天": ("day", -1), "tomorrow": ("day", 1), "the day after tomorrow": ("day", 2),
    "six days ago": ("day", -6), "vorige Woche": ("week", -1), "three weeks ago": ("week", -3),
    "a couple of weeks ago": ("week", -2), "the week after next": ("week", 2), "el mes pasado": ("month", -1),
    "next month": ("month", 1), "earlier this week": ("week-before", 0), "earlier this month": ("month-before", 0),
    "in the past two weeks": ("past-days", 14),
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
    if unit in ("week-before", "month-before"):
        first, last = days_of("this week" if unit == "week-before" else "this month", today)
        return first, min(last, today - dt.timedelta(days=1))
    if unit == "past-days":
        return today - dt.timedelta(days=n - 1), today
    if unit == "month-ago":
        day = add_months(today, -n)
        return day - dt.timedelta(days=7), day + dt.timedelta(days=7)
    return dt.date(today.year, n, 1), dt.date(today.year, n, calendar.monthrange(today.year, n)[1])


def questions():
    """Both sets, with ids d-... and e-..., the split they belong to and whether their time is the meeting's."""
    out = []
    for prefix, split, table in (("d", "relative", [q + (True,) for q in RELATIVE]), ("e", "relative2", RELATIVE2)):
        for n, (query, today, meeting, expr, needs, is_meeting) in enumerate(table, 1):
            out.append({"id": f"{prefix}-{n:03d}", "query": query, "today": today, "relevant": [meeting], "expr": expr,
                        "needs_time": needs, "time_is_meeting": is_meeting, "split": split})
    return out


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "scripts/bench/data/planner"
    with open(os.path.join(folder, "records.jsonl"), encoding="utf-8") as f:
        dates = {r["id"]: dt.date.fromisoformat(r["date"]) for r in map(json.loads, f) if r["type"] == "meeting"}
    problems = []
    written = questions()
    for q in written:
        today = dt.date.fromisoformat(q["today"])
        first, last = days_of(q["expr"], today)
        day = dates[q["relevant"][0]]
        if q["time_is_meeting"] and not first <= day <= last:
            problems.append(f"{q['id']} {q['expr']!r} on {today} is {first}..{last}, {q['relevant'][0]} is {day}")
        if not q["time_is_meeting"] and (first <= day <= last or day > today):
            problems.append(f"{q['id']} {q['expr']!r} on {today}: {q['relevant'][0]} ({day}) must be before, outside")
    if len({q["query"].lower() for q in written}) != len(written):
        problems.append("duplicate questions")
    if problems:
        sys.exit("\n".join(problems))
    with open(os.path.join(folder, "relative.jsonl"), "w", encoding="utf-8") as f:
        for q in written:
            f.write(json.dumps(q, ensure_ascii=False) + "\n")
    print(f"{folder}/relative.jsonl: {len(written)} questions, {sum(q['needs_time'] for q in written)} need the time, "
          f"{sum(not q['time_is_meeting'] for q in written)} name a time that is not their meeting's")


if __name__ == "__main__":
    main()
