#!/usr/bin/env python3
"""Writes the app-like sets' halves for calibration.sh: the planner's questions (some answered by nothing) and the
journal's worries (answered by readings in other words).

    calibration_domains.py WORK

writes WORK/planner.fit.jsonl, WORK/planner.test.jsonl, WORK/journal.fit.jsonl and WORK/journal.test.jsonl as
`hush eval` reads them ({"query", "relevant"}, plus "answerable": false for a question nothing answers). The
fit half is each set's dev split, the test half its held-out split; the planner's fresh split is left to
planner-answers.py alone.
"""
import json
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(REPO, "scripts", "bench", "data")
SETS = {"planner": ("planner", "questions.jsonl"), "journal": ("journal", "worries.jsonl")}


def main(work):
    for name, (folder, file) in SETS.items():
        with open(os.path.join(DATA, folder, file), encoding="utf-8") as f:
            items = [json.loads(line) for line in f if line.strip()]
        for half, split in (("fit", "dev"), ("test", "heldout")):
            with open(os.path.join(work, f"{name}.{half}.jsonl"), "w", encoding="utf-8") as out:
                for item in items:
                    if item.get("split") != split:
                        continue
                    line = {"query": item["query"], "relevant": item.get("relevant", [])}
                    if not line["relevant"]:
                        line["answerable"] = False
                    out.write(json.dumps(line, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
