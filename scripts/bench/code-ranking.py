#!/usr/bin/env python3
"""How far down the ranking by quantised score the exact top 10 lies: for int8 (per-dimension, symmetric) and
4-bit codes (per dimension, 16 equal cells between the smallest and largest value, read as the cell's middle;
what Hush's memory image holds), the share of the exact top 10 found within the top R by code score, R = 10, 20,
40, 64, 100, over queries that are stored rows (the row itself left out). What tells how many candidates a
search must rescore.

Usage: code-ranking.py VECTORS.npy [MORE.npy ...] [--rows 50000] [--queries 300]
(an .npy of L2-normalised f32 rows: ann-data.py's, or launch-data.py's OUT.npy / OUT.sqlite.partial.npy)
"""
import argparse
import numpy as np

parser = argparse.ArgumentParser()
parser.add_argument("vectors", nargs="+")
parser.add_argument("--rows", type=int, default=50000)
parser.add_argument("--queries", type=int, default=300)
args = parser.parse_args()

for path in args.vectors:
    X = np.ascontiguousarray(np.load(path, mmap_mode="r")[: args.rows], dtype=np.float32)
    X = X[np.linalg.norm(X, axis=1) > 0]  # rows a partial file has not filled yet
    picks = np.random.default_rng(1).choice(len(X), args.queries, replace=False)
    queries = X[picks]
    exact = queries @ X.T
    exact[np.arange(len(picks)), picks] = -np.inf
    truth = np.argsort(-exact, axis=1)[:, :10]
    lows, highs = X.min(0), X.max(0)
    scale = np.maximum(np.abs(lows), np.abs(highs)) / 127
    step = (highs - lows) / 16
    decoded = {
        "int8": np.clip(np.round(X / scale), -127, 127) * scale,
        "4-bit": lows + step * (np.clip(np.floor((X - lows) / step), 0, 15) + 0.5),
    }
    for name, Y in decoded.items():
        approx = queries @ Y.T
        approx[np.arange(len(picks)), picks] = -np.inf
        order = np.argsort(-approx, axis=1)
        shares = []
        for R in (10, 20, 40, 64, 100):
            found = [len(set(truth[i]) & set(order[i, :R])) / 10 for i in range(len(picks))]
            shares.append(f"top{R} {np.mean(found):.4f}")
        print(f"{path} ({len(X)} rows) {name}: " + ", ".join(shares), flush=True)
