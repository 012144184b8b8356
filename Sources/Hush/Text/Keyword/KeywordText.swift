/// The text of the keyword index (FTS5, `chunks_fts`): what a chunk's row holds, written by the write path
/// and by the upgrade of older files. Queries are built from the same pieces (`FTSQuery`).
///
/// ```swift
/// KeywordText.segment("東京大学")  // " 東京 京大 大学 学 "
/// KeywordText.segment("กาแฟ")      // " กา าแ แฟ ฟ "
/// KeywordText.row(chunk: "Long run today", extras: "running @alice_runs")
/// ```
enum KeywordText {
    /// What the keyword index holds beside a document's first chunk: its tags, its category, its metadata's
    /// values (a note's `location: Lisbon`, a spreadsheet's `Attendees` column), and the links and @mentions
    /// that cleaning replaced, as the person wrote them (the model never sees those; keywords do).
    static func extras(_ document: Document, cleaner: TextCleaner) -> String {
        var parts = document.tags
        if let category = document.category { parts.append(category) }
        for key in document.metadata.keys.sorted() {
            if let value = document.metadata[key] { parts.append(value) }
        }
        var texts = [document.title, document.body, document.quoted].compactMap { $0 }
        for field in document.fields { texts.append(field.value) }
        for text in texts { parts += cleaner.replacedSpans(in: text) }
        return parts.joined(separator: " ")
    }

    /// The text of a chunk's FTS row: the chunk (``segment(_:)``), then the document's extras if any.
    static func row(chunk: String, extras: String) -> String {
        extras.isEmpty ? segment(chunk) : segment(chunk) + "\n\n" + segment(extras)
    }

    /// The text stored in the FTS column: unchanged, except that runs of the scripts written without spaces
    /// (``isBigrammed(_:)``) become overlapping bigrams of their letters plus their last letter, separated by
    /// spaces (a letter keeps the combining marks after it: `ร้านกาแฟ` → `ร้า าน นก กา าแ แฟ ฟ`), and the optional
    /// vowel marks of Arabic and Hebrew are left out (``isOptionalMark(_:)``), so that a word written with them
    /// is found by the word written without, as it usually is. A symbol (``isSymbol(_:)``: an emoji, `©`, `°`) is
    /// a word of its own (`Morning☕️` → `Morning ☕ `).
    ///
    /// The dotless ı (Turkish, Azerbaijani) is written i: SQLite folds the capital İ and I to i, never ı, so
    /// "diyarbakır" would not find "DİYARBAKIR"; ``words(_:)`` does the same to queries.
    static func segment(_ text: String) -> String {
        let text = dottingDotlessI(text)
        guard text.unicodeScalars.contains(where: { isBigrammed($0) || isOptionalMark($0) || isSymbol($0) }) else {
            return text
        }
        var output = String.UnicodeScalarView()
        for piece in pieces(text) {
            switch piece {
            case .text(let other):
                output.append(contentsOf: other)
            case .symbol(let symbol):
                output.append(contentsOf: [" ", symbol, " "])
            case .run(let letters):
                output.append(" ")
                if letters.count > 1 {
                    for index in 0..<(letters.count - 1) {
                        output.append(contentsOf: letters[index])
                        output.append(contentsOf: letters[index + 1])
                        output.append(" ")
                    }
                }
                if let last = letters.last { output.append(contentsOf: last) }
                output.append(" ")
            }
        }
        return String(output)
    }

    /// `text` with every dotless ı written i (see ``segment(_:)``).
    static func dottingDotlessI(_ text: String) -> String {
        guard text.unicodeScalars.contains("\u{131}") else { return text }
        var output = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { output.append(dotted(scalar)) }
        return String(output)
    }

    /// i for the dotless ı, else the scalar (see ``segment(_:)``).
    @inline(__always)
    static func dotted(_ scalar: Unicode.Scalar) -> Unicode.Scalar { scalar == "\u{131}" ? "i" : scalar }

    /// A part of a text as the keyword index cuts it (``pieces(_:)``).
    enum Piece {
        /// Text of other scripts, as it is.
        case text(String.UnicodeScalarView)
        /// A run of a script written without spaces, letter by letter (each letter with its marks).
        case run([String.UnicodeScalarView])
        /// A symbol, a word of its own.
        case symbol(Unicode.Scalar)
    }

    /// `text` as runs of the scripts written without spaces and the text between them, optional marks left
    /// out. A combining mark joins the letter before it in a run (Thai, Khmer and Myanmar write vowels and
    /// tones as marks), so that no bigram starts with a mark.
    ///
    /// - Complexity: O(n) in the length of the text.
    static func pieces(_ text: String) -> [Piece] {
        var pieces: [Piece] = []
        var run: [String.UnicodeScalarView] = []
        var other = String.UnicodeScalarView()
        func endRun() {
            if !run.isEmpty { pieces.append(.run(run)) }
            run.removeAll()
        }
        func endOther() {
            if !other.isEmpty { pieces.append(.text(other)) }
            other = String.UnicodeScalarView()
        }
        for scalar in text.unicodeScalars {
            if isOptionalMark(scalar) { continue }
            if !run.isEmpty, isMark(scalar) {
                run[run.count - 1].append(scalar)
            } else if isSymbol(scalar) {
                endRun()
                endOther()
                pieces.append(.symbol(scalar))
            } else if isBigrammed(scalar) {
                endOther()
                run.append(String.UnicodeScalarView([scalar]))
            } else {
                endRun()
                other.append(scalar)
            }
        }
        endRun()
        endOther()
        return pieces
    }

