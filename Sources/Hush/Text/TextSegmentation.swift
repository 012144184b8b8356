import Foundation

/// Finds paragraph, sentence and word boundaries as ranges of the original string.
enum TextSegmentation {
    /// Maximal runs of non-blank lines, trimmed of surrounding whitespace.
    static func paragraphs(in text: String) -> [Range<String.Index>] {
        var result: [Range<String.Index>] = []
        var paragraphStart: String.Index?
        var paragraphEnd = text.startIndex
        var lineStart = text.startIndex
        var index = text.startIndex
        func closeLine(at lineEnd: String.Index) {
            let line = text[lineStart..<lineEnd]
            if let first = line.firstIndex(where: { !$0.isWhitespace }) {
                if paragraphStart == nil { paragraphStart = first }
                if let last = line.lastIndex(where: { !$0.isWhitespace }) {
                    paragraphEnd = text.index(after: last)
                }
            } else if let start = paragraphStart {
                result.append(start..<paragraphEnd)
                paragraphStart = nil
            }
        }
        while index < text.endIndex {
            if text[index].isNewline {
                closeLine(at: index)
                lineStart = text.index(after: index)
            }
            index = text.index(after: index)
        }
        closeLine(at: text.endIndex)
        if let start = paragraphStart { result.append(start..<paragraphEnd) }
        return result
    }

    private static let terminators: Set<Character> = [".", "!", "?", "…", "‼", "⁇", "⁈", "⁉"]
    /// Terminators of Chinese and Japanese text, which need no following space.
    private static let wideTerminators: Set<Character> = ["。", "！", "？", "；", "｡", "．"]
    private static let closers: Set<Character> = [
        ")", "]", "}", "\"", "'", "”", "’", "»", "›", "」", "』", "）", "】",
    ]
    /// Lower-cased words that a period follows without ending the sentence.
    private static let abbreviations: Set<String> = [
        "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "vs", "e.g", "i.e", "cf", "approx", "fig", "vol",
        "inc", "ltd", "dept", "z.b", "bzw", "usw", "ca", "sra", "srta", "p.ej", "ex", "mme", "mlle", "m",
    ]

    /// Sentences of one paragraph: ends at `. ! ? …` followed by a space (with closing quotes or
    /// brackets kept in the sentence), at `。！？`, and at line breaks. Abbreviations, initials and
    /// decimals do not end a sentence.
    static func sentences(in paragraph: Substring) -> [Range<String.Index>] {
        var result: [Range<String.Index>] = []
        var start = paragraph.startIndex
        var index = paragraph.startIndex
        func close(at end: String.Index) {
            let piece = paragraph[start..<end]
            if let first = piece.firstIndex(where: { !$0.isWhitespace }),
                let last = piece.lastIndex(where: { !$0.isWhitespace })
            {
                result.append(first..<paragraph.index(after: last))
            }
            start = end
        }
        while index < paragraph.endIndex {
            let character = paragraph[index]
            if character.isNewline {
                close(at: index)
                index = paragraph.index(after: index)
                continue
            }
            let isWide = wideTerminators.contains(character)
            guard isWide || terminators.contains(character) else {
                index = paragraph.index(after: index)
                continue
            }
            var end = paragraph.index(after: index)
            while end < paragraph.endIndex,
                terminators.contains(paragraph[end]) || wideTerminators.contains(paragraph[end])
                    || closers.contains(paragraph[end])
            {
                end = paragraph.index(after: end)
            }
            let atBreak = end == paragraph.endIndex || paragraph[end].isWhitespace
            if isWide || (atBreak && !(character == "." && isAbbreviation(before: index, in: paragraph))) {
                close(at: end)
            }
            index = end
        }
        close(at: paragraph.endIndex)
        return result
    }

    private static func isAbbreviation(before period: String.Index, in paragraph: Substring) -> Bool {
        var start = period
        while start > paragraph.startIndex {
            let previous = paragraph.index(before: start)
            if paragraph[previous].isWhitespace || closers.contains(paragraph[previous])
                || paragraph[previous] == "("
            {
                break
            }
            start = previous
        }
        let word = paragraph[start..<period].lowercased()
        guard !word.isEmpty else { return false }
        if word.count == 1, let letter = word.first, letter.isLetter {
            // An initial ("J. Smith"), unless it is a one-letter word at a sentence end ("… plan B.").
            return paragraph[start].isUppercase || abbreviations.contains(word)
        }
        return abbreviations.contains(word)
    }

    /// The whitespace-separated runs of `text` (punctuation kept): where a chunk may be cut and how long a
    /// sentence is. Not words to match: those come from `WordSplitter`.
    static func spaceSeparatedRuns(in text: Substring) -> [Range<String.Index>] {
        var result: [Range<String.Index>] = []
        var wordStart: String.Index?
        var index = text.startIndex
        while index < text.endIndex {
            if text[index].isWhitespace {
                if let start = wordStart {
                    result.append(start..<index)
                    wordStart = nil
                }
            } else if wordStart == nil {
                wordStart = index
            }
            index = text.index(after: index)
        }
        if let start = wordStart { result.append(start..<text.endIndex) }
        return result
    }
}
