import Foundation

/// What SQLite FTS5's `unicode61` tokenizer with `remove_diacritics 2` does to the characters of a token
/// before `porter` stems it (the first half of ``KeywordStemmer``).
///
/// Each character is lower-cased, and a Latin letter with diacritics loses them. SQLite's tables come from
/// Unicode 6.1, so this follows Unicode 6.1 too:
///
/// - lower case: the character's one-character lower-case mapping, when both it and the mapping were
///   already in Unicode 6.1 (Cherokee, whose lower case came in Unicode 8, stays upper case, as in SQLite);
/// - diacritics: a character whose canonical decomposition is an ASCII character followed only by the
///   diacritics `unicode61` removes (`é` → `e`, `ǖ` → `u`) becomes that letter, and those diacritics
///   alone (combining accents) are dropped;
/// - the few characters SQLite folds otherwise (`ſ` → `s`, `ς` → `σ`, `µ` → `μ`, `İ` → `i`, …) are listed.
///
/// `TextStemmerTests` folds every assigned code point both ways, here and in SQLite, and requires the same
/// result for each one that SQLite keeps in a token.
///
/// ```swift
/// KeywordFolding.fold("Écrivez")  // "ecrivez"
/// KeywordFolding.fold("Straße")   // "straße"
/// ```
enum KeywordFolding {
    /// The folded word.
    ///
    /// - Complexity: O(n) in the length of the word.
    static func fold(_ word: String) -> String {
        if word.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: word.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
        }
        var folded = String.UnicodeScalarView()
        for scalar in word.unicodeScalars {
            if let replacement = fold(scalar) { folded.append(replacement) }
        }
        return String(folded)
    }

    /// The folded character, or `nil` for a diacritic that is removed.
    static func fold(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        if scalar.isASCII {
            return (0x41...0x5A).contains(scalar.value) ? Unicode.Scalar(UInt8(scalar.value) + 0x20) : scalar
        }
        if removedDiacritics.contains(scalar.value) { return nil }
        if let special = special[scalar.value] { return special }
        var lower = scalar
        let mapping = scalar.properties.lowercaseMapping.unicodeScalars
        if mapping.count == 1, let only = mapping.first, isInUnicode61(scalar), isInUnicode61(only) {
            lower = only
        }
        let decomposed = String(lower).decomposedStringWithCanonicalMapping.unicodeScalars
        if decomposed.count > 1, let base = decomposed.first, base.isASCII,
            decomposed.dropFirst().allSatisfy({ removedDiacritics.contains($0.value) })
        {
            return base
        }
        return lower
    }

    /// The combining diacritics `unicode61` drops with `remove_diacritics 2`: the marks its tables record as
    /// diacritics (other combining marks end a token there).
    static let removedDiacritics: Set<UInt32> = [
        0x300, 0x301, 0x302, 0x303, 0x304, 0x306, 0x307, 0x308, 0x309, 0x30A, 0x30B, 0x30C, 0x30F, 0x311, 0x31B,
        0x323, 0x324, 0x325, 0x326, 0x327, 0x328, 0x32D, 0x32E, 0x330, 0x331,
    ]

    /// Where SQLite's case folding differs from the lower-case mapping, and the letters with two diacritics
    /// its table leaves alone.
    private static let special: [UInt32: Unicode.Scalar] = [
        0xB5: "\u{3BC}",  // micro sign → μ
        0x130: "i",  // İ (its lower case is i + combining dot)
        0x17F: "s",  // long s
        0x1E0: "\u{1E1}", 0x1E1: "\u{1E1}",  // ǡ keeps its dot and macron
        0x3C2: "\u{3C3}",  // final sigma → σ
        0x3D0: "\u{3B2}", 0x3D1: "\u{3B8}", 0x3D5: "\u{3C6}", 0x3D6: "\u{3C0}",  // Greek symbol forms
        0x3F0: "\u{3BA}", 0x3F1: "\u{3C1}", 0x3F5: "\u{3B5}",
        0x1E9B: "s",  // long s with dot above
        0x1FBE: "\u{3B9}",  // prosgegrammeni → ι
    ]

    private static func isInUnicode61(_ scalar: Unicode.Scalar) -> Bool {
        guard let age = scalar.properties.age else { return false }
        return age.major < 6 || (age.major == 6 && age.minor <= 1)
    }
}
