import Foundation
import HushEmbedding

/// Where a query's words stand in a text, found as the keyword index finds them, for showing a hit with its
/// matched words marked (``SearchHit/highlights``).
///
/// A word of the text matches when the index would match it: the same stem (`running` is marked for `runs`,
/// `Café` for `cafe`), the start of an inflected Indic word (``KeywordText/inflectionPrefixes(_:)``), the start
/// of any word for the word being typed (`--as-you-type`). In the scripts written without spaces (Chinese,
/// Japanese, Korean, Thai, Lao, Khmer, Myanmar) the stretches made of the query's letter pairs are marked, and a
/// query of one such letter marks it wherever it stands.
///
/// ```swift
/// let highlighter = KeywordHighlighter(terms: ["running", "失眠"])
/// highlighter.ranges(in: "I run when 失眠 keeps me up")  // [2..<5, 11..<13]
/// ```
struct KeywordHighlighter: Sendable, Hashable {
    /// The index's stems of the query's words.
    private var stems: Set<String> = []
    /// The query's symbols, each run of them written together (a flag, a family) matched only whole, as the
    /// index matches it (the phrase of its symbols: 🇹🇭 does not mark the 🇹 of 🇹🇷).
    private var symbolRuns: Set<[Unicode.Scalar]> = []
    /// Folded beginnings a word may start with.
    private var prefixes: [String] = []
    /// The query's letter pairs in the scripts written without spaces, each letter with its marks.
    private var pairs: Set<String> = []
    /// The query's lone letters in those scripts.
    private var letters: Set<String> = []
    /// The folded first letters of the stems and prefixes: a word that starts otherwise is not stemmed (a stem
    /// starts as its word does).
    private var initials: Set<Unicode.Scalar> = []

    /// A highlighter for the query's `terms` (``QueryAnalysis/terms``), and the word being typed, if any.
    init(terms: [String], typing: String? = nil) {
        for term in terms {
            var symbols: [Unicode.Scalar] = []
            for piece in KeywordText.pieces(term) {
                switch piece {
                case .text(let text):
                    for word in KeywordText.words(String(text)) {
                        stems.insert(QueryAnalyzer.stem(word))
                        prefixes += KeywordText.inflectionPrefixes(word).map(KeywordFolding.fold)
                    }
                case .symbol(let symbol):
                    symbols.append(symbol)
                case .run(let run):
                    let run = run.map(String.init)
                    if run.count == 1 { letters.insert(run[0]) }
                    for index in run.indices.dropLast() { pairs.insert(run[index] + run[index + 1]) }
                }
            }
            if !symbols.isEmpty { symbolRuns.insert(symbols) }
        }
        if let typing { prefixes += KeywordText.words(typing).map(KeywordFolding.fold) }
        initials = Set((Array(stems) + prefixes).compactMap(\.unicodeScalars.first))
    }

    /// Whether nothing can be marked.
    var isEmpty: Bool {
        stems.isEmpty && prefixes.isEmpty && pairs.isEmpty && letters.isEmpty && symbolRuns.isEmpty
    }

    /// The UTF-16 offsets in `text` of the words and stretches that match, in order, apart from each other.
    ///
    /// - Complexity: O(n) in the length of `text`; only the words that start as a stem does are stemmed.
    func ranges(in text: String) -> [Range<Int>] {
        guard !isEmpty else { return [] }
        var found: [Range<Int>] = []
        let scalars = Array(text.unicodeScalars)
        // The word being read: its first scalar and UTF-16 offsets (a word is made into a string only when its
        // first letter starts a stem).
        var wordStart = -1
        var wordRange = 0..<0
        var run: [(letter: String.UnicodeScalarView, range: Range<Int>)] = []
        var symbols: [(symbol: Unicode.Scalar, range: Range<Int>)] = []
        var offset = 0
        for index in scalars.indices {
            let scalar = scalars[index]
            let range = offset..<(offset + (scalar.value > 0xFFFF ? 2 : 1))
            offset = range.upperBound
            let kind = Self.kind(of: scalar, inRun: !run.isEmpty, inSymbols: !symbols.isEmpty)
            if kind != .symbol && kind != .joiner && kind != .optionalMark && !symbols.isEmpty {
                endSymbols(&symbols, into: &found)
            }
            switch kind {
            case .letter:
                if !run.isEmpty { endRun(&run, into: &found) }
                if wordStart < 0 { (wordStart, wordRange) = (index, range) }
                wordRange = wordRange.lowerBound..<range.upperBound
            case .optionalMark, .joiner:
                // Part of the word or symbol as shown, not as matched.
                if wordStart >= 0 { wordRange = wordRange.lowerBound..<range.upperBound }
                if let last = run.indices.last { run[last].range = run[last].range.lowerBound..<range.upperBound }
                if let last = symbols.indices.last {
                    symbols[last].range = symbols[last].range.lowerBound..<range.upperBound
                }
            case .runMark:
                let last = run.count - 1
                run[last].letter.append(scalar)
                run[last].range = run[last].range.lowerBound..<range.upperBound
            case .runLetter, .other:
                if wordStart >= 0 { endWord(scalars[wordStart..<index], wordRange, into: &found) }
                wordStart = -1
                if kind == .runLetter {
                    run.append((String.UnicodeScalarView([scalar]), range))
                } else if !run.isEmpty {
                    endRun(&run, into: &found)
                }
            case .symbol:
                if wordStart >= 0 { endWord(scalars[wordStart..<index], wordRange, into: &found) }
                wordStart = -1
                if !run.isEmpty { endRun(&run, into: &found) }
                symbols.append((scalar, range))
            }
        }
        if wordStart >= 0 { endWord(scalars[wordStart...], wordRange, into: &found) }
        if !run.isEmpty { endRun(&run, into: &found) }
        if !symbols.isEmpty { endSymbols(&symbols, into: &found) }
        return Self.merged(found)
    }

