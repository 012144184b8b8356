import Foundation

/// Normalises raw text before it is chunked, embedded and indexed.
///
/// URLs become `[link]`, @mentions become `@user` (e-mail addresses are left alone), control characters are
/// removed, runs of spaces and tabs collapse to one space, and blank lines collapse to one paragraph break
/// (`"\n\n"`) so that the chunker can still see paragraphs.
///
/// ```swift
/// let cleaner = TextCleaner()
/// cleaner.clean("Thanks @ana!  See https://example.com/notes?id=4")
/// // "Thanks @user! See [link]"
/// ```
public struct TextCleaner: Sendable, Hashable {
    /// Whether URLs are replaced by `[link]`.
    public var replaceURLs: Bool
    /// Whether @mentions are replaced by `@user`.
    public var replaceMentions: Bool

    /// Creates a cleaner.
    ///
    /// ```swift
    /// let keepLinks = TextCleaner(replaceURLs: false)
    /// ```
    public init(replaceURLs: Bool = true, replaceMentions: Bool = true) {
        self.replaceURLs = replaceURLs
        self.replaceMentions = replaceMentions
    }

    /// Cleans one text: links, mentions, control characters and whitespace.
    ///
    /// ```swift
    /// TextCleaner().clean("a\t\tb\n\n\n\nc")  // "a b\n\nc"
    /// ```
    public func clean(_ text: String) -> String {
        cleaned(text, singleLine: false, tracking: false).text
    }

    /// Cleans a document's body with its quoted text appended as a last paragraph (`"Quoted: …"`).
    ///
    /// ```swift
    /// let post = Document(id: "p1", body: "So true.", quoted: "Sleep is a superpower.")
    /// TextCleaner().clean(post)  // "So true.\n\nQuoted: Sleep is a superpower."
    /// ```
    public func clean(_ document: Document) -> String {
        let body = clean(document.body)
        guard let quoted = document.quoted.map(clean), !quoted.isEmpty else { return body }
        return body.isEmpty ? "Quoted: " + quoted : body + "\n\nQuoted: " + quoted
    }

    /// A link or @mention that cleaning replaced: where its placeholder lies in the cleaned text (UTF-16
    /// offsets) and what the person wrote there.
    struct Replacement: Hashable, Sendable {
        var range: Range<Int>
        var original: String
    }

    /// ``clean(_:)-(Document)`` with the replacements it made, so that a part of the cleaned text can be shown
    /// as the person wrote it (``restore(_:at:from:)``).
    func cleanWithReplacements(_ document: Document) -> (text: String, replacements: [Replacement]) {
        var (text, replacements) = cleaned(document.body, singleLine: false, tracking: true)
        guard let quote = document.quoted.map({ cleaned($0, singleLine: false, tracking: true) }),
            !quote.text.isEmpty
        else { return (text, replacements) }
        text += text.isEmpty ? "Quoted: " : "\n\nQuoted: "
        let shift = text.utf16.count
        text += quote.text
        for replacement in quote.replacements {
            replacements.append(
                Replacement(
                    range: (replacement.range.lowerBound + shift)..<(replacement.range.upperBound + shift),
                    original: replacement.original))
        }
        return (text, replacements)
    }

    /// ``cleanSingleLine(_:)`` with the replacements it made.
    func cleanSingleLineWithReplacements(_ text: String) -> (text: String, replacements: [Replacement]) {
        cleaned(text, singleLine: true, tracking: true)
    }