    /// A letter of a script written without spaces between words, whose runs the index holds as bigrams: Han,
    /// kana and Hangul (``isCJK(_:)``), Thai, Lao, Khmer and Myanmar.
    static func isBigrammed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0E01...0x0EFF,  // Thai, Lao
            0x1000...0x109F, 0xA9E0...0xA9FF, 0xAA60...0xAA7F,  // Myanmar
            0x1780...0x17FF, 0x19E0...0x19FF:  // Khmer
            return !isMark(scalar) && scalar.properties.generalCategory != .otherPunctuation
        default:
            return isCJK(scalar)
        }
    }

    /// The beginnings of `word` that its inflected forms share, to match as prefixes, for a word of the
    /// Brahmic scripts of India and Sri Lanka (Devanagari to Sinhala), whose languages add case endings, plural
    /// and postpositions to the word (Gujarati "કમ્પ્યૂટર", computer, is "કમ્પ્યૂટરને" in the page) and which
    /// the index does not stem: the word itself, of two syllables or more (a syllable: its consonants joined by
    /// viramas, with their vowel signs), and from four syllables, the word without its last one (Hindi
    /// "ऑपरेटर्स", operators, reaches "ऑपरेटर"). Empty for other words.
    ///
    /// ```swift
    /// KeywordText.inflectionPrefixes("कम्प्यूटर")  // ["कम्प्यूटर", "कम्प्यूट"]
    /// KeywordText.inflectionPrefixes("budget")    // []
    /// ```
    static func inflectionPrefixes(_ word: String) -> [String] {
        guard let first = word.unicodeScalars.first, (0x0900...0x0DFF).contains(first.value) else { return [] }
        var letters: [String.UnicodeScalarView] = []
        for scalar in word.unicodeScalars {
            let joined = letters.last?.last.map { $0.properties.canonicalCombiningClass == .virama } == true
            if (isMark(scalar) || joined), !letters.isEmpty {
                letters[letters.count - 1].append(scalar)
            } else {
                letters.append(String.UnicodeScalarView([scalar]))
            }
        }
        guard letters.count >= 2 else { return [] }
        var prefixes = [word]
        if letters.count >= 4 { prefixes.append(String(String.UnicodeScalarView(letters.dropLast().joined()))) }
        return prefixes
    }

    /// A symbol the index holds as a word of its own (Unicode's "other symbol": emoji, `©`, `°`, `☕`, and the
    /// regional indicators a flag is written with): what a post says with an emoji is found by it.
    static func isSymbol(_ scalar: Unicode.Scalar) -> Bool {
        !scalar.isASCII && scalar.properties.generalCategory == .otherSymbol
    }

    /// The words of `text` as the index holds them: lower-cased runs of letters, digits and marks, without the
    /// marks a writer may leave out (``isOptionalMark(_:)``), and, as one word, each run of symbols written
    /// together, the zero-width joiners between them left out (`👩‍👩‍👧` is one word of three symbols, matched as the
    /// phrase of them).
    ///
    /// ```swift
    /// KeywordText.words("Morning☕️ with ابْتِسَامَة")  // ["morning", "☕", "with", "ابتسامة"]
    /// ```
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = String.UnicodeScalarView()
        var symbols = false  // whether `current` is a run of symbols
        func flush() {
            if !current.isEmpty { words.append(String(current)) }
            current = String.UnicodeScalarView()
        }
        for scalar in dottingDotlessI(text.lowercased()).unicodeScalars {
            if isOptionalMark(scalar) { continue }
            if isSymbol(scalar) {
                if !symbols { flush() }
                symbols = true
                current.append(scalar)
            } else if symbols, scalar.value == 0x200D {
                continue
            } else if WordSplitter.isIndexedCharacter(scalar) {
                if symbols { flush() }
                symbols = false
                current.append(scalar)
            } else {
                flush()
                symbols = false
            }
        }
        flush()
        return words
    }

    /// A combining mark (a vowel sign, a tone, an accent).
    static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        guard !scalar.isASCII else { return false }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    /// Marks a writer may leave out without changing the word: Arabic's short vowels, shadda and sukun
    /// (harakat), its superscript alef and the tatweel that only stretches a line, Hebrew's vowel points and
    /// cantillation (niqqud), the variation selectors that ask for an emoji or a text glyph (`☕️` is `☕`
    /// and U+FE0F, which would otherwise be a word of its own in every post with an emoji), and the skin tones
    /// that follow an emoji of a person (👍🏽 is found by 👍).
    static func isOptionalMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x064B...0x0652, 0x0656...0x065F, 0x0670, 0x0640,  // Arabic (the hamza and madda of أ إ آ stay)
            0x0591...0x05BD, 0x05BF, 0x05C1...0x05C2, 0x05C4...0x05C5, 0x05C7,  // Hebrew
            0xFE00...0xFE0F, 0xE0100...0xE01EF,  // variation selectors
            0x1F3FB...0x1F3FF:  // skin tones
            return true
        default:
            return false
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
