#!/usr/bin/env python3
"""Turns the JSON lines of scripts/bench/embed.sh into the Markdown tables of docs/benchmarks.md."""
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
tp = {(r["system"], r["threads"]): r for r in rows if "tok_per_s" in r}
machine = next((r for r in rows if r.get("system") == "hush" and "cpu" in r), None)
if machine:
    print(f"CPU: {machine['cpu']}; Hush kernels {machine['kernels']}, {machine['blas']}\n")
print("| threads | Hush tokens/s | sentence-transformers tokens/s | ratio | Hush sentences/s | s-t sentences/s |")
print("| --- | --- | --- | --- | --- | --- |")
for t in (1, 2):
    h, s = tp.get(("hush", t)), tp.get(("sentence-transformers", t))
    if h and s:
        print(f"| {t} | {h['tok_per_s']:,.0f} | {s['tok_per_s']:,.0f} | {h['tok_per_s'] / s['tok_per_s']:.2f}x | "
              f"{h['sent_per_s']:,.1f} | {s['sent_per_s']:,.1f} |")
process = {r["threads"]: r for r in rows if r.get("bench") == "embed-process"}
if process:
    print()
    print("| threads | `hush embed`, whole process | tokens/s | vs in-process | vs sentence-transformers |")
    print("| --- | --- | --- | --- | --- |")
    for t, r in sorted(process.items()):
        h, s = tp.get(("hush", t)), tp.get(("sentence-transformers", t))
        if h:
            rate = h["tokens"] / r["seconds"]
            versus = f"{rate / s['tok_per_s']:.2f}x" if s else "—"
            print(f"| {t} | {r['seconds']:.2f} s | {rate:,.0f} | {rate / h['tok_per_s']:.2f}x | {versus} |")
lat = {(r["system"], r.get("threads", 1)): r for r in rows if r.get("bench") == "query-latency"}
if lat:
    print()
    print("| single query | threads | p50 ms | p95 ms |")
    print("| --- | --- | --- | --- |")
    for t in (1, 2):
        for name in ("hush", "sentence-transformers"):
            if (name, t) in lat:
                r = lat[(name, t)]
                print(f"| {name} | {t} | {r['p50_ms']:.2f} | {r['p95_ms']:.2f} |")
mem = [r for r in rows if r.get("bench") == "embed-memory"]
if mem:
    m = mem[0]
    print()
    print(f"Peak RSS embedding 1,000 texts: {m['peak_rss_kb'] / 1024:.0f} MB "
          f"({m['peak_rss_kb'] / m['weights_kb']:.2f}x the {m['weights_kb'] / 1024:.0f} MB weights file).")
