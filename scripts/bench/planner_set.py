#!/usr/bin/env python3
"""Writes the planner test set: 100 meeting records, 100 notes and the questions about them.

    scripts/bench/planner_set.py [OUT_DIR]        (default: scripts/bench/data/planner)

records.jsonl   the records, in the JSON Lines format `hush index` reads: meetings with five labelled fields
                (Attendees, Purpose, Outcomes, Action items, Location) and a short body; notes with a body
                of 50 to 200 words. A small company's planner over 2026, written by hand below.
questions.jsonl answerable questions ({"id": "q-001", "query", "relevant": [meeting id], "field", "answer",
                "split", "style"}), each answered by one field of one meeting: `answer` is a short substring
                of that field's value (case-insensitive) that appears in neither the record's title nor its
                body; `style` is "named" when the question names the meeting, "content" when it asks about
                what was said. Then unanswerable ones ({"id": "u-001", "query", "relevant": [], "split",
                "kind"}), "general" (knowledge no planner holds) or "near-domain" (sounds like the planner,
                but nothing in it answers); each carries, in the data below, words that must not occur in
                any record, which the generator checks. Splits alternate: odd ids dev, even ids heldout.
                Last, after the unanswerable ones, the fresh answerable questions ({"id": "f-001", ...,
                "split": "fresh"}, same keys and rules): a second held-out split, written after the search
                engine's field rules by someone who had not seen them (see FRESH below). It has no
                unanswerable questions, and is not part of "all" (dev + heldout) in planner-answers.py. Then
                the second fresh ones ({"id": "g-001", ..., "split": "fresh2"}, see FRESH2), written the same
                way after the cues that FRESH's failures added, and the third ({"id": "h-001", ..., "split":
                "fresh3"}, see FRESH3), after the rules that FRESH2's failures added, and the fourth ("k-001",
                split "fresh4", see FRESH4) after the cues from FRESH3's, the fifth ("p-001", split "fresh5", see
                FRESH5) after those from FRESH4's, the sixth ("r-001", split "fresh6", see FRESH6) after those
                from FRESH5's, the seventh ("s-001", split "fresh7", see FRESH7) after those from FRESH6's, the
                eighth ("t-001", split "fresh8", see FRESH8) after those from FRESH7's, the ninth ("v-001",
                split "fresh9", see FRESH9) after those from FRESH8's, the tenth ("w-001", split "fresh10", see
                FRESH10) after those from FRESH9's. Last, the fresh splits' unanswerable questions ({"id": "x-001",
                ..., "relevant": [], "split": "fresh10", "kind", "written_as"}, see UNANSWERABLE10; then "z-001",
                split "fresh11", see UNANSWERABLE11; "c-001", split "fresh12", see UNANSWERABLE12), after FRESH11
                ("y-001", split "fresh11") and FRESH12 ("b-001", split "fresh12").

The data is fixed; the script has no randomness. It checks the set (answers in their fields and not in
titles, bodies or other fields, note lengths, the unanswerable questions' words absent, queries unique, at most
one fresh question per meeting) and stops on any violation.
Measure with scripts/bench/planner-answers.py.
"""
import json
import os
import re
import sys

FIELDS = {"A": "Attendees", "P": "Purpose", "O": "Outcomes", "X": "Action items", "L": "Location"}


def M(date, title, body, A, P, O, X, L, tags, questions):
    return {"date": date, "title": title, "body": body, "fields": {"A": A, "P": P, "O": O, "X": X, "L": L},
            "tags": tags, "questions": questions}


def N(date, title, tags, text):
    return {"date": date, "title": title, "tags": tags, "text": text}


