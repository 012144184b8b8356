"""Hand-picked edge strings for tokenizer parity, plus a seeded generator of mixed-script strings.

These are test inputs, written here on purpose; everything else in the corpus is real text extracted from
the machine (Python standard library docstrings, man pages, /usr/share/doc).
"""

import random

EDGE_CASES = [
    "",
    " ",
    "   \t\n  ",
    "\n\n\n",
    "\u3000\u00a0\u2003",
    "Hello, world!",
    "hello [SEP] x",
    "a[SEP]b",
    "[CLS]",
    "[SEP]",
    "[MASK]",
    "[UNK]",
    "[PAD]",
    "[cls] [sep] [mask] [unk]",
    "[CLS][SEP][MASK][UNK][PAD]",
    "Use [MASK] to hide a word, [UNK] for unknown, and [SEP] between sentences.",
    "[[SEP]] [ SEP ] [SEP [SEP]]",
    "Café au lait, naïve résumé, Ångström, façade, jalapeño, Zürich, São Paulo, Øresund, Łódź",
    "CAFÉ NAÏVE ÅNGSTRÖM",
    "e\u0301 a\u0308 o\u0302\u0323 n\u0303",
    "Z\u0351\u036b\u0343\u036a\u0302\u036b\u033d\u034f\u0334\u0319\u0324\u031e\u0349\u035a\u032f\u031e\u0320\u034dA\u036b\u0357",
    "İstanbul İZMİR ıi",
    "ΟΔΟΣ ὈΔΥΣΣΕΎΣ σοφός Σίσυφος",
    "Straße STRASSE ß ẞ",
    "ﬁnance ﬂow ﬀ",
    "Ǆ ǅ ǆ ǈ",
    "中文分词测试：我爱北京天安门。",
    "日本語のテキスト、ひらがなとカタカナ。東京タワー",
    "한국어 텍스트입니다. 서울특별시",
    "Mixed 中文 and English 和 日本語 text",
    "豈 更 車 賈 滑 串 句 龜",
    "𠀀𠀁𪜀𫝀𫠠𬺰",
    "😀 😃 🥰 🤖 🦀",
    "👍🏽 👋🏿 🧑🏻‍💻",
    "👨‍👩‍👧‍👦 family, 🏳️‍🌈 flag, ❤️‍🔥",
    "🇫🇷🇯🇵🇺🇸",
    "I ❤ Unicode ☃ ★ ✓ ✗ → ← ∞ ≠ ≤",
    "tab\there\nnewline\rcarriage",
    "bell\u0007 backspace\u0008 escape\u001b delete\u007f",
    "null\u0000byte",
    "soft\u00adhyphen",
    "zero\u200bwidth\u200cnon\u200djoiner\u2060word\ufeffjoiner",
    "replacement \ufffd char \ufffd\ufffd",
    "line\u2028separator\u2029paragraph",
    "next\u0085line",
    "private \ue000\uf8ff use",
    "bidi \u202eoverride\u202c and \u200fmarks\u200e",
    "العربية نص تجريبي، مرحبا بالعالم!",
    "عَرَبِيّ مُشَكَّل",
    "עברית טקסט לדוגמה, שלום עולם",
    "שָׁלוֹם",
    "हिन्दी पाठ नमस्ते",
    "ภาษาไทย สวัสดีครับ",
    "Русский текст, Ёлка, ЁЖИК",
    "a" * 101,
    "b" * 100,
    "c" * 99,
    "supercalifragilisticexpialidocious" * 4,
    "x" * 300 + " short " + "y" * 50,
    "é" * 120,
    "https://example.com/path/to/page?query=1&lang=en#section-2",
    "mailto:someone@example.org ftp://files.example.net/pub/file.tar.gz",
    "def f(x: int) -> dict[str, list[int]]: return {'a': [x ** 2 for x in range(10)]}",
    "if (a && b || !c) { x += y >> 2; } // comment /* block */",
    "SELECT * FROM users WHERE id = 42 AND name LIKE '%bob%';",
    "$HOME/.config/app.yaml ~/bin/run.sh C:\\Users\\Name\\file.txt",
    "1,234,567.89 3.14159 -42 1e-10 0x1F 50% $100 €200 ¥300 £400",
    "...!!!???,,,;;;:::---___",
    "«quotes» „German“ ‘single’ “double” 「Japanese」 『brackets』",
    "em—dash en–dash hyphen-minus ‐ ‑ ‒ ―",
    "¡Hola! ¿Qué tal?",
    "x² + y³ = z⁴, H₂O, ½ ¼ ¾, ℃ ℉ № ™ ©",
    "ＦＵＬＬＷＩＤＴＨ　ｔｅｘｔ１２３",
    "𝐁𝐨𝐥𝐝 𝑰𝒕𝒂𝒍𝒊𝒄 𝔉𝔯𝔞𝔨𝔱𝔲𝔯",
    "한 조합형",
    "\u1b05\u1b44\u08d4\u0c3c mixed new marks",
    "word " * 400,
    "The quick brown fox jumps over the lazy dog. " * 40,
]

# Characters drawn from for seeded random strings: every class the normalizer and pre-tokenizer treat
# specially, so combinations (e.g. a control char between accents) are exercised.
ALPHABET = (
    list("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    + list(" \t\n\r.,;:!?'\"()[]{}<>-_/\\@#$%^&*+=|~`")
    + list("éèêëàâäôöûüçñÅåØøÆæßİıΣσςΑΩабвгдЁё")
    + ["\u0301", "\u0308", "\u0323", "\u0300", "\u034f", "\u0951"]
    + list("中文字日本語漢字ひらがなカタカナ한국어글")
    + ["😀", "👍", "🏽", "\u200d", "❤", "\ufe0f", "🇫", "🇷"]
    + ["\u0000", "\u0007", "\u001b", "\u007f", "\u0085", "\u00ad", "\u200b", "\u200e", "\u2028", "\ufeff", "\ufffd"]
    + list("العربيةעברית")
    + ["[CLS]", "[SEP]", "[MASK]", "[UNK]", "[PAD]", "[SEP", "SEP]"]
)


# Combining marks of many classes, old and new (some newer than the library's Unicode tables), nonspacing and
# spacing, mixed with bases, so canonical reordering before accent stripping is exercised.
MARKS = (
    list("aeiouAEIOUकאاᬅ")
    + ["́", "̀", "̖", "̴", "ͅ", "ְ", "़", "्", "ཱ", "ི", "ཱི"]
    + ["᭄", "ࣔ", "఼", "᫁", "𖿰", "𝅥", "𝅭", "่", "〪", "̈́"]
    + ["​", "­", " "]
)


def random_strings(count, seed=20240611):
    """`count` strings over ALPHABET, then `count // 4` strings dense in combining marks."""
    rng = random.Random(seed)
    result = []
    for _ in range(count):
        length = rng.choice([1, 2, 3, 5, 8, 13, 30, 80])
        result.append("".join(rng.choice(ALPHABET) for _ in range(length)))
    for _ in range(count // 4):
        length = rng.choice([2, 3, 4, 6, 10, 20])
        result.append("".join(rng.choice(MARKS) for _ in range(length)))
    return result
