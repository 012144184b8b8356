#!/usr/bin/env python3
"""Which language short texts are filed under, stored without one, for one or more hush binaries.

Sets (a text is "short" below 8 words):
  notes     30 short English notes of a journal or planner (written here)
  debian    the English short descriptions of set B of debian-descriptions.py (its queries-en.jsonl), the
            1,030 first (notes + 1,000) and the next 2,000 apart ("debian-a", "debian-b")
  man       the short lines in other languages than English of bench/data/multilingual-corpus.jsonl
  queries   bench/data/multilingual-queries.jsonl (200 short texts in 16 languages, English among them)
Scenarios: each set written into a new store (`new`), and into a store that already holds 300 English
passages of bench/data/embed-corpus.jsonl (`english store`). Every store uses the lexical fallback
(`--lexical`), so no model is needed; the language is read back from the file.

    short-language.py OUT LABEL=HUSH [LABEL=HUSH ...]    the markdown table on stdout

Environment: DEBDESC (/tmp/hush-debdesc).
"""
import collections, json, os, sqlite3, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEBDESC = os.environ.get("DEBDESC", "/tmp/hush-debdesc")
NOTES = """Tomatoes, cucumber, olive oil
Milk, eggs, bread, coffee beans
Call the dentist tomorrow morning
Pay rent before Friday
Feeling tired today, skipped the gym
Great dinner with Sam and Priya
Finished the book about habits
Need new running shoes
Dentist appointment moved to Tuesday
Car insurance renewal due next week
Bought flowers for mom
Rainy walk in the park, felt calm
Fix the leaking kitchen tap
Oat milk, bananas, spinach, rice
Interview went well I think
Headache all afternoon
Started learning guitar chords
Vet visit for the cat at noon
Lunch: lentil soup and salad
Meeting notes: budget review, hiring plan
Quarterly goals draft v2
Birthday gift ideas for Leo
Slept badly, woke up at four
Clean the garage this weekend
Podcast recommendations from Tom
Passport expires in March
Booked train tickets to Lyon
Yoga class at seven
Watered the tomatoes and basil
Late night coding session, fixed the bug""".split("\n")


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def sets():
    debian = [q["query"] for q in read_jsonl(os.path.join(DEBDESC, "B", "queries-en.jsonl"))]
    primary = lambda code: code.split("_")[0]
    man = [(r["text"], primary(r["lang"])) for r in read_jsonl(os.path.join(ROOT, "bench/data/multilingual-corpus.jsonl"))
           if len(r["text"].split()) < 8 and primary(r["lang"]) != "en"]
    queries = [(r["text"], primary(r["lang"])) for r in read_jsonl(os.path.join(ROOT, "bench/data/multilingual-queries.jsonl"))]
    return {"notes": [(t, "en") for t in NOTES], "debian-a": [(t, "en") for t in debian[:1000]],
            "debian-b": [(t, "en") for t in debian[1000:3000]], "man": man, "queries": queries}


def write(path, rows):
    with open(path, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")


def filed(hush, out, name, texts, english_store):
    store = os.path.join(out, "store.hush")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(store + suffix):
            os.remove(store + suffix)
    if english_store:
        subprocess.run([hush, "index", "--db", store, "--lexical", os.path.join(out, "english.jsonl")], check=True,
                       capture_output=True)
    subprocess.run([hush, "index", "--db", store, "--lexical", os.path.join(out, name + ".jsonl")], check=True,
                   capture_output=True)
    with sqlite3.connect(store) as db:
        found = dict(db.execute("SELECT external_id, language FROM documents WHERE external_id LIKE 't%'"))
    right, per = 0, collections.defaultdict(lambda: [0, 0])
    for index, (_, language) in enumerate(texts):
        ok = found.get(f"t{index}") == language
        right += ok
        per[language][0] += ok
        per[language][1] += 1
    return right, per


def main(out, binaries):
    os.makedirs(out, exist_ok=True)
    english = [json.loads(line)["text"] for line in open(os.path.join(ROOT, "bench/data/embed-corpus.jsonl"))][:300]
    write(os.path.join(out, "english.jsonl"), [{"id": f"e{i}", "text": t} for i, t in enumerate(english)])
    data = sets()
    for name, texts in data.items():
        write(os.path.join(out, name + ".jsonl"), [{"id": f"t{i}", "text": t} for i, (t, _) in enumerate(texts)])
    labels = [label for label, _ in binaries]
    print("| set | texts | store | " + " | ".join(f"right, {label}" for label in labels) + " |")
    print("| --- | ---: | --- | " + " | ".join("---:" for _ in labels) + " |")
    details = []
    for name, texts in data.items():
        for english_store in (False, True):
            cells = []
            for label, hush in binaries:
                right, per = filed(hush, out, name, texts, english_store)
                cells.append(f"{right} ({100 * right / len(texts):.1f} %)")
                if name in ("man", "queries"):
                    details.append(f"{name}, {'english store' if english_store else 'new'}, {label}: " +
                                   " ".join(f"{l} {a}/{b}" for l, (a, b) in sorted(per.items())))
            print(f"| {name} | {len(texts)} | {'english store' if english_store else 'new'} | " + " | ".join(cells) + " |")
    print()
    for line in details:
        print("- " + line)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], [tuple(arg.split("=", 1)) for arg in sys.argv[2:]])