# ---------------------------------------------------------------------------------------------------------
# Meetings. Questions: (field code, query, answer, style). The planner's owner writes "me" for themself.
# Before the move (August 21) meetings are at Torstraße (Room 4B, Room 2A, the rooftop terrace); after it at
# Ohlauer Straße, whose rooms are named after Berlin lakes (Wannsee, Müggelsee, Schlachtensee, Tegeler See).
# ---------------------------------------------------------------------------------------------------------
MEETINGS = [
    M("2026-01-07", "All-hands: 2026 kickoff",  # m-001
      "Maria opened with a look back at 2025 and the plan for the new year. Good questions from the Lisbon folks about career paths.",
      A="Whole company (41 people); Maria Keller presenting; Jonas Weber and Priya Nair on the Q&A panel",
      P="Present the three company goals for 2026 and the new org chart",
      O="Goals agreed: ship mobile app v2, reach 600 paying studios, grow the Lisbon hub to 12 people. Bonus scheme tied to the studio target.",
      X="Lena: share the recording and slides by Friday. Me: collect the open questions in a FAQ doc.",
      L="Rented hall at Kino Babylon, Mitte",
      tags=["all-hands", "company"],
      questions=[
          ("L", "Where did we hold the all-hands at the start of the year?", "Kino Babylon", "named"),
      ]),
    M("2026-01-09", "Mobile app v2 kickoff",  # m-002
      "First meeting for the v2 project. Lots of enthusiasm, a few worries about the timeline with only two mobile engineers.",
      A="Priya Nair, Jonas Weber, Ravi Menon, Clara Jung, Tom Okafor, me",
      P="Agree the scope of v2: class booking, waitlists, Apple Pay and Google Pay",
      O="Flutter rewrite rejected; both apps stay native (Swift and Kotlin). Target launch date set for June 2. Offline mode left out of scope.",
      X="Tom: clickable prototype by January 30. Ravi and Clara: estimate the waitlist feature.",
      L="Room 4B",
      tags=["mobile-app", "kickoff"],
      questions=[
          ("O", "Are we rewriting the app in Flutter?", "stay native", "content"),
          ("L", "Which room was the app v2 kickoff in?", "Room 4B", "named"),
      ]),
    M("2026-01-12", "1:1 with Priya",  # m-003
      "Monthly check-in. She is stretched thin between two products.",
      A="Priya Nair, me",
      P="Talk about her workload and the product team's headcount",
      O="We agreed to open a second product manager role; Priya keeps the mobile app, the new PM will own the web dashboard.",
      X="Me: get the PM role approved in the Q1 budget. Priya: write the job description.",
      L="Café Lindner",
      tags=["1:1", "product"],
      questions=[
          ("L", "Where did I meet Priya to talk about her workload?", "Café Lindner", "named"),
      ]),
    M("2026-01-14", "Q1 budget review",  # m-004
      "Went through the department budgets line by line. One team asked for a lot more than we expected.",
      A="Aiko Tanaka, Maria Keller, Nora Petersen, Jonas Weber, me",
      P="Approve the Q1 budgets per department before the board sees them",
      O="Total Q1 spend approved at 1.42 million euros. Marketing's events budget cut from 60k to 35k. Second PM role approved.",
      X="Aiko: send the final spreadsheet to the board by January 20. Nora: re-plan the events calendar with the smaller budget.",
      L="Room 2A",
      tags=["budget", "finance"],
      questions=[
          ("A", "Who from marketing sat in on the Q1 budget review?", "Nora Petersen", "named"),
      ]),
    M("2026-01-16", "Security audit scoping with Redline",  # m-005
      "Call with the pentest firm about what they will test this year and when.",
      A="Daniel Brandt, Jonas Weber, Kasia Nowak (Redline Security), me",
      P="Define the scope of the external penetration test before the app v2 launch",
      O="Scope: mobile APIs, web dashboard and the payments flow. Testing window April 20 to May 1. Fixed price of 18,500 euros.",
      X="Daniel: send Redline the API documentation and test accounts. Me: sign the statement of work.",
      L="Video call",
      tags=["security", "pentest", "vendor"],
      questions=[
          ("O", "How much is the penetration test costing us?", "18,500", "content"),
      ]),
    M("2026-01-20", "Hiring sync: backend engineer",  # m-006
      "Still no backend hire after two months. The pipeline is thin and two candidates dropped out.",
      A="Lena Fischer, Miguel Sousa, Jonas Weber",
      P="Figure out why the backend engineer search is stalling",
      O="Salary band raised to 70-82k. Role opened to remote candidates in Portugal and Spain. TalentBridge agency to be tried for six weeks.",
      X="Lena: sign the TalentBridge contract. Miguel: rewrite the job ad in plain language.",
      L="Lisbon office, with Berlin on video",
      tags=["hiring", "engineering"],
      questions=[
          ("X", "Who is rewriting the backend job ad?", "Miguel: rewrite", "content"),
      ]),
    M("2026-01-23", "Office move kickoff",  # m-007
      "Our lease ends in September and we have outgrown the space anyway. People are sitting in the kitchen.",
      A="Oskar Lind, Maria Keller, Aiko Tanaka, me",
      P="Decide whether to renew the Torstraße lease or move, and set a budget for a new office",
      O="We will move. Shortlist: Ohlauer Straße (Kreuzberg), Lohmühlenstraße (Treptow) and a floor at Factory Görlitzer Park. Budget up to 28 euros per square metre.",
      X="Oskar: book viewings of all three in February. Aiko: model the fit-out costs.",
      L="Room 4B",
      tags=["office-move", "facilities"],
      questions=[
          ("P", "Why did we meet about the office back in January?", "renew the Torstraße lease", "named"),
          ("X", "Who is booking the viewings for new office spaces?", "Oskar: book viewings", "content"),
      ]),
    M("2026-01-28", "Customer escalation: FitHaus double charges",  # m-008
      "FitHaus reported members being charged twice for class packs. Their COO is unhappy and mentioned the renewal.",
      A="Fatima Haddad, Sam Rivera, Jonas Weber, Ravi Menon",
      P="Understand the double-charge bug and agree what we tell FitHaus",
      O="Root cause: a retry in the Payvia webhook handler. 214 members affected, all refunded. FitHaus gets one month free.",
      X="Ravi: ship the idempotency fix by Friday. Sam: call FitHaus's COO, Bernd Schulte, with the apology. Fatima: email every affected member.",
      L="Room 2A",
      tags=["customer", "escalation", "payments"],
      questions=[
          ("O", "How many members got charged twice?", "214", "content"),
          ("L", "Which room did we use for the FitHaus billing escalation?", "Room 2A", "named"),
      ]),
    M("2026-02-03", "Mobile app v2 design review",  # m-009
      "Tom walked us through the prototype. The booking flow got a lot of love; one screen did not.",
      A="Tom Okafor, Priya Nair, Clara Jung, Ravi Menon, Fatima Haddad",
      P="Review the clickable prototype before engineering starts",
      O="Booking flow approved as is. Profile screen to be simplified to one page. Dark mode pushed to after launch.",
      X="Tom: redo the profile screen by February 13. Fatima: list the top ten support complaints about the current app.",
      L="Design corner, 3rd floor",
      tags=["mobile-app", "design"],
      questions=[
          ("X", "Who is collecting the top support complaints for the app redesign?", "Fatima: list", "content"),
      ]),
    M("2026-02-05", "Office viewing: Ohlauer Straße",  # m-010
      "Viewed the second floor with the landlord's agent. Bright, but the kitchen is tiny.",
      A="Oskar Lind, Karl Becker (agent for the landlord), me",
      P="See the space in person and ask about the fit-out",
      O="620 square metres at 26 euros per square metre, available from August 1. Landlord pays for new flooring.",
      X="Oskar: ask for the floor plan as a PDF. Me: walk Maria through the photos.",
      L="Ohlauer Straße 38, 2nd floor",
      tags=["office-move", "facilities"],
      questions=[
          ("A", "Who showed us around the Kreuzberg office space?", "Karl Becker", "content"),
      ]),
    M("2026-02-06", "Office viewing: Factory Görlitzer Park",  # m-011
      "Nice building with a great café downstairs, but shared spaces mean less privacy for calls.",
      A="Oskar Lind, Maria Keller",
      P="Check whether a shared campus could work for a team of 45",
      O="Too expensive at 34 euros per square metre and no room to grow. Ruled out.",
      X="Oskar: tell Factory we are not going ahead.",
      L="Factory campus, lobby B",
      tags=["office-move", "facilities"],
      questions=[
          ("O", "Why did we turn down the Factory office?", "34 euros", "named"),
      ]),
    M("2026-02-10", "Spring offsite planning",  # m-012
      "First round on the offsite. Everyone wants fewer presentations and more time outside.",
      A="Lena Fischer, Maria Keller, Priya Nair, Oskar Lind",
      P="Pick dates, a rough budget and a format for the spring offsite",
      O="Offsite on May 6-8 for all 45 people. Budget capped at 38,000 euros. Venue shortlist: Gut Rehwiese, Seehotel Templin, Landhaus Müritz.",
      X="Oskar: request quotes from the three venues. Lena: survey the team about workshop topics.",
      L="Room 4B",
      tags=["offsite", "planning"],
      questions=[]),
    M("2026-02-11", "Interview debrief: Amir Khalil",  # m-013
      "Debrief after the onsite loop for the backend role. Strong system design, weaker on testing.",
      A="Miguel Sousa, Jonas Weber, Lena Fischer, Ines Costa",
      P="Decide whether to make Amir an offer",
      O="Offer approved at 78k with a start date in April. Ines had reservations about his testing habits; he will pair with her for the first month.",
      X="Lena: send the offer by February 13. Miguel: prepare the onboarding plan.",
      L="Video call",
      tags=["hiring", "engineering"],
      questions=[
          ("A", "Was anyone from QA in Amir's interview debrief?", "Ines Costa", "named"),
      ]),
    M("2026-02-13", "Vendor negotiation: CloudNest renewal",  # m-014
      "Our hosting contract renews in March. The first offer was a 15% price increase.",
      A="Jonas Weber, Aiko Tanaka, Pieter de Vries (CloudNest account manager)",
      P="Negotiate the hosting renewal and avoid the price increase",
      O="Settled on a 4% increase with a three-year term and 20% more reserved compute. Free migration support to the Frankfurt region.",
      X="Aiko: get legal to review the contract. Jonas: plan the Frankfurt migration for Q2.",
      L="Video call",
      tags=["vendor", "infrastructure", "finance"],
      questions=[
          ("A", "Who was the account manager on the hosting renewal call?", "Pieter de Vries", "named"),
      ]),
    M("2026-02-17", "Board prep Q1",  # m-015
      "Dry run of the board deck. The story on churn needs work.",
      A="Maria Keller, Aiko Tanaka, me",
      P="Rehearse the Q1 board meeting deck and agree the asks",
      O="We will ask the board to approve the Lisbon expansion and a bridge budget for the app. Churn slide to show cohorts, not averages.",
      X="Aiko: rebuild the churn chart as cohorts. Me: write the one-page memo that goes out with the deck.",
      L="Maria's office",
      tags=["board", "finance"],
      questions=[
          ("X", "What did I have to write for the first board meeting of the year?", "one-page memo", "named"),
      ]),
    M("2026-02-19", "Website relaunch kickoff",  # m-016
      "The current site still talks about gyms; most of our customers are small studios now.",
      A="Nora Petersen, Tom Okafor, Sam Rivera, Lukas Hahn (Pixelwerk agency)",
      P="Brief the agency on the new website and agree the timeline",
      O="Pixelwerk builds it on Webflow. Launch target April 20. New pricing page included; blog moved to a subdomain.",
      X="Nora: write the messaging doc. Sam: collect five customer quotes for the homepage.",
      L="Pixelwerk's studio in Friedrichshain",
      tags=["marketing", "website"],
      questions=[
          ("L", "Where did we brief the web agency?", "Friedrichshain", "named"),
      ]),
    M("2026-02-24", "1:1 with Jonas",  # m-017
      "He is worried about the on-call load on the backend team and is tired himself.",
      A="Jonas Weber, me",
      P="Monthly check-in: on-call rota and his hiring plan",
      O="On-call moves to a weekly rotation with a 300 euro stipend per week. Jonas will step back from on-call himself.",
      X="Me: get the stipend signed off by Aiko. Jonas: publish the new rota in Opsgenie.",
      L="Walk around Weinbergspark",
      tags=["1:1", "engineering"],
      questions=[
          ("L", "Where did Jonas and I have our February check-in?", "Weinbergspark", "named"),
      ]),
    M("2026-02-26", "Support tooling review",  # m-018
      "Support is drowning in email. We compared three tools.",
      A="Fatima Haddad, Jonas Weber, Felix Braun",
      P="Choose a helpdesk tool to replace the shared support inbox",
      O="Chose Zendesk over Freshdesk and Help Scout, mostly for the Payvia integration. Rollout by end of March.",
      X="Fatima: migrate the saved replies. Felix: set up the response-time dashboard.",
      L="Room 2A",
      tags=["support", "tools"],
      questions=[
          ("O", "Why did we go with that helpdesk tool?", "Payvia integration", "content"),
      ]),
    M("2026-03-02", "Mobile app v2 status",  # m-019
      "Weekly status. Waitlists are harder than estimated; the booking flow is on track.",
      A="Priya Nair, Ravi Menon, Clara Jung, Ines Costa",
      P="Weekly progress check on v2",
      O="Waitlist feature slipped by two weeks; launch date still June 2. Ines starts the test plan.",
      X="Clara: spike on the Apple Pay sandbox issues. Priya: update the roadmap slide for the board.",
      L="Video call",
      tags=["mobile-app", "status"],
      questions=[
          ("X", "Who is looking into the Apple Pay sandbox problems?", "Clara: spike", "content"),
      ]),
    M("2026-03-04", "Offsite venue decision",  # m-020
      "Compared the three quotes side by side. One was clearly better on rooms and food.",
      A="Oskar Lind, Lena Fischer, Maria Keller",
      P="Choose where the May offsite happens",
      O="Gut Rehwiese chosen: 36,400 euros for three days including meals, 45 beds and a barn for workshops. Train from Berlin Hauptbahnhof, no coach needed.",
      X="Oskar: sign the venue contract and pay the 30% deposit. Lena: book the train tickets for everyone.",
      L="Room 4B",
      tags=["offsite", "planning"],
      questions=[
          ("O", "Where are we holding the offsite?", "Gut Rehwiese", "content"),
          ("X", "Who is booking the train tickets?", "Lena: book the train", "content"),
      ]),
    M("2026-03-06", "Quarterly security review",  # m-021
      "Daniel went through the incidents and open risks of the quarter.",
      A="Daniel Brandt, Jonas Weber, Miguel Sousa, me",
      P="Review Q1 security incidents and the risk register",
      O="Two phishing attempts, no breach. Three laptops still without disk encryption. Hardware security keys required for all admin accounts by April 30.",
      X="Daniel: order 50 YubiKeys. Miguel: rotate the database credentials in Lisbon.",
      L="Room 2A",
      tags=["security", "review"],
      questions=[
          ("A", "Was anyone from Lisbon in the March security review?", "Miguel Sousa", "named"),
      ]),
    M("2026-03-10", "Customer call: Yoga Loft Hamburg",  # m-022
      "They like the product, but their instructors hate the way substitutes are handled today.",
      A="Sam Rivera, Priya Nair, Hanna Ott (owner, Yoga Loft)",
      P="Hear their feedback before they decide on a three-studio contract",
      O="They will sign for all of their studios if instructor substitution ships by summer. Priya committed to a beta in July.",
      X="Priya: add instructor substitution to the roadmap. Sam: send the quote for all studios.",
      L="Yoga Loft's studio in Ottensen",
      tags=["customer", "sales"],
      questions=[
          ("P", "Why did we talk to the yoga studio in Hamburg in March?", "three-studio contract", "named"),
      ]),
    M("2026-03-12", "Lisbon hub planning",  # m-023
      "How to get from 6 to 12 people in Lisbon without breaking the culture.",
      A="Miguel Sousa, Lena Fischer, Maria Keller, Ines Costa",
      P="Plan the Lisbon hiring and a bigger office there",
      O="Six hires in 2026: three backend, two QA, one support. Moving to a coworking floor at Heden in Santos from May.",
      X="Lena: find a Portuguese payroll provider. Miguel: sign up with Heden.",
      L="Lisbon office, Rua da Boavista",
      tags=["lisbon", "hiring", "facilities"],
      questions=[
          ("X", "Who is looking for a payroll provider in Portugal?", "Lena: find", "content"),
      ]),
    M("2026-03-16", "Pricing change workshop",  # m-024
      "Long workshop about moving from flat pricing to tiers. Sales and finance disagreed a lot.",
      A="Sam Rivera, Aiko Tanaka, Priya Nair, Nora Petersen, Maria Keller",
      P="Decide the new price tiers for studios",
      O="Three tiers: Starter 49, Studio 99, Multi-site 199 euros a month. Existing customers keep their current price for 12 months.",
      X="Nora: announce the change on the new website. Sam: brief the sales team.",
      L="Room 4B",
      tags=["pricing", "sales"],
      questions=[
          ("O", "How much will the Studio plan cost per month?", "Studio 99", "content"),
      ]),
    M("2026-03-19", "Board meeting Q1",  # m-025
      "Board meeting with both investors. Mostly positive, tough questions on churn.",
      A="Maria Keller, Henrik Dahl and Sofia Lindqvist (Northwind Ventures), Aiko Tanaka, me",
      P="Quarterly board meeting: Q1 results and approvals",
      O="Lisbon expansion approved. Bridge budget for the app approved at 250k. Board wants churn below 2% per month by Q4.",
      X="Aiko: send the minutes within a week. Maria: share the hiring plan with Sofia.",
      L="Northwind Ventures office, Rosenthaler Straße",
      tags=["board"],
      questions=[
          ("A", "Which investors came to the March board meeting?", "Henrik Dahl", "named"),
      ]),
    M("2026-03-24", "Zendesk rollout check-in",  # m-026
      "Two weeks into the new helpdesk. Agents like the macros; reporting is confusing.",
      A="Fatima Haddad, Felix Braun, Ines Costa",
      P="Check how the helpdesk rollout is going",
      O="First response time down from 9 hours to 3 hours. The old inbox closes on April 1.",
      X="Felix: fix the CSAT report. Fatima: train the Lisbon support hire.",
      L="Video call",
      tags=["support", "tools"],
      questions=[]),
    M("2026-03-27", "Office move: lease decision",  # m-027
      "Final call between the two remaining options.",
      A="Maria Keller, Oskar Lind, Aiko Tanaka, Eva Novak (lawyer)",
      P="Choose between Ohlauer Straße and Lohmühlenstraße and agree the terms",
      O="Ohlauer Straße chosen. Ten-year lease with a break option after five years and the first two months rent-free. Move date set for August 21.",
      X="Eva: review the lease before signing. Oskar: get quotes from three moving companies.",
      L="Room 2A",
      tags=["office-move", "facilities", "legal"],
      questions=[
          ("O", "How long is the lease on the new office?", "Ten-year lease", "content"),
      ]),
    M("2026-04-01", "Onboarding plan: Amir",  # m-028
      "Prepping for Amir's first week.",
      A="Miguel Sousa, Ines Costa, Lena Fischer",
      P="Plan the first month for the new backend engineer",
      O="Amir starts April 13 in Lisbon. First project: the Payvia webhook idempotency work. Ines is his buddy.",
      X="Miguel: set up his accounts and laptop. Lena: schedule his Berlin visit in May.",
      L="Lisbon office, Rua da Boavista",
      tags=["onboarding", "engineering"],
      questions=[]),
    M("2026-04-07", "Mobile app v2 status",  # m-029
      "Weekly status. Both platforms are feature-complete except one feature.",
      A="Priya Nair, Ravi Menon, Clara Jung, Ines Costa, Jonas Weber",
      P="Weekly progress check on v2 and the pentest preparation",
      O="Waitlists done on iOS, Android a week behind. Beta for 20 friendly studios starts April 21.",
      X="Ravi: finish the Android waitlists. Ines: recruit the 20 beta studios with Fatima.",
      L="Room 4B",
      tags=["mobile-app", "status"],
      questions=[]),
    M("2026-04-09", "Website relaunch review",  # m-030
      "Pixelwerk showed the staging site. Looks great, the copy is still too long.",
      A="Nora Petersen, Lukas Hahn (Pixelwerk), Tom Okafor",
      P="Review the staging site before launch",
      O="Go-live moved from April 20 to April 27 to fix copy and translations. The German version goes live together with English.",
      X="Nora: cut the homepage copy by half. Tom: replace the stock photos with customer photos.",
      L="Video call",
      tags=["marketing", "website"],
      questions=[
          ("X", "Who is replacing the stock photos on the website?", "Tom: replace", "content"),
      ]),
    M("2026-04-14", "Quarterly planning Q2",  # m-031
      "Every team lead presented their plan for the quarter.",
      A="Maria Keller, Jonas Weber, Priya Nair, Sam Rivera, Nora Petersen, Lena Fischer, Fatima Haddad, me",
      P="Agree the Q2 priorities and say no to the rest",
      O="Top three for Q2: app v2 launch, new pricing rollout, office move preparation. Partner API postponed to Q3.",
      X="Each lead: publish their Q2 goals in Notion by April 17. Me: run the mid-quarter check in May.",
      L="Rooftop terrace at Torstraße",
      tags=["planning", "leadership"],
      questions=[
          ("P", "What was the goal of the Q2 planning session?", "say no to the rest", "named"),
      ]),
    M("2026-04-16", "Expense policy update",  # m-032
      "Too many one-off questions about what people can expense.",
      A="Aiko Tanaka, Lena Fischer, me",
      P="Write a clear travel and expense policy",
      O="Train over plane for trips under 6 hours. Hotel cap 140 euros a night, 180 in London. Per diem 28 euros a day.",
      X="Lena: draft the travel policy and share it by May 4. Aiko: set up Pleo cards for team leads.",
      L="Room 2A",
      tags=["policy", "finance", "travel"],
      questions=[
          ("X", "Who is drafting the travel policy?", "Lena: draft", "content"),
      ]),
    M("2026-04-20", "Pentest kickoff with Redline",  # m-033
      "Redline's testers started today. Short kickoff to confirm access.",
      A="Daniel Brandt, Kasia Nowak (Redline), two Redline testers, Jonas Weber",
      P="Confirm access, rules of engagement and who to call during the test",
      O="Testers get staging only, no production. Emergency contact is Daniel, backup Jonas. Daily summary at 5 pm.",
      X="Daniel: create the test accounts on staging. Jonas: freeze staging deploys until May 1.",
      L="Video call",
      tags=["security", "pentest", "vendor"],
      questions=[
          ("P", "What was the point of the call on the first day of the pentest?", "rules of engagement", "named"),
      ]),
    M("2026-04-22", "Interview debrief: product manager",  # m-034
      "Two final candidates for the dashboard role. Both strong, very different styles.",
      A="Priya Nair, Maria Keller, Lena Fischer, Felix Braun",
      P="Pick between the two final PM candidates",
      O="Hannah Vogt gets the offer; Jakob Meier is the runner-up. Start date June 1.",
      X="Lena: send Hannah the offer. Priya: write Jakob a personal note.",
      L="Room 4B",
      tags=["hiring", "product"],
      questions=[
          ("O", "Who was the runner-up for the product manager job?", "Jakob Meier", "content"),
      ]),
    M("2026-04-24", "1:1 with Fatima",  # m-035
      "She wants to grow into a lead role formally.",
      A="Fatima Haddad, me",
      P="Career conversation and the shape of the support team",
      O="Fatima becomes Head of Support from May 1 with two direct reports. Salary review in June.",
      X="Me: update the org chart. Fatima: write a one-page plan for support in H2.",
      L="Café Lindner",
      tags=["1:1", "support"],
      questions=[
          ("L", "Where did I have the career talk with Fatima?", "Café Lindner", "named"),
      ]),
    M("2026-04-28", "Pentest readout",  # m-036
      "Redline presented early findings. Nothing critical, one high.",
      A="Daniel Brandt, Jonas Weber, Kasia Nowak (Redline), Ravi Menon, me",
      P="Go through the penetration test findings and plan fixes",
      O="High finding: the booking API leaked other members' first names. Four medium, nine low. The high must be fixed before launch.",
      X="Ravi: fix the booking API leak by May 8. Daniel: schedule a retest with Redline.",
      L="Room 2A",
      tags=["security", "pentest"],
      questions=[
          ("O", "What was the serious issue the security testers found?", "first names", "content"),
      ]),
    M("2026-05-04", "Offsite logistics",  # m-037
      "Last check before the offsite. The weather forecast looks good.",
      A="Oskar Lind, Lena Fischer, Tom Okafor",
      P="Final logistics: travel, rooms, agenda",
      O="Train leaves Hauptbahnhof at 8:12 on May 6. Room sharing by team. Tom runs the design sprint workshop on day two.",
      X="Oskar: print the room list. Lena: send the packing list and the agenda. Tom: bring the workshop materials.",
      L="Room 4B",
      tags=["offsite", "logistics"],
      questions=[
          ("X", "Who is bringing the workshop materials?", "Tom: bring", "content"),
      ]),
    M("2026-05-07", "Offsite: strategy session",  # m-038
      "Whole company together for a day. Honest discussion about what slows us down.",
      A="Whole company",
      P="Agree what to stop doing and the big bets for H2",
      O="Stop: weekly status decks and the Friday release train. Big bets: partner API and instructor tools. No-meeting Wednesdays from June.",
      X="Maria: write up the decisions. Me: update the calendar policy.",
      L="The barn at Gut Rehwiese",
      tags=["offsite", "strategy"],
      questions=[
          ("O", "Which day of the week has no meetings now?", "No-meeting Wednesdays", "content"),
      ]),
    M("2026-05-11", "Mobile app v2 go/no-go",  # m-039
      "Go/no-go for the June launch. Tense meeting, but everyone agreed in the end.",
      A="Priya Nair, Jonas Weber, Daniel Brandt, Ravi Menon, Clara Jung, Maria Keller",
      P="Decide whether we can still launch on June 2",
      O="Launch postponed to July 14 until the security audit retest is done. Beta extended to 40 studios.",
      X="Daniel: get Redline's retest booked for June. Priya: tell the beta studios and update the board.",
      L="Room 4B",
      tags=["mobile-app", "launch"],
      questions=[
          ("O", "Are we still launching the app in June?", "July 14", "content"),
      ]),
    M("2026-05-13", "Vendor: office cleaning contract",  # m-040
      "The current cleaners are unreliable; three complaints last month.",
      A="Oskar Lind, Dana Weiss (Brightclean)",
      P="Negotiate a cleaning contract for the new office",
      O="Brightclean three times a week from September, 1,150 euros a month, windows cleaned quarterly.",
      X="Oskar: cancel the old contract by end of June.",
      L="Torstraße office kitchen",
      tags=["vendor", "facilities"],
      questions=[
          ("A", "Who did we meet from the cleaning company?", "Dana Weiss", "content"),
          ("L", "Where did we sit down with the cleaning company?", "Torstraße office kitchen", "named"),
      ]),
    M("2026-05-15", "Design review: instructor substitution",  # m-041
      "First look at the substitution flow that Yoga Loft asked for.",
      A="Tom Okafor, Priya Nair, Clara Jung, Hanna Ott (Yoga Loft) on video",
      P="Get customer feedback on the substitution designs before building",
      O="Members get a push notification when an instructor changes. Swap requests need the owner's approval.",
      X="Tom: add the notification step to the flow. Priya: schedule the beta for July.",
      L="Design corner, 3rd floor",
      tags=["design", "customer"],
      questions=[
          ("P", "What was the point of showing the substitution designs to Yoga Loft?", "customer feedback", "named"),
      ]),
    M("2026-05-19", "Marketing: launch campaign",  # m-042
      "Planning the campaign for the app v2 launch.",
      A="Nora Petersen, Sam Rivera, Priya Nair, Felix Braun",
      P="Plan the launch campaign and the budget split",
      O="Budget 22,000 euros: 60% Instagram and YouTube ads, 25% studio referral rewards, 15% launch event. Tagline: 'Book in two taps'.",
      X="Nora: brief the video freelancer. Felix: set up tracking for the referral codes.",
      L="Room 2A",
      tags=["marketing", "launch"],
      questions=[
          ("O", "What's the tagline for the launch?", "Book in two taps", "content"),
      ]),
    M("2026-05-21", "1:1 with Sam",  # m-043
      "Sam is ahead of target but worried about what the new prices do to his deals.",
      A="Sam Rivera, me",
      P="Monthly check-in: sales pipeline and his concerns",
      O="Sales closed 41 new studios in April. Grandfathering stays at 12 months. Sam gets a sales hire in Q3.",
      X="Me: raise the sales hire at the next leadership meeting. Sam: write up three objections he hears about the new pricing.",
      L="Café Lindner",
      tags=["1:1", "sales"],
      questions=[
          ("P", "Why did I meet Sam in May?", "sales pipeline", "named"),
      ]),
    M("2026-05-26", "Retest scheduling with Redline",  # m-044
      "Short call to book the retest and confirm the fix.",
      A="Daniel Brandt, Kasia Nowak (Redline)",
      P="Book the retest of the high finding",
      O="Retest on June 15-16, included in the original price. Written report by June 19.",
      X="Daniel: deploy the fix to staging by June 12.",
      L="Phone call",
      tags=["security", "pentest", "vendor"],
      questions=[
          ("L", "How did we talk to Redline about the retest?", "Phone call", "named"),
      ]),
    M("2026-05-28", "Hiring sync: QA in Lisbon",  # m-045
      "Lisbon needs more testing help before the launch.",
      A="Miguel Sousa, Ines Costa, Lena Fischer",
      P="Agree the profile for two QA hires",
      O="One senior automation engineer, one junior manual tester. Contracts via the new Portuguese payroll provider, Factorial.",
      X="Ines: write both job ads. Lena: post them on Landing.jobs.",
      L="Video call",
      tags=["hiring", "lisbon", "qa"],
      questions=[
          ("X", "Where will the QA job ads be posted?", "Landing.jobs", "content"),
      ]),
    M("2026-06-02", "Board prep Q2",  # m-046
      "Prepping for a harder board meeting than usual.",
      A="Maria Keller, Aiko Tanaka, Priya Nair, me",
      P="Prepare how we explain the launch delay to the board",
      O="Lead with the security finding and the fix. Show beta retention: 92% of beta studios active weekly.",
      X="Priya: one slide with the new timeline. Aiko: update the cash runway (currently 19 months).",
      L="Maria's office",
      tags=["board", "finance"],
      questions=[
          ("P", "Why was the June board prep harder than usual?", "launch delay", "named"),
      ]),
    M("2026-06-04", "Board meeting Q2",  # m-047
      "The board took the news better than expected.",
      A="Maria Keller, Henrik Dahl, Sofia Lindqvist, Aiko Tanaka, me",
      P="Quarterly board meeting: Q2 results and the new launch date",
      O="Delay accepted. Board asked for a hiring freeze outside engineering until the launch. Next board meeting September 17.",
      X="Aiko: send the minutes. Me: tell the leads about the hiring freeze.",
      L="Video call",
      tags=["board"],
      questions=[
          ("O", "Can non-engineering teams still hire this summer?", "freeze outside engineering", "content"),
      ]),
    M("2026-06-08", "Office move: fit-out planning",  # m-048
      "The architect showed the layout for the new office.",
      A="Oskar Lind, Tom Okafor, Anja Richter (architect), me",
      P="Agree the layout and furniture for Ohlauer Straße",
      O="Four meeting rooms named after Berlin lakes, one phone booth per ten people, a big kitchen. Furniture budget 85,000 euros.",
      X="Anja: final drawings by June 26. Tom: pick the signage design.",
      L="Anja's studio in Neukölln",
      tags=["office-move", "facilities", "design"],
      questions=[
          ("L", "Where is the architect's studio?", "Neukölln", "content"),
      ]),
    M("2026-06-10", "Mobile app v2 status",  # m-049
      "Weekly status while we wait for the retest.",
      A="Priya Nair, Ravi Menon, Clara Jung, Ines Costa",
      P="Weekly progress check on v2 during the beta",
      O="Crash-free rate 99.6% on iOS and 98.9% on Android. Android release signing fixed.",
      X="Ravi: fix the top three Android crashes. Clara: submit the iOS build to App Review by July 1.",
      L="Room 4B",
      tags=["mobile-app", "status"],
      questions=[
          ("X", "When does the iOS build have to go to App Review?", "July 1", "content"),
      ]),
    M("2026-06-12", "Customer escalation: Studio Nord outage",  # m-050
      "Studio Nord couldn't let members in for two hours on a Saturday morning.",
      A="Fatima Haddad, Jonas Weber, Miguel Sousa",
      P="Post-mortem on the Saturday check-in outage",
      O="Cause: an expired TLS certificate on the check-in service. Certificates now auto-renew via cert-manager. Studio Nord gets a 50% credit for June.",
      X="Miguel: add certificate expiry alerts. Fatima: send the incident report to Studio Nord.",
      L="Room 2A",
      tags=["customer", "escalation", "incident"],
      questions=[
          ("P", "Why did we meet about Studio Nord?", "post-mortem", "named"),
      ]),
    M("2026-06-16", "1:1 with Ravi",  # m-051
      "Ravi is tired after the beta crunch.",
      A="Ravi Menon, me",
      P="Check in on his workload and growth plan",
      O="Ravi takes a week off after the launch. He wants to lead the Android side of the partner API.",
      X="Me: talk to Jonas about Ravi leading Android for the partner API.",
      L="Walk along the Spree",
      tags=["1:1", "engineering"],
      questions=[
          ("L", "Where did I have my check-in with Ravi?", "Spree", "named"),
      ]),
    M("2026-06-18", "Summer party planning",  # m-052
      "Small committee for the summer party.",
      A="Oskar Lind, Nora Petersen, Ines Costa (Lisbon)",
      P="Plan the summer party for both offices on the same day",
      O="Berlin party on July 24 at Club der Visionäre; Lisbon on a boat on the Tagus the same day. Budget 9,000 euros in total.",
      X="Oskar: book Club der Visionäre. Ines: find the boat in Lisbon.",
      L="Video call",
      tags=["party", "team"],
      questions=[
          ("A", "Who from marketing is on the summer party committee?", "Nora Petersen", "named"),
      ]),
    M("2026-06-19", "Pentest retest readout",  # m-053
      "Redline confirmed the fix.",
      A="Daniel Brandt, Kasia Nowak (Redline), Jonas Weber",
      P="Hear the retest results and close the audit",
      O="High finding closed. Two mediums remain, accepted as risk until Q4. A clean letter for customers was issued.",
      X="Daniel: publish the summary on the trust page. Jonas: tell Priya the launch can go ahead.",
      L="Video call",
      tags=["security", "pentest"],
      questions=[
          ("X", "Who is putting the pentest summary on the trust page?", "Daniel: publish", "content"),
      ]),
    M("2026-06-23", "New PM onboarding: Hannah",  # m-054
      "Hannah's first weeks and what she will own.",
      A="Hannah Vogt, Priya Nair, Felix Braun",
      P="Hand over the web dashboard roadmap to Hannah",
      O="Hannah owns the dashboard from July 1. First project: the reporting revamp customers keep asking for.",
      X="Felix: walk Hannah through the usage data. Priya: introduce Hannah to the top five customers.",
      L="Room 4B",
      tags=["onboarding", "product"],
      questions=[
          ("P", "What was the point of the meeting with Hannah, Priya and Felix?", "web dashboard roadmap", "named"),
      ]),
    M("2026-06-25", "Pricing rollout retro",  # m-055
      "Looking back at the first month of the new price tiers.",
      A="Sam Rivera, Aiko Tanaka, Nora Petersen, Fatima Haddad",
      P="Review how the price change landed with customers",
      O="Only 6 cancellations blamed on pricing. 31% of new studios chose the Multi-site tier. The FAQ page reduced support tickets.",
      X="Nora: add a price calculator to the pricing page. Sam: call the six studios that left.",
      L="Room 2A",
      tags=["pricing", "retro"],
      questions=[
          ("P", "Why did we meet about pricing at the end of June?", "how the price change landed", "named"),
          ("X", "Who is calling the studios that cancelled over the price?", "Sam: call", "content"),
      ]),
    M("2026-06-29", "Mid-year review",  # m-056
      "Half-way check against the company goals.",
      A="Maria Keller, Jonas Weber, Priya Nair, Aiko Tanaka, me",
      P="Check progress on the 2026 goals at the half-year",
      O="484 paying studios (goal 600). App launch moved to July. Lisbon at 9 people. Revenue 11% above plan.",
      X="Me: write the mid-year update for the whole company. Aiko: reforecast H2.",
      L="Rooftop terrace at Torstraße",
      tags=["planning", "leadership"],
      questions=[]),
    M("2026-07-02", "Launch readiness check",  # m-057
      "Two weeks to go. Going through the checklist item by item.",
      A="Priya Nair, Jonas Weber, Fatima Haddad, Nora Petersen, Clara Jung, Ravi Menon",
      P="Make sure nothing is missing before the launch",
      O="iOS approved by App Review. Android staged rollout: 10% on day one, 100% after three days. Support on extended hours for launch week.",
      X="Fatima: roster support from 7 am to 10 pm. Nora: schedule the launch emails.",
      L="Room 4B",
      tags=["mobile-app", "launch"],
      questions=[
          ("O", "How are we rolling out the Android app?", "10% on day one", "content"),
      ]),
    M("2026-07-08", "1:1 with Priya",  # m-058
      "Launch nerves and what comes after.",
      A="Priya Nair, me",
      P="Talk about life after the launch and her next project",
      O="Priya will lead the partner API in Q3; Hannah keeps the dashboard. She takes two weeks off in August.",
      X="Me: announce the partner API lead. Priya: draft the API discovery plan.",
      L="Walk in Tiergarten",
      tags=["1:1", "product"],
      questions=[
          ("L", "Where did Priya and I talk about her next project?", "Tiergarten", "named"),
      ]),
    M("2026-07-10", "Partner API discovery kickoff",  # m-059
      "Starting discovery for the partner API. Three partners are interested.",
      A="Priya Nair, Jonas Weber, Miguel Sousa, Sam Rivera",
      P="Agree the discovery plan and which partners to interview",
      O="Interview the aggregators Urban Sports Club and Wellpass plus the accounting tool Lexoffice. Discovery ends August 28.",
      X="Sam: set up the partner interviews. Miguel: draft the authentication options (OAuth vs API keys).",
      L="Room 2A",
      tags=["partner-api", "kickoff"],
      questions=[
          ("X", "Who is setting up the partner interviews?", "Sam: set up", "content"),
      ]),
    M("2026-07-14", "Launch day war room",  # m-060
      "Launch day. Everyone in one room watching dashboards.",
      A="Priya Nair, Jonas Weber, Ravi Menon, Clara Jung, Fatima Haddad, Nora Petersen, Felix Braun",
      P="Watch the v2 launch live and react to problems",
      O="3,900 downloads on day one. One Android crash on Samsung tablets, hotfix shipped at 16:40. No payment issues.",
      X="Ravi: monitor the Samsung crash fix. Felix: daily launch metrics email for two weeks.",
      L="The Glasshouse meeting room",
      tags=["mobile-app", "launch"],
      questions=[
          ("L", "Which room did we use as the launch war room?", "Glasshouse", "named"),
          ("A", "Was anyone from data in the room on launch day?", "Felix Braun", "named"),
      ]),
    M("2026-07-16", "Yoga Loft: substitution beta",  # m-061
      "Kickoff of the substitution beta with our Hamburg customer.",
      A="Priya Nair, Tom Okafor, Hanna Ott, two Yoga Loft instructors",
      P="Start the instructor substitution beta",
      O="Beta runs four weeks at all three of their studios. They signed the three-studio contract today.",
      X="Tom: weekly feedback call with the instructors. Priya: decide the GA date by mid-August.",
      L="Yoga Loft's Altona studio",
      tags=["customer", "beta"],
      questions=[
          ("L", "At which of their studios did we start the substitution beta?", "Altona", "named"),
          ("A", "Who from Yoga Loft joined the beta kickoff?", "Hanna Ott", "named"),
      ]),
    M("2026-07-21", "Mobile app v2 retrospective",  # m-062
      "Retro on the v2 launch. Mostly happy, a few sore points.",
      A="Priya Nair, Ravi Menon, Clara Jung, Ines Costa, Fatima Haddad, Nora Petersen, Jonas Weber",
      P="Learn from the v2 launch before the next big release",
      O="Went well: the beta, the staged rollout. Went badly: the late security finding, Samsung tablet testing. Next time: pentest two months before launch, not six weeks.",
      X="Ines: add Samsung tablets to the device lab. Jonas: schedule next year's pentest for February.",
      L="Room 4B",
      tags=["mobile-app", "retro"],
      questions=[
          ("O", "What would we do differently with the pentest next time?", "two months before launch", "content"),
          ("P", "What was the app launch retro for?", "next big release", "named"),
      ]),
    M("2026-07-23", "Office move: moving company",  # m-063
      "Picked the movers and the plan for the week.",
      A="Oskar Lind, Aiko Tanaka",
      P="Choose the moving company and the plan for moving day",
      O="Zapf Umzüge chosen at 14,200 euros. Packing on August 20, move on August 21, unpacking done by August 24. Everyone works from home that week.",
      X="Oskar: label plan per desk. Aiko: pay the 50% advance.",
      L="Torstraße office kitchen",
      tags=["office-move", "vendor"],
      questions=[
          ("X", "Who is paying the advance to the movers?", "Aiko: pay", "content"),
      ]),
    M("2026-07-28", "Q3 budget reforecast",  # m-064
      "Reforecast after the launch moved.",
      A="Aiko Tanaka, Maria Keller, Jonas Weber, me",
      P="Adjust the H2 budget to the delayed launch and the hiring freeze",
      O="H2 spend reduced by 180,000 euros. Marketing launch budget kept. Two Lisbon hires moved to October.",
      X="Aiko: update the budget model. Me: tell Miguel about the October hires.",
      L="Room 2A",
      tags=["budget", "finance"],
      questions=[
          ("P", "Why did we redo the budget in July?", "hiring freeze", "named"),
      ]),
    M("2026-08-04", "SOC 2 readiness",  # m-065
      "Two big customers asked for SOC 2. First look at what it would take.",
      A="Daniel Brandt, Jonas Weber, Eva Novak, Aiko Tanaka",
      P="Decide whether to start SOC 2 Type I this year",
      O="Go for SOC 2 Type I with Vanta for evidence collection. Audit firm: Schellman. Target report by December 15.",
      X="Daniel: set up Vanta. Aiko: budget 42,000 euros for tooling and audit.",
      L="Video call",
      tags=["security", "compliance"],
      questions=[
          ("O", "Which tool are we using to collect compliance evidence?", "Vanta for evidence", "content"),
      ]),
    M("2026-08-06", "Partner API interview: Urban Sports Club",  # m-066
      "Interview with one of the aggregators.",
      A="Sam Rivera, Priya Nair, Lea Sommer (Urban Sports Club)",
      P="Understand what an aggregator needs from our booking API",
      O="They need real-time availability, cancellations via webhooks and check-in codes. They would pay per booking, not a flat fee.",
      X="Priya: write up the interview. Sam: ask for their API sandbox.",
      L="Their office on Friedrichstraße",
      tags=["partner-api", "discovery"],
      questions=[
          ("A", "Who did we interview at Urban Sports Club?", "Lea Sommer", "named"),
          ("L", "Where did we interview the aggregator?", "Friedrichstraße", "named"),
      ]),
    M("2026-08-11", "Office move: final walkthrough",  # m-067
      "Walked through the new office before move week.",
      A="Oskar Lind, Anja Richter, Karl Becker, me",
      P="Check the fit-out is finished and list the defects",
      O="Fit-out 95% done. Defects: two phone booths without ventilation, kitchen tap missing. Handover on August 18.",
      X="Anja: get the booths fixed before August 20. Oskar: order the keys and access cards.",
      L="New office, Ohlauer Straße 38",
      tags=["office-move", "facilities"],
      questions=[
          ("X", "Who is sorting out the access cards for the new office?", "Oskar: order the keys", "content"),
      ]),
    M("2026-08-13", "1:1 with Daniel",  # m-068
      "Daniel is carrying all of security alone.",
      A="Daniel Brandt, me",
      P="Talk about the security workload and SOC 2",
      O="We will hire a junior security engineer in Q4 despite the freeze. Daniel presents the plan at the next leadership meeting.",
      X="Me: get an exception to the hiring freeze from Maria.",
      L="Café Lindner",
      tags=["1:1", "security"],
      questions=[
          ("X", "What do I need to do to get the security hire approved?", "exception to the hiring freeze", "content"),
      ]),
    M("2026-08-18", "Partner API: discovery readout",  # m-069
      "Summing up five partner interviews.",
      A="Priya Nair, Jonas Weber, Miguel Sousa, Sam Rivera, Maria Keller",
      P="Decide what the first version of the partner API includes",
      O="V1: read-only class schedule, bookings and cancellations with webhooks. Auth via OAuth 2. Beta with Urban Sports Club in November.",
      X="Miguel: write the technical design. Priya: define pricing with Sam.",
      L="Room 4B",
      tags=["partner-api", "discovery"],
      questions=[
          ("O", "Which authentication did we pick for the partner API?", "OAuth", "content"),
      ]),
    M("2026-08-24", "First week in the new office",  # m-070
      "Quick retro after moving in.",
      A="Oskar Lind, Lena Fischer, team leads",
      P="Collect what is not working in the new office",
      O="The wifi on the third floor is weak; a second access point is ordered. Too few lockers. Bike racks full by 9 am.",
      X="Oskar: ask the landlord for more bike racks. Lena: run a short survey in two weeks.",
      L="Kitchen at Ohlauer Straße",
      tags=["facilities", "retro"],
      questions=[
          ("P", "Why did Oskar gather the leads a week after the move?", "not working", "named"),
      ]),
    M("2026-08-26", "Hiring: junior security engineer",  # m-071
      "Profile for the new security hire.",
      A="Daniel Brandt, Lena Fischer, Jonas Weber",
      P="Write the profile for the junior security engineer",
      O="Focus on cloud security and SOC 2 evidence work. Salary band 55-62k. Based in Berlin.",
      X="Lena: post the job on Berlin Startup Jobs. Daniel: prepare a take-home exercise.",
      L="Schlachtensee room",
      tags=["hiring", "security"],
      questions=[
          ("X", "Who is preparing the take-home exercise for security candidates?", "Daniel: prepare", "content"),
      ]),
    M("2026-08-28", "Marketing: autumn events",  # m-072
      "Deciding which trade fairs we can afford this autumn.",
      A="Nora Petersen, Sam Rivera",
      P="Choose the autumn trade fairs within the reduced budget",
      O="FIBO is out. We go to the Yoga Conference in Cologne in October and the Boutique Fitness Summit in Amsterdam in November.",
      X="Nora: book the booth in Cologne. Sam: set up meetings at the Amsterdam summit.",
      L="Tegeler See room",
      tags=["marketing", "events"],
      questions=[
          ("A", "Who decided which trade fairs we go to?", "Sam Rivera", "content"),
      ]),
    M("2026-09-01", "Lisbon team visit planning",  # m-073
      "The Lisbon team comes to Berlin for a week.",
      A="Miguel Sousa, Lena Fischer, Oskar Lind",
      P="Plan the Lisbon team's week in the new Berlin office",
      O="Visit from September 21 to 25. Hotel: Michelberger, eight rooms. Team dinner on Wednesday at Markthalle Neun.",
      X="Oskar: book the hotel rooms. Miguel: collect flight details.",
      L="Video call",
      tags=["lisbon", "travel", "team"],
      questions=[
          ("O", "Where is the Lisbon team staying when they visit?", "Michelberger", "content"),
      ]),
    M("2026-09-03", "Partner API technical design review",  # m-074
      "Miguel presented the design doc. Good discussion, few changes.",
      A="Miguel Sousa, Jonas Weber, Amir Khalil, Ravi Menon, Daniel Brandt",
      P="Review the partner API design before building",
      O="Rate limit 100 requests per minute per partner. Webhooks signed with HMAC. Versioned URLs starting at /v1.",
      X="Amir: build the webhook delivery service. Daniel: threat-model the OAuth flow.",
      L="Müggelsee room",
      tags=["partner-api", "engineering", "design"],
      questions=[
          ("A", "Who reviewed the API design doc?", "Amir Khalil", "content"),
      ]),
    M("2026-09-08", "1:1 with Lena",  # m-075
      "Lena wants to rethink performance reviews.",
      A="Lena Fischer, me",
      P="Talk about the performance review process",
      O="Move from annual reviews to twice a year, with peer feedback. First cycle in November.",
      X="Lena: pick a review tool (Leapsome or Lattice). Me: present the change at the leadership meeting.",
      L="Wannsee room",
      tags=["1:1", "people"],
      questions=[
          ("O", "How often will we do performance reviews from now on?", "twice a year", "content"),
      ]),
    M("2026-09-10", "Board prep Q3",  # m-076
      "Getting the numbers ready for the September board.",
      A="Maria Keller, Aiko Tanaka, me",
      P="Prepare the Q3 board deck and the 2027 budget outline",
      O="Headline: app v2 at 21,000 monthly active members. Ask: lift the hiring freeze. Runway 17 months.",
      X="Aiko: first draft of next year's budget. Me: collect one highlight from every team.",
      L="Maria's office",
      tags=["board", "finance"],
      questions=[
          ("P", "What was the September board prep for besides the deck?", "2027 budget outline", "named"),
      ]),
    M("2026-09-15", "Customer escalation: FitHaus reporting",  # m-077
      "FitHaus is unhappy again, this time about reports.",
      A="Sam Rivera, Hannah Vogt, Fatima Haddad, Bernd Schulte (FitHaus COO)",
      P="Handle the complaint that revenue reports don't match their bank statements",
      O="Reports use booking date, their accountant uses payment date. We add a payment-date option by October 15. The renewal stays on track.",
      X="Hannah: spec the payment-date report. Sam: confirm the renewal in writing.",
      L="FitHaus head office in Potsdam",
      tags=["customer", "escalation", "reporting"],
      questions=[
          ("L", "Where did we meet FitHaus about their reports?", "Potsdam", "named"),
          ("A", "Who from FitHaus joined the reporting escalation?", "Bernd Schulte", "named"),
      ]),
    M("2026-09-17", "Board meeting Q3",  # m-078
      "Good meeting. The board is happy with the launch numbers.",
      A="Maria Keller, Henrik Dahl, Sofia Lindqvist, Aiko Tanaka, Jonas Weber, me",
      P="Quarterly board meeting: Q3 results and direction for 2027",
      O="Hiring freeze lifted. Board supports raising a Series A in spring 2027. Sofia offered intros to three investors.",
      X="Maria: prepare a fundraising timeline. Aiko: clean up the data room.",
      L="Wannsee room",
      tags=["board"],
      questions=[
          ("O", "Is the hiring freeze over?", "lifted", "content"),
      ]),
    M("2026-09-22", "Lisbon team week: planning day",  # m-079
      "Joint planning day with both offices in one room.",
      A="Berlin and Lisbon engineering teams (22 people), Jonas Weber, Miguel Sousa",
      P="Plan the engineering roadmap for Q4 together",
      O="Q4 focus: partner API beta, SOC 2 controls, Android performance. Lisbon owns the partner API backend.",
      X="Miguel: split the partner API into epics. Jonas: share the Q4 roadmap with the company.",
      L="Müggelsee room",
      tags=["engineering", "planning", "lisbon"],
      questions=[
          ("P", "Why did both engineering teams get together in September?", "engineering roadmap", "named"),
      ]),
    M("2026-09-24", "Churn deep dive",  # m-080
      "Felix presented the churn analysis the board asked for.",
      A="Felix Braun, Aiko Tanaka, Sam Rivera, Fatima Haddad",
      P="Find out why small studios cancel",
      O="Monthly churn 2.4%. Main reason: studios closing down, not switching to competitors. Studios that use the member app churn half as often.",
      X="Fatima: onboarding calls for every new studio in its first month. Felix: churn dashboard for the leadership meeting.",
      L="Schlachtensee room",
      tags=["churn", "data"],
      questions=[
          ("P", "What was Felix's churn analysis trying to find out?", "why small studios cancel", "named"),
      ]),
    M("2026-10-01", "Performance review process kickoff",  # m-081
      "Rolling out the new review cycle to the leads.",
      A="Lena Fischer, all team leads",
      P="Explain the new review process to team leads",
      O="Leapsome chosen. Self-reviews due November 6, peer feedback November 13, conversations by November 27.",
      X="Leads: nominate two peers per report by October 20. Lena: run a training session for leads.",
      L="Wannsee room",
      tags=["people", "reviews"],
      questions=[
          ("O", "When are self-reviews due?", "November 6", "content"),
      ]),
    M("2026-10-06", "Yoga Conference Cologne prep",  # m-082
      "Final prep for the booth in Cologne.",
      A="Nora Petersen, Sam Rivera, Hanna Ott (guest speaker)",
      P="Prepare the booth, the demo and the talk",
      O="Hanna gives a 20-minute talk on substitution with our app. Booth B14. Goal: 60 qualified leads.",
      X="Nora: ship the booth kit by October 9. Sam: schedule demos.",
      L="Video call",
      tags=["marketing", "events"],
      questions=[
          ("O", "What's our booth number at the Cologne fair?", "B14", "named"),
      ]),
    M("2026-10-08", "SOC 2 status",  # m-083
      "Half-way through the control work.",
      A="Daniel Brandt, Jonas Weber, Aiko Tanaka",
      P="Track the SOC 2 controls and the audit date",
      O="71 of 84 controls passing in Vanta. Missing: access reviews, vendor risk assessments, background checks policy. Audit fieldwork November 23.",
      X="Daniel: run the first quarterly access review. Aiko: collect vendor security questionnaires.",
      L="Schlachtensee room",
      tags=["security", "compliance"],
      questions=[]),
    M("2026-10-13", "Interview debrief: security engineer",  # m-084
      "Debrief for the junior security role.",
      A="Daniel Brandt, Jonas Weber, Lena Fischer",
      P="Choose between the final two security candidates",
      O="Offer to Sven Kraus at 60k, start November 2. His take-home was the best we have seen.",
      X="Lena: send the offer today. Daniel: plan Sven's first two weeks around SOC 2.",
      L="Tegeler See room",
      tags=["hiring", "security"],
      questions=[
          ("O", "Who are we hiring for security?", "Sven Kraus", "content"),
      ]),
    M("2026-10-15", "Leadership offsite (half day)",  # m-085
      "Half a day out of the office to think about next year.",
      A="Maria Keller, Jonas Weber, Priya Nair, Aiko Tanaka, Lena Fischer, Sam Rivera, me",
      P="Draft the 2027 goals and the Series A story",
      O="Draft goals: 1,000 paying studios, partner API revenue, expand to Austria and Switzerland. Series A target 8 million euros.",
      X="Me: turn the goals into a one-pager. Maria: first investor conversations in January.",
      L="Rented room at Hotel Oderberger",
      tags=["leadership", "strategy"],
      questions=[
          ("O", "Which countries are we expanding to next year?", "Austria and Switzerland", "content"),
          ("L", "Where did the leadership team go to plan 2027?", "Hotel Oderberger", "content"),
      ]),
    M("2026-10-20", "Partner API beta prep with Urban Sports Club",  # m-086
      "Getting ready for the beta with our first partner.",
      A="Priya Nair, Amir Khalil, Miguel Sousa, Lea Sommer (Urban Sports Club)",
      P="Agree the beta scope, dates and support with the partner",
      O="Beta starts November 16 with 30 studios. The partner gets a dedicated Slack channel. Fee: 0.40 euros per booking after the beta.",
      X="Amir: issue sandbox credentials. Priya: pick the 30 studios with Sam.",
      L="Video call",
      tags=["partner-api", "beta"],
      questions=[
          ("O", "How much will partners pay per booking?", "0.40", "content"),
      ]),
    M("2026-10-22", "Android performance review",  # m-087
      "The app is slow on older Android phones.",
      A="Ravi Menon, Clara Jung, Felix Braun, Ines Costa",
      P="Look at startup time and jank on older devices",
      O="Cold start 4.1 s on a Galaxy A12; goal under 2 s. Baseline profiles and lazy loading of the schedule screen.",
      X="Ravi: add baseline profiles. Ines: add a Galaxy A12 to the device lab.",
      L="Müggelsee room",
      tags=["mobile-app", "performance"],
      questions=[
          ("X", "Who is adding an old Galaxy phone to the device lab?", "Ines: add", "content"),
      ]),
    M("2026-10-27", "1:1 with Jonas",  # m-088
      "Talking about the engineering org for next year.",
      A="Jonas Weber, me",
      P="Discuss engineering structure as the team grows past 25",
      O="Two engineering managers from January: Miguel for platform, an external hire for mobile. Jonas stays CTO without direct reports on the app teams.",
      X="Me: open the mobile engineering manager role with Lena. Jonas: tell Miguel.",
      L="Café Lindner",
      tags=["1:1", "engineering"],
      questions=[
          ("O", "Who will manage the platform team?", "Miguel for platform", "content"),
      ]),
    M("2026-11-03", "Yoga Conference retro",  # m-089
      "Looking back at the Cologne fair.",
      A="Nora Petersen, Sam Rivera",
      P="Count the results and decide about next year",
      O="74 qualified leads and 9 trials already. Hanna's talk was the highlight. We go again next year with a bigger booth.",
      X="Sam: follow up with all leads within two weeks. Nora: write a short case study with Hanna.",
      L="Tegeler See room",
      tags=["marketing", "events", "retro"],
      questions=[
          ("X", "Who is writing the case study with Hanna?", "Nora: write", "content"),
      ]),
    M("2026-11-05", "Q4 budget and 2027 plan",  # m-090
      "First full draft of next year's budget.",
      A="Aiko Tanaka, Maria Keller, Jonas Weber, Sam Rivera, Nora Petersen, me",
      P="Review the 2027 budget draft",
      O="2027 spend 7.9 million euros with 19 new hires. Marketing gets 14% of spend. An office in Vienna is postponed until after the Series A.",
      X="Each lead: comments on the draft by November 12. Aiko: final version for the December board.",
      L="Wannsee room",
      tags=["budget", "finance", "planning"],
      questions=[]),
    M("2026-11-10", "Customer advisory board",  # m-091
      "First meeting of the customer advisory board. Six studio owners joined.",
      A="Priya Nair, Hannah Vogt, Hanna Ott (Yoga Loft), Bernd Schulte (FitHaus), Mehmet Aydin (Studio Nord), three more studio owners",
      P="Get studio owners' views on the 2027 roadmap",
      O="Top requests: class packs that expire, a member app in Turkish and Polish, better reports. The group meets twice a year.",
      X="Hannah: send the notes to the owners. Priya: add expiring class packs to the Q1 plan.",
      L="Schlachtensee room",
      tags=["customer", "product"],
      questions=[
          ("A", "Who came from Studio Nord to the advisory board?", "Mehmet Aydin", "named"),
      ]),
    M("2026-11-12", "SOC 2 audit prep",  # m-092
      "Final run-through before the auditors arrive.",
      A="Daniel Brandt, Sven Kraus, Jonas Weber, Eva Novak",
      P="Make sure the evidence is complete before the fieldwork",
      O="All 84 controls passing. Auditors on site November 23-27. Sven is the point of contact for their requests.",
      X="Sven: prepare the evidence folders. Eva: review the policies one last time.",
      L="Müggelsee room",
      tags=["security", "compliance"],
      questions=[
          ("P", "Why did we meet before the SOC 2 auditors came?", "evidence is complete", "named"),
      ]),
    M("2026-11-16", "Partner API beta launch",  # m-093
      "The beta with Urban Sports Club went live this morning.",
      A="Priya Nair, Amir Khalil, Miguel Sousa, Sam Rivera",
      P="Check the first day of the partner beta",
      O="1,240 bookings through the partner on day one. One webhook delay of 12 minutes. Partner happy.",
      X="Amir: add retries with backoff for webhooks. Sam: weekly call with the partner.",
      L="Tegeler See room",
      tags=["partner-api", "beta", "launch"],
      questions=[
          ("L", "Where did we watch the partner beta go live?", "Tegeler See", "named"),
          ("A", "Which engineer was there when the partner beta went live?", "Amir Khalil", "named"),
      ]),
    M("2026-11-19", "Year-end office closure",  # m-094
      "Deciding how the office runs at the end of the year.",
      A="Oskar Lind, Lena Fischer, Fatima Haddad",
      P="Decide the year-end closure and the support cover",
      O="Office closed from December 23 to January 2. Support on a minimal rota of two people per day.",
      X="Fatima: publish the support rota. Oskar: set the heating to holiday mode.",
      L="Kitchen at Ohlauer Straße",
      tags=["facilities", "support"],
      questions=[
          ("A", "Who from support helped plan the year-end closure?", "Fatima Haddad", "named"),
      ]),
    M("2026-11-24", "1:1 with Nora",  # m-095
      "Nora is thinking about how we look next year.",
      A="Nora Petersen, me",
      P="Talk about the 2027 brand refresh and her team",
      O="New logo and website colours in Q2 2027. Nora hires a content marketer in January.",
      X="Me: check the content marketer budget with Aiko. Nora: ask three agencies for proposals.",
      L="Café Lindner",
      tags=["1:1", "marketing"],
      questions=[
          ("P", "What did Nora and I talk about in November?", "brand refresh", "named"),
      ]),
    M("2026-11-26", "Series A prep",  # m-096
      "Getting the fundraising materials in order.",
      A="Maria Keller, Aiko Tanaka, Henrik Dahl, me",
      P="Plan the Series A process and the materials",
      O="Raise 8 million euros at a target valuation of 40 million. Deck by January 10. Process starts January 19.",
      X="Aiko: finish the data room. Me: write the metrics appendix. Henrik: list ten funds to approach.",
      L="Northwind Ventures office, Rosenthaler Straße",
      tags=["fundraising", "board"],
      questions=[
          ("X", "What do I need to do for the Series A?", "metrics appendix", "named"),
      ]),
    M("2026-12-01", "SOC 2 audit debrief",  # m-097
      "The auditors finished their fieldwork.",
      A="Daniel Brandt, Sven Kraus, Jonas Weber, Aiko Tanaka",
      P="Hear the auditors' preliminary findings",
      O="Two exceptions: one late access review and one missing background check. Report expected December 14, a day ahead of target.",
      X="Daniel: write the management responses. Sven: plan SOC 2 Type II for 2027.",
      L="Video call",
      tags=["security", "compliance"],
      questions=[
          ("A", "Was the new security engineer in the audit debrief?", "Sven Kraus", "named"),
      ]),
    M("2026-12-03", "Board meeting Q4",  # m-098
      "Last board meeting of the year.",
      A="Maria Keller, Henrik Dahl, Sofia Lindqvist, Aiko Tanaka, Jonas Weber, Priya Nair, me",
      P="Approve the 2027 budget and the Series A plan",
      O="Budget approved. The year closes at about 640 paying studios. The Series A process may start in January.",
      X="Aiko: send the minutes. Priya: product vision slide for the investor deck.",
      L="Wannsee room",
      tags=["board"],
      questions=[
          ("X", "Who is making the product vision slide for investors?", "Priya: product vision", "content"),
          ("L", "Which room was the December board meeting in?", "Wannsee", "named"),
      ]),
    M("2026-12-08", "Partner API beta retro",  # m-099
      "Three weeks into the partner beta.",
      A="Priya Nair, Amir Khalil, Miguel Sousa, Ravi Menon, Sam Rivera",
      P="Decide when the partner API goes generally available",
      O="GA on February 2, 2027. Wellpass joins as the second partner in January. Webhook retries fixed the delays.",
      X="Miguel: write the public API docs. Sam: sign Wellpass.",
      L="Müggelsee room",
      tags=["partner-api", "retro"],
      questions=[
          ("P", "What did we need to decide at the partner API beta retro?", "generally available", "named"),
      ]),
    M("2026-12-15", "Year-end all-hands",  # m-100
      "Last all-hands of 2026. Maria looked back on the year and thanked everyone.",
      A="Whole company (52 people) in Berlin, the Lisbon team on a live stream",
      P="Review the year against the 2026 goals",
      O="App v2 shipped, 640 studios (goal 600), Lisbon at 11 people. Everyone gets an extra day off on December 22.",
      X="Lena: send the anonymous year-end survey. Me: share the 2027 goals in January.",
      L="Event space at Radialsystem",
      tags=["all-hands", "company"],
      questions=[
          ("L", "Where was the year-end all-hands?", "Radialsystem", "named"),
          ("X", "Who is sending out the year-end survey?", "Lena: send", "content"),
          ("A", "How did the Lisbon team join the December all-hands?", "live stream", "named"),
      ]),
]


