#!/usr/bin/env python3
"""Synthetic clustered unit vectors and queries for the ANN benchmark (shared by Hush and the peers).
Usage: ann-data.py OUT_VECTORS.npy OUT_QUERIES.npy [--n 100000] [--d 384] [--queries 1000] [--seed 42]
Vectors: n/100 random unit centres, each row = centre + 0.7 * N(0, 1/d), normalised.
Queries: held-out-style perturbations of random rows (N(0, 0.02) per component, as peers_ann.py), normalised.
"""
import sys
import numpy as np

args = sys.argv[1:]
def opt(name, default):
    return type(default)(args[args.index(name) + 1]) if name in args else default
vec_path, query_path = args[0], args[1]
n, d, nq, seed = opt("--n", 100000), opt("--d", 384), opt("--queries", 1000), opt("--seed", 42)
rng = np.random.default_rng(seed)
centres = rng.normal(size=(max(1, n // 100), d)).astype(np.float32)
centres /= np.linalg.norm(centres, axis=1, keepdims=True)
labels = rng.integers(0, len(centres), n)
X = centres[labels] + (0.7 / np.sqrt(d)) * rng.normal(size=(n, d)).astype(np.float32)
X /= np.linalg.norm(X, axis=1, keepdims=True)
idx = rng.choice(n, nq, replace=False)
Q = X[idx] + rng.normal(0, 0.02, (nq, d)).astype(np.float32)
Q /= np.linalg.norm(Q, axis=1, keepdims=True)
np.save(vec_path, X.astype(np.float32))
np.save(query_path, Q.astype(np.float32))
