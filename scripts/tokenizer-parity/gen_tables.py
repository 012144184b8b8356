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

import unicodedata

import tokenizers
from tokenizers.normalizers import NFD, BertNormalizer
from tokenizers.pre_tokenizers import BertPreTokenizer

MAX = 0x110000
REMOVED, CLEAN_SPACE, CHINESE, SPLIT_SPACE, PUNCT, HAS_STRIP, HAS_LOWER, COMBINING = 1, 2, 4, 8, 16, 32, 64, 128
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


def probe_combining_classes(nfd, candidates):
    """The canonical combining class the library's NFD uses, found through canonical reordering.

    Reference marks with each class value come from Python's unicodedata; X has a class above v when NFD
    moves X after the reference of v, below v when NFD moves X before it.
    """
    def swaps(first, second):
        if first == second:
            return False
        return nfd.normalize_str("a" + chr(first) + chr(second)) == "a" + chr(second) + chr(first)

    def known(x, value):  # anchors: U+0334 (class 1) and U+0301 (class 230) are in every Unicode version
        return swaps(x, 0x334) if value > 1 else swaps(0x301, x)

    reference = {}
    for c in range(0x300, MAX):
        if 0xD800 <= c <= 0xDFFF:
            continue
        value = unicodedata.combining(chr(c))
        if value and value not in reference and nfd.normalize_str(chr(c)) == chr(c) and known(c, value):
            reference[value] = c
    values = sorted(reference)

    for a in values:  # the references themselves must order as their class values say
        for b in values:
            assert swaps(reference[a], reference[b]) == (a > b), (a, b)
    classes = {}
    for x in candidates:
        above = [v for v in values if swaps(x, reference[v])]
        below = [v for v in values if swaps(reference[v], x)]
        if not above and not below:
            if x in reference.values():
                classes[x] = unicodedata.combining(chr(x))
            continue
        low, high = max(above, default=0), min(below, default=256)
        fits = [v for v in values if low < v < high]
        if x in reference.values():
            fits = [unicodedata.combining(chr(x))]
        assert len(fits) == 1, (hex(x), low, high)
        classes[x] = fits[0]
    return classes


def main():
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2] / \
        "Sources/HushEmbedding/Tokenizer/BertUnicodeTables.swift"
    clean = BertNormalizer(clean_text=True, handle_chinese_chars=False, strip_accents=False, lowercase=False)
    chinese = BertNormalizer(clean_text=False, handle_chinese_chars=True, strip_accents=False, lowercase=False)
    strip = BertNormalizer(clean_text=False, handle_chinese_chars=False, strip_accents=True, lowercase=False)
    lower = BertNormalizer(clean_text=False, handle_chinese_chars=False, strip_accents=False, lowercase=True)
    full = BertNormalizer(clean_text=True, handle_chinese_chars=True, strip_accents=None, lowercase=True)
    pre = BertPreTokenizer()
    nfd = NFD()
    nfd_map = {}

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
                decomposed = nfd.normalize_str(ch)
                if decomposed != ch:
                    nfd_map[c] = [ord(x) for x in decomposed]
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

    # Strip accents = full NFD, then drop the scalars that strip on their own (nonspacing marks).
    for c, pieces in strip_map.items():
        if c in nfd_map:
            kept = [d for d in nfd_map[c] if not (flags[d] & HAS_STRIP and d not in nfd_map)]
            assert kept == pieces, (hex(c), pieces, nfd_map[c])
        else:
            assert pieces == [], hex(c)
    candidates = sorted({c for c in scalars() if unicodedata.combining(chr(c)) and chr(c) == nfd.normalize_str(chr(c))})
    classes = probe_combining_classes(nfd, candidates)
    for c in classes:
        flags[c] |= COMBINING

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
    src.append("    /// 16 punctuation, 32 strip-accents changes it (decomposes, or is a dropped nonspacing mark),")
    src.append("    /// 64 lowercase changes it, 128 nonzero canonical combining class.")
    src.append('    static let flagRuns = """')
    src.extend("        " + line for line in run_lines)
    src.append('        """')
    src.append("    /// `scalar:out.out...` canonical decompositions (NFD), Hangul syllables excluded.")
    src.append('    static let decompositions = """')
    src.append(mapping_literal(nfd_map))
    src.append('        """')
    src.append("    /// `scalar:class` canonical combining classes (nonzero ones) as the library's NFD knows them.")
    src.append('    static let combiningClasses = """')
    src.append(mapping_literal({c: [v] for c, v in classes.items()}))
    src.append('        """')
    src.append("    /// `scalar:out.out...` for per-scalar lowercasing.")
    src.append('    static let lowerMappings = """')
    src.append(mapping_literal(lower_map))
    src.append('        """')
    src.append("}")
    out.write_text("\n".join(src) + "\n")
    print("runs", len(runs), "nfd", len(nfd_map), "ccc", len(classes), "lower", len(lower_map), "->", out)


if __name__ == "__main__":
    main()