# ---------------------------------------------------------------------------------------------------------
# Fresh questions: (meeting number, field code, query, answer, style), split "fresh", ids f-001... A second
# held-out split, written after the search engine's field rules were settled, by someone who had not seen those
# rules (nor the engine's code) and had read only the meetings above: 12 per field, at most one per meeting,
# mostly on meetings whose questions above ask about another field. Same rules as the questions above (the
# answer is in that field only, not in the title, the body or another field). Not part of "all" (dev + heldout).
# ---------------------------------------------------------------------------------------------------------
FRESH = [
    (1, "O", "What is the bonus scheme tied to?", "the studio target", "content"),
    (2, "P", "Which payment methods are in scope for app v2?", "Apple Pay and Google Pay", "content"),
    (3, "O", "Did Priya and I agree to add another PM?", "second product manager role", "named"),
    (4, "P", "Why did the Q1 budgets have to be approved in January?", "before the board sees them", "named"),
    (5, "A", "Who from Redline was on the pentest scoping call?", "Kasia Nowak", "named"),
    (6, "A", "backend hiring sync attendees", "Lena Fischer, Miguel Sousa", "named"),
    (7, "L", "Where did we kick off the office move?", "Room 4B", "named"),
    (8, "X", "Who is emailing the members who were charged twice?", "email every affected member", "content"),
    (9, "A", "Was anyone from support at the app v2 design review?", "Fatima Haddad", "named"),
    (10, "O", "What's the rent per square metre at Ohlauer Straße?", "26 euros per square metre", "content"),
    (11, "P", "What did we want to find out at the Factory Görlitzer Park viewing?", "a shared campus could work",
     "named"),
    (12, "O", "spring offsite budget cap", "38,000 euros", "named"),
    (14, "O", "How long is the new CloudNest contract?", "three-year term", "named"),
    (15, "P", "What was the point of the Q1 board dry run?", "agree the asks", "named"),
    (16, "X", "Who's collecting customer quotes for the homepage?", "five customer quotes", "content"),
    (17, "P", "What did I want to discuss with Jonas besides the on-call rota?", "his hiring plan", "content"),
    (18, "P", "What was the new helpdesk supposed to replace?", "shared support inbox", "content"),
    (22, "L", "Where did we meet Yoga Loft in March?", "studio in Ottensen", "named"),
    (23, "O", "Where is the Lisbon team moving in May?", "Heden in Santos", "content"),
    (24, "X", "Who briefs sales on the new price tiers?", "brief the sales team", "content"),
    (25, "L", "Where was the board meeting that approved the Lisbon expansion?", "Rosenthaler Straße", "content"),
    (26, "O", "Did response times get better after we switched helpdesks?", "9 hours to 3 hours", "content"),
    (27, "A", "Which lawyer was in on the lease decision?", "Eva Novak", "named"),
    (28, "X", "When is Amir's Berlin visit?", "Berlin visit in May", "content"),
    (31, "X", "Where do team leads put their goals for the quarter?", "in Notion by April 17", "content"),
    (32, "P", "purpose of the expense policy meeting", "travel and expense policy", "named"),
    (33, "A", "pentest kickoff attendees", "two Redline testers", "named"),
    (35, "O", "When does Fatima's promotion take effect?", "Support from May 1", "content"),
    (38, "P", "What was the strategy session at the offsite meant to decide?", "what to stop doing", "named"),
    (40, "X", "How long do we keep the current cleaners?", "by end of June", "content"),
    (43, "L", "Where did Sam and I have our 1:1?", "Café Lindner", "named"),
    (48, "A", "Who is the architect for the new office?", "Anja Richter", "content"),
    (52, "O", "Where is the Lisbon summer party?", "boat on the Tagus", "content"),
    (56, "L", "mid-year review location", "Rooftop terrace", "named"),
    (57, "X", "What hours is support staffed during launch week?", "7 am to 10 pm", "content"),
    (59, "O", "Which partners are we interviewing for the partner API?", "Urban Sports Club and Wellpass", "named"),
    (62, "X", "Which month is next year's pentest in?", "pentest for February", "content"),
    (63, "L", "Where did we meet when we picked Zapf Umzüge?", "Torstraße office kitchen", "content"),
    (65, "L", "Was the SOC 2 readiness meeting in person?", "Video call", "named"),
    (67, "L", "Where was the final walkthrough before the move?", "Ohlauer Straße 38", "named"),
    (70, "L", "Where did we hold the first-week retro in the new office?", "Kitchen at Ohlauer Straße", "named"),
    (71, "L", "room for the junior security engineer hiring meeting", "Schlachtensee room", "named"),
    (72, "P", "What constrained our choice of autumn trade fairs?", "the reduced budget", "content"),
    (73, "A", "Who was at the Lisbon visit planning?", "Lena Fischer, Oskar Lind", "named"),
    (75, "X", "Which review tools is Lena looking at?", "Leapsome or Lattice", "content"),
    (77, "P", "What was FitHaus's complaint about the reports?", "match their bank statements", "named"),
    (78, "L", "Where were we when the board lifted the hiring freeze?", "Wannsee room", "content"),
    (79, "A", "How many engineers came to the joint planning day with Lisbon?", "22 people", "named"),
    (84, "A", "Who sat in on the security engineer interview debrief?", "Jonas Weber, Lena Fischer", "named"),
    (85, "P", "What were we drafting at the leadership offsite besides the 2027 goals?", "the Series A story",
     "named"),
    (86, "X", "Who sets up sandbox access for Urban Sports Club?", "issue sandbox credentials", "content"),
    (87, "A", "Was Felix at the Android performance review?", "Felix Braun", "named"),
    (88, "P", "Why are Jonas and I rethinking the engineering structure?", "grows past 25", "named"),
    (91, "O", "Which languages do studio owners want the member app in?", "Turkish and Polish", "content"),
    (92, "L", "Which room is the SOC 2 audit prep in?", "Müggelsee room", "named"),
    (93, "X", "What are we doing about the webhook delay in the partner beta?", "retries with backoff", "content"),
    (94, "O", "dates the office is closed at the end of the year", "December 23 to January 2", "named"),
    (96, "A", "Who came to the Series A prep?", "Aiko Tanaka, Henrik Dahl", "named"),
    (97, "X", "What's left to do after the auditors' fieldwork?", "management responses", "content"),
    (99, "A", "Who came to the partner beta retro?", "Miguel Sousa, Ravi Menon", "named"),
]


# ---------------------------------------------------------------------------------------------------------
# Second fresh questions, split "fresh2", ids g-001...: written the same way as FRESH (by someone who had read
# only the meetings, not the engine's rules nor the questions above), after the field cues that reading FRESH's
# failures added, so that those cues have a blind figure. 12 per field, one per meeting, 30 named and 30
# content. Not part of "all".
# ---------------------------------------------------------------------------------------------------------
FRESH2 = [
    (1, "L", "which cinema did we rent for the company goals presentation in january?", "Kino Babylon", "content"),
    (2, "P", "which payment methods were we going to agree as part of the scope at the v2 kickoff?", "Apple Pay and Google Pay", "named"),
    (4, "X", "what was Aiko supposed to send the board after the Q1 budget review?", "the final spreadsheet", "named"),
    (5, "A", "who from Redline was on the security audit scoping call", "Kasia Nowak", "named"),
    (7, "O", "budget cap per square metre for the new office", "28 euros per square metre", "content"),
    (8, "X", "what's Fatima doing about the members who got charged twice?", "email every affected member", "content"),
    (11, "O", "why did we rule out Factory Görlitzer Park?", "too expensive at 34 euros", "named"),
    (12, "X", "what was Lena going to survey everyone about before the offsite", "workshop topics", "content"),
    (14, "A", "who was the account manager from CloudNest in the renewal negotiation?", "Pieter de Vries", "named"),
    (16, "L", "where did we meet the web agency to brief them on the new site", "Pixelwerk's studio in Friedrichshain", "content"),
    (17, "L", "where did jonas and i go when we talked about the on-call rota", "Walk around Weinbergspark", "content"),
    (18, "P", "what was the point of the support tooling review?", "Choose a helpdesk tool", "named"),
    (21, "P", "Q1 security review - besides the incidents, what else were we going over?", "the risk register", "named"),
    (22, "P", "why did we have the customer call with Yoga Loft Hamburg in march", "decide on a three-studio contract", "named"),
    (24, "O", "how much is the Studio tier per month?", "Studio 99", "content"),
    (25, "A", "which two investors signed off on the Lisbon expansion?", "Henrik Dahl and Sofia Lindqvist", "content"),
    (27, "X", "after the lease decision, what was Oskar on the hook for?", "get quotes from three moving companies", "named"),
    (28, "O", "what is Amir working on first when he starts in Lisbon", "Payvia webhook idempotency work", "content"),
    (31, "X", "Q2 quarterly planning: where and by when do the leads publish their goals?", "in Notion by April 17", "named"),
    (33, "O", "who do the pentesters call if something breaks during testing", "Emergency contact is Daniel", "content"),
    (34, "O", "who was the runner-up for the dashboard PM job?", "Jakob Meier", "content"),
    (36, "X", "deadline for fixing the booking API leak that exposed members' names", "by May 8", "content"),
    (38, "L", "where were we when we decided on no-meeting wednesdays?", "The barn at Gut Rehwiese", "content"),
    (40, "A", "brightclean contact name", "Dana Weiss", "content"),
    (41, "O", "do instructor swap requests need sign-off from anyone?", "need the owner's approval", "content"),
    (42, "O", "whats the tagline for the v2 launch ads", "Book in two taps", "content"),
    (44, "X", "when does the fix have to be on staging before redline retests it", "staging by June 12", "content"),
    (46, "X", "how many months of cash runway did we have in early june?", "currently 19 months", "content"),
    (48, "L", "fit-out planning with the architect, where was that?", "Anja's studio in Neukölln", "named"),
    (50, "A", "who was in the post-mortem for the Studio Nord outage?", "Fatima Haddad, Jonas Weber, Miguel Sousa", "named"),
    (51, "L", "where did Ravi and I talk about him taking a week off after the launch", "Walk along the Spree", "content"),
    (53, "X", "where is Daniel publishing the pentest summary?", "on the trust page", "content"),
    (54, "P", "what was the goal of Hannah's PM onboarding meeting", "Hand over the web dashboard roadmap", "named"),
    (56, "O", "how many paying studios did we have at the end of june", "484 paying studios", "content"),
    (58, "L", "where did Priya and I talk about her leading the partner API?", "Walk in Tiergarten", "content"),
    (60, "L", "which room was the launch day war room in?", "The Glasshouse", "named"),
    (61, "A", "who came from the customer side to the substitution beta kickoff in july", "Hanna Ott", "named"),
    (62, "X", "v2 retro - what was Ines supposed to add to the device lab?", "Samsung tablets", "named"),
    (65, "O", "which audit firm are we using for SOC 2", "Audit firm: Schellman", "content"),
    (66, "L", "where is Urban Sports Club's office", "Their office on Friedrichstraße", "content"),
    (67, "P", "why did we do the final walkthrough of the new office?", "list the defects", "named"),
    (69, "P", "what was the partner API discovery readout supposed to decide", "Decide what the first version", "named"),
    (71, "X", "where are we posting the junior security engineer job?", "Berlin Startup Jobs", "content"),
    (72, "O", "which trade fair did we drop this autumn", "FIBO is out", "content"),
    (74, "A", "was Amir in the partner API technical design review?", "Amir Khalil", "named"),
    (75, "X", "which review tools is Lena choosing between", "Leapsome or Lattice", "content"),
    (77, "P", "FitHaus says our revenue reports don't match what?", "their bank statements", "content"),
    (80, "P", "churn deep dive - what question were we trying to answer?", "why small studios cancel", "named"),
    (82, "O", "how many qualified leads were we aiming for in cologne?", "60 qualified leads", "content"),
    (83, "A", "who attended the SOC 2 status meeting in october?", "Daniel Brandt, Jonas Weber, Aiko Tanaka", "named"),
    (85, "L", "where was the half-day leadership offsite?", "Hotel Oderberger", "named"),
    (86, "A", "who joined from Urban Sports Club for the partner API beta prep call?", "Lea Sommer", "named"),
    (88, "P", "oct 1:1 with jonas - what team size were we planning the eng structure around?", "grows past 25", "named"),
    (89, "A", "who was in the yoga conference retro", "Nora Petersen, Sam Rivera", "named"),
    (91, "A", "which owner from Studio Nord joined the studio owners group", "Mehmet Aydin", "content"),
    (92, "A", "who from legal was at the SOC 2 audit prep?", "Eva Novak", "named"),
    (94, "P", "besides the closure dates, what was the year-end office closure meeting meant to sort out?", "the support cover", "named"),
    (96, "L", "where did we do the Series A prep with Henrik?", "Northwind Ventures office", "named"),
    (98, "P", "what was on the agenda for the Q4 board meeting?", "Approve the 2027 budget", "named"),
    (100, "L", "year-end all-hands venue", "Event space at Radialsystem", "named"),
]