    /// `part`, the cleaned text's UTF-16 offsets `range`, with each placeholder that lies whole in it put back
    /// as the person wrote it: what to show of a chunk or a sentence, whose cleaned text is what the model read.
    ///
    /// ```swift
    /// let cleaner = TextCleaner()
    /// let (text, replacements) = cleaner.cleanWithReplacements(Document(id: "p", body: "Thanks @maria!"))
    /// TextCleaner.restore(text, at: 0..<text.utf16.count, from: replacements)  // "Thanks @maria!"
    /// ```
    ///
    /// - Complexity: O(part + log replacements + the replacements inside it): the first is found by binary search
    ///   (a summary restores each of its sentences), and the part is rebuilt in one pass.
    static func restore(_ part: String, at range: Range<Int>, from replacements: [Replacement]) -> String {
        let units = Array(part.utf16)
        guard units.count == range.count else { return part }
        var low = 0
        var high = replacements.count
        while low < high {
            let middle = (low + high) / 2
            if replacements[middle].range.lowerBound < range.lowerBound { low = middle + 1 } else { high = middle }
        }
        var restored: [UInt16] = []
        var cursor = 0
        var index = low
        while index < replacements.count, replacements[index].range.lowerBound < range.upperBound {
            let replacement = replacements[index]
            index += 1
            guard replacement.range.upperBound <= range.upperBound else { continue }
            let start = replacement.range.lowerBound - range.lowerBound
            restored.append(contentsOf: units[cursor..<start])
            restored.append(contentsOf: replacement.original.utf16)
            cursor = start + replacement.range.count
        }
        guard cursor > 0 else { return part }
        restored.append(contentsOf: units[cursor...])
        return String(decoding: restored, as: UTF16.self)
    }

    /// The links and @mentions in `text` that ``clean(_:)-(String)`` replaces, as the person wrote them: the
    /// keyword index keeps them, so that a handle or a site can be found by keyword although the model never
    /// sees it.
    ///
    /// ```swift
    /// TextCleaner().replacedSpans(in: "Ran 10k with @alice_runs https://www.strava.com/activities/42")
    /// // ["@alice_runs", "https://www.strava.com/activities/42"]
    /// ```
    public func replacedSpans(in text: String) -> [String] {
        guard (replaceURLs && Self.mayHoldLink(text.utf8)) || (replaceMentions && text.utf8.contains(UInt8(ascii: "@")))
        else { return [] }
        return text.split(whereSeparator: { $0.isWhitespace }).compactMap { word in
            let word = String(word)
            return replaceable(in: word).map { String(word[$0.range]) }
        }
    }

    /// Cleans a text that must stay on one line (a title, a field value): line breaks become spaces.
    func cleanSingleLine(_ text: String) -> String {
        cleaned(text, singleLine: true, tracking: false).text
    }

    /// The one cleaning pass: each line's words (control characters removed, split at spaces) rewritten, joined
    /// by a space; lines joined by a line break, or by a paragraph break where blank lines were between them (by a
    /// space in a `singleLine` text). With `tracking`, where each placeholder landed and what it replaced.
    private func cleaned(_ text: String, singleLine: Bool, tracking: Bool) -> (
        text: String, replacements: [Replacement]
    ) {
        var output = ""
        // The output's length in UTF-16 units, kept as it grows: counting it at each replacement counted the whole
        // output again once it held a character beyond ASCII.
        var units = 0
        func append(_ piece: some StringProtocol) {
            output += piece
            if tracking { units += piece.utf16.count }
        }
        var replacements: [Replacement] = []
        var separator = ""  // what goes before the next line's first word
        for rawLine in Self.lines(of: text) {
            let words = Self.words(of: rawLine)
            guard !words.isEmpty else {
                if !output.isEmpty && !singleLine { separator = "\n\n" }
                continue
            }
            if !output.isEmpty { append(separator) }
            separator = singleLine ? " " : "\n"
            for (index, word) in words.enumerated() {
                if index > 0 { append(" ") }
                guard let found = replaceable(in: word) else {
                    append(word)
                    continue
                }
                append(word[..<found.range.lowerBound])
                if tracking {
                    replacements.append(
                        Replacement(
                            range: units..<(units + found.placeholder.utf16.count), original: String(word[found.range]))
                    )
                }
                append(found.placeholder)
                append(word[found.range.upperBound...])
            }
        }
        return (output, replacements)
    }

    // MARK: - Lines and words

