/// The one word splitter of Hush: lower-cased runs of word characters, in order.
///
/// By default word characters are those of SQLite FTS5's `unicode61` tokenizer, which the keyword index
/// uses: letters, digits and combining marks. A query split here therefore yields exactly the index's
/// tokens, and everything else (spaces, punctuation, FTS5 syntax such as `"`, `*`, `-`) only separates
/// words. The lexical fallback embedder passes its own rule (letters and digits, without marks), which is
/// part of its frozen definition (`hush-lexical-hashing-v1`): changing it would change its vectors.
///
/// ```swift
/// WordSplitter.words("Don't PANIC: 42 épées")  // ["don", "t", "panic", "42", "épées"]
/// ```
package enum WordSplitter {
    /// The lower-cased runs of `isWordCharacter` scalars of `text`, in order (repeats kept).
    ///
    /// - Complexity: O(text length).
    package static func words(
        _ text: String, isWordCharacter: (Unicode.Scalar) -> Bool = WordSplitter.isIndexedCharacter
    ) -> [String] {
        var words: [String] = []
        var current = String.UnicodeScalarView()
        for scalar in text.lowercased().unicodeScalars {
            if isWordCharacter(scalar) {
                current.append(scalar)
            } else if !current.isEmpty {
                words.append(String(current))
                current = String.UnicodeScalarView()
            }
        }
        if !current.isEmpty { words.append(String(current)) }
        return words
    }

    /// A token character of FTS5's `unicode61`: a letter, a digit, or a combining mark.
    package static func isIndexedCharacter(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return isASCIILetterOrDigit(scalar.value) }
        let properties = scalar.properties
        if properties.isAlphabetic || properties.numericType != nil { return true }
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    /// A letter or a digit (no marks): the lexical fallback embedder's rule.
    package static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return isASCIILetterOrDigit(scalar.value) }
        return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    /// The two rules above for an ASCII scalar (no ASCII mark; the only alphabetic and numeric ones are A-Z,
    /// a-z and 0-9), without the Unicode property tables' lookups: they were a tenth of indexing's time.
    @inline(__always)
    package static func isASCIILetterOrDigit(_ value: UInt32) -> Bool {
        (0x30...0x39).contains(value) || (0x61...0x7A).contains(value | 0x20)
    }
}