# ---------------------------------------------------------------------------------------------------------
# Third fresh questions, split "fresh3", ids h-001...: written the same way (by a helper that read only the
# meetings, not the engine's rules nor the questions above), after the rules that reading FRESH2's failures
# added (a body giving way to the field with more of the question's words; "where" a thing will be done asking
# for the plan), so that those have a blind figure. 12 per field, one per meeting. Not part of "all".
# ---------------------------------------------------------------------------------------------------------
FRESH3 = [
    (5, 'A', "security audit scoping w/ redline - who joined from their side", "Kasia Nowak", 'named'),
    (10, 'A', "who was the agent that showed us round the floor with the tiny kitchen?", "Karl Becker", 'content'),
    (14, 'A', "who is our account manager at the hosting provider", "Pieter de Vries", 'content'),
    (16, 'A', "Which Pixelwerk person came to the website relaunch kickoff?", "Lukas Hahn", 'named'),
    (22, 'A', "name of the studio owner who said her teachers can't stand how substitutes are handled", "Hanna Ott", 'content'),
    (25, 'A', "which investors sat in on the Q1 board meeting", "Henrik Dahl and Sofia Lindqvist", 'named'),
    (40, 'A', "who did Oskar meet from the cleaning firm", "Dana Weiss", 'content'),
    (79, 'A', "how many engineers were in the room for the planning day in lisbon team week", "22 people", 'named'),
    (91, 'A', "did anyone from Studio Nord come to the customer advisory board?", "Mehmet Aydin", 'named'),
    (33, 'A', "how many people did Redline send for the pentest kickoff", "two Redline testers", 'named'),
    (86, 'A', "our contact person at urban sports club for getting the beta ready", "Lea Sommer", 'content'),
    (82, 'A', "guest speaker at the Cologne yoga conference prep call", "Hanna Ott", 'named'),
    (3, 'P', "why did I sit down with Priya back in january", "product team's headcount", 'named'),
    (7, 'P', "were we ever considering just extending our current lease instead of moving", "renew the Torstraße lease", 'content'),
    (11, 'P', "factory görlitzer park viewing - what were we trying to find out", "shared campus could work", 'named'),
    (18, 'P', "what was the new helpdesk meant to replace?", "shared support inbox", 'content'),
    (21, 'P', "quarterly security review agenda", "risk register", 'named'),
    (46, 'P', "Point of the Q2 board prep session?", "explain the launch delay", 'named'),
    (80, 'P', "what question was Felix's churn analysis supposed to answer", "why small studios cancel", 'content'),
    (87, 'P', "android perf review - what were we actually looking at", "startup time and jank", 'named'),
    (94, 'P', "besides shutting the office over the holidays what else did we have to sort out", "support cover", 'content'),
    (97, 'P', "what were we there to hear at the SOC 2 audit debrief", "preliminary findings", 'named'),
    (95, 'P', "remind me what my november 1:1 with Nora was about", "2027 brand refresh", 'named'),
    (88, 'P', "reason Jonas and I talked about the eng org in late October", "team grows past 25", 'named'),
    (2, 'O', "did we go with flutter for the app in the end", "Flutter rewrite rejected", 'content'),
    (6, 'O', "salary range we agreed in the backend hiring sync", "70-82k", 'named'),
    (8, 'O', "what was causing members to get charged twice?", "retry in the Payvia webhook handler", 'content'),
    (17, 'O', "how much do we pay people per week of on-call", "300 euro stipend", 'content'),
    (24, 'O', "monthly price of the multi-site tier", "Multi-site 199", 'content'),
    (27, 'O', "Can we get out of the Ohlauer lease early?", "break option after five years", 'content'),
    (36, 'O', "pentest readout: what exactly was the high severity issue", "leaked other members' first names", 'named'),
    (42, 'O', "what was our slogan for the app launch again", "Book in two taps", 'content'),
    (52, 'O', "where is lisbon having its summer party", "boat on the Tagus", 'named'),
    (63, 'O', "which movers are doing our move", "Zapf Umzüge", 'content'),
    (65, 'O', "audit firm we picked for SOC 2", "Schellman", 'content'),
    (96, 'O', "Series A prep - what valuation are we aiming for", "valuation of 40 million", 'named'),
    (1, 'X', "what did I take on after the 2026 kickoff all-hands", "FAQ doc", 'named'),
    (9, 'X', "fatima was supposed to pull together a list for the redesign, of what?", "top ten support complaints", 'content'),
    (15, 'X', "What was I writing to accompany the Q1 board deck?", "one-page memo", 'named'),
    (19, 'X', "what was clara spiking on for payments", "Apple Pay sandbox issues", 'content'),
    (23, 'X', "lisbon hub planning: lena's to-do", "Portuguese payroll provider", 'named'),
    (31, 'X', "where are the leads meant to put their quarterly goals", "Notion", 'content'),
    (34, 'X', "what did Priya owe the runner-up PM candidate", "personal note", 'content'),
    (43, 'X', "Sam promised to write something up about the new prices - what was it", "three objections", 'content'),
    (57, 'X', "launch readiness check: support hours fatima had to roster", "7 am to 10 pm", 'named'),
    (71, 'X', "where did Lena end up posting the security job ad", "Berlin Startup Jobs", 'content'),
    (89, 'X', "after the yoga conference retro, what was Nora going to write with Hanna", "short case study", 'named'),
    (62, 'X', "when does jonas want next year's pentest to happen", "pentest for February", 'content'),
    (100, 'L', "where did we do the last all-hands of the year, the december one", "Radialsystem", 'named'),
    (56, 'L', "Where did we hold the mid-year review?", "Rooftop terrace", 'named'),
    (51, 'L', "where did I have my june 1:1 with Ravi", "along the Spree", 'named'),
    (58, 'L', "where were Priya and I when we talked about what she does after the launch", "Tiergarten", 'content'),
    (60, 'L', "launch day war room - which room", "Glasshouse", 'named'),
    (61, 'L', "which yoga loft location did we kick the substitution beta off at", "Altona studio", 'named'),
    (85, 'L', "where was the half-day leadership offsite", "Hotel Oderberger", 'named'),
    (77, 'L', "we went to see FitHaus about reports not matching their bank - where was that?", "head office in Potsdam", 'content'),
    (48, 'L', "where did the architect show us the layout for the new office", "studio in Neukölln", 'content'),
    (66, 'L', "urban sports club interview location", "Friedrichstraße", 'named'),
    (72, 'L', "which room were we in when we chose the autumn trade fairs", "Tegeler See room", 'content'),
    (38, 'L', "where were we when we decided to kill the friday release train", "barn at Gut Rehwiese", 'content'),
]


# ---------------------------------------------------------------------------------------------------------
# Fourth fresh questions, split "fresh4", ids k-001...: written the same way (by a helper that read only the
# meetings), after the cues that reading FRESH3's failures added, so that those have a blind figure. 12 per
# field, one per meeting. Not part of "all".
# ---------------------------------------------------------------------------------------------------------
FRESH4 = [
    (16, 'L', "which part of town was the website relaunch kickoff in?", "Friedrichshain", 'named'),
    (17, 'L', "where were jonas and I when we agreed on the 300 euro on-call stipend", "Weinbergspark", 'content'),
    (22, 'L', "Yoga Loft Hamburg call - which of their studios did we meet at", "studio in Ottensen", 'named'),
    (38, 'L', "remind me where we were when we decided to scrap the friday release train", "barn at Gut Rehwiese", 'content'),
    (48, 'L', "the layout meeting with the 85k furniture budget, where was that held?", "studio in Neukölln", 'content'),
    (51, 'L', "1:1 with ravi in june, where did we have it", "along the Spree", 'named'),
    (60, 'L', "Which room did we use as the launch day war room?", "Glasshouse", 'named'),
    (61, 'L', "location of the yoga loft substitution beta kickoff", "Altona studio", 'named'),
    (66, 'L', "where did we meet the aggregator that wants to pay per booking rather than a flat fee", "Friedrichstraße", 'content'),
    (77, 'L', "which city did we go to for the booking date vs payment date mix-up in their revenue reports", "Potsdam", 'content'),
    (85, 'L', "leadership half day offsite venue", "Hotel Oderberger", 'named'),
    (100, 'L', "Where was the event where we all heard about the extra day off on Dec 22?", "Radialsystem", 'content'),
    (1, 'A', "how many people came to the 2026 kickoff all-hands", "41 people", 'named'),
    (5, 'A', "who was on the call from the pentest firm when we agreed the 18,500 fixed price", "Kasia Nowak", 'content'),
    (10, 'A', "name of the landlord's agent at the Ohlauer Straße viewing", "Karl Becker", 'named'),
    (14, 'A', "I forgot who represented CloudNest in the renewal negotiation", "Pieter de Vries", 'named'),
    (25, 'A', "which Northwind people were there when the 250k bridge budget got approved?", "Henrik Dahl and Sofia Lindqvist", 'content'),
    (27, 'A', "Which lawyer sat in on the lease decision?", "Eva Novak", 'named'),
    (40, 'A', "who did Oskar meet from Brightclean", "Dana Weiss", 'content'),
    (52, 'A', "who from the lisbon office was on the summer party committee", "Ines Costa", 'named'),
    (79, 'A', "how many engineers were in the room when Lisbon got ownership of the partner API backend", "22 people", 'content'),
    (82, 'A', "cologne conference prep - who joined us as a speaker?", "Hanna Ott", 'named'),
    (86, 'A', "urban sports club contact on the beta prep call", "Lea Sommer", 'named'),
    (91, 'A', "Who came from Studio Nord to the session where owners asked for expiring class packs?", "Mehmet Aydin", 'content'),
    (3, 'P', "why did I sit down with priya back when we decided to open a second PM role", "product team's headcount", 'content'),
    (6, 'P', "What prompted the backend engineer hiring sync in January?", "search is stalling", 'named'),
    (7, 'P', "office move kickoff: what were we actually deciding", "renew the Torstraße lease or move", 'named'),
    (11, 'P', "what were we trying to figure out when we looked at the place that was 34 euros per sqm", "team of 45", 'content'),
    (39, 'P', "purpose of the tense may meeting that pushed launch to july 14", "still launch on June 2", 'content'),
    (46, 'P', "What was the point of the Q2 board prep session?", "explain the launch delay", 'named'),
    (50, 'P', "why did we get together about the expired TLS cert", "Post-mortem", 'content'),
    (80, 'P', "churn deep dive - what question were we trying to answer", "why small studios cancel", 'named'),
    (87, 'P', "the galaxy a12 cold start meeting was about what exactly", "startup time and jank", 'content'),
    (88, 'P', "reason for the chat where we came up with two engineering managers", "grows past 25", 'content'),
    (95, 'P', "topic of my 1:1 with nora in november", "brand refresh", 'named'),
    (99, 'P', "Need the goal of the partner API beta retro", "generally available", 'named'),
    (2, 'O', "did we go with flutter at the mobile app v2 kickoff", "Flutter rewrite rejected", 'named'),
    (8, 'O', "How many members got hit by the FitHaus double charges?", "214 members", 'named'),
    (12, 'O', "spring offsite budget cap?", "38,000 euros", 'named'),
    (20, 'O', "what did gut rehwiese end up costing for the three days", "36,400 euros", 'content'),
    (26, 'O', "how much did first response time improve after we switched helpdesk", "9 hours to 3 hours", 'content'),
    (42, 'O', "tagline we picked for the v2 launch ads", "Book in two taps", 'content'),
    (63, 'O', "Which removal firm did we end up hiring for the move?", "Zapf Umzüge", 'content'),
    (73, 'O', "hotel for the lisbon team visit to berlin", "Michelberger", 'named'),
    (74, 'O', "what rate limit per partner did we settle on", "100 requests per minute", 'content'),
    (76, 'O', "MAU number we planned to headline for the september board", "21,000 monthly active members", 'content'),
    (83, 'O', "SOC 2 status in October - how many controls were passing in Vanta?", "71 of 84", 'named'),
    (96, 'O', "what valuation are we targeting for the Series A", "valuation of 40 million", 'content'),
    (9, 'X', "what did fatima have to pull together after tom showed us the prototype", "top ten support complaints", 'content'),
    (13, 'X', "deadline for Lena to send the offer after the Amir Khalil debrief", "February 13", 'named'),
    (15, 'X', "What was I on the hook to write after the Q1 board prep?", "one-page memo", 'named'),
    (18, 'X', "Fatima's job once we went with Zendesk", "migrate the saved replies", 'content'),
    (19, 'X', "what is clara spiking on now that waitlists slipped two weeks", "Apple Pay sandbox", 'content'),
    (21, 'X', "quarterly security review - how many hardware keys is daniel ordering", "50 YubiKeys", 'named'),
    (23, 'X', "lisbon hub planning, lena's to-do?", "Portuguese payroll provider", 'named'),
    (31, 'X', "when are the leads' quarter goals due in notion", "April 17", 'content'),
    (53, 'X', "After the pentest retest readout, where will Daniel publish the summary?", "trust page", 'named'),
    (71, 'X', "where will lena advertise the security job with the 55-62k band", "Berlin Startup Jobs", 'content'),
    (89, 'X', "yoga conference retro: what's nora writing up with hanna", "case study", 'named'),
    (94, 'X', "what's oskar doing with the heating over christmas", "holiday mode", 'content'),
]


# ---------------------------------------------------------------------------------------------------------
# Fifth fresh questions, split "fresh5", ids p-001...: written the same way (by a helper that read only the
# meetings), after the cues that reading FRESH4's failures added, so that the last rules have a blind figure.
# 12 per field, one per meeting. Not part of "all".
# ---------------------------------------------------------------------------------------------------------
FRESH5 = [
    (1, 'L', "Where was the 2026 kickoff all-hands held?", "Kino Babylon", 'named'),
    (16, 'L', "where is the web agency's studio we went to for the new site brief", "studio in Friedrichshain", 'content'),
    (17, 'L', "which park did Jonas and I walk around when we talked about the on-call rota", "Weinbergspark", 'content'),
    (22, 'L', "yoga loft hamburg customer call location", "Ottensen", 'named'),
    (38, 'L', "The session where we dropped the Friday release train, which room were we in", "barn at Gut Rehwiese", 'content'),
    (48, 'L', "fit-out planning with the architect - where did we meet?", "studio in Neukölln", 'named'),
    (58, 'L', "Where did Priya and I go for our July 1:1?", "Tiergarten", 'named'),
    (60, 'L', "launch day war room, which meeting room was it", "Glasshouse", 'named'),
    (66, 'L', "Urban Sports Club interview - was that at their office? which street", "Friedrichstraße", 'named'),
    (77, 'L', "we went out to FitHaus about the revenue reports not matching their bank statements, what town was that in", "Potsdam", 'content'),
    (85, 'L', "venue for the half-day leadership offsite", "Hotel Oderberger", 'named'),
    (100, 'L', "I need the location of the meeting where everyone got an extra day off on December 22", "Radialsystem", 'content'),
    (5, 'A', "who was our contact at the pentest firm when we agreed the 18,500 euro scope?", "Kasia Nowak", 'content'),
    (10, 'A', "Ohlauer Straße viewing in February: who showed us around for the landlord?", "Karl Becker", 'named'),
    (14, 'A', "Who was the CloudNest account manager in the renewal negotiation", "Pieter de Vries", 'named'),
    (25, 'A', "which Northwind partners were there when the 250k bridge budget was approved", "Henrik Dahl", 'content'),
    (27, 'A', "did we have a lawyer with us when we picked Ohlauer over Lohmühlenstraße?", "Eva Novak", 'content'),
    (33, 'A', "how many testers did Redline bring to the pentest kickoff", "two Redline testers", 'named'),
    (34, 'A', "besides Priya, Maria and Lena, who else sat in on the product manager interview debrief", "Felix Braun", 'named'),
    (40, 'A', "the woman from the new cleaning company - what was her name", "Dana Weiss", 'content'),
    (52, 'A', "who from Lisbon was on the summer party committee?", "Ines Costa", 'content'),
    (61, 'A', "were any instructors at the Yoga Loft substitution beta kickoff", "two Yoga Loft instructors", 'named'),
    (79, 'A', "how many engineers showed up for the joint Berlin + Lisbon Q4 roadmap day", "22 people", 'content'),
    (91, 'A', "which Studio Nord owner gives us roadmap feedback along with the other studio owners", "Mehmet Aydin", 'content'),
    (6, 'P', "why did we call the backend hiring sync in january", "search is stalling", 'named'),
    (18, 'P', "What were we trying to get rid of when we compared Zendesk, Freshdesk and Help Scout?", "shared support inbox", 'content'),
    (21, 'P', "quarterly security review: apart from the incidents, what else did we go over", "risk register", 'named'),
    (29, 'P', "Which weekly v2 check-in also covered getting ready for the pen test?", "pentest preparation", 'content'),
    (46, 'P', "what was the point of board prep Q2", "explain the launch delay", 'named'),
    (54, 'P', "What got handed over to Hannah during her PM onboarding meeting?", "web dashboard roadmap", 'named'),
    (64, 'P', "we adjusted the second-half budget for the late launch and for what else?", "hiring freeze", 'content'),
    (72, 'P', "reason we could only pick a couple of trade fairs this autumn", "reduced budget", 'content'),
    (80, 'P', "the churn deep dive Felix presented was meant to figure out what exactly", "small studios cancel", 'named'),
    (88, 'P', "At what team size did Jonas and I think engineering needed a new structure", "past 25", 'content'),
    (95, 'P', "what did Nora and I discuss about how the company should look in 2027", "brand refresh", 'content'),
    (99, 'P', "what were we deciding at the partner API beta retro", "generally available", 'named'),
    (4, 'O', "total Q1 spend approved in the budget review", "1.42 million euros", 'named'),
    (13, 'O', "what salary did we end up offering Amir", "78k", 'content'),
    (26, 'O', "How much faster did we answer tickets after switching helpdesks?", "9 hours to 3 hours", 'content'),
    (32, 'O', "hotel limit per night in the travel rules", "140 euros a night", 'content'),
    (39, 'O', "After the v2 go/no-go, what was the new launch date?", "postponed to July 14", 'named'),
    (42, 'O', "tagline we picked in the launch campaign meeting", "Book in two taps", 'named'),
    (50, 'O', "What caused Studio Nord's members to be locked out that Saturday", "expired TLS certificate", 'content'),
    (56, 'O', "how many paying studios did we have at the mid-year review?", "484 paying studios", 'named'),
    (65, 'O', "SOC 2 auditor we went with", "Schellman", 'content'),
    (73, 'O', "Hotel the Lisbon team is staying at when they come to Berlin in September", "Michelberger", 'content'),
    (90, 'O', "did we push back opening an office in another city until after the fundraise?", "Vienna", 'content'),
    (96, 'O', "series a prep: what valuation are we aiming for", "40 million", 'named'),
    (2, 'X', "when was Tom's clickable prototype for the app due", "January 30", 'content'),
    (9, 'X', "app v2 design review - what did Fatima have to put together?", "top ten support complaints", 'named'),
    (19, 'X', "Clara had a spike to do in early March, what was it on", "Apple Pay sandbox", 'content'),
    (20, 'X', "How big a deposit did Oskar need to pay after the offsite venue decision", "30% deposit", 'named'),
    (31, 'X', "where were the leads supposed to publish their Q2 goals", "Notion", 'content'),
    (37, 'X', "offsite logistics: what was Oskar's job?", "print the room list", 'named'),
    (45, 'X', "which job site are the two Lisbon QA ads going on", "Landing.jobs", 'content'),
    (53, 'X', "after the pentest retest readout, where does Daniel post the summary", "trust page", 'named'),
    (68, 'X', "What do I need to get from Maria after my 1:1 with Daniel?", "exception to the hiring freeze", 'named'),
    (70, 'X', "is someone asking the landlord about bike parking", "more bike racks", 'content'),
    (71, 'X', "where is Lena posting the junior security engineer job", "Berlin Startup Jobs", 'named'),
    (75, 'X', "which two review tools was Lena deciding between", "Leapsome or Lattice", 'content'),
]

# Sixth fresh questions, split "fresh6", ids r-001...: written the same way (by a helper that read only the
# meetings), after the cues that reading FRESH5's failures added and the whole-word phrase matching, so that
# they have a blind figure. 12 per field, one per meeting. Not part of "all".
# ---------------------------------------------------------------------------------------------------------
FRESH6 = [
    (1, 'L', "where was the january all-hands kickoff held?", "Kino Babylon", 'named'),
    (11, 'L', "remind me which lobby we met in when we looked at the shared campus", "lobby B", 'content'),
    (16, 'L', "which neighbourhood is the agency's studio in, the one where we kicked off the website relaunch", "Friedrichshain", 'named'),
    (17, 'L', "where did jonas and i talk about the on-call stipend", "Weinbergspark", 'content'),
    (22, 'L', "we visited a customer whose instructors hate how substitutes work - which part of town was that", "Ottensen", 'content'),
    (38, 'L', "where exactly did the offsite strategy session take place?", "barn", 'named'),
    (51, 'L', "1:1 with ravi where", "Spree", 'named'),
    (58, 'L', "that walking 1:1 where Priya and I talked about her taking on the partner API, which park?", "Tiergarten", 'named'),
    (60, 'L', "launch day war room - which meeting room", "Glasshouse", 'named'),
    (61, 'L', "which Yoga Loft studio did we kick off the substitution beta at", "Altona", 'named'),
    (85, 'L', "I need the hotel where the leadership team spent half a day drafting the 2027 goals", "Hotel Oderberger", 'content'),
    (100, 'L', "venue for the december all-hands?", "Radialsystem", 'named'),
    (5, 'A', "who from Redline joined the pentest scoping call", "Kasia Nowak", 'named'),
    (10, 'A', "name of the landlord's agent who showed us the first office space", "Karl Becker", 'content'),
    (14, 'A', "who was our account manager at the hosting provider when they tried a 15% increase", "Pieter de Vries", 'content'),
    (25, 'A', "which Northwind partners came to the Q1 board meeting?", "Henrik Dahl", 'named'),
    (27, 'A', "the lawyer at the lease decision meeting - what's her name", "Eva Novak", 'named'),
    (33, 'A', "how many testers did Redline send for the pentest kickoff", "two Redline testers", 'named'),
    (40, 'A', "contact person at the new cleaning company", "Dana Weiss", 'content'),
    (48, 'A', "architect's name for the new office layout", "Anja Richter", 'content'),
    (70, 'A', "who came to the quick retro right after we moved in?", "team leads", 'content'),
    (79, 'A', "how many engineers were in the room for the joint Berlin/Lisbon planning day", "22 people", 'named'),
    (86, 'A', "our contact at urban sports club for the beta prep", "Lea Sommer", 'named'),
    (91, 'A', "which Studio Nord owner sits on the customer advisory board", "Mehmet Aydin", 'named'),
    (2, 'P', "did the v2 kickoff scope include google pay?", "Google Pay", 'named'),
    (7, 'P', "office move kickoff - which lease were we deciding whether to renew", "Torstraße lease", 'named'),
    (18, 'P', "what was the new helpdesk tool supposed to replace", "shared support inbox", 'content'),
    (20, 'P', "which offsite was the venue decision for", "May offsite", 'named'),
    (50, 'P', "studio nord escalation, what kind of meeting was it", "Post-mortem", 'named'),
    (66, 'P', "what did we want to learn from the aggregator interview", "booking API", 'content'),
    (68, 'P', "besides workload, what else was on the agenda in my August 1:1 with Daniel", "SOC 2", 'named'),
    (77, 'P', "fithaus complaint in september: their revenue reports didn't match what?", "bank statements", 'named'),
    (87, 'P', "android app slow on old phones - what problem other than start time were we looking at", "jank", 'content'),
    (88, 'P', "october 1:1 with Jonas about eng structure, the team was growing beyond what size", "past 25", 'named'),
    (94, 'P', "besides closing the office over christmas, what else did we need to sort out", "support cover", 'content'),
    (95, 'P', "nora 1:1 november topic", "brand refresh", 'named'),
    (4, 'O', "how much did we sign off for the whole first quarter in the end", "1.42 million", 'content'),
    (6, 'O', "new salary band for the backend role after the search stalled", "70-82k", 'content'),
    (13, 'O', "amir's offer amount", "78k", 'named'),
    (26, 'O', "how far did first response time drop after switching to the new helpdesk", "3 hours", 'content'),
    (42, 'O', "What tagline did we pick in the launch campaign meeting?", "Book in two taps", 'named'),
    (52, 'O', "where's the lisbon summer party happening", "Tagus", 'content'),
    (63, 'O', "which movers did we go with", "Zapf Umzüge", 'content'),
    (65, 'O', "SOC 2 readiness - which audit firm", "Schellman", 'named'),
    (73, 'O', "hotel for the Lisbon team during their Berlin week", "Michelberger", 'named'),
    (80, 'O', "monthly churn figure from the churn deep dive", "2.4%", 'named'),
    (96, 'O', "target valuation we set in Series A prep", "40 million", 'named'),
    (99, 'O', "when does the partner API become generally available?", "February 2, 2027", 'content'),
    (3, 'X', "after the check-in where Priya said she was stretched thin, what did she have to write", "job description", 'content'),
    (9, 'X', "fatima's homework from the v2 design review", "top ten support complaints", 'named'),
    (15, 'X', "what document am I supposed to send along with the Q1 board deck", "one-page memo", 'content'),
    (21, 'X', "how many hardware keys is Daniel ordering", "50 YubiKeys", 'content'),
    (23, 'X', "lisbon hub planning: what was Lena tasked to find", "payroll provider", 'named'),
    (31, 'X', "where do the leads publish their goals for the second quarter", "Notion", 'content'),
    (53, 'X', "after the pentest retest readout, where did Daniel post the summary", "trust page", 'named'),
    (55, 'X', "nora's follow-up from the pricing rollout retro", "price calculator", 'named'),
    (71, 'X', "what is Daniel preparing for candidates in the junior security engineer hiring", "take-home exercise", 'named'),
    (75, 'X', "which review tools was Lena choosing between", "Lattice", 'content'),
    (78, 'X', "aiko's to-do after the Q3 board meeting", "data room", 'named'),
    (97, 'X', "what does Daniel need to write now that the auditors have given their findings", "management responses", 'content'),
]