    /// Splits on every line terminator (LF, CR, CRLF, NEL, LS, PS, VT, FF).
    static func lines(of text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false, whereSeparator: { $0.isNewline })
    }

    /// The words of one line: split at spaces, control characters removed.
    private static func words(of line: Substring) -> [String] {
        var words: [String] = []
        var word = ""
        for scalar in line.unicodeScalars {
            if isSpace(scalar) {
                if !word.isEmpty { words.append(word) }
                word = ""
            } else if !isRemovable(scalar) {
                word.unicodeScalars.append(scalar)
            }
        }
        if !word.isEmpty { words.append(word) }
        return words
    }

    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar == " " || scalar == "\t" }
        return scalar.properties.isWhitespace
    }

    /// Control and format characters that carry no text (zero-width joiners are kept for emoji).
    static func isRemovable(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar.value < 0x20 || scalar.value == 0x7F }
        switch scalar.properties.generalCategory {
        case .control: return true
        case .format:
            return scalar.value != 0x200D && scalar.value != 0x200C
        case .unassigned, .surrogate: return true
        default: return false
        }
    }

    /// The link or @mention inside one whitespace-delimited word that cleaning replaces, and its placeholder.
    private func replaceable(in word: String) -> (range: Range<String.Index>, placeholder: String)? {
        // Cheap byte checks first (most words end a sentence with a `.` and are no link).
        if replaceURLs, Self.mayHoldLink(word.utf8), let range = Self.linkRange(in: word) { return (range, "[link]") }
        if replaceMentions, word.utf8.contains(UInt8(ascii: "@")), let range = Self.mentionRange(in: word) {
            return (range, "@user")
        }
        return nil
    }

    /// Whether `bytes` may hold a link ``linkRange(in:)`` finds, from the bytes alone: every such link has
    /// `://` (the schemes), `www.` in any case, or a `.` followed by the first character of a domain label (an
    /// ASCII letter or digit, or a non-ASCII one). A word ending a sentence with `.` has none of these.
    static func mayHoldLink(_ bytes: some Sequence<UInt8>) -> Bool {
        markers(in: bytes, domainLabels: true)
    }

    /// Whether `bytes` hold `://` or `www.` in any case, as every one of ``schemes`` does.
    static func mayHoldScheme(_ bytes: some Sequence<UInt8>) -> Bool {
        markers(in: bytes, domainLabels: false)
    }

    /// `://`, `www.` in any case, and with `domainLabels` a `.` before an ASCII letter or digit or a non-ASCII
    /// byte.
    private static func markers(in bytes: some Sequence<UInt8>, domainLabels: Bool) -> Bool {
        var (before1, before2, before3): (UInt8, UInt8, UInt8) = (0, 0, 0)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "A")...UInt8(ascii: "Z"), 0x80...:
                if domainLabels && before1 == UInt8(ascii: ".") { return true }
            case UInt8(ascii: "/"):
                if before1 == UInt8(ascii: "/") && before2 == UInt8(ascii: ":") { return true }
            case UInt8(ascii: "."):
                if before1 | 0x20 == UInt8(ascii: "w") && before2 | 0x20 == UInt8(ascii: "w")
                    && before3 | 0x20 == UInt8(ascii: "w")
                {
                    return true
                }
            default:
                break
            }
            (before1, before2, before3) = (byte, before1, before2)
        }
        return false
    }

    // MARK: - Links

    private static let schemes = ["https://", "http://", "ftp://", "www."]
    private static let leadingPunctuation: Set<Character> = ["(", "[", "<", "\"", "'", "“", "‘", "«", "{"]
    private static let trailingPunctuation: Set<Character> = [
        ".", ",", ";", ":", "!", "?", ")", "]", ">", "\"", "'", "”", "’", "»", "}", "…",
    ]
    /// Top-level domains common enough that a bare `name.tld` without a path is taken as a link.
    private static let commonTLDs: Set<String> = [
        "com", "org", "net", "io", "dev", "app", "ai", "co", "edu", "gov", "info", "biz", "me", "ly", "tv",
        "uk", "de", "fr", "es", "nl", "eu", "ca", "au", "jp", "ch", "se", "no", "fi", "dk", "pl", "be", "at",
        "social", "xyz", "site", "blog", "news", "online", "tech", "cloud",
    ]

    /// Where the link inside `word` lies, or `nil` when it holds none.
    static func linkRange(in word: String) -> Range<String.Index>? {
        // An explicit scheme or `www.` anywhere in the word, at a word start: "(https://…)", "[x](https://…)".
        for scheme in mayHoldScheme(word.utf8) ? schemes : [] {
            guard let found = word.range(of: scheme, options: .caseInsensitive) else { continue }
            let start = found.lowerBound
            if start > word.startIndex {
                let before = word[word.index(before: start)]
                if before.isLetter || before.isNumber { continue }
            }
            let end = linkEnd(word[start...])
            guard word.distance(from: start, to: end) > scheme.count else { continue }
            return start..<end
        }
        // A bare domain: "example.com/path", "docs.example.org".
        var coreStart = word.startIndex
        while coreStart < word.endIndex, leadingPunctuation.contains(word[coreStart]) {
            coreStart = word.index(after: coreStart)
        }
        let core = word[coreStart...]
        guard !core.contains("@") else { return nil }
        let end = linkEnd(core)
        let candidate = word[coreStart..<end]
        guard isBareDomainLink(candidate) else { return nil }
        return coreStart..<end
    }

    /// Where a link starting at `text.startIndex` ends: trailing punctuation and unbalanced `)` are left out.
    ///
    /// - Complexity: O(n): the brackets are counted once and uncounted as the end moves back (a word of a
    ///   million `)` counted them again for each).
    private static func linkEnd(_ text: Substring) -> String.Index {
        var opens = 0
        var closes = 0
        for character in text {
            if character == "(" { opens += 1 } else if character == ")" { closes += 1 }
        }
        var end = text.endIndex
        while end > text.startIndex {
            let last = text[text.index(before: end)]
            guard trailingPunctuation.contains(last) else { break }
            // The counts of the text before `last`.
            if last == "(" { opens -= 1 } else if last == ")" { closes -= 1 }
            if last == ")", opens > closes { break }
            end = text.index(before: end)
        }
        return end
    }

    private static func isBareDomainLink(_ candidate: Substring) -> Bool {
        let slash = candidate.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" })
        let host = candidate[candidate.startIndex..<(slash ?? candidate.endIndex)]
        let hostWithoutPort = host.split(separator: ":", maxSplits: 1).first ?? host
        let labels = hostWithoutPort.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, let tld = labels.last else { return false }
        for label in labels {
            guard !label.isEmpty, label.count <= 63,
                label.allSatisfy({ ($0.isLetter || $0.isNumber || $0 == "-") }),
                label.first != "-", label.last != "-"
            else { return false }
        }
        guard tld.count >= 2, tld.count <= 24, tld.allSatisfy(\.isLetter) else { return false }
        let hasPath = slash.map { candidate.index(after: $0) < candidate.endIndex } ?? false
        if hasPath { return true }
        return commonTLDs.contains(tld.lowercased()) && labels.dropLast().contains { $0.contains(where: \.isLetter) }
    }

    // MARK: - Mentions

    /// Where the @mention inside `word` lies (from its `@`), or `nil` when it holds none.
    ///
    /// A mention starts the word (after opening punctuation) with `@` and a handle of letters, digits,
    /// `_` or `.`; a fediverse handle (`@ana@social.example`) is one mention. `ana@example.com` is not.
    static func mentionRange(in word: String) -> Range<String.Index>? {
        var start = word.startIndex
        while start < word.endIndex, leadingPunctuation.contains(word[start]) {
            start = word.index(after: start)
        }
        guard start < word.endIndex, word[start] == "@" else { return nil }
        var end = word.index(after: start)
        var handleLength = 0
        var sawSecondAt = false
        while end < word.endIndex {
            let character = word[end]
            if character.isLetter || character.isNumber || character == "_" {
                handleLength += 1
            } else if character == "." || character == "-" {
                // Inside a handle or domain only when followed by another handle character.
                let next = word.index(after: end)
                guard next < word.endIndex, word[next].isLetter || word[next].isNumber || word[next] == "_"
                else { break }
            } else if character == "@", !sawSecondAt, handleLength > 0 {
                sawSecondAt = true
            } else {
                break
            }
            end = word.index(after: end)
        }
        guard handleLength > 0 else { return nil }
        return start..<end
    }
}
