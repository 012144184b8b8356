#!/usr/bin/env python3
"""Build a deterministic corpus of real texts found on this machine.

Sources (in this order, each sorted):
  py:   module, class and function docstrings of the Python standard library (parsed with `ast`)
  man:  paragraphs of man pages under /usr/share/man (gzip, troff stripped roughly)
  doc:  paragraphs of text files under /usr/share/doc
  edge: hand-picked edge strings and seeded random mixed-script strings (scripts/corpus/edge_cases.py)

Writes into --out:
  texts.jsonl    {"id", "text"}            every text, for tokenizer parity
  corpus.jsonl   {"id", "text", "title"}   retrieval documents: docstring bodies
  queries.jsonl  {"query", "relevant"}     retrieval queries: the docstring's summary line

Usage: python scripts/corpus/docstrings.py --out /tmp/hush-corpus [--random 3000]
"""

import argparse
import ast
import gzip
import json
import os
import re
import sys
import sysconfig
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from edge_cases import EDGE_CASES, random_strings  # noqa: E402


def stdlib_docstrings():
    root = Path(sysconfig.get_paths()["stdlib"])
    files = sorted(p for p in root.rglob("*.py") if "site-packages" not in p.parts)
    for path in files:
        rel = path.relative_to(root).as_posix()
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=rel)
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
        stack = [(tree, rel)]
        while stack:
            node, name = stack.pop(0)
            doc = ast.get_docstring(node, clean=True)
            if doc and doc.strip():
                yield "py:" + name, doc
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                    stack.append((child, name + ":" + child.name))


TROFF_ESCAPES = [
    (re.compile(r"\\f(\[[^\]]*\]|\(..|.)"), ""),
    (re.compile(r"\\s[+-]?\d"), ""),
    (re.compile(r"\\\(em"), "—"),
    (re.compile(r"\\\(en"), "–"),
    (re.compile(r"\\\(bu"), "•"),
    (re.compile(r"\\\((aq|cq)"), "'"),
    (re.compile(r"\\\((lq|rq|dq)"), '"'),
    (re.compile(r"\\\(co"), "©"),
    (re.compile(r"\\\(..|\\\[[^\]]*\]"), ""),
    (re.compile(r"\\[-e]"), lambda m: "-" if m.group(0) == "\\-" else "\\"),
    (re.compile(r"\\[&|^ ~0c]"), lambda m: " " if m.group(0) in ("\\ ", "\\~", "\\0") else ""),
    (re.compile(r'\\".*$'), ""),
    (re.compile(r"\\\*(\(..|\[[^\]]*\]|.)"), ""),
    (re.compile(r"\\n(\(..|\[[^\]]*\]|.)"), ""),
]
BREAK_MACROS = {"SH", "SS", "PP", "LP", "P", "TP", "IP", "HP", "TH", "sp", "br", "Sh", "Ss", "Pp", "Bl", "El", "It"}
TEXT_MACROS = {"B", "I", "BR", "BI", "IB", "IR", "RB", "RI", "SM", "SB", "Nm", "Ar", "Fl", "Em", "Sy", "Dq", "Ql", "Pa"}


def strip_troff(line):
    for pattern, replacement in TROFF_ESCAPES:
        line = pattern.sub(replacement, line)
    return line


def man_paragraphs(text):
    paragraphs, current = [], []
    for raw in text.splitlines():
        if raw.startswith((".", "'")):
            parts = raw[1:].split(None, 1)
            macro = parts[0] if parts else ""
            rest = parts[1] if len(parts) > 1 else ""
            if macro in BREAK_MACROS:
                if current:
                    paragraphs.append(" ".join(current))
                    current = []
                if macro in ("SH", "SS", "Sh", "Ss") and rest:
                    paragraphs.append(strip_troff(rest.replace('"', "")))
            elif macro in TEXT_MACROS and rest:
                current.append(strip_troff(rest.replace('"', "")))
            continue
        line = strip_troff(raw).strip()
        if line:
            current.append(line)
        elif current:
            paragraphs.append(" ".join(current))
            current = []
    if current:
        paragraphs.append(" ".join(current))
    return paragraphs


def man_texts():
    root = Path("/usr/share/man")
    if not root.is_dir():
        return
    for path in sorted(root.rglob("*.gz")):
        try:
            text = gzip.decompress(path.read_bytes()).decode("utf-8")
        except (OSError, UnicodeDecodeError, EOFError):
            continue
        rel = path.relative_to(root).as_posix()
        for index, paragraph in enumerate(man_paragraphs(text)):
            paragraph = re.sub(r"[ \t]+", " ", paragraph).strip()
            if len(paragraph) >= 20:
                yield "man:%s:%d" % (rel, index), paragraph


