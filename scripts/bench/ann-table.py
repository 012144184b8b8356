#!/usr/bin/env python3
"""Markdown table of an ANN benchmark JSONL file (hush bench ann --json + peers_ann.py lines)."""
import json, sys

rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
exact = next((r["ms_per_query"] for r in rows if r.get("system") == "exact-f32"), None)
print("| system | ef | recall@10 | ms/query | x exact f32 | build s | mem B/vec | disk B/vec |")
print("|---|---|---|---|---|---|---|---|")
for r in rows:
    ratio = f"{r['ms_per_query'] / exact:.3f}" if exact else ""
    print(f"| {r['system']} | {r.get('ef', '')} | {r['recall_at_k']:.4f} | {r['ms_per_query']:.4f} | {ratio} | "
          f"{r.get('build_s', 0):.1f} | {r.get('memory_bytes_per_vector', '')} | {r.get('disk_bytes_per_vector', '')} |")
