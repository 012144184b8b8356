#!/usr/bin/env python3
"""Recall@10 of a Hush store opened from its memory image, against the exact answer.

Usage: launch_recall.py SOURCE.sqlite STORE.hush [--queries 200] [--hush .build/release/hush]

SOURCE is the Python-layout file the store was imported from (documents(id, ..., embedding BLOB), f32
vectors). For each of N documents spread through the store, `hush related ID` (which searches with the
document's stored vector through the store's index: the graph walked on 4-bit codes, the candidates' f32
vectors read from the file and rescored) is compared with the exact top 10 by cosine (numpy, the document
itself left out). Prints recall@10 and the command's median wall time.
"""
import argparse, json, sqlite3, statistics, subprocess, time
import numpy as np

parser = argparse.ArgumentParser()
parser.add_argument("source")
parser.add_argument("store")
parser.add_argument("--queries", type=int, default=200)
parser.add_argument("--hush", default=".build/release/hush")
args = parser.parse_args()

rows = sqlite3.connect(args.source).execute("SELECT id, embedding FROM documents").fetchall()
ids = [str(r[0]) for r in rows]  # hush ids are text: an integer id 7 is "7"
matrix = np.stack([np.frombuffer(r[1], dtype="<f4") for r in rows])
matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
step = max(1, len(ids) // args.queries)
found_total, wanted_total, times = 0, 0, []
for index in range(0, len(ids), step)[: args.queries]:
    scores = matrix @ matrix[index]
    scores[index] = -np.inf
    truth = {ids[i] for i in np.argpartition(-scores, 10)[:10]}
    start = time.perf_counter()
    out = subprocess.run(
        [args.hush, "related", "--db", args.store, "--no-same-language", "--k", "10", "--json", ids[index]],
        capture_output=True, text=True, check=True).stdout
    times.append(time.perf_counter() - start)
    got = set()
    for line in out.splitlines():
        try:
            value = json.loads(line)
        except ValueError:
            continue
        for hit in value.get("results", value.get("hits", [])) if isinstance(value, dict) else []:
            got.add(hit["id"])
        if isinstance(value, dict) and "id" in value and "score" in value:
            got.add(value["id"])
    found_total += len(got & truth)
    wanted_total += len(truth)
print(json.dumps({"queries": len(times), "recall_at_10": found_total / wanted_total,
                  "command_p50_s": statistics.median(times)}))
