/// The text of the keyword index (FTS5, `chunks_fts`): what a chunk's row holds, written by the write path
/// and by the upgrade of older files. Queries are built from the same pieces (`FTSQuery`).
///
/// ```swift
/// KeywordText.segment("東京大学")  // " 東京 京大 大学 学 "
/// KeywordText.row(chunk: "Long run today", extras: "running @alice_runs")
/// ```
enum KeywordText {
    /// What the keyword index holds beside a document's first chunk: its tags, its category, and the links and
    /// @mentions that cleaning replaced, as the person wrote them (the model never sees those; keywords do).
    static func extras(_ document: Document, cleaner: TextCleaner) -> String {
        var parts = document.tags
        if let category = document.category { parts.append(category) }
        var texts = [document.title, document.body, document.quoted].compactMap { $0 }
        for field in document.fields { texts.append(field.value) }
        for text in texts { parts += cleaner.replacedSpans(in: text) }
        return parts.joined(separator: " ")
    }

    /// The text of a chunk's FTS row: the chunk (CJK runs segmented), then the document's extras if any.
    static func row(chunk: String, extras: String) -> String {
        extras.isEmpty ? segment(chunk) : segment(chunk) + "\n\n" + segment(extras)
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