    /// What a scalar of the text is to the index.
    private enum Kind {
        /// A letter, digit or mark of a word.
        case letter
        /// A mark a writer may leave out (``KeywordText/isOptionalMark(_:)``).
        case optionalMark
        /// A letter of a script written without spaces, and a mark after one.
        case runLetter, runMark
        /// A symbol (``KeywordText/isSymbol(_:)``), and the zero-width joiner between two.
        case symbol, joiner
        /// Anything else: a space, punctuation.
        case other
    }

    private static func kind(of scalar: Unicode.Scalar, inRun: Bool, inSymbols: Bool) -> Kind {
        if scalar.isASCII { return WordSplitter.isASCIILetterOrDigit(scalar.value) ? .letter : .other }
        if KeywordText.isOptionalMark(scalar) { return .optionalMark }
        if KeywordText.isSymbol(scalar) { return .symbol }
        if inSymbols, scalar.value == 0x200D { return .joiner }
        if inRun, KeywordText.isMark(scalar) { return .runMark }
        if KeywordText.isBigrammed(scalar) { return .runLetter }
        return WordSplitter.isIndexedCharacter(scalar) ? .letter : .other
    }

    /// Marks a word of the text if the query matches it.
    private func endWord(_ word: ArraySlice<Unicode.Scalar>, _ range: Range<Int>, into found: inout [Range<Int>]) {
        // The word as the index holds it: a dotless ı is an i there (``KeywordText/segment(_:)``).
        guard let first = word.first.map(KeywordText.dotted).flatMap(KeywordFolding.fold), initials.contains(first)
        else { return }
        var letters = String.UnicodeScalarView()
        for scalar in word where !KeywordText.isOptionalMark(scalar) { letters.append(KeywordText.dotted(scalar)) }
        if matches(String(letters)) { found.append(range) }
    }

    /// Marks the stretches of a run made of the query's letter pairs, and its lone letters; empties the run.
    private func endRun(
        _ run: inout [(letter: String.UnicodeScalarView, range: Range<Int>)], into found: inout [Range<Int>]
    ) {
        if run.count == 1, letters.contains(String(run[0].letter)) { found.append(run[0].range) }
        for index in run.indices.dropLast()
        where pairs.contains(String(run[index].letter) + String(run[index + 1].letter)) {
            found.append(run[index].range.lowerBound..<run[index + 1].range.upperBound)
        }
        if run.count > 1, !letters.isEmpty {
            for entry in run where letters.contains(String(entry.letter)) { found.append(entry.range) }
        }
        run.removeAll(keepingCapacity: true)
    }

    /// Marks each place a run of symbols holds one of the query's runs of symbols; empties the run.
    private func endSymbols(
        _ symbols: inout [(symbol: Unicode.Scalar, range: Range<Int>)], into found: inout [Range<Int>]
    ) {
        for wanted in symbolRuns where wanted.count <= symbols.count {
            for start in 0...(symbols.count - wanted.count)
            where symbols[start..<(start + wanted.count)].map(\.symbol) == wanted {
                found.append(symbols[start].range.lowerBound..<symbols[start + wanted.count - 1].range.upperBound)
            }
        }
        symbols.removeAll(keepingCapacity: true)
    }

    /// Whether a word of the text is one the query matches.
    private func matches(_ word: String) -> Bool {
        if stems.contains(QueryAnalyzer.stem(word)) { return true }
        guard !prefixes.isEmpty else { return false }
        let folded = KeywordFolding.fold(word)
        return prefixes.contains { folded.hasPrefix($0) }
    }

    /// The ranges sorted, overlapping and touching ones joined.
    private static func merged(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var merged: [Range<Int>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }
}
