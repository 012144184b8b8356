#!/usr/bin/env python3
"""Generate Sources/HushEmbedding/Tokenizer/BertUnicodeTables.swift by probing the `tokenizers` library.

Every Unicode scalar value is pushed through each step of BertNormalizer and BertPreTokenizer on its own, so
the Swift tables reproduce the Rust library's behaviour exactly (its Unicode tables are older than Swift's).
The script then checks that composing the per-step results gives the full normalizer's output for every
scalar, so the step order assumed by the Swift code is verified too.

Usage: /root/.cache/hush-peers/bin/python scripts/tokenizer-parity/gen_tables.py [output.swift]
"""

import sys
from pathlib import Path

import tokenizers
from tokenizers.normalizers import BertNormalizer
from tokenizers.pre_tokenizers import BertPreTokenizer

MAX = 0x110000
REMOVED, CLEAN_SPACE, CHINESE, SPLIT_SPACE, PUNCT, HAS_STRIP, HAS_LOWER = 1, 2, 4, 8, 16, 32, 64
HANGUL_FIRST, HANGUL_LAST = 0xAC00, 0xD7A3


def scalars():
    for c in range(MAX):
        if 0xD800 <= c <= 0xDFFF:
            continue
        yield c


def hangul_nfd(c):
    s = c - HANGUL_FIRST
    lead, vowel, trail = 0x1100 + s // 588, 0x1161 + (s % 588) // 28, 0x11A7 + s % 28
    return [lead, vowel] + ([trail] if trail != 0x11A7 else [])


def wrap(items, width=100):
    """Comma-separated items, wrapped at item boundaries (a line break also separates items)."""
    lines, line = [], ""
    for item in items:
        if line and len(line) + len(item) + 1 > width:
            lines.append(line)
            line = ""
        line = line + ("," if line else "") + item
    if line:
        lines.append(line)
    return lines


def main():
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2] / \
        "Sources/HushEmbedding/Tokenizer/BertUnicodeTables.swift"
    clean = BertNormalizer(clean_text=True, handle_chinese_chars=False, strip_accents=False, lowercase=False)
    chinese = BertNormalizer(clean_text=False, handle_chinese_chars=True, strip_accents=False, lowercase=False)
    strip = BertNormalizer(clean_text=False, handle_chinese_chars=False, strip_accents=True, lowercase=False)
    lower = BertNormalizer(clean_text=False, handle_chinese_chars=False, strip_accents=False, lowercase=True)
    full = BertNormalizer(clean_text=True, handle_chinese_chars=True, strip_accents=None, lowercase=True)
    pre = BertPreTokenizer()

    flags = [0] * MAX
    strip_map, lower_map = {}, {}
    for c in scalars():
        ch = chr(c)
        f = 0
        r = clean.normalize_str(ch)
        if r == "":
            f |= REMOVED
        elif r == " " and ch != " ":
            f |= CLEAN_SPACE
        else:
            assert r == ch, (hex(c), r)
        r = chinese.normalize_str(ch)
        if r != ch:
            assert r == " " + ch + " ", (hex(c), r)
            f |= CHINESE
        r = strip.normalize_str(ch)
        if r != ch:
            f |= HAS_STRIP
            if HANGUL_FIRST <= c <= HANGUL_LAST:
                assert [ord(x) for x in r] == hangul_nfd(c), hex(c)
            else:
                strip_map[c] = [ord(x) for x in r]
        r = lower.normalize_str(ch)
        if r != ch:
            f |= HAS_LOWER
            lower_map[c] = [ord(x) for x in r]
        words = [w for w, _ in pre.pre_tokenize_str("a" + ch + "b")]
        if words == ["a", "b"]:
            f |= SPLIT_SPACE
        elif words == ["a", ch, "b"]:
            f |= PUNCT
        else:
            assert words == ["a" + ch + "b"], (hex(c), words)
        flags[c] = f

    # Check the composition order clean -> chinese -> strip -> lowercase on every scalar.
    def compose(c):
        f = flags[c]
        if f & REMOVED:
            return []
        if f & CLEAN_SPACE:
            c = 0x20
        f = flags[c]
        if f & CHINESE:
            return [0x20] + compose_rest(c) + [0x20]
        return compose_rest(c)

    def compose_rest(c):
        pieces = [c]
        if flags[c] & HAS_STRIP:
            pieces = hangul_nfd(c) if HANGUL_FIRST <= c <= HANGUL_LAST else strip_map[c]
        result = []
        for p in pieces:
            result += lower_map.get(p, [p])
        return result

    bad = 0
    for c in scalars():
        want = [ord(x) for x in full.normalize_str(chr(c))]
        if compose(c) != want:
            bad += 1
            if bad < 10:
                print("composition mismatch", hex(c), want, compose(c))
    assert bad == 0, bad
    # Lowercase output must not need a second strip pass (strip runs before lowercase in the library).
    runs = []
    prev = None
    for c in range(MAX):
        if flags[c] != prev:
            runs.append((c, flags[c]))
            prev = flags[c]

    def mapping_literal(m):
        parts = []
        for k in sorted(m):
            parts.append("%X:%s" % (k, ".".join("%X" % v for v in m[k])))
        return "\n".join("        " + line for line in wrap(parts))

    run_lines = wrap(["%X:%X" % r for r in runs])
    src = []
    src.append("// GENERATED by scripts/tokenizer-parity/gen_tables.py from tokenizers %s. Do not edit." % tokenizers.__version__)
    src.append("// Per-scalar behaviour of BertNormalizer / BertPreTokenizer, probed one scalar at a time.")
    src.append("")
    src.append("enum BertUnicodeTables {")
    src.append("    /// `start:flags` runs in hex; flags: 1 removed, 2 clean-to-space, 4 CJK, 8 split space,")
    src.append("    /// 16 punctuation, 32 strip-accents changes it, 64 lowercase changes it.")
    src.append('    static let flagRuns = """')
    src.extend("        " + line for line in run_lines)
    src.append('        """')
    src.append("    /// `scalar:out.out...` for strip-accents (NFD, drop nonspacing marks), Hangul syllables excluded.")
    src.append('    static let stripMappings = """')
    src.append(mapping_literal(strip_map))
    src.append('        """')
    src.append("    /// `scalar:out.out...` for per-scalar lowercasing.")
    src.append('    static let lowerMappings = """')
    src.append(mapping_literal(lower_map))
    src.append('        """')
    src.append("}")
    out.write_text("\n".join(src) + "\n")
    print("runs", len(runs), "strip", len(strip_map), "lower", len(lower_map), "->", out)


if __name__ == "__main__":
    main()