# Seventh fresh questions, split "fresh7", ids s-001...: written the same way (by a helper that read only the
# meetings), after the cues that reading FRESH6's failures added, so that they have a blind figure. 12 per
# field, one per meeting. Not part of "all".
# ---------------------------------------------------------------------------------------------------------
FRESH7 = [
    (1, 'A', "january all-hands kickoff, roughly how many of us were there?", "41 people", 'named'),
    (5, 'A', "name of our contact at the pentest firm when we scoped this year's test", "Kasia Nowak", 'content'),
    (10, 'A', "who was the landlord's guy at the ohlauer straße viewing", "Karl Becker", 'named'),
    (14, 'A', "I need the name of the account manager from our hosting provider, the one who agreed to 4% instead of 15%", "Pieter de Vries", 'content'),
    (16, 'A', "website relaunch kickoff - who came over from the agency?", "Lukas Hahn", 'named'),
    (25, 'A', "which investors were in the room when the 250k bridge budget got approved", "Henrik Dahl", 'content'),
    (27, 'A', "lawyer at the lease decision meeting?", "Eva Novak", 'named'),
    (40, 'A', "who did Oskar meet from Brightclean about the cleaning contract", "Dana Weiss", 'named'),
    (66, 'A', "the aggregator person we interviewed about real-time availability and check-in codes", "Lea Sommer", 'content'),
    (79, 'A', "headcount at the planning day during lisbon team week", "22 people", 'named'),
    (82, 'A', "can't remember who we invited to give a talk at our booth at the Cologne fair", "Hanna Ott", 'content'),
    (91, 'A', "who represented Studio Nord when studio owners gave us feedback on next year's roadmap", "Mehmet Aydin", 'content'),
    (2, 'P', "was google pay part of the v2 kickoff scope", "Google Pay", 'named'),
    (3, 'P', "1:1 with priya in january, what was on the agenda besides her workload", "headcount", 'named'),
    (7, 'P', "the meeting where we decided to leave our current office - what was the original question on the table", "renew the Torstraße lease", 'content'),
    (11, 'P', "factory görlitzer park viewing: what were we checking for", "team of 45", 'named'),
    (18, 'P', "why did we start shopping for a helpdesk tool in february", "shared support inbox", 'content'),
    (33, 'P', "pentest kickoff agenda", "rules of engagement", 'named'),
    (46, 'P', "prep session in june where we had bad news for the investors - what were we preparing to explain", "launch delay", 'content'),
    (64, 'P', "remind me why we did the Q3 reforecast", "hiring freeze", 'named'),
    (80, 'P', "what question was the churn deep dive supposed to answer", "why small studios cancel", 'named'),
    (87, 'P', "that meeting about the android app being slow on old phones, what exactly were we measuring", "jank", 'content'),
    (88, 'P', "when we talked about having engineering managers next year, what team size were we planning for", "past 25", 'content'),
    (95, 'P', "nora 1:1 in november topic", "brand refresh", 'named'),
    (4, 'O', "total spend we signed off at the Q1 budget review", "1.42 million", 'named'),
    (8, 'O', "how many members got hit by the double charge from the webhook retry", "214", 'content'),
    (20, 'O', "offsite venue decision - final price?", "36,400 euros", 'named'),
    (26, 'O', "after switching to the new helpdesk how fast did first replies get", "3 hours", 'content'),
    (34, 'O', "who was the runner-up for the web dashboard PM job", "Jakob Meier", 'content'),
    (42, 'O', "the slogan for the v2 launch ads, what did nora and sam settle on", "Book in two taps", 'named'),
    (52, 'O', "what's lisbon doing for the company party in july", "Tagus", 'content'),
    (63, 'O', "which movers did we end up going with", "Zapf Umzüge", 'content'),
    (65, 'O', "audit firm we picked for SOC 2 type I", "Schellman", 'content'),
    (73, 'O', "where are the lisbon folks sleeping during their berlin week", "Michelberger", 'named'),
    (90, 'O', "we pushed back opening a second office until after the fundraise - which city was it", "Vienna", 'content'),
    (99, 'O', "partner API beta retro: when does it go GA?", "February 2, 2027", 'named'),
    (15, 'X', "board prep Q1, what was I supposed to write to go along with the deck", "one-page memo", 'named'),
    (21, 'X', "how many hardware keys is Daniel ordering after the security review", "50 YubiKeys", 'content'),
    (30, 'X', "what did tom have to swap out on the new site after pixelwerk showed us staging", "stock photos", 'content'),
    (32, 'X', "Aiko was setting up company cards for team leads, which provider", "Pleo cards", 'content'),
    (37, 'X', "offsite logistics - what was lena sending everyone?", "packing list", 'named'),
    (53, 'X', "where was Daniel going to post the summary once Redline confirmed the fix", "trust page", 'content'),
    (55, 'X', "follow-ups for nora from the pricing rollout retro", "price calculator", 'named'),
    (67, 'X', "before move week oskar orders the keys and what else", "access cards", 'content'),
    (71, 'X', "junior security engineer hiring - lena was going to post the ad on which board?", "Berlin Startup Jobs", 'named'),
    (75, 'X', "which performance review tools was lena deciding between in september", "Leapsome or Lattice", 'content'),
    (94, 'X', "office shut over the holidays - oskar was meant to do something with the radiators?", "holiday mode", 'named'),
    (97, 'X', "soc 2 audit debrief, daniel's follow-up", "management responses", 'named'),
    (17, 'L', "can't remember where jonas and i had that chat about on-call burnout and the weekly stipend", "Weinbergspark", 'content'),
    (22, 'L', "customer call with yoga loft hamburg, which neighbourhood was that in", "Ottensen", 'named'),
    (31, 'L', "quarterly planning Q2 location", "Rooftop terrace", 'named'),
    (38, 'L', "where did the whole company sit for the stop-doing and big bets discussion", "barn", 'content'),
    (48, 'L', "where did the architect walk us through the new office layout and furniture", "Neukölln", 'content'),
    (51, 'L', "1:1 with ravi in june - where did we meet", "Spree", 'named'),
    (58, 'L', "where was I when priya and I agreed she'd lead the partner API", "Tiergarten", 'content'),
    (60, 'L', "launch day war room, which room were we in", "Glasshouse", 'named'),
    (61, 'L', "which of their studios did we go to on the day the Hamburg customer signed for all three", "Altona", 'content'),
    (77, 'L', "fithaus reporting escalation - did we meet at their place? where", "Potsdam", 'named'),
    (85, 'L', "venue where leadership drafted the 2027 goals and the fundraising pitch", "Hotel Oderberger", 'content'),
    (100, 'L', "december all-hands, which venue did we rent", "Radialsystem", 'named'),
]

# Eighth fresh questions, split "fresh8", ids t-001...: written the same way (by a helper that read only the
# meetings), after the cues that reading FRESH7's failures added and the rule that a title's words name the
# record, so that they have a blind figure. 12 per field, one per meeting. Not part of "all".
# ---------------------------------------------------------------------------------------------------------
FRESH8 = [
    (5, 'A', "who was our contact at the pentest firm when we scoped the audit?", "Kasia Nowak", 'content'),
    (14, 'A', "CloudNest renewal call - name of their account manager?", "Pieter de Vries", 'named'),
    (27, 'A', "which lawyer sat in on the lease decision for the new office", "Eva Novak", 'named'),
    (34, 'A', "who else was on the panel when we picked between the two final PM candidates? not just Priya and Lena I think", "Felix Braun", 'content'),
    (40, 'A', "name of the person from the cleaning company Oskar negotiated with", "Dana Weiss", 'content'),
    (47, 'A', "Q2 board meeting attendees", "Sofia Lindqvist", 'named'),
    (66, 'A', "who did we actually talk to at Urban Sports Club for the partner API interview?", "Lea Sommer", 'named'),
    (67, 'A', "remind me who came along for the last walkthrough of the new office before we moved in", "Karl Becker", 'content'),
    (79, 'A', "how many engineers were in the room when both offices planned the Q4 roadmap together?", "22 people", 'content'),
    (82, 'A', "who was the guest we prepped the Cologne yoga conference talk with", "Hanna Ott", 'named'),
    (91, 'A', "which owner came from Studio Nord to the customer advisory board?", "Mehmet Aydin", 'named'),
    (100, 'A', "how big was the company at the december all-hands", "52 people", 'named'),
    (3, 'P', "what was my first 1:1 with Priya of the year supposed to cover, besides her workload?", "headcount", 'named'),
    (7, 'P', "when we kicked off the office move, which lease were we deciding whether to renew?", "Torstraße", 'named'),
    (11, 'P', "Factory Görlitzer Park viewing - what team size did we need it to fit?", "team of 45", 'named'),
    (18, 'P', "what were we replacing when we went with Zendesk?", "shared support inbox", 'content'),
    (21, 'P', "besides the incidents, what did we go through at the quarterly security review", "risk register", 'named'),
    (22, 'P', "the Hamburg yoga studio call — what deal were they deciding on?", "three-studio contract", 'content'),
    (29, 'P', "apart from the weekly v2 progress, what else was on the agenda at the status meeting where iOS waitlists were done?", "pentest preparation", 'content'),
    (33, 'P', "what did we need to confirm with the testers on the first day of the pentest", "rules of engagement", 'named'),
    (39, 'P', "go/no-go for the app: which launch date were we trying to keep?", "June 2", 'named'),
    (46, 'P', "I need the reason for the extra prep before the tough summer board meeting", "launch delay", 'content'),
    (80, 'P', "churn deep dive - which kind of customers were we trying to understand", "small studios", 'named'),
    (88, 'P', "at what team size did Jonas and I say engineering needs a new structure?", "past 25", 'content'),
    (2, 'O', "which cross-platform rewrite did we turn down at the start of the v2 project?", "Flutter", 'content'),
    (8, 'O', "how many members got hit by the double charges and refunded", "214 members", 'content'),
    (10, 'O', "how many square metres was the Ohlauer Straße space we viewed?", "620 square metres", 'named'),
    (12, 'O', "spring offsite planning: what did we cap the budget at", "38,000 euros", 'named'),
    (13, 'O', "what salary did we offer Amir after his interviews", "78k", 'named'),
    (20, 'O', "how much did the chosen offsite venue cost for the three days, meals included?", "36,400 euros", 'content'),
    (24, 'O', "price of the top tier we decided in the pricing workshop?", "199 euros", 'named'),
    (42, 'O', "what was the tagline for the v2 launch campaign again", "Book in two taps", 'named'),
    (50, 'O', "why did studio nord's check-in go down that saturday", "expired TLS certificate", 'named'),
    (63, 'O', "which movers did we end up hiring for the office move, and for how much?", "Zapf Umzüge", 'named'),
    (86, 'O', "find the per-booking fee the aggregator pays once the partner beta is over", "0.40 euros", 'content'),
    (96, 'O', "what valuation are we targeting in the fundraise", "40 million", 'content'),
    (9, 'X', "deadline for Tom to redo the profile screen after the prototype review", "February 13", 'content'),
    (15, 'X', "Q1 board prep — what was I supposed to write to go out with the deck?", "one-page memo", 'named'),
    (19, 'X', "what was Clara looking into when the waitlist feature slipped", "Apple Pay sandbox", 'content'),
    (30, 'X', "after Pixelwerk showed us the staging site, what was Tom meant to replace?", "stock photos", 'content'),
    (36, 'X', "pentest readout: by when did Ravi have to fix the booking API leak?", "May 8", 'named'),
    (45, 'X', "where were we posting the two Lisbon QA job ads?", "Landing.jobs", 'content'),
    (53, 'X', "once Redline confirmed the fix, where was Daniel going to publish the summary", "trust page", 'content'),
    (57, 'X', "support hours during launch week — what did Fatima roster?", "7 am to 10 pm", 'content'),
    (62, 'X', "v2 retro: which month is next year's pentest supposed to be in?", "February", 'named'),
    (71, 'X', "which job board did Lena post the junior security role on", "Berlin Startup Jobs", 'named'),
    (81, 'X', "remind me the deadline for leads to nominate peers in the new review process", "October 20", 'named'),
    (93, 'X', "partner beta went live and one webhook was late - what did Amir have to add?", "backoff", 'content'),
    (1, 'L', "where did we hold the 2026 kickoff all-hands?", "Kino Babylon", 'named'),
    (16, 'L', "which part of town is the web agency's studio in, where we did the website relaunch kickoff", "Friedrichshain", 'named'),
    (17, 'L', "where were we when Jonas and I talked about the on-call stipend", "Weinbergspark", 'content'),
    (25, 'L', "Q1 board meeting at Northwind - what street is their office on?", "Rosenthaler Straße", 'named'),
    (38, 'L', "where exactly did the strategy day at the offsite happen?", "The barn", 'named'),
    (48, 'L', "architect's studio where we did the fit-out planning - which neighbourhood?", "Neukölln", 'named'),
    (51, 'L', "where did I have the 1:1 with Ravi after the beta crunch", "Spree", 'named'),
    (58, 'L', "where did Priya and I talk about her next project after launch?", "Tiergarten", 'content'),
    (60, 'L', "which room were we all in on launch day watching dashboards", "The Glasshouse", 'named'),
    (61, 'L', "which of Yoga Loft's studios hosted the substitution beta kickoff?", "Altona", 'named'),
    (77, 'L', "the FitHaus meeting about reports not matching their bank statements — which city was it in?", "Potsdam", 'content'),
    (85, 'L', "where did the half-day leadership offsite take place", "Hotel Oderberger", 'named'),
]

# Ninth fresh questions, split "fresh9", ids v-001...: written the same way (by a helper that read only the
# meetings), after the cues that reading FRESH8's failures added and the rule that a question naming no field is
# shown what was decided, so that they have a blind figure. 12 per field, one per meeting. Not part of "all".
# ---------------------------------------------------------------------------------------------------------
FRESH9 = [
    # Attendees
    (5, 'A', "who did we talk to at Redline when we scoped this year's pentest?", "Kasia Nowak", 'named'),
    (10, 'A', "who was the landlord's agent for the Ohlauer space", "Karl Becker", 'content'),
    (14, 'A', "whos our account manager over at cloudnest", "Pieter de Vries", 'content'),
    (25, 'A', "which Northwind partners showed up to the Q1 board meeting", "Henrik Dahl", 'named'),
    (27, 'A', "name of the lawyer who sat in when we picked the new lease", "Eva Novak", 'content'),
    (40, 'A', "who did Oskar meet from the cleaning company", "Dana Weiss", 'content'),
    (52, 'A', "who joined from lisbon for the summer party planning call", "Ines Costa", 'named'),
    (79, 'A', "how many engineers were in the room for the joint Q4 roadmap day", "22 people", 'content'),
    (82, 'A', "remind me who our guest speaker was for the Cologne yoga conference prep", "Hanna Ott", 'named'),
    (86, 'A', "my contact person at urban sports club for the beta?", "Lea Sommer", 'content'),
    (91, 'A', "who came from Studio Nord to the customer advisory board", "Mehmet Aydin", 'named'),
    (100, 'A', "how many of us were at the year-end all hands", "52 people", 'named'),
    # Purpose
    (3, 'P', "why did I sit down with Priya in mid january", "headcount", 'named'),
    (6, 'P', "what was the problem we were trying to fix in the jan backend hiring sync", "stalling", 'named'),
    (11, 'P', "what were we trying to find out at the Factory viewing", "shared campus", 'named'),
    (18, 'P', "what was the new helpdesk meant to replace", "shared support inbox", 'content'),
    (33, 'P', "what did we need to agree with the redline testers on their first day", "rules of engagement", 'content'),
    (46, 'P', "point of the june board prep?", "launch delay", 'named'),
    (62, 'P', "why did we do the v2 retro, what was it for", "next big release", 'named'),
    (64, 'P', "why did we have to redo the H2 numbers in july", "hiring freeze", 'content'),
    (68, 'P', "1:1 w/ daniel in august - what topics were on the table", "SOC 2", 'named'),
    (80, 'P', "what question was felix's churn analysis supposed to answer again", "small studios cancel", 'content'),
    (88, 'P', "reason for the end of october 1:1 with jonas", "past 25", 'named'),
    (95, 'P', "what did nora want to talk about regarding how we look next year", "brand refresh", 'content'),
    # Outcomes
    (2, 'O', "are the v2 apps cross-platform or native, what did we decide", "Swift and Kotlin", 'content'),
    (4, 'O', "total spend we signed off for Q1?", "1.42 million", 'content'),
    (13, 'O', "what salary did we offer amir", "78k", 'content'),
    (20, 'O', "how much is gut rehwiese costing us for the offsite", "36,400", 'content'),
    (36, 'O', "what was the high severity thing in the pentest readout", "first names", 'named'),
    (42, 'O', "tagline we picked for the v2 launch campaign", "Book in two taps", 'named'),
    (56, 'O', "how many paying studios did we have at the mid-year review", "484", 'named'),
    (63, 'O', "which movers did we go with in the end", "Zapf Umzüge", 'content'),
    (74, 'O', "partner api design review - what rate limit did we settle on", "100 requests per minute", 'named'),
    (83, 'O', "how many soc2 controls were green in early october", "71 of 84", 'content'),
    (96, 'O', "what valuation are we aiming for in the series a", "40 million", 'content'),
    (99, 'O', "when does the partner API go GA? we decided it at the beta retro", "February 2, 2027", 'named'),
    # Action items
    (8, 'X', "what was ravi supposed to ship after the fithaus double charge mess", "idempotency fix", 'named'),
    (19, 'X', "what's clara digging into from the early march v2 status", "Apple Pay sandbox", 'named'),
    (21, 'X', "how many hardware keys did daniel need to order", "50 YubiKeys", 'content'),
    (28, 'X', "when is amir coming over to berlin? lena was meant to schedule it", "Berlin visit in May", 'content'),
    (32, 'X', "which company cards was aiko setting up for the team leads", "Pleo", 'content'),
    (45, 'X', "where is lena posting the lisbon QA jobs", "Landing.jobs", 'content'),
    (53, 'X', "after the pentest retest readout, where was daniel putting the summary", "trust page", 'named'),
    (59, 'X', "what did miguel have to draft after the partner api discovery kickoff", "OAuth vs API keys", 'named'),
    (71, 'X', "job board for the junior security engineer posting", "Berlin Startup Jobs", 'content'),
    (75, 'X', "which review tools was lena choosing betwen", "Leapsome or Lattice", 'content'),
    (89, 'X', "what's nora writing up with hanna after the yoga conference retro", "case study", 'named'),
    (94, 'X', "what does oskar have to do about the heating over christmas", "holiday mode", 'content'),
    # Location
    (1, 'L', "where was the 2026 kickoff all-hands held", "Kino Babylon", 'named'),
    (16, 'L', "which part of town is pixelwerk's studio in", "Friedrichshain", 'content'),
    (17, 'L', "where did jonas and I walk when we sorted out the on-call stipend", "Weinbergspark", 'content'),
    (22, 'L', "yoga loft hamburg call in march - where was their studio", "Ottensen", 'named'),
    (38, 'L', "where did the whole-company strategy day at the offsite happen", "barn", 'named'),
    (48, 'L', "where did the architect show us the new office layout", "Neukölln", 'content'),
    (51, 'L', "my june 1:1 with ravi, where did we go", "Spree", 'named'),
    (58, 'L', "1:1 with priya in july, where was that", "Tiergarten", 'named'),
    (60, 'L', "which room was the launch day war room in", "Glasshouse", 'named'),
    (66, 'L', "where did we meet the aggregator to hear what they need from our booking api", "Friedrichstraße", 'content'),
    (77, 'L', "where did we go to see fithaus about their revenue reports not matching the bank", "Potsdam", 'content'),
    (85, 'L', "leadership half day in oct - where was it", "Hotel Oderberger", 'named'),
]