def doc_texts():
    root = Path("/usr/share/doc")
    if not root.is_dir():
        return
    for path in sorted(root.rglob("*")):
        if not path.is_file() or path.is_symlink() or path.stat().st_size > 300_000:
            continue
        try:
            data = path.read_bytes()
            if path.suffix == ".gz":
                data = gzip.decompress(data)
            text = data.decode("utf-8")
        except (OSError, UnicodeDecodeError, EOFError):
            continue
        if "\x00" in text:
            continue
        rel = path.relative_to(root).as_posix()
        for index, paragraph in enumerate(re.split(r"\n\s*\n", text)):
            paragraph = paragraph.strip()
            if len(paragraph) >= 20:
                yield "doc:%s:%d" % (rel, index), paragraph


def spaced(items, limit):
    """At most `limit` items, evenly spaced over the sorted input (deterministic)."""
    if len(items) <= limit:
        return items
    step = len(items) / limit
    return [items[int(k * step)] for k in range(limit)]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", required=True, help="output folder")
    parser.add_argument("--random", type=int, default=3000, help="seeded random mixed-script strings")
    parser.add_argument("--per-source", type=int, default=50000,
                        help="at most this many man / doc paragraphs (evenly spaced, deterministic)")
    parser.add_argument("--documents", type=int, default=25000,
                        help="retrieval corpus size: docstrings first, then English man paragraphs as distractors")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    seen = set()
    counts = {}
    documents, queries = [], []
    with open(out / "texts.jsonl", "w", encoding="utf-8") as texts:
        def emit(ident, text):
            if text in seen:
                return
            seen.add(text)
            counts[ident.split(":", 1)[0]] = counts.get(ident.split(":", 1)[0], 0) + 1
            texts.write(json.dumps({"id": ident, "text": text}, ensure_ascii=False) + "\n")

        all_docstrings = list(stdlib_docstrings())
        for ident, doc in all_docstrings:
            emit(ident, doc)
            summary, _, body = doc.partition("\n")
            summary, body = summary.strip(), body.strip()
            if len(summary) >= 15 and len(body) >= 40:
                documents.append({"id": ident, "text": body, "title": ident.split(":", 1)[1]})
                queries.append({"query": summary, "relevant": [ident]})
        man = list(man_texts())
        for ident, text in spaced(man, args.per_source):
            emit(ident, text)
        for ident, text in spaced(list(doc_texts()), args.per_source):
            emit(ident, text)
        for index, text in enumerate(EDGE_CASES):
            emit("edge:%d" % index, text)
        for index, text in enumerate(random_strings(args.random)):
            emit("random:%d" % index, text)

    # A docstring body can repeat (inherited overrides); keep the first document with each body.
    bodies = {}
    written_queries = 0
    with open(out / "corpus.jsonl", "w", encoding="utf-8") as corpus, \
            open(out / "queries.jsonl", "w", encoding="utf-8") as query_file:
        for document, query in zip(documents, queries):
            if document["text"] in bodies:
                continue
            bodies[document["text"]] = document["id"]
            corpus.write(json.dumps(document, ensure_ascii=False) + "\n")
            query_file.write(json.dumps(query, ensure_ascii=False) + "\n")
            written_queries += 1
        # Distractors: other docstrings (no usable summary line), then English man page paragraphs.
        english = [(i, t) for i, t in man if re.match(r"man:man\d", i) and len(t) >= 80]
        # A docstring that gave a query is never a distractor too: its full text holds the query itself.
        used = set(bodies.values())
        extra = [(i, d) for i, d in all_docstrings if d not in bodies and i not in used]
        extra += spaced(english, max(0, args.documents - len(bodies) - len(extra)))
        for ident, text in extra:
            if len(bodies) >= args.documents or text in bodies or ident in used:
                continue
            used.add(ident)
            bodies[text] = ident
            title = ident.split(":", 1)[1]
            corpus.write(json.dumps({"id": ident, "text": text, "title": title}, ensure_ascii=False) + "\n")
    print("texts:", sum(counts.values()), counts, "| retrieval documents:", len(bodies), "queries:", written_queries,
          "| python", sys.version.split()[0], file=sys.stderr)


if __name__ == "__main__":
    main()
