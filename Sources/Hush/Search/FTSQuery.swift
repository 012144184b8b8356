/// Builds FTS5 MATCH expressions that are always valid, whatever the user typed, and prepares CJK text
/// for the index.
///
/// User input is never passed to FTS5 as syntax. It is split into terms (runs of letters, digits and
/// combining marks); every term becomes a double-quoted string token, so `AND`, `OR`, `NOT`, `NEAR`, `*`,
/// `^`, `:`, `-`, `+`, parentheses and quotes are only ever text. Terms are joined with `OR`; bm25 then
/// ranks documents that match more (and rarer) terms higher.
///
/// CJK scripts have no spaces between words, so runs of Han, kana and Hangul are indexed as overlapping
/// bigrams plus the run's last character (`東京大学` → `東京 京大 大学 学`), and queried as a phrase of
/// bigrams (`"東京 京大 大学"`), or as a prefix for one character (`"学"*`). This keeps one
/// `porter unicode61` table for every language (see docs/store-schema.md for the trigram comparison).
enum FTSQuery {
    /// The terms of `text`: lower-cased runs of letters, digits and marks, in order, without duplicates.
    static func terms(_ text: String) -> [String] {
        var terms: [String] = []
        var seen = Set<String>()
        var current = String.UnicodeScalarView()
        func flush() {
            guard !current.isEmpty else { return }
            let term = String(current).lowercased()
            if seen.insert(term).inserted { terms.append(term) }
            current = String.UnicodeScalarView()
        }
        for scalar in text.unicodeScalars {
            if isWordScalar(scalar) {
                current.append(scalar)
            } else {
                flush()
            }
        }
        flush()
        return terms
    }

    /// A MATCH expression for `terms` (one string token per term, joined by `OR`, or `AND` when
    /// `requireAll`), or `nil` when there is nothing to match.
    static func expression(terms: [String], requireAll: Bool = false) -> String? {
        let tokens = terms.compactMap(token)
        guard !tokens.isEmpty else { return nil }
        return tokens.joined(separator: requireAll ? " AND " : " OR ")
    }

    /// A MATCH expression for raw user text.
    static func expression(for text: String, requireAll: Bool = false) -> String? {
        expression(terms: terms(text), requireAll: requireAll)
    }

    /// One term as a safe FTS5 token: a quoted string, a quoted bigram phrase for CJK runs, or a quoted
    /// prefix for a single CJK character.
    static func token(_ term: String) -> String? {
        let segmented = segment(term).split(separator: " ").map(String.init)
        guard !segmented.isEmpty else { return nil }
        let containsCJK = term.unicodeScalars.contains(where: isCJK)
        if containsCJK && segmented.count == 1 && term.unicodeScalars.count == 1 {
            return quote(segmented[0]) + "*"
        }
        // For a CJK run the trailing unigram is only an index aid; the bigrams carry the phrase.
        var parts = segmented
        if containsCJK, parts.count > 1, let last = parts.last, last.unicodeScalars.count == 1,
            let lastScalar = last.unicodeScalars.first, isCJK(lastScalar)
        {
            parts.removeLast()
        }
        return quote(parts.joined(separator: " "))
    }

    /// `"…"` with inner quotes doubled, the FTS5 string syntax.
    static func quote(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The text stored in the FTS column: unchanged, except that CJK runs become overlapping bigrams plus
    /// their last character, separated by spaces.
    static func segment(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isCJK) else { return text }
        var output = String.UnicodeScalarView()
        var run: [Unicode.Scalar] = []
        func flushRun() {
            guard !run.isEmpty else { return }
            output.append(" ")
            if run.count > 1 {
                for index in 0..<(run.count - 1) {
                    output.append(run[index])
                    output.append(run[index + 1])
                    output.append(" ")
                }
            }
            if let last = run.last { output.append(last) }
            output.append(" ")
            run.removeAll(keepingCapacity: true)
        }
        for scalar in text.unicodeScalars {
            if isCJK(scalar) {
                run.append(scalar)
            } else {
                flushRun()
                output.append(scalar)
            }
        }
        flushRun()
        return String(output)
    }

    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        if properties.isAlphabetic || properties.numericType != nil { return true }
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    /// Han, Hiragana, Katakana and Hangul.
    static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3040...0x30FF, 0x31F0...0x31FF,  // kana
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x2FA1F,  // Han
            0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF:  // Hangul
            return true
        default:
            return false
        }
    }
}