# ---------------------------------------------------------------------------------------------------------
# Notes: personal and work notes, (date, title, tags, text).
# ---------------------------------------------------------------------------------------------------------
NOTES = [
    N("2026-01-03", "Sourdough starter schedule", ["cooking", "bread"],
      "Fed the starter at 9 pm with 50 g rye and 50 g water; by morning it had doubled and smelled like yoghurt, which is what I want. "
      "For the weekend loaf: 100 g starter, 375 g water, 500 g flour (400 bread flour, 100 wholemeal), 10 g salt. Autolyse one hour, "
      "then four sets of stretch and folds 30 minutes apart. Cold retard in the fridge overnight.\n\n"
      "Bake at 250 °C in the Dutch oven, 20 minutes lid on, 25 minutes lid off. Last time the bottom burned, so put a baking tray on "
      "the rack below."),
    N("2026-01-05", "Weeknight red lentil dal", ["cooking", "recipe"],
      "The quick dal that always works. Rinse 250 g red lentils and simmer them with 900 ml water, a teaspoon of turmeric and a chopped "
      "tomato for 20 minutes until they fall apart. Meanwhile fry a sliced onion in ghee until deep brown, then add cumin seeds, two "
      "garlic cloves, a piece of ginger and one dried chilli. Tip the tarka into the lentils, squeeze in half a lemon, salt generously. "
      "Serve with rice or flatbread and a spoon of yoghurt. Freezes well in the small boxes."),
    N("2026-01-08", "Bathroom tap dripping", ["home", "repair"],
      "The cold tap in the bathroom drips about once a second, worse at night. It is a quarter-turn ceramic cartridge tap, so it is "
      "probably the cartridge, not a washer.\n\n"
      "Steps: turn off the isolation valve under the sink (the little screw slot), pop the cap off the handle, undo the screw, pull "
      "the handle off and unscrew the cartridge with a 17 mm spanner. Take the old one to the hardware store on Brunnenstraße to match "
      "it. If the valve does not close fully, call the landlord's plumber instead of risking a flood."),
    N("2026-01-10", "Half marathon training plan", ["running", "health"],
      "Signed up for the Berlin half marathon on April 5, twelve weeks from now. Plan: three runs a week plus one strength session. "
      "Tuesday intervals (6 x 800 m at 5:00/km), Thursday an easy 8 km, Sunday a long run building from 12 km to 19 km, with a cutback "
      "week every fourth week.\n\n"
      "Goal time: under 2 hours, which means 5:40/km. Buy new shoes before week four; the old ones have 900 km on them. Sleep matters "
      "more than anything else on this list."),
    N("2026-01-13", "Book notes: The Mom Test", ["books", "work"],
      "Rob Fitzpatrick's small book on customer conversations. Main idea: ask about their life, not your idea. Talk about specifics in "
      "the past instead of generics or opinions about the future. 'Would you buy this?' is a useless question; 'When did this last "
      "happen, and what did you do?' is a good one.\n\n"
      "Compliments are noise; commitments (time, reputation, money) are signal. Keep conversations casual, because a formal agenda "
      "makes people polite. I want the product team to read this before the next round of studio interviews."),
    N("2026-01-15", "Radiator in the bedroom stays cold", ["home", "repair"],
      "The bedroom radiator is warm at the bottom and cold at the top, which usually means air. Bled it with the little key from the "
      "drawer: held a towel under the valve, opened it a quarter turn until the hissing stopped and water came out, then closed it. "
      "The pressure on the boiler gauge dropped to 0.9 bar, so I topped it up to 1.5 with the filling loop. Check again in two days. "
      "If it is still cold, the thermostatic valve pin might be stuck; tapping it gently sometimes frees it."),
    N("2026-01-18", "Ideas for Mum's 70th birthday", ["family", "gifts"],
      "Mum turns 70 on March 28. Ideas so far: a weekend in Dresden with the whole family and a concert at the Semperoper; a photo "
      "book of her garden through the seasons (ask Dad for the old prints); a pottery course with me, since she keeps talking about "
      "it. Budget around 400 euros, shared with my brother. Whatever we pick, book it before the end of February, because the hotels "
      "in Dresden fill up around Easter."),
    N("2026-01-21", "Book notes: Four Thousand Weeks", ["books"],
      "Oliver Burkeman on time. We will never get on top of everything, and trying makes it worse: the faster you clear your inbox, "
      "the more email arrives. Better to choose consciously what to neglect. Keep a 'done list' instead of only a to-do list. Limit "
      "work in progress to three projects at once. Practise strategic underachievement in areas that do not matter. The chapter on "
      "patience hit home: some things, like learning an instrument, simply take the time they take."),
    N("2026-01-24", "Lisbon long weekend in March", ["travel", "lisbon"],
      "Staying on in Lisbon from Thursday March 19 until Sunday. Stay in Príncipe Real, near the garden. Friday: the tile museum and a "
      "walk along the river to Belém for pastéis. Saturday: day trip to Sintra by train from Rossio (go early and book the Pena Palace "
      "slot online). Sunday: the market at Campo de Ourique and a long lunch.\n\n"
      "Ask around for a fish restaurant that isn't on every list. Pack a rain jacket, March can be wet."),
    N("2026-01-27", "Sleep log, week 1", ["health", "sleep"],
      "Tracking sleep for two weeks because I wake up tired. Average 6 h 20 min, bedtime drifting to 00:30. The two nights under six "
      "hours both followed evening calls. Caffeine after 3 pm on four days.\n\n"
      "Experiment for week two: no screens after 23:00, last coffee at 14:00, bedroom at 18 °C, a short walk after dinner. Also try "
      "reading fiction instead of work documents in bed."),
    N("2026-01-30", "Overnight oats", ["cooking", "breakfast"],
      "Breakfast for the busy weeks. In a jar: 50 g oats, 1 tablespoon chia seeds, 150 ml oat milk, 2 tablespoons yoghurt and a pinch "
      "of cinnamon. Shake and leave in the fridge overnight. Topping in the morning: grated apple and walnuts, or frozen raspberries "
      "that thaw on the way to work. Make three jars on Sunday evening; they keep until Wednesday. Much less sugar than the granola I "
      "was buying."),
    N("2026-02-01", "Wobbly kitchen table", ["home", "repair"],
      "The kitchen table wobbles because one leg joint has loosened, not because the floor is uneven (checked with the spirit level). "
      "The legs are held with corner brackets and hanger bolts. Tightened the nuts with a 13 mm spanner, but one bolt spins in the "
      "wood. Fix: take it out, fill the hole with wood glue and a few toothpicks, let it dry overnight and screw the bolt back in. If "
      "it still moves, buy a slightly thicker hanger bolt."),
    N("2026-02-04", "Book notes: High Output Management", ["books", "management"],
      "Andy Grove. A manager's output is the output of their team plus the teams they influence. Meetings are the medium of "
      "managerial work, so make them count. One-on-ones belong to the report, not the manager: they set the agenda, an hour, at "
      "least monthly.\n\n"
      "Task-relevant maturity decides how much to delegate: low maturity needs structure, high maturity only monitoring. Leverage: "
      "choose activities whose effect spreads widely, like training or a well-timed decision."),
    N("2026-02-07", "Physio exercises for the left knee", ["health", "running"],
      "The physio (Frau Albers, Mondays at 8) says the knee pain on longer runs is patellofemoral pain from weak hips, not damage. "
      "Exercises every second day: clamshells 3 x 15 with the green band, side-lying leg raises 3 x 12, single-leg glute bridges "
      "3 x 10, slow step-downs from the bottom stair 3 x 10. Ice for ten minutes after long runs. Cut the long run distance by 20% for "
      "two weeks, then build again. Next appointment February 23."),
    N("2026-02-09", "App idea: a grocery list that learns", ["ideas", "side-project"],
      "Idea for a side project: a shared grocery list that remembers what we buy and when. If we buy oat milk every five days, it "
      "suggests it on day four. Group items in the aisle order of our usual supermarket. Voice input in the kitchen. It could run "
      "entirely on the phone with a small model. Probably exists already, but building it would be a good way to learn SwiftUI "
      "properly. A weekend project, not a startup."),
    N("2026-02-12", "Sunday pancakes", ["cooking", "breakfast"],
      "The fluffy pancakes Ben likes. 200 g flour, 2 teaspoons baking powder, a pinch of salt, 1 tablespoon sugar, 1 egg, 250 ml "
      "buttermilk, 30 g melted butter. Do not overmix; lumps are fine. Rest for 10 minutes. Medium heat, a small ladle per pancake, "
      "flip when bubbles appear on top. Serve with blueberries and maple syrup. Double the recipe when his sister visits."),
    N("2026-02-15", "Copenhagen weekend with Ben", ["travel"],
      "Ben's birthday trip, April 10 to 12. Flying from BER on Friday at 18:05. Hotel in Nørrebro. Wishlist: the Louisiana museum "
      "(train to Humlebæk, 35 minutes), the Design Museum, cycling along the harbour on rented bikes, dinner at the small natural wine "
      "bar Ben read about. Saturday morning: Torvehallerne market for smørrebrød. The city card is probably not worth it for two "
      "days. Bring layers, it will be windy."),
    N("2026-02-18", "Blood test results", ["health"],
      "Annual check with Dr. Yilmaz. Everything normal except ferritin at 18 (low end) and vitamin D at 21 ng/ml, which explains some "
      "of the tiredness in January. Plan: an iron supplement every second day with orange juice, never with coffee, and vitamin D "
      "2,000 IU daily until April. Recheck ferritin in three months. Cholesterol fine, blood pressure 118/76."),
    N("2026-02-20", "Painting the hallway", ["home", "diy"],
      "The hallway walls are scuffed from the bikes. Measured two walls of 5.2 m x 2.7 m plus one short wall, roughly 35 square "
      "metres, so two coats need about 7 litres. Colour: a warm off-white, matt, with a washable finish.\n\n"
      "Shopping list: paint, a 25 cm roller, tray, an angled brush for the edges, painter's tape, drop sheets, filler for the two "
      "holes by the mirror. Plan a Saturday in March; move the bikes to the cellar first."),
    N("2026-02-22", "Book notes: Klara and the Sun", ["books", "fiction"],
      "Ishiguro again, gentle and sad. Klara, an 'Artificial Friend', watches the world from a shop window and later from Josie's "
      "house, and believes the Sun can heal people. The naive narration makes the adults look worse than they mean to be. Best scene: "
      "Klara's bargain with the Sun at the barn. The question it leaves me with: what does it mean to continue someone? A good book "
      "club pick for April."),
    N("2026-02-25", "Draught from the living room window", ["home", "repair"],
      "Cold draught from the left living room window. Candle test: the flame flickers along the top of the frame. The rubber seal has "
      "gone hard and cracked, so I bought a 6 m roll of self-adhesive D-profile seal. Clean the groove with alcohol first, press the "
      "new profile in without stretching it, overlap at the corners. If the window still does not close tight, the hinge can be "
      "adjusted with a 4 mm Allen key on the side, a quarter turn at a time."),
    N("2026-02-27", "Learning Portuguese", ["ideas", "languages"],
      "Since I am in Lisbon so often, time to learn European Portuguese properly, not just 'obrigada'. Duolingo teaches Brazilian "
      "Portuguese, so try Practice Portuguese instead. Plan: 15 minutes every morning, one online lesson a week on Thursday evening, "
      "and Portuguese radio on the way to work. Goal: order food and make small talk by the autumn. The pronunciation is the hard "
      "part, all those swallowed vowels."),
    N("2026-03-01", "Thai green curry", ["cooking", "recipe"],
      "Made with paste from the tin, but better with these tweaks. Fry 3 tablespoons of paste in the thick top of a can of coconut "
      "milk until the oil splits, then add sliced chicken thighs, the rest of the coconut milk, a handful of green beans, two kaffir "
      "lime leaves and a tablespoon of fish sauce. Simmer for 10 minutes. Finish with palm sugar, lime juice and lots of Thai basil.\n\n"
      "Jasmine rice: 1 cup rice, 1.25 cups water, 12 minutes, then rest for 10."),
    N("2026-03-03", "New running shoes", ["running"],
      "Tried on shoes at the running shop in Prenzlauer Berg. They filmed me on the treadmill: neutral gait, slight heel strike. Best "
      "fit: a cushioned daily trainer in 39.5, half a size up because feet swell on long runs, 150 euros. Keep the old pair for rainy "
      "days and the gym. Retire shoes at about 700 km and log the mileage in the running app."),
    N("2026-03-06", "Book notes: Thinking, Fast and Slow", ["books"],
      "Kahneman's two systems: fast, automatic intuition and slow, effortful reasoning. Anchoring: the first number we hear pulls "
      "every later estimate, so in negotiations put a number on the table early. The planning fallacy: we plan for the best case; "
      "use reference classes and look at how long comparable projects really took. Loss aversion: losses feel about twice as strong "
      "as gains, which is why customers hate price increases more than they like discounts."),
    N("2026-03-09", "Shakshuka", ["cooking", "recipe"],
      "One-pan dinner. Soften a diced onion and a red pepper in olive oil, add three garlic cloves, a teaspoon each of cumin and "
      "smoked paprika and a pinch of chilli. Add a tin of chopped tomatoes and simmer until thick, about 15 minutes. Make four wells, "
      "crack in the eggs, cover and cook on low until the whites set but the yolks still wobble, 6 to 8 minutes. Feta and parsley on "
      "top, crusty bread on the side."),
    N("2026-03-11", "Allergy season", ["health"],
      "Birch pollen starts mid-March in Berlin, and last year it knocked me out for three weeks. Start the antihistamine nasal spray a "
      "week before, around March 14. Keep the windows closed in the morning, wash hair before bed, dry laundry inside on peak days. "
      "The pollen app warns on high days; run in the evening after rain if possible. If the eyes get bad again, ask the pharmacy for "
      "the drops that worked last year."),
    N("2026-03-14", "Balcony herb garden", ["home", "garden"],
      "Plan for the balcony: basil, flat parsley, chives, thyme, rosemary and mint (mint in its own pot, otherwise it takes over). Sow "
      "basil and parsley on the windowsill in late March and move them out after the Ice Saints in mid-May. Buy a railing planter for "
      "the chives and thyme, and herb soil with sand for the Mediterranean ones. Water in the morning; the balcony gets full sun from "
      "noon. Last year the basil died in June because I watered at night."),
    N("2026-03-17", "Night train to Vienna", ["travel"],
      "For the long weekend in May: the night train from Berlin Hauptbahnhof to Vienna leaves at 19:40 and arrives at 7:00. Booked a "
      "private sleeper compartment for two with a shower, 180 euros one way. In Vienna: Naschmarkt, the Kunsthistorisches Museum, a "
      "Heuriger in Grinzing, coffee and cake at Café Sperl. Back by day train on Monday, eight hours, enough to read a whole book."),
    N("2026-03-20", "Book notes: An Elegant Puzzle", ["books", "management"],
      "Will Larson on engineering management. Team sizing: a manager supports six to eight engineers; teams smaller than four are "
      "fragile. When a team is drowning, add people before anything else, then consolidate efforts, then repay debt. Migrations are "
      "the only scalable fix for tech debt: derisk, enable, finish. Write down the 'why' of every process so that it can be removed "
      "later. A useful chapter on running a good interview loop."),
    N("2026-03-23", "Washing machine error E18", ["home", "repair"],
      "The washing machine stopped mid-cycle with E18, which for this brand means a drainage problem. Fix: unplug it, put a flat tray "
      "and towels under the small hatch at the bottom right, and unscrew the pump filter slowly, because a lot of water comes out. "
      "Found a hair tie and two coins. Cleaned the filter, screwed it back tight and ran an empty rinse cycle. Works again. Do this "
      "every three months before it happens again."),
    N("2026-03-26", "Standing desk and back pain", ["health", "work"],
      "My lower back hurts by Thursday every week. The physio suggested alternating sitting and standing, not standing all day. Desk "
      "heights: sitting 72 cm, standing 108 cm. Top of the monitor at eye level, an arm's length away. Timer: stand for the first 30 "
      "minutes of every hour and walk during phone calls. Hip flexor stretches at lunch and a proper walk around the block after."),
    N("2026-03-29", "Pasta e ceci", ["cooking", "recipe"],
      "Roman chickpea pasta, the best thing to make from the cupboard. Warm olive oil with two crushed garlic cloves, a sprig of "
      "rosemary and a few anchovies until they melt. Add a tablespoon of tomato paste, two tins of chickpeas with their liquid and "
      "700 ml stock. Simmer 15 minutes and blend a third of it for creaminess. Cook 200 g ditalini in the soup, adding water if "
      "needed. Black pepper, good oil and parmesan on top."),
    N("2026-04-02", "Book notes: The Hard Thing About Hard Things", ["books", "management"],
      "Ben Horowitz, mostly on being CEO when things go wrong. Tell it like it is; if you have to lay people off, do it yourself and "
      "quickly. Take care of the people, the products and the profits, in that order. Peacetime and wartime CEOs need different "
      "behaviours. Less relevant for a company of our size, but the advice on hiring executives for strength rather than for a lack "
      "of weakness is good."),
    N("2026-04-06", "Half marathon race report", ["running", "health"],
      "Ran the Berlin half yesterday in 1:58:41, under two hours! The first 10 km were too fast (5:25/km) because of the crowd, and I "
      "paid for it between km 15 and 18. The knee held up, so the physio exercises worked. Gels at km 7 and 14 were right. Next time: "
      "start further back and do more runs at race pace in training. Recovery: easy week, no running until Thursday, then short and "
      "slow."),
    N("2026-04-09", "Hanging shelves on plasterboard", ["home", "diy"],
      "The wall in the study is plasterboard, so normal plugs will not hold the bookshelf. Options: find the metal studs (the stud "
      "finder beeps roughly every 62.5 cm) and use self-drilling screws, or use metal cavity anchors rated for 25 kg each. Four "
      "anchors for the 80 cm shelf; books are heavy. Mark with painter's tape, drill 8 mm holes, set the anchors with the setting "
      "tool, then screw on the brackets. Check the level before the last turn."),
    N("2026-04-12", "Idea: a reading circle at work", ["ideas", "work"],
      "Start a monthly reading circle at work. One short book or three long articles a month, voted on in Slack. Forty-five minutes "
      "over lunch; the company pays for the books and the food. A rotating host writes three questions. First picks could be The Mom "
      "Test and An Elegant Puzzle. Keep it optional and small; if only four people come, that is fine."),
    N("2026-04-15", "Gazpacho", ["cooking", "recipe", "summer"],
      "For hot days. Blend 1 kg very ripe tomatoes, half a cucumber, one green pepper, a small garlic clove, a slice of stale white "
      "bread soaked in water, 80 ml olive oil, 2 tablespoons sherry vinegar and salt until completely smooth. Sieve it if you want it "
      "silky. Chill for at least three hours. Serve with finely diced cucumber, pepper and croutons on top. Even better the next day."),
    N("2026-04-18", "Mould in the bathroom corner", ["home", "repair"],
      "Black spots in the corner above the shower again, about the size of a hand. Cause: not enough airing after showers, and the "
      "fan is weak. Cleaned it with a chlorine-free mould spray, with gloves and a mask, left it for 15 minutes and wiped it off.\n\n"
      "From now on: squeegee the tiles after every shower, leave the door open, run the fan for 20 minutes. Mention the fan to the "
      "landlord; if the spots come back within a month, ask for an inspection."),
    N("2026-04-21", "Book notes: Range", ["books"],
      "David Epstein argues that generalists often beat specialists in 'wicked' learning environments, where feedback is slow and the "
      "rules change. Tiger Woods versus Roger Federer: early specialisation is the exception, not the rule. Sampling periods are "
      "valuable and late starters do fine. Analogies from other fields solve problems that experts miss. Relevant to hiring: do not "
      "over-weight an exact match of past experience."),
    N("2026-04-24", "Banana bread", ["cooking", "baking"],
      "Uses up the three black bananas. Mash them and mix with 75 g melted butter, 100 g brown sugar, 1 egg and a teaspoon of "
      "vanilla. Stir in 190 g flour, 1 teaspoon baking soda, a pinch of salt and a handful of chopped walnuts. Loaf tin, 175 °C for 55 "
      "to 60 minutes, until a skewer comes out clean. Let it cool before slicing or it crumbles. Take it to the office on Friday."),
    N("2026-04-27", "Idea: automatic plant watering", ["ideas", "side-project"],
      "Weekend electronics project: soil moisture sensors in the balcony pots, an ESP32 board and a small pump from the aquarium shop. "
      "When the moisture drops below a threshold, water for 10 seconds, at most twice a day. Log the readings to a tiny web page on "
      "the home network. Parts cost about 35 euros. Risk: flooding the neighbours' balcony below, so add a hard limit on pump time."),
    N("2026-04-30", "Sleep log, three months later", ["health", "sleep"],
      "Three months after the first sleep log. What helped most: the last coffee at 14:00 and no laptop in bed. Average sleep is now "
      "7 h 05 min. Late calls still ruin my sleep, so I moved them to before 18:00. The tracker's 'readiness score' is mostly noise; "
      "how I feel at 10 am is a better measure. Keep the bedroom cool and the phone charging in the hallway."),
    N("2026-05-02", "Packing list: Saxon Switzerland hike", ["travel", "hiking"],
      "Two days on the Malerweg with Ben in late May, staying at a guesthouse in Schmilka. Pack: broken-in boots, two pairs of wool "
      "socks, rain jacket, fleece, sun hat, sunscreen, a 25-litre rucksack, 2 litres of water each, sandwiches and nuts, the paper map "
      "(the phone signal is patchy in the valleys), plasters for blisters and a headlamp. Train from Berlin to Bad Schandau via "
      "Dresden, then the ferry across the Elbe. Book the guesthouse early, it is small."),
    N("2026-05-05", "Lemon risotto", ["cooking", "recipe"],
      "Bright spring risotto. Sweat a shallot in butter, add 300 g carnaroli and toast it until the edges go translucent. A glass of "
      "white wine, then hot vegetable stock a ladle at a time, stirring, for about 18 minutes. Off the heat: the zest of two lemons, "
      "the juice of one, 50 g butter and a big handful of parmesan. Let it rest for two minutes with the lid on. Add peas or "
      "asparagus tips if the market has them."),
    N("2026-05-08", "Book notes: Deep Work", ["books", "productivity"],
      "Cal Newport. Deep work is focused, cognitively demanding work without distraction; shallow work is everything logistical. The "
      "ability to do deep work is becoming rare and valuable at the same time. Rituals: a fixed place, a fixed time and clear rules "
      "(no email until noon). Schedule every minute of the day and re-plan when it breaks. Embrace boredom: do not reach for the phone "
      "in every queue."),
    N("2026-05-10", "Bike chain keeps slipping", ["home", "bike", "repair"],
      "The chain skips on the smaller rear cogs under load. Measured the wear with the gauge: 0.75%, so the chain is worn out and "
      "probably the cassette too after 4,000 km. Ordered a new 9-speed chain and an 11-32 cassette. Need the chain tool, the lockring "
      "tool and a chain whip (borrow them from Ben's brother). After fitting, adjust the barrel adjuster half a turn at a time until "
      "the shifting is clean."),
    N("2026-05-13", "Apple and rhubarb crumble", ["cooking", "baking"],
      "Filling: 800 g apples, or half apples and half rhubarb, cut in chunks, with 2 tablespoons sugar, cinnamon and lemon juice. "
      "Topping: 150 g flour and 100 g cold butter rubbed together until sandy, then 80 g demerara sugar and 50 g oats. Scatter over the "
      "fruit in an ovenproof dish. 180 °C for 40 minutes, until the juice bubbles at the edges. Serve with custard or vanilla ice "
      "cream."),
    N("2026-05-16", "Idea: one photo book per year", ["ideas", "family"],
      "Instead of 12,000 photos nobody looks at, make one photo book a year. Each month, star the best five photos in a shared album. "
      "In December, pick 60, arrange them by month and add short captions with the place and who was there. Order from the printer "
      "that did the wedding album; the lay-flat pages were worth the extra money. Start with 2026 and maybe catch up on older years "
      "later."),
    N("2026-05-19", "Eye test", ["health"],
      "Optician on Schönhauser Allee: right eye -1.25, left -1.0, slight astigmatism on the right. The screen work explains the "
      "afternoon headaches. New glasses for the computer and for distance, with a blue-light coating (probably marketing, but it was "
      "included anyway). Ready in two weeks. The 20-20-20 rule: every 20 minutes, look at something 20 feet away for 20 seconds."),
    N("2026-05-22", "Book notes: Project Hail Mary", ["books", "fiction"],
      "Andy Weir's best since The Martian. A science teacher wakes up alone on a spaceship with no memory and has to work out why he "
      "is there and how to save Earth from a microbe that eats the sun's energy. The friendship with Rocky, the alien engineer who "
      "speaks in musical notes, is the heart of it. Lots of problem solving explained step by step, which I love. Recommended to Ben "
      "for the train to Vienna."),
    N("2026-05-25", "Replacing the hallway light switch", ["home", "electrical"],
      "The hallway switch crackles and sometimes does not switch. Replacement: same brand and frame size, a simple on/off rocker. Turn "
      "off the circuit at the fuse box (fuse 7, labelled 'Flur'), check with the voltage tester that it is dead and photograph the "
      "wiring before disconnecting anything. Two wires, live and switched live. If there is a third wire or anything looks burned, "
      "stop and call an electrician. Buy a spare for the bedroom, it is the same model."),
    N("2026-05-28", "Walnut pesto", ["cooking", "recipe"],
      "Cheaper than pine nuts and just as good. Toast 50 g walnuts in a dry pan. Blend with a big bunch of basil from the balcony "
      "(about 60 g of leaves), one garlic clove, 40 g parmesan, a squeeze of lemon and 100 ml olive oil. Salt to taste. Cover with a "
      "layer of oil in the jar and keep it in the fridge for a week, or freeze it in an ice cube tray. Great on gnocchi."),
    N("2026-05-31", "Idea: volunteering at the food bank", ["ideas", "community"],
      "The food bank in our district needs drivers and sorters on Saturday mornings. Sign up for two Saturdays a month, 8 to 12, "
      "sorting fruit and vegetables. They need a health certificate from the district office first (a short online course plus a "
      "form). Maybe ask friends whether they want to come along, it is more fun in a group, and they always need more hands in "
      "December."),
    N("2026-06-03", "Book notes: Educated", ["books", "memoir"],
      "Tara Westover's memoir of growing up in a survivalist family in Idaho, never going to school, and ending up with a PhD from "
      "Cambridge. Hard to read in places: the brother's violence and the family's denial. What stays with me is how memory itself "
      "becomes contested; she shows in footnotes where her account differs from her siblings'. A book about the price of education "
      "when it separates you from the people who raised you."),
    N("2026-06-06", "Chili for a crowd", ["cooking", "recipe"],
      "For the garden barbecue on June 20, serves 12. Brown 1.5 kg beef mince in batches and set aside. Soften 3 onions, 4 peppers and "
      "6 garlic cloves, add 3 tablespoons cumin, 2 of smoked paprika and 2 dried ancho chillies, soaked and blended. Add the meat, 3 "
      "tins of tomatoes, 3 tins of kidney beans, a square of dark chocolate and a shot of coffee. Simmer two hours on low.\n\n"
      "Make a vegan pot with black beans and sweet potato as well. Serve with rice, sour cream and lime."),
    N("2026-06-09", "Two days in Porto", ["travel"],
      "Extending the Lisbon trip in October with two days in Porto. Train from Santa Apolónia, about 3 hours; book the Alfa Pendular a "
      "few weeks ahead. Stay in Ribeira or Cedofeita. Must do: the port cellars in Vila Nova de Gaia (the tours need booking), the "
      "Livraria Lello early or skip it, a francesinha at Café Santiago, sunset at the Jardim do Morro. Walk across the top deck of "
      "the Dom Luís bridge."),
    N("2026-06-12", "Vitamin D and running", ["health", "running"],
      "Re-tested vitamin D: 34 ng/ml, up from 21 in February. Ferritin 31. The doctor says stop the daily vitamin D over the summer "
      "and restart in October at 1,000 IU. Running feels easier and the resting heart rate is down to 56. Keep taking the iron every "
      "second day until the next test in September."),
    N("2026-06-15", "Clogged balcony drain", ["home", "repair"],
      "Water stands on the balcony after every rain. The drain is clogged with leaves and soil from the herb pots. Removed the grate, "
      "pulled out the muck by hand (gloves!) and flushed it with a bucket of hot water. Still slow, so I used a plumbing snake from the "
      "hardware store, about 1.5 m down the pipe. Flows now. Put a mesh cover over the drain and keep the pots on saucers."),
    N("2026-06-18", "Book notes: The Overstory", ["books", "fiction"],
      "Richard Powers: nine people whose lives are shaped by trees, converging on the fight to save the old-growth forests of the "
      "Pacific Northwest. Long and sometimes preachy, but the first part, the short stories of each character, is brilliant: the "
      "chestnut photographs across generations, the scientist who discovers that trees communicate. It made me look at the plane "
      "trees on our street differently."),
    N("2026-06-21", "Idea: board game night", ["ideas", "friends"],
      "A monthly board game night at our place, on the first Friday of the month. Games that work for six: Codenames, Wingspan (slow "
      "but beautiful), The Crew, and Azul for four. Everyone brings one snack. Start at 19:30, stop at midnight. Invite Anna and Tobi, "
      "Sophie and Matthias from the climbing gym, and my brother if he is in town."),
    N("2026-06-24", "Cold brew coffee", ["cooking", "drinks"],
      "Cold brew for hot afternoons. 100 g coarsely ground coffee and 1 litre of cold water in the big jar. Stir, cover and leave in "
      "the fridge for 16 hours. Strain through a paper filter, twice if it is cloudy. Keeps for a week. Dilute 1:1 with water or milk "
      "over ice. The light roast from the roastery on Zionskirchplatz tastes fruity; the dark one tastes like chocolate."),
    N("2026-06-27", "Baltic cabin on Usedom", ["travel", "summer"],
      "Booked a cabin in Ückeritz for August 8 to 15, five minutes' walk to the beach through the pine forest. Getting there: regional "
      "train to Züssow, then the island railway to Ückeritz, about 3.5 hours. Take the bikes; the coastal path to Ahlbeck is flat and "
      "beautiful. Ideas: smoked fish in Koserow, the pier in Heringsdorf, an evening on the lagoon side for the sunset. Pack the "
      "beach tent, the sun is strong."),
    N("2026-06-30", "Book notes: Atomic Habits", ["books", "habits"],
      "James Clear. Small habits compound. Make it obvious, attractive, easy and satisfying. Habit stacking: 'after I pour my morning "
      "coffee, I will write three lines in my journal'. Design the environment: put the running shoes by the door. Identity-based "
      "habits: 'I am a runner' instead of 'I want to run a half marathon'. Never miss twice. The two-minute rule: scale a habit down "
      "until it takes two minutes to start."),
    N("2026-07-03", "Roasted cauliflower with tahini", ["cooking", "recipe"],
      "Cut a cauliflower into florets, toss with olive oil, cumin and salt, and roast at 220 °C for 25 minutes until the edges are "
      "dark. Tahini sauce: 3 tablespoons tahini, the juice of a lemon, a small grated garlic clove, salt, and cold water until it is "
      "pourable. Pour over the warm cauliflower and scatter pomegranate seeds, parsley and toasted almonds on top. Good as a side or "
      "with flatbread as dinner."),
    N("2026-07-06", "Smoke detector chirping", ["home", "safety"],
      "The smoke detector in the bedroom chirps every 40 seconds, always at 3 am. Low battery. It has a sealed 10-year battery and was "
      "installed in 2016, so the whole unit has to be replaced, not just the battery. Bought two new ones with 10-year batteries and "
      "the same base size. Press the test button monthly. Tell the landlord, who is technically responsible for the detectors in a "
      "rented flat."),
    N("2026-07-09", "Idea: writing about running a small company", ["ideas", "writing"],
      "Thinking about short posts on how we run a company of our size: expense rules, hiring loops, planning offsites, moving offices. "
      "One post a month, 800 words, no pressure to polish. Publish on a personal site, not the company blog. Working titles: 'What we "
      "learned moving offices' and 'Writing a travel policy people actually read'. Check first what is off limits."),
    N("2026-07-12", "Hamburg weekend with my parents", ["travel", "family"],
      "My parents want to see Hamburg in September. Plan for the weekend of September 12-13: the Elbphilharmonie plaza (free, but book "
      "a time slot), a harbour ferry on line 62 instead of an expensive tour, the Speicherstadt, and Miniatur Wunderland on Sunday "
      "morning (book tickets, it is always full). Hotel near Dammtor station so that Dad does not have to walk far. Fischbrötchen at "
      "the Landungsbrücken."),
    N("2026-07-15", "Stretching after runs", ["health", "running"],
      "Ten minutes after every run, while the muscles are warm: calf stretch against the wall (30 seconds each side, straight and bent "
      "knee), standing quad stretch, hamstring stretch on a bench, pigeon pose for the hips, a hip flexor lunge and child's pose at "
      "the end. Foam roll the IT band and calves twice a week. Since I started, the knee has not complained once."),
    N("2026-07-18", "Book notes: Sapiens", ["books"],
      "Harari's big history. The cognitive revolution: Homo sapiens prevailed because we can believe in shared fictions (gods, "
      "nations, money, companies) and so cooperate in large numbers. The agricultural revolution as history's biggest fraud: more "
      "food, but harder lives for most people. Money as the most universal system of mutual trust. Entertaining, but historians say "
      "it simplifies a lot, so read it with a pinch of salt."),
    N("2026-07-21", "Repotting the monstera", ["home", "plants"],
      "The monstera has roots coming out of the bottom of the pot. Repot in late summer, one size up (from 24 to 30 cm), in a chunky "
      "mix of potting soil, orchid bark and perlite, roughly 2:1:1. Water the day before so the root ball slides out, and loosen the "
      "circling roots gently. Put the moss pole in before the soil. No fertiliser for a month after repotting, and keep it out of the "
      "direct afternoon sun."),
    N("2026-07-24", "Notes on negotiation", ["work", "notes"],
      "From a workshop and re-reading Never Split the Difference. Know your walk-away point and guess theirs. Labelling: 'It sounds "
      "like the timeline is your main worry.' Calibrated questions start with how or what: 'How am I supposed to do that?' Let them "
      "make the first offer on things you know little about; anchor first where you know the market well. Trade, never give: every "
      "concession gets something in return. Silence is a tool."),
    N("2026-07-27", "Oma's plum cake", ["cooking", "baking", "family"],
      "Pflaumenkuchen the way Oma made it, with yeast dough, not sponge. Dough: 400 g flour, 21 g fresh yeast, 60 g sugar, 200 ml "
      "lukewarm milk, 60 g soft butter, 1 egg and a pinch of salt; knead for 10 minutes and let it rise for an hour, then roll it onto "
      "the tray. 1.5 kg Zwetschgen, halved and stoned, packed tightly standing up. Streusel: 150 g flour, 100 g butter, 100 g sugar, "
      "cinnamon. 200 °C for 30 minutes. Whipped cream, obviously."),
    N("2026-07-30", "Scotland in late September?", ["travel", "ideas"],
      "Idea for the autumn break: a week in the Highlands. Fly to Edinburgh, two nights there, then rent a car and drive to Glencoe and "
      "Skye (the Quiraing walk, the Fairy Pools early before the buses) and back through the Cairngorms. The single-track roads take "
      "longer than the maps say. The midges are mostly gone by late September. Book Skye accommodation early, there is not much of "
      "it. Rain gear is not optional."),
    N("2026-08-02", "Book notes: The Midnight Library", ["books", "fiction"],
      "Matt Haig. A woman gets to try every life she could have lived, in a library between life and death. Predictable but warm. The "
      "point: the lives we regret not living would not have been perfect either, and the one we have holds more possibility than it "
      "seems. A quick read on the beach in Ückeritz."),
    N("2026-08-05", "Descaling kettle and shower head", ["home", "cleaning"],
      "Berlin water is hard. Kettle: fill it halfway with water and two tablespoons of citric acid, boil, leave for an hour and rinse "
      "twice. Shower head: unscrew it, soak it in warm water with citric acid for two hours and brush the nozzles with an old "
      "toothbrush. Do not use vinegar on the chrome, it dulls it. Every two months; put it in the calendar."),
    N("2026-08-08", "Pottery class in the autumn", ["ideas", "hobbies"],
      "The Tuesday evening wheel-throwing course at the ceramics studio in Weißensee: eight evenings from October 6, 290 euros "
      "including clay and two firings. Mum loved the course we did for her birthday, so I want to continue. Wear old clothes and keep "
      "the nails short. Goal: a set of four bowls that match, more or less."),
    N("2026-08-11", "Meditation habit", ["health", "habits"],
      "Ten minutes every morning before coffee, with the app's basic course. On days one to ten the mind wandered constantly, which is "
      "the point: notice and come back. It helped most on days with hard conversations ahead. Do not meditate in bed, I fall asleep. "
      "If I miss a day, do three minutes instead of skipping entirely."),
    N("2026-08-14", "Camping in Brandenburg", ["travel", "camping"],
      "Two nights at a lake campsite near Lychen with the tent, at the end of August. Check: tent poles complete (one was bent last "
      "year), sleeping mats, the small gas stove and a spare cartridge, a pot, headlamps, mosquito spray, swimwear. Regional train to "
      "Fürstenberg, then 12 km by bike. The campsite takes no reservations for tents, so arrive before noon on Friday."),
    N("2026-08-17", "Notes from a pricing webinar", ["work", "notes"],
      "A webinar by a SaaS pricing consultant. The value metric matters more than the price level: charge for the thing that grows "
      "with the customer's success. Three tiers, with the middle one designed as the default; the top tier makes the middle look "
      "reasonable. Annual plans at a 15-20% discount improve cash flow. Raise prices for new customers first and for existing ones "
      "later, with notice. Publish your prices; hidden pricing hurts small customers."),
    N("2026-08-20", "Sorting the bookshelf", ["home", "books"],
      "Too many books for the shelves. Rule: keep what I would reread or lend, give away the rest. The open bookcase at the corner of "
      "Kastanienallee takes paperbacks; the charity shop takes hardbacks in good condition. Management books I read once go to the "
      "office library, where they might actually get read. Keep all the cookbooks, obviously, and the travel guides for places we "
      "still want to go."),
    N("2026-08-23", "Gnocchi from scratch", ["cooking", "recipe"],
      "1 kg floury potatoes baked in their skins (baking keeps them dry), peeled and riced while hot. Cool them for ten minutes, then "
      "add 250 g flour, an egg yolk and salt, and bring it together gently without kneading. Roll into ropes, cut into 2 cm pieces and "
      "roll them over a fork. Cook in batches in salted water; they are done a minute after they float. Brown butter with sage, or the "
      "walnut pesto from the freezer."),
    N("2026-08-26", "Book notes: Thinking in Bets", ["books"],
      "Annie Duke. Judge decisions by the process, not the outcome ('resulting'): a good decision can lead to a bad result through "
      "luck. Express beliefs as probabilities; 'I'm 70% sure' invites correction. Find a group that holds you to truth-seeking. "
      "Pre-mortems: imagine the project failed and ask why. Useful for post-mortems at work, to separate bad luck from bad calls."),
    N("2026-08-29", "Autumn health plan", ["health"],
      "Get the flu shot in October at the GP; the practice has walk-in mornings on Wednesdays. Restart vitamin D in October. Keep "
      "running three times a week even in the dark (reflective vest, headlamp), swim once a week at the Stadtbad when it gets cold, "
      "and go to bed early in November when the calendar is full."),
    N("2026-09-01", "Quarterly money check", ["ideas", "money"],
      "Four times a year, one hour on a Sunday: check the savings rate (goal 20%), rebalance the ETF savings plan if it drifts more "
      "than 5% from 70/30, review subscriptions and cancel the ones not used in three months (the language app and one streaming "
      "service are candidates), and top up the emergency fund to four months of expenses."),
    N("2026-09-04", "Amsterdam tips from Anna", ["travel"],
      "Anna lived in Amsterdam for years; her tips for the November trip: stay in De Pijp, not the centre. The Albert Cuyp market for "
      "stroopwafels, the Rijksmuseum on a weekday morning, skip the beer brewery tour. Eat rijsttafel at a Surinamese-Indonesian place, "
      "walk the Jordaan canals at dusk and take the free ferry to Noord for the Eye museum and NDSM. Rent bikes but watch the tram "
      "rails."),
    N("2026-09-07", "Book notes: Radical Candor", ["books", "management"],
      "Kim Scott: care personally and challenge directly. Ruinous empathy, staying silent to be nice, is the most common failure. Ask "
      "for criticism before giving it, and get good at receiving it first. Praise in public, criticise in private, and be specific "
      "and sincere. The quadrant sketch helps when I prepare difficult feedback: is this obnoxious aggression, or am I just being "
      "clear?"),
    N("2026-09-10", "Regrouting the kitchen tiles", ["home", "repair"],
      "The grout behind the kitchen sink is cracked and discoloured. Rake out the old grout with a grout saw to 2-3 mm depth, vacuum "
      "the dust, and work in new flexible grout (grey, to match) with a rubber float diagonally across the joints. Wipe with a damp "
      "sponge after 15 minutes and polish off the haze the next day. Seal the joint between worktop and tiles with silicone, not "
      "grout."),
    N("2026-09-13", "Pumpkin and ginger soup", ["cooking", "recipe"],
      "Roast a Hokkaido pumpkin in wedges (skin on, it softens) with an onion at 200 °C for 30 minutes. Blend with 800 ml stock, a "
      "thumb of fresh ginger, a tin of coconut milk, salt and lime juice. Top with toasted pumpkin seeds, chilli oil and coriander. "
      "Makes four big bowls and freezes well."),
    N("2026-09-16", "Kraków weekend", ["travel"],
      "The direct train from Berlin to Kraków takes about 8 hours, or fly. Stay near Kazimierz. The Main Square and the Cloth Hall, "
      "Wawel Castle, the Schindler factory museum (book ahead) and the Kazimierz cafés at night. Day trip to the Wieliczka salt mine; "
      "the tourist route is about 3 hours underground, so take a jacket. Pierogi at a milk bar for a cheap lunch."),
    N("2026-11-02", "Notes: running better one-on-ones", ["work", "management"],
      "My own rules after a year of regular 1:1s. Their agenda first, mine last. Walk when possible; people say more side by side. Ask "
      "'What is the one thing I could do to make your work easier?' every time. Keep a shared doc with notes and follow-ups. Never "
      "cancel; move it if needed. Career conversations at least twice a year, separate from status updates."),
    N("2026-11-06", "Book notes: The Culture Map", ["books", "work"],
      "Erin Meyer's eight scales: communicating (low or high context), evaluating (direct or indirect negative feedback), persuading, "
      "leading, deciding, trusting, disagreeing and scheduling. Germans and Dutch give direct negative feedback; many other cultures "
      "soften it. Useful for a team across two countries: some colleagues expect more relationship time before trusting, and 'that is "
      "interesting' may mean no."),
    N("2026-11-10", "Idea: long Sunday walks in winter", ["ideas", "health"],
      "Instead of long runs in winter, long Sunday walks of 15 to 20 km around Berlin. Route ideas: the Mauerweg from Staaken to "
      "Spandau, Grunewald from Nikolassee to Teufelsberg, the Müggelberge hills, the Tegeler Fließ valley. A thermos of tea and a "
      "sandwich, and always end at a place with cake."),
    N("2026-11-14", "Broken kitchen drawer runner", ["home", "repair"],
      "The cutlery drawer drops on one side because the plastic roller on the left runner cracked. The runners are a common brand, so "
      "the roller is available as a spare part; take the old one to the hardware store to match it. Remove the drawer by pulling it "
      "fully out and lifting the front. Until then, do not overload it with the heavy pans."),
    N("2026-11-18", "Homemade granola", ["cooking", "breakfast"],
      "Cheaper and less sweet than the shop one. Mix 400 g oats, 100 g chopped almonds, 50 g sunflower seeds, 50 g pumpkin seeds, a "
      "pinch of salt and cinnamon. Warm 80 ml olive oil with 100 ml maple syrup and pour it over. Spread on two trays and bake at "
      "160 °C for 25 minutes, stirring halfway. Add raisins and dried apricots after baking, not before. Keeps a month in jars."),
    N("2026-11-22", "Book notes: The Making of a Manager", ["books", "management"],
      "Julie Zhuo. Management is about outcomes through people: purpose, people, process. The first three months are the hardest, and "
      "asking for help is a strength. Good meetings have a clear purpose and the right people, and end with decisions written down. "
      "Hiring is the most important thing a manager does. I liked her point that feedback should be about the task, not the person, "
      "and frequent enough that no review is a surprise."),
    N("2026-11-26", "Fixing a running toilet", ["home", "repair"],
      "The toilet keeps running for minutes after flushing: the flush valve seal in the concealed cistern is worn and lets water "
      "trickle into the bowl. Remove the flush plate (pull from the bottom), then the plastic frame. Turn off the small valve inside, "
      "lift out the flush valve, replace the rubber seal (bring the old one to match) and clean the limescale from the seat. 8 euros "
      "and half an hour instead of a plumber."),
    N("2026-12-01", "Idea: a cooking club with friends", ["ideas", "friends"],
      "Once a month, four couples each cook one course on a theme: Portuguese in January (bacalhau!), Georgian in February, Sicilian "
      "in March. The host rotates and does the main course; the others bring a starter, a side and dessert. Keep the budget low and "
      "write down the recipes that work in a shared folder."),
    N("2026-12-05", "Winter running", ["running", "health"],
      "Gear for running in the dark and the cold: thermal tights, a long-sleeve base layer, a light wind jacket, gloves, a headband, a "
      "reflective vest and a headlamp with at least 300 lumens for the park. Dress as if it were 10 degrees warmer than it is. On icy "
      "days, use the treadmill or run slowly on the cleared main streets. Keep one easy run a week with Ben."),
    N("2026-12-10", "Book notes: Designing Your Life", ["books"],
      "Burnett and Evans apply design thinking to careers. The good time journal: track energy and engagement for three weeks and "
      "notice what lifts or drains you. Odyssey plans: sketch three different five-year lives (the current path, the one if that path "
      "disappeared, and the one if money and opinions did not matter). Prototype with conversations before big moves. Gravity "
      "problems, things you cannot change, are not problems to solve."),
]


# Tenth fresh questions, split "fresh10", ids w-001...: written the same way (by a helper that read only the
# records), after the cues from FRESH9's failures and the rule that a name the store never mentions lowers every
# hit's relevance. With them, the first unanswerable questions of a fresh split (UNANSWERABLE10, ids x-001...):
# (query, kind, guard words, why), 12 "general", 12 "absent" (about something the records never mention: no
# record holds a guard word) and 12 "missing-fact" (a topic the records touch, a fact none gives: `why` says which
# records and what they lack).
# Blind test set for the planner search (meetings m-001..m-100, notes n-001..n-100).
# FRESH10: (meeting_number, field_code, query, answer, style)
FRESH10 = [
    # --- Attendees ---
    (5, "A", "who from Redline was on the january scoping call", "Kasia Nowak", "named"),
    (14, "A", "who is our account manager at cloudnest", "Pieter de Vries", "content"),
    (10, "A", "name of the agent for the Ohlauer Straße landlord", "Karl Becker", "content"),
    (25, "A", "Which Northwind people came to the Q1 board meeting?", "Henrik Dahl and Sofia Lindqvist", "named"),
    (48, "A", "who was the architect doing the new office layout?", "Anja Richter", "content"),
    (61, "A", "who came along from yoga loft to the substitution beta kickoff besides hanna", "two Yoga Loft instructors", "named"),
    (27, "A", "name of the lawyer who helped us with the office lease", "Eva Novak", "content"),
    (91, "A", "who represented studio nord on the customer advisory board", "Mehmet Aydin", "named"),
    (66, "A", "who did sam and priya interview at urban sports club in august", "Lea Sommer", "named"),
    (40, "A", "brightclean contact person", "Dana Weiss", "content"),
    (1, "A", "How many people were at the 2026 kickoff all-hands?", "41 people", "named"),
    (79, "A", "how many engineers were in the room when berlin and lisbon planned Q4 together", "22 people", "content"),
    # --- Purpose ---
    (3, "P", "what did priya and i want to talk about in our january 1:1", "headcount", "named"),
    (11, "P", "Factory Görlitzer Park viewing - what were we trying to find out?", "shared campus", "named"),
    (18, "P", "what was the new helpdesk tool supposed to replace?", "shared support inbox", "content"),
    (33, "P", "what did we need to confirm with redline's testers on the first day of the pentest", "rules of engagement", "named"),
    (46, "P", "main topic of the Q2 board prep", "launch delay", "named"),
    (65, "P", "what were we deciding at the SOC 2 readiness meeting in august", "Type I this year", "named"),
    (50, "P", "what kind of meeting did we hold after studio nord's check-in went down", "Post-mortem", "named"),
    (80, "P", "what was felix's churn deep dive meant to figure out", "why small studios cancel", "named"),
    (87, "P", "what problems were we looking at on older android phones", "startup time and jank", "content"),
    (94, "P", "besides closing the office over the holidays, what else did we have to sort out for year end", "support cover", "content"),
    (54, "P", "what were we handing over to hannah when she started as PM", "web dashboard roadmap", "content"),
    (88, "P", "how big was engineering getting when we talked about adding engineering managers", "past 25", "content"),
    # --- Outcomes ---
    (2, "O", "did we go for a flutter rewrite of the app", "Flutter rewrite rejected", "content"),
    (4, "O", "How much did marketing's events budget get cut by?", "60k to 35k", "content"),
    (8, "O", "root cause of the FitHaus double charges", "retry in the Payvia webhook handler", "named"),
    (20, "O", "what did gut rehwiese cost us for the three days", "36,400 euros", "content"),
    (21, "O", "how many laptops were still without disk encryption", "Three laptops", "content"),
    (36, "O", "What was the high finding at the pentest readout?", "leaked other members' first names", "named"),
    (42, "O", "what tagline did we pick for the app launch", "Book in two taps", "content"),
    (56, "O", "paying studios at the mid-year review", "484", "named"),
    (60, "O", "how many downloads did v2 get on launch day", "3,900", "named"),
    (73, "O", "which hotel did the lisbon team stay at during their berlin week", "Michelberger", "content"),
    (84, "O", "what salary did we offer sven", "at 60k", "content"),
    (96, "O", "what valuation are we going for in the series a", "40 million", "content"),
    # --- Action items ---
    (9, "X", "what did fatima have to do after the v2 design review", "top ten support complaints", "named"),
    (7, "X", "who was on the hook for booking the office viewings", "Oskar: book viewings", "content"),
    (13, "X", "deadline for sending amir his offer", "by February 13", "content"),
    (15, "X", "remind me what I had to write for the Q1 board prep", "one-page memo", "named"),
    (19, "X", "What was Clara's task after the March 2 v2 status meeting?", "Apple Pay sandbox", "named"),
    (26, "X", "what did felix need to fix after the zendesk check-in", "CSAT report", "named"),
    (28, "X", "who was setting up amir's laptop and accounts", "Miguel: set up his accounts", "content"),
    (34, "X", "was anyone going to write to the PM candidate who didn't get the job", "personal note", "content"),
    (43, "X", "what did sam have to write up for me after our may 1:1", "three objections", "named"),
    (45, "X", "where were the lisbon QA job ads posted", "Landing.jobs", "content"),
    (71, "X", "which job board did the junior security engineer role go on", "Berlin Startup Jobs", "content"),
    (75, "X", "which review tools was lena choosing between?", "Leapsome or Lattice", "content"),
    # --- Location ---
    (100, "L", "where was the year-end all-hands", "Radialsystem", "named"),
    (17, "L", "where did jonas and I do our february 1:1", "Weinbergspark", "named"),
    (51, "L", "where did I meet ravi for his 1:1 in june", "Spree", "named"),
    (58, "L", "Where did Priya and I have our July check-in?", "Tiergarten", "named"),
    (38, "L", "offsite strategy session, where was it held", "barn at Gut Rehwiese", "named"),
    (16, "L", "where's pixelwerk's studio", "Friedrichshain", "content"),
    (22, "L", "where did we meet the yoga loft owner in hamburg", "Ottensen", "named"),
    (77, "L", "fithaus head office is where again?", "Potsdam", "content"),
    (85, "L", "where did the october leadership half-day take place", "Hotel Oderberger", "named"),
    (35, "L", "career chat with fatima - which cafe", "Café Lindner", "named"),
    (74, "L", "which room was the partner API design review in", "Müggelsee room", "named"),
    (78, "L", "room for the september board meeting?", "Wannsee room", "named"),
]

# UNANSWERABLE10: (query, kind, guard_terms, why)
UNANSWERABLE10 = [
    # --- general ---
    ("what is the capital of australia", "general", ["Australia", "Canberra"], ""),
    ("convert 350 fahrenheit to celsius", "general", ["Fahrenheit"], ""),
    ("Who wrote Pride and Prejudice?", "general", ["Pride and Prejudice", "Austen"], ""),
    ("how to get a red wine stain out of a carpet", "general", ["carpet", "stain"], ""),
    ("when do the clocks change for daylight saving", "general", ["daylight saving", "clocks change"], ""),
    ("how do you tie a windsor knot", "general", ["Windsor knot", "necktie"], ""),
    ("boiling point of water at high altitude", "general", ["boiling point", "altitude"], ""),
    ("How many calories are in an avocado?", "general", ["avocado", "calories"], ""),
    ("population of tokyo", "general", ["Tokyo", "population"], ""),
    ("when was the berlin wall built", "general", ["Berlin Wall", "1961"], ""),
    ("how long do you boil an egg for a runny yolk", "general", ["boil an egg", "runny"], ""),
    ("deadline for filing the german income tax return", "general", ["tax return", "income tax"], ""),
    # --- absent ---
    ("when is the next GDPR training", "absent", ["GDPR", "data protection"], ""),
    ("who is our contact at HubSpot", "absent", ["HubSpot"], ""),
    ("what did we decide about opening an office in munich", "absent", ["Munich", "München"], ""),
    ("parental leave policy", "absent", ["parental leave", "maternity"], ""),
    ("Where is the Christmas party this year?", "absent", ["Christmas"], ""),
    ("when is the company hackathon", "absent", ["hackathon"], ""),
    ("did we end up signing with salesforce", "absent", ["Salesforce"], ""),
    ("which macbook model do new hires get", "absent", ["MacBook"], ""),
    ("who is leading the ISO 27001 certification", "absent", ["ISO 27001"], ""),
    ("employee stock options vesting schedule", "absent", ["stock option", "ESOP", "vesting"], ""),
    ("what did we learn from the Gymondo partnership call", "absent", ["Gymondo"], ""),
    ("status of the mindbody integration", "absent", ["Mindbody"], ""),
    # --- missing-fact ---
    ("how much is the TalentBridge agency charging us", "missing-fact", [],
     "Only m-006 mentions TalentBridge: the agency is to be tried for six weeks and Lena signs the contract, but no fee or percentage is ever given."),
    ("what did the YubiKeys cost", "missing-fact", [],
     "Only m-021 mentions YubiKeys (Daniel orders 50 of them for the admin-account key requirement); no price or total cost is recorded anywhere."),
    ("hannah vogt salary offer", "missing-fact", [],
     "m-034 records that Hannah Vogt gets the PM offer with a June 1 start; m-054, m-058, m-077 and m-091 mention her work. None gives her salary or the offer amount (unlike Amir's 78k in m-013 or Sven's 60k in m-084)."),
    ("How much did Pixelwerk charge for the new website?", "missing-fact", [],
     "m-016 (kickoff: Webflow, launch target, pricing page) and m-030 (staging review, go-live moved to April 27) are the only Pixelwerk records; neither states the agency's price or budget."),
    ("which other moving companies quoted besides zapf", "missing-fact", [],
     "m-027 has Oskar getting quotes from three moving companies and m-063 records choosing Zapf Umzüge at 14,200 euros; the other two companies and their prices are never named."),
    ("rent per square metre at lohmühlenstraße", "missing-fact", [],
     "Lohmühlenstraße appears only in m-007 (on the shortlist, budget up to 28 euros/m²) and m-027 (the option we did not choose); unlike Ohlauer Straße (26 euros, m-010) and Factory (34 euros, m-011), no rent or viewing for it is recorded."),
    ("how many leads did we get at the boutique fitness summit in amsterdam", "missing-fact", [],
     "m-072 decides to attend the Boutique Fitness Summit in Amsterdam in November and Sam sets up meetings there; no later record reports its results (m-089 gives lead numbers only for the Yoga Conference in Cologne; n-086 is a personal Amsterdam trip)."),
    ("which fund is leading our series A", "missing-fact", [],
     "The Series A appears in m-078 (board supports raising, Sofia offers intros), m-085 (8 million target), m-090, m-096 (valuation, deck and process dates, Henrik to list ten funds) and m-098 (process may start in January); no lead investor or fund is ever named."),
    ("what does the Heden coworking space in Lisbon cost per month", "missing-fact", [],
     "Only m-023 mentions Heden (moving to a coworking floor in Santos from May, Miguel signs up); no price, desk count or contract terms are given, and other Lisbon records (m-028, m-045, m-073) don't mention it."),
    ("when is the SOC 2 type II audit", "missing-fact", [],
     "SOC 2 records m-065, m-068, m-071, m-083, m-092 and m-097 cover Type I; m-097 only says Sven should plan SOC 2 Type II for 2027, with no date, auditor or timeline."),
    ("who did we hire as mobile engineering manager?", "missing-fact", [],
     "m-088 decides on an external hire for the mobile engineering manager role and I open the role with Lena; no later record names a candidate or a hire."),
    ("per-booking fee for wellpass", "missing-fact", [],
     "Wellpass appears in m-059 (to be interviewed) and m-099 (joins as second partner in January); the only fee recorded is 0.40 euros per booking for Urban Sports Club in m-086, nothing for Wellpass."),
]


# Eleventh fresh questions, split "fresh11", ids y-001..., and its unanswerable ones (UNANSWERABLE11, ids z-001...):
# written the same way as FRESH10 and UNANSWERABLE10 (by a helper that read only the records), after the rules that a
# question about a cost is not answered by a record stating no amount, that a person written in lower case is
# "supposed to" do a task, and that "who did we interview" asks for the people met.
FRESH11 = [
    # Attendees
    (5, "A", "Redline scoping call in january - who was there from their side", "Kasia Nowak", "named"),
    (14, "A", "name of the CloudNest account manager in the renewal talks", "Pieter de Vries", "named"),
    (16, "A", "which Pixelwerk person came to the website relaunch kickoff", "Lukas Hahn", "named"),
    (22, "A", "who's the owner of yoga loft", "Hanna Ott", "content"),
    (25, "A", "Who represented Northwind Ventures at the March board meeting?", "Henrik Dahl and Sofia Lindqvist", "named"),
    (27, "A", "lawyer who sat in on the lease decision", "Eva Novak", "named"),
    (40, "A", "who did oskar negotiate the cleaning contract with", "Dana Weiss", "content"),
    (48, "A", "what's the architect's name for the office fit-out", "Anja Richter", "content"),
    (79, "A", "how many engineers were in the room for the joint berlin + lisbon planning day", "22 people", "named"),
    (86, "A", "who is our contact person at Urban Sports Club", "Lea Sommer", "content"),
    (91, "A", "which Studio Nord person joined the group of studio owners advising us", "Mehmet Aydin", "content"),
    (100, "A", "how big was the company by the december all hands", "52 people", "named"),
    # Purpose
    (3, "P", "why did I set up the January 1:1 with Priya?", "her workload", "named"),
    (7, "P", "office move kickoff - what did we actually have to decide", "renew the Torstraße lease or move", "named"),
    (11, "P", "factory görlitzer park viewing: what headcount were we checking it against", "team of 45", "named"),
    (17, "P", "topics for my feb 1:1 with jonas", "on-call rota and his hiring plan", "named"),
    (32, "P", "What was the expense policy meeting supposed to produce?", "travel and expense policy", "named"),
    (46, "P", "point of the board prep session in June", "explain the launch delay", "named"),
    (50, "P", "did we ever do a postmortem after the studio couldn't check members in on a saturday", "Post-mortem", "content"),
    (66, "P", "why did we sit down with Urban Sports Club in August", "what an aggregator needs", "named"),
    (68, "P", "what did Daniel and I cover in our August one-on-one", "security workload and SOC 2", "named"),
    (80, "P", "was there a meeting to dig into why the small studios leave us", "why small studios cancel", "content"),
    (88, "P", "at what team size did we start rethinking how engineering is organised", "grows past 25", "content"),
    (95, "P", "what was the late-november 1:1 with nora about", "2027 brand refresh", "named"),
    # Outcomes
    (4, "O", "total Q1 spend we signed off", "1.42 million euros", "content"),
    (6, "O", "salary range for the backend engineer after we bumped it", "70-82k", "content"),
    (10, "O", "rent per sqm at ohlauer straße", "26 euros per square metre", "content"),
    (13, "O", "How much did we offer Amir after his debrief?", "78k", "named"),
    (20, "O", "what did the offsite venue cost us for the three days", "36,400 euros", "content"),
    (24, "O", "how much is the multi-site tier per month", "Multi-site 199", "content"),
    (26, "O", "did first response times actually improve after switching helpdesk", "9 hours to 3 hours", "content"),
    (42, "O", "tagline for the app launch ads?", "Book in two taps", "content"),
    (56, "O", "paying studios at the half-year check", "484 paying studios", "named"),
    (60, "O", "how many downloads did v2 get on its first day", "3,900 downloads", "content"),
    (63, "O", "what are the movers charging", "14,200 euros", "content"),
    (96, "O", "series A target valuation", "valuation of 40 million", "content"),
    # Action items
    (2, "X", "when was Tom's clickable prototype due", "January 30", "content"),
    (8, "X", "who had to phone FitHaus's COO to apologise for the double charges", "Sam: call FitHaus's COO", "named"),
    (9, "X", "deadline to redo the profile screen after the v2 design review", "February 13", "named"),
    (21, "X", "how many yubikeys were we ordering", "50 YubiKeys", "content"),
    (36, "X", "by when was ravi supposed to fix the booking api leak", "May 8", "content"),
    (45, "X", "where did the Lisbon QA job ads go up", "Landing.jobs", "content"),
    (49, "X", "date the iOS build had to go to App Review", "July 1", "content"),
    (57, "X", "support hours during launch week?", "7 am to 10 pm", "content"),
    (65, "X", "How much money did we put aside for SOC 2 tooling and the audit?", "42,000 euros", "content"),
    (71, "X", "which job board was the junior security engineer role posted on", "Berlin Startup Jobs", "named"),
    (75, "X", "which review tools was Lena choosing between in our september 1:1", "Leapsome or Lattice", "named"),
    (81, "X", "deadline for team leads to nominate peers for the reviews", "October 20", "content"),
    # Location
    (1, "L", "which venue did we rent for the january all-hands", "Kino Babylon", "named"),
    (15, "L", "where did we rehearse the Q1 board deck", "Maria's office", "named"),
    (23, "L", "what street is the lisbon office on", "Rua da Boavista", "content"),
    (31, "L", "Q2 quarterly planning - location", "Rooftop terrace", "named"),
    (38, "L", "where was the strategy day at the offsite", "barn at Gut Rehwiese", "named"),
    (44, "L", "did we book the redline retest over video or on the phone", "Phone call", "named"),
    (51, "L", "where did the june 1:1 with Ravi happen", "along the Spree", "named"),
    (58, "L", "july 1:1 with priya, which park did we walk in", "Tiergarten", "named"),
    (61, "L", "which of Yoga Loft's studios hosted the substitution beta kickoff", "Altona studio", "named"),
    (70, "L", "where did we hold the retro after the first week in the new office", "Kitchen at Ohlauer Straße", "named"),
    (77, "L", "where is FitHaus's head office", "Potsdam", "content"),
    (85, "L", "where did the leadership team go for the october half-day offsite", "Hotel Oderberger", "named"),
]

UNANSWERABLE11 = [
    # general
    ("how long do you boil an egg for soft-boiled", "general", ["soft-boiled"], ""),
    ("capital of Australia", "general", ["Australia"], ""),
    ("oven at 400 fahrenheit is how many degrees C", "general", ["fahrenheit"], ""),
    ("What are the symptoms of strep throat?", "general", ["strep throat"], ""),
    ("who wrote pride and prejudice", "general", ["pride and prejudice"], ""),
    ("best month to visit Iceland for the northern lights", "general", ["Iceland", "northern lights"], ""),
    ("spilled red wine on the rug, what gets it out of carpet", "general", ["red wine", "carpet"], ""),
    ("how do I change a flat tyre on a car", "general", ["flat tyre"], ""),
    ("easy guacamole recipe", "general", ["guacamole", "avocado"], ""),
    ("Do Germans need a visa for Japan?", "general", ["visa", "Japan"], ""),
    ("what date does daylight saving end this year", "general", ["daylight saving"], ""),
    ("how many calories in a banana", "general", ["calories"], ""),
    # absent
    ("what did we decide about opening an office in Munich?", "absent", ["Munich"], ""),
    ("who is our data protection officer for GDPR", "absent", ["GDPR", "data protection officer"], ""),
    ("notes from the Salesforce migration meeting", "absent", ["Salesforce"], ""),
    ("When did we meet the Stripe account rep?", "absent", ["Stripe"], ""),
    ("parental leave policy details", "absent", ["parental leave"], ""),
    ("where are we with ISO 27001 certification", "absent", ["ISO 27001"], ""),
    ("which partner from Sequoia did Maria pitch to", "absent", ["Sequoia"], ""),
    ("dates for the company hackathon", "absent", ["hackathon"], ""),
    ("kubernetes upgrade plan for the backend cluster", "absent", ["Kubernetes"], ""),
    ("Did we get a booth at Web Summit in Lisbon?", "absent", ["Web Summit"], ""),
    ("vesting schedule for the ESOP", "absent", ["ESOP", "stock option"], ""),
    ("why did engineering move from jira to linear", "absent", ["Jira", "Linear"], ""),
    # missing-fact
    ("what fee did TalentBridge charge us for the backend search", "missing-fact", ["TalentBridge"],
     "Only m-006 mentions TalentBridge: the agency is to be tried for six weeks and Lena signs the contract; no fee, percentage or cost is given anywhere."),
    ("How much is Schellman charging for the SOC 2 audit on its own?", "missing-fact", ["Schellman"],
     "m-065 names Schellman as the audit firm and budgets 42,000 euros for tooling and audit together; m-083, m-092 and m-097 cover controls and fieldwork. No record splits out the auditor's fee."),
    ("what did the Michelberger rooms cost for the Lisbon team week", "missing-fact", ["Michelberger"],
     "m-073 books eight rooms at the Michelberger for September 21-25 and m-079 covers the planning day; no price for the hotel is stated anywhere."),
    ("when did instructor substitution go generally available", "missing-fact", [],
     "m-022, m-041, m-061 and m-082 cover substitution (customer ask, design review, four-week beta at Yoga Loft, conference talk). m-061 only says Priya will decide the GA date by mid-August; no record gives the GA date."),
    ("opening date for the vienna office", "missing-fact", [],
     "m-090 says an office in Vienna is postponed until after the Series A and m-085 mentions expanding to Austria; n-029 and n-051 are a private trip. No opening date is ever given."),
    ("who did we end up hiring as engineering manager for mobile?", "missing-fact", [],
     "m-088 plans an external hire as mobile engineering manager and says to open the role with Lena; no later record names a person hired for it."),
    ("name of the support person we hired in Lisbon", "missing-fact", [],
     "m-023 plans one support hire in Lisbon and m-026 has Fatima training the Lisbon support hire; neither (nor any other record) gives the hire's name."),
    ("which three investors did Sofia introduce us to", "missing-fact", [],
     "m-078 says Sofia offered intros to three investors; m-085, m-096 and m-098 plan the Series A (Henrik to list ten funds) but no record names any investor or fund."),
    ("why did we rule out a Flutter rewrite for v2", "missing-fact", ["Flutter"],
     "m-002 only records that the Flutter rewrite was rejected and both apps stay native; no reason is given there or elsewhere."),
    ("how many people came to the summer party", "missing-fact", [],
     "m-052 plans the summer party (Club der Visionäre and a Tagus boat, 9,000 euros total); no record reports attendance or how the party went."),
    ("which Samsung tablet model was crashing on launch day", "missing-fact", ["Samsung"],
     "m-060 mentions an Android crash on Samsung tablets with a hotfix and m-062 adds Samsung tablets to the device lab; neither names a model."),
    ("what were the other two moving companies that quoted", "missing-fact", [],
     "m-027 asks Oskar for quotes from three moving companies and m-063 picks Zapf Umzüge at 14,200 euros; the other two companies and their quotes are never named."),
]


# ---------------------------------------------------------------------------------------------------------
# Unanswerable questions: (query, words that must not occur in any record). Whole-word, case-insensitive.
# ---------------------------------------------------------------------------------------------------------
GENERAL = [
    ("What is the capital of Peru?", ["peru", "lima"]),
    ("How tall is Mount Kilimanjaro?", ["kilimanjaro", "tanzania"]),
    ("Who wrote One Hundred Years of Solitude?", ["solitude", "márquez", "marquez"]),
    ("What is the square root of 144?", ["square root", "144"]),
    ("How far away is the moon?", ["moon", "lunar"]),
    ("Will it rain in Berlin tomorrow?", ["tomorrow"]),
    ("How do I make beef Wellington?", ["wellington"]),
    ("When did the Berlin Wall fall?", ["1989", "berlin wall"]),
    ("How many bones are in the human body?", ["bones", "skeleton"]),
    ("How do you say thank you in Korean?", ["korean", "korea"]),
    ("What is the speed of light?", ["speed of light"]),
    ("Who won the 2014 World Cup?", ["world cup", "2014"]),
    ("How do I convert Celsius to Fahrenheit?", ["fahrenheit", "celsius"]),
    ("What is the population of Canada?", ["canada", "population"]),
    ("How do I make kimchi?", ["kimchi", "fermented cabbage"]),
    ("What is the chemical symbol for gold?", ["chemical symbol", "gold"]),
    ("How long should I boil an egg for a soft yolk?", ["boil an egg", "boiled egg", "soft-boiled", "hard-boiled"]),
    ("What is the largest ocean on Earth?", ["pacific ocean", "largest ocean"]),
    ("In what year did the Titanic sink?", ["titanic", "1912"]),
    ("Who painted the Mona Lisa?", ["mona lisa", "leonardo", "da vinci"]),
    ("What is the exchange rate from euros to dollars?", ["exchange rate", "dollar", "dollars", "usd"]),
    ("How many players are on a rugby team?", ["rugby"]),
]

NEAR_DOMAIN = [
    ("What did we decide about the office dog?", ["dog", "dogs", "pet", "pets"]),
    ("Who is organising the Christmas party?", ["christmas", "xmas"]),
    ("When is my dentist appointment?", ["dentist", "teeth", "dental"]),
    ("What did the tax advisor say about our VAT return?", ["tax", "vat", "advisor"]),
    ("When is the team ski trip?", ["ski", "skiing"]),
    ("Who is the new head of sales for the Paris office?", ["paris", "france"]),
    ("What did we agree with the landlord about the Munich office?", ["munich", "münchen"]),
    ("What did we decide about company cars?", ["company car", "company cars", "leasing"]),
    ("Who is running the hackathon?", ["hackathon"]),
    ("When are we recording the podcast episode?", ["podcast", "episode"]),
    ("Are we switching to a four-day week?", ["four-day", "4-day", "four day"]),
    ("Who was at the meeting with the bank about the loan?", ["loan", "credit line"]),
    ("Where is the IPO roadshow?", ["ipo", "roadshow"]),
    ("What's the plan for our TikTok campaign?", ["tiktok"]),
    ("Who covers reception while Oskar is on parental leave?", ["parental", "reception"]),
    ("When is my passport renewal appointment?", ["passport"]),
    ("What did the vet say about the cat?", ["vet", "cat", "kitten"]),
    ("What did we decide about translating the app into Japanese?", ["japanese", "japan"]),
    ("Who is presenting at the Web Summit?", ["web summit"]),
    ("How much did the new espresso machine cost?", ["espresso"]),
    ("Are we going to accept crypto payments?", ["crypto", "bitcoin"]),
    ("When is the fire drill in the new office?", ["fire drill", "evacuation"]),
    ("Who is leading the data warehouse migration?", ["data warehouse", "warehouse", "snowflake", "bigquery"]),
    ("What did we do about the GDPR deletion request?", ["gdpr", "deletion request"]),
]


# Twelfth fresh questions, split "fresh12", ids b-001..., and its unanswerable ones (UNANSWERABLE12, ids c-001...):
# written the same way as FRESH11 (by a helper that read only the records), after the rules that a question about
# a cost is shown the line stating an amount and "how many X" the line giving a number of X.
FRESH12 = [
    # Attendees
    (18, "A", "helpdesk tool comparison in feb - who was there apart from fatima and jonas", "Felix Braun", "named"),
    (20, "A", "who got to choose between the three venue quotes for the may trip?", "Oskar Lind, Lena Fischer, Maria Keller", "content"),
    (26, "A", "anyone from lisbon at the zendesk rollout check in?", "Ines Costa", "named"),
    (41, "A", "did hanna come in person to look at the swap-instructor screens or dial in", "on video", "content"),
    (42, "A", "was priya involved when we split the money between instagram/youtube ads and referral rewards", "Priya Nair", "content"),
    (47, "A", "june board meeting - which investors were on", "Henrik Dahl, Sofia Lindqvist", "named"),
    (63, "A", "who sat down with oskar to pick zapf", "Aiko Tanaka", "content"),
    (73, "A", "was lena part of organising the week the lisbon folks came over", "Lena Fischer", "content"),
    (80, "A", "did finance sit in when felix explained why studios cancel", "Aiko Tanaka", "content"),
    (84, "A", "sven kraus debrief, was jonas one of the people deciding", "Jonas Weber", "named"),
    (91, "A", "advisory board nov: besides hanna, bernd and mehmet how many other owners came", "three more studio owners", "named"),
    (96, "A", "which of our investors helped map out the fundraising process with aiko, maria and me", "Henrik Dahl", "content"),
    # Purpose
    (10, "P", "first look at ohlauer straße in feb, what did we want to ask about", "fit-out", "named"),
    (12, "P", "what were we supposed to nail down at the very first offsite meeting", "a rough budget and a format", "named"),
    (14, "P", "going into the hosting contract talks what was our aim", "avoid the price increase", "content"),
    (27, "P", "when we picked the new office for good, which other street was still in the running", "Lohmühlenstraße", "content"),
    (35, "P", "apart from her career, what did fatima and i want to talk through in april", "shape of the support team", "named"),
    (37, "P", "what was the may 4 check with oskar, lena and tom meant to cover", "travel, rooms", "named"),
    (45, "P", "why did miguel ines and lena get together end of may", "profile for two QA hires", "named"),
    (59, "P", "partner api discovery kickoff - goal besides the plan itself?", "which partners to interview", "named"),
    (71, "P", "what was the aug 26 meeting with daniel, lena and jonas for", "profile for the junior security engineer", "named"),
    (81, "P", "purpose of that october session lena ran with all the leads", "Explain the new review process", "named"),
    (89, "P", "what were nora and sam trying to work out once we got back from cologne", "decide about next year", "content"),
    (97, "P", "why did we get together once the auditors wrapped up on site", "preliminary findings", "content"),
    # Outcomes
    (19, "O", "how far behind was the waitlist feature at the start of march", "two weeks", "named"),
    (23, "O", "which neighbourhood is the new lisbon coworking floor in", "Santos", "content"),
    (44, "O", "do we have to pay redline extra for testing the fix again?", "included in the original price", "content"),
    (49, "O", "ios crash free % in june", "99.6%", "named"),
    (55, "O", "what share of new customers went for the most expensive plan after prices changed", "31%", "content"),
    (56, "O", "revenue vs plan at the half year mark", "11% above plan", "named"),
    (64, "O", "how much did we take out of second-half spending in july", "180,000 euros", "named"),
    (85, "O", "which countries are we thinking of going into in 2027", "Austria and Switzerland", "content"),
    (87, "O", "how slow was the app to cold start on the old samsung phone", "4.1 s", "content"),
    (90, "O", "are we opening in vienna next year or not", "postponed until after the Series A", "content"),
    (93, "O", "bookings on the first day of the urban sports club beta", "1,240", "named"),
    (100, "O", "which day did everybody get off as a thank you for 2026", "December 22", "content"),
    # Action items
    (1, "X", "who was supposed to send round the kickoff all hands video", "Lena: share the recording", "named"),
    (3, "X", "priya's homework once we agreed to add a second pm", "write the job description", "content"),
    (25, "X", "after the march board, who owed sofia the hiring plan", "Maria: share the hiring plan", "named"),
    (30, "X", "how much homepage text did nora have to chop after seeing staging", "by half", "named"),
    (38, "X", "my to-do from the big strategy day at gut rehwiese", "update the calendar policy", "named"),
    (48, "X", "tom's job from the layout meeting with the architect", "pick the signage design", "named"),
    (54, "X", "who shows hannah the usage numbers when she starts", "Felix: walk Hannah", "content"),
    (57, "X", "who schedules the emails going out for launch", "Nora: schedule the launch emails", "content"),
    (60, "X", "what did felix have to send out every day for two weeks after v2 went live", "daily launch metrics email", "named"),
    (69, "X", "who works out partner api pricing together with sam", "Priya: define pricing", "content"),
    (78, "X", "aiko's follow-up once the board said yes to a series a next spring", "clean up the data room", "content"),
    (95, "X", "nora wants a content person in january - what was i checking and with whom", "budget with Aiko", "content"),
    # Location
    (6, "L", "backend hiring sync in jan - were we in lisbon for it?", "with Berlin on video", "named"),
    (9, "L", "where did tom click through the booking prototype with us", "Design corner", "content"),
    (31, "L", "q2 planning where", "Rooftop terrace", "named"),
    (36, "L", "which room did redline go through their early findings in", "Room 2A", "content"),
    (62, "L", "v2 retrospective in july, which room?", "Room 4B", "named"),
    (68, "L", "where did daniel and i talk about him carrying security on his own", "Café Lindner", "content"),
    (75, "L", "where was my sept 1:1 with lena", "Wannsee room", "named"),
    (76, "L", "where did we pull the numbers together ahead of the september board", "Maria's office", "named"),
    (79, "L", "which lake room was the joint berlin-lisbon roadmap day in", "Müggelsee room", "content"),
    (82, "L", "cologne booth prep with hanna - in person or remote?", "Video call", "named"),
    (83, "L", "soc2 status meeting october room", "Schlachtensee", "named"),
    (94, "L", "where did we settle the christmas shutdown and support rota", "Kitchen at Ohlauer Straße", "content"),
]

UNANSWERABLE12 = [
    # general
    ("how long do quail eggs need to boil", "general", ["quail"], "cooking trivia, not in the planner"),
    ("are shingles contagious to kids", "general", ["shingles"], "health question, not in the planner"),
    ("how often do adults need a tetanus booster", "general", ["tetanus"], "health question, not in the planner"),
    ("fruit flies around the bin how do i get rid of them", "general", ["fruit flies"], "household how-to not covered"),
    ("grams of protein in 100g of tofu", "general", ["tofu", "protein"], "nutrition fact, not in the planner"),
    ("buttermilk swap for waffles?", "general", ["waffle"], "cooking question not covered by any recipe"),
    ("how many people live in norway", "general", ["norway"], "general trivia"),
    ("who painted girl with a pearl earring", "general", ["pearl earring"], "art trivia"),
    ("how many ounces in a cup", "general", ["ounces"], "unit conversion"),
    ("can dogs eat grapes", "general", ["grapes", "dogs"], "pet health question"),
    ("when was the eiffel tower built", "general", ["eiffel"], "history trivia"),
    ("melatonin side effects", "general", ["melatonin"], "health question; the sleep notes never mention it"),
    # absent
    ("when are the fire extinguishers in the new office getting checked", "absent", ["extinguisher"], "never mentioned"),
    ("did we ever pick a pension provider for the team", "absent", ["pension"], "never mentioned"),
    ("which coffee machine did oskar order for the new kitchen", "absent", ["coffee machine"], "never mentioned"),
    ("accessibility audit of the web dashboard - when is it", "absent", ["accessibility"], "never mentioned"),
    ("status of the zapier integration", "absent", ["zapier"], "never mentioned"),
    ("who's handling our trademark registration", "absent", ["trademark"], "never mentioned"),
    ("dates for the team sailing weekend", "absent", ["sailing"], "never mentioned"),
    ("what did we agree with the works council about the move", "absent", ["works council"], "never mentioned"),
    ("when does the french version of the website go live", "absent", ["french"], "only German and English versions mentioned"),
    ("is an apple watch app on the roadmap", "absent", ["apple watch"], "never mentioned"),
    ("which okr tool are the leads using", "absent", ["okr"], "never mentioned"),
    ("bike leasing for employees, did we sign up", "absent", ["leasing"], "never mentioned"),
    # missing-fact
    ("how much did the boat for the lisbon summer party cost", "missing-fact", [],
     "m-052 plans the Lisbon boat party and gives only the 9,000 euro total budget for both parties, no boat price"),
    ("which hotel did we stay at for the yoga conference in cologne", "missing-fact", [],
     "m-072, m-082 and m-089 cover the Cologne Yoga Conference (booth, talk, leads) but never name a hotel"),
    ("how many studios came in through the launch referral codes", "missing-fact", [],
     "m-042 sets 25% of the budget for referral rewards and Felix tracks the codes; no record gives a result"),
    ("what time does the day train back from vienna leave on monday", "missing-fact", [],
     "n-029 says we come back by day train on Monday taking eight hours, but gives no departure time"),
    ("how much were my new glasses", "missing-fact", [],
     "n-050 records the eye test and the new glasses with blue-light coating but no price"),
    ("which other movers quoted besides zapf", "missing-fact", [],
     "m-027 has Oskar getting quotes from three moving companies and m-063 picks Zapf Umzüge; the other two are never named"),
    ("name of the junior manual tester we hired in lisbon", "missing-fact", [],
     "m-045 agrees the profile for a junior manual tester and m-023 plans two QA hires, but no hire is named"),
    ("how many v2 downloads did we have after the first week", "missing-fact", [],
     "m-060 gives 3,900 downloads on day one and m-076 gives monthly active members; no first-week download total"),
    ("what did the pottery course for mum's 70th cost", "missing-fact", [],
     "n-007 lists the pottery course idea with a 400 euro overall budget and n-077 says Mum loved it; its price is never given (only the autumn course's 290)"),
    ("csat score after felix fixed the report", "missing-fact", [],
     "m-026 has Felix fixing the CSAT report but no CSAT score is recorded anywhere"),
    ("what exact dates is the yoga conference in cologne", "missing-fact", [],
     "m-072 says the Cologne conference is in October and m-082 preps for it, but no record gives the exact dates"),
    ("booth number at the amsterdam boutique fitness summit", "missing-fact", [],
     "m-072 says we go to the Boutique Fitness Summit in Amsterdam in November; only Cologne's booth B14 is recorded"),
]


# The fresh splits in the order they were written: id prefix, split name, questions.
FRESH_SPLITS = (("f", "fresh", FRESH), ("g", "fresh2", FRESH2), ("h", "fresh3", FRESH3), ("k", "fresh4", FRESH4),
                ("p", "fresh5", FRESH5), ("r", "fresh6", FRESH6), ("s", "fresh7", FRESH7),
                ("t", "fresh8", FRESH8), ("v", "fresh9", FRESH9), ("w", "fresh10", FRESH10),
                ("y", "fresh11", FRESH11), ("b", "fresh12", FRESH12))
# The fresh splits' unanswerable questions: id prefix, split name, questions.
FRESH_UNANSWERABLE = (("x", "fresh10", UNANSWERABLE10), ("z", "fresh11", UNANSWERABLE11),
                      ("c", "fresh12", UNANSWERABLE12))


def records():
    out = []
    for i, m in enumerate(MEETINGS, 1):
        out.append({"id": f"m-{i:03d}", "type": "meeting", "title": m["title"], "date": m["date"], "text": m["body"],
                    "fields": [{"label": FIELDS[k], "value": m["fields"][k]} for k in "APOXL"],
                    "tags": m["tags"], "category": "work"})
    for i, n in enumerate(NOTES, 1):
        out.append({"id": f"n-{i:03d}", "type": "note", "title": n["title"], "date": n["date"], "text": n["text"],
                    "tags": n["tags"]})
    return out


def questions():
    # Answerable questions: one queue per field in meeting order, taken in turn (Attendees, Purpose, Outcomes,
    # Action items, Location, Attendees, ...), so that odd/even ids split every field about evenly.
    queues = {code: [] for code in FIELDS}
    for i, m in enumerate(MEETINGS, 1):
        for code, query, answer, style in m["questions"]:
            queues[code].append((i, code, query, answer, style))
    order = []
    while any(queues.values()):
        for code in FIELDS:
            if queues[code]:
                order.append(queues[code].pop(0))
    answerable, unanswerable = [], []
    for n, (i, code, query, answer, style) in enumerate(order, 1):
        answerable.append({"id": f"q-{n:03d}", "query": query, "relevant": [f"m-{i:03d}"], "field": FIELDS[code],
                           "answer": answer, "split": "dev" if n % 2 else "heldout", "style": style})
    # The fresh questions after them, in their own split.
    for prefix, split, written in FRESH_SPLITS:
        for n, (i, code, query, answer, style) in enumerate(written, 1):
            answerable.append({"id": f"{prefix}-{n:03d}", "query": query, "relevant": [f"m-{i:03d}"],
                               "field": FIELDS[code], "answer": answer, "split": split, "style": style})
    # Unanswerable questions in the order general, near, near, general, general, near, ..., so that odd/even ids
    # give each split half of each kind.
    general = [(q, "general") for q, _ in GENERAL]
    near = [(q, "near-domain") for q, _ in NEAR_DOMAIN]
    pairs = []
    k = 0
    while general or near:
        first, second = (general, near) if k % 2 == 0 else (near, general)
        for source in (first, second):
            if source:
                pairs.append(source.pop(0))
        k += 1
    for n, (query, kind) in enumerate(pairs, 1):
        unanswerable.append({"id": f"u-{n:03d}", "query": query, "relevant": [], "split": "dev" if n % 2 else "heldout",
                             "kind": kind})
    for prefix, split, written in FRESH_UNANSWERABLE:
        for n, (query, kind, _, _) in enumerate(written, 1):
            unanswerable.append({"id": f"{prefix}-{n:03d}", "query": query, "relevant": [], "split": split,
                                 "kind": "general" if kind == "general" else "near-domain", "written_as": kind})
    return answerable, unanswerable


def check(recs, answerable):
    problems = []
    by_id = {r["id"]: r for r in recs}
    assert len(by_id) == len(recs) == 200
    for r in recs:
        if not re.fullmatch(r"2026-\d\d-\d\d", r["date"]):
            problems.append(f"{r['id']}: bad date {r['date']}")
        words = len(r["text"].split())
        if r["type"] == "note" and not 50 <= words <= 200:
            problems.append(f"{r['id']}: note of {words} words")
        if r["type"] == "meeting":
            sentences = len(re.findall(r"[.!?](\s|$)", r["text"]))
            if not 1 <= sentences <= 3:
                problems.append(f"{r['id']}: body of {sentences} sentences")
    for q in answerable:
        r = by_id[q["relevant"][0]]
        a = q["answer"].lower()
        values = {f["label"]: f["value"] for f in r["fields"]}
        if a not in values[q["field"]].lower():
            problems.append(f"{q['id']}: answer {q['answer']!r} not in {r['id']} {q['field']}")
        for where, text in (("title", r["title"]), ("body", r["text"])):
            if a in text.lower():
                problems.append(f"{q['id']}: answer {q['answer']!r} in {r['id']}'s {where}")
        for label, value in values.items():
            if label != q["field"] and a in value.lower():
                problems.append(f"{q['id']}: answer {q['answer']!r} also in {r['id']}'s {label}")
    alltext = "\n".join(" ".join([r["title"], r["text"], " ".join(r["tags"])]
                                 + [f["label"] + ": " + f["value"] for f in r.get("fields", [])]) for r in recs).lower()
    for query, words in GENERAL + NEAR_DOMAIN:
        for w in words:
            m = re.search(r"(?<!\w)" + re.escape(w.lower()) + r"(?!\w)", alltext)
            if m:
                problems.append(f"unanswerable {query!r}: {w!r} occurs: …{alltext[max(0, m.start() - 60):m.end() + 60]}…")
    for _, _, written in FRESH_UNANSWERABLE:
        for query, kind, words, why in written:
            if kind == "missing-fact":
                if len(why) < 20:
                    problems.append(f"unanswerable {query!r}: say why nothing answers it")
                continue
            if not words:
                problems.append(f"unanswerable {query!r}: no guard words")
            for w in words:
                if w.lower() in alltext:
                    problems.append(f"unanswerable {query!r}: {w!r} occurs")
    queries = ([q["query"] for q in answerable] + [q for q, _ in GENERAL + NEAR_DOMAIN]
               + [u[0] for _, _, written in FRESH_UNANSWERABLE for u in written])
    if len(set(q.lower() for q in queries)) != len(queries):
        problems.append("duplicate queries")
    for _, split, written in FRESH_SPLITS:
        fresh = [q for q in answerable if q["split"] == split]
        if len(fresh) != len(written):
            problems.append(f"{len(fresh)} {split} questions checked, {len(written)} written")
        meetings = [q["relevant"][0] for q in fresh]
        for m in sorted({m for m in meetings if meetings.count(m) > 1}):
            problems.append(f"{m}: more than one {split} question")
        for q in fresh:
            if q["style"] not in ("named", "content"):
                problems.append(f"{q['id']}: style {q['style']!r}")
    return problems


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "scripts/bench/data/planner"
    recs = records()
    answerable, unanswerable = questions()
    problems = check(recs, answerable)
    if problems:
        print("\n".join(problems), file=sys.stderr)
        sys.exit(1)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "records.jsonl"), "w", encoding="utf-8") as f:
        for r in recs:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    # The fresh questions go last, after the unanswerable ones, so that the lines before them stay as they were.
    splits = [split for _, split, _ in FRESH_SPLITS]
    fresh = {split: [q for q in answerable if q["split"] == split] for split in splits}
    core = [q for q in answerable if q["split"] not in splits]
    unanswerable_fresh = [q for q in unanswerable if q["split"] in splits]
    unanswerable = [q for q in unanswerable if q["split"] not in splits]
    with open(os.path.join(out, "questions.jsonl"), "w", encoding="utf-8") as f:
        for q in core + unanswerable + [q for split in splits for q in fresh[split]] + unanswerable_fresh:
            f.write(json.dumps(q, ensure_ascii=False) + "\n")
    def per_field(qs):
        fields = {}
        for q in qs:
            fields[q["field"]] = fields.get(q["field"], 0) + 1
        return ", ".join(f"{k} {v}" for k, v in fields.items())

    print(f"{out}: {len(recs)} records ({len(MEETINGS)} meetings, {len(NOTES)} notes), "
          f"{len(core)} answerable questions ({per_field(core)}), "
          f"{len(unanswerable)} unanswerable ({len(GENERAL)} general, {len(NEAR_DOMAIN)} near-domain), "
          + ", ".join(f"{len(fresh[split])} {split} ({per_field(fresh[split])})" for split in splits)
          + f", {len(unanswerable_fresh)} unanswerable in the fresh splits")

if __name__ == "__main__":
    main()
