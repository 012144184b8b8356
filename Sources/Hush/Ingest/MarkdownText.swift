import Foundation

/// Markdown reduced to the text a person reads: the body a Markdown note is stored, searched and shown with.
///
/// Markup goes, whatever it was written with, and nothing the person wrote goes with it:
/// - emphasis, strikethrough and highlight (`*a*`, `**a**`, `_a_`, `__a__`, `~~a~~`, `==a==`) lose their markers only when they
///   open and close, as a Markdown reader pairs them, so `5 * 3`, `snake_case`, `~5 minutes` and an
///   unpaired `*` stay as written;
/// - a code span keeps its text as written (`` `a*b*` `` is `a*b*`), an escaped character is itself (`\*`);
/// - a link keeps its text, with a web or mail address after it; a wiki link (`[[Plan]]`, `[[Plan|the
///   plan]]`) its text; an autolink (`<https://…>`) its address; an image its description;
/// - a block quote loses its `>` (a callout its `[!NOTE]`), a table row its outer pipes (`a | b`), a list item
///   keeps its bullet;
/// - a line of markup alone (a rule, a table's delimiter row, a heading's underline) is no line at all.
///
/// ```swift
/// MarkdownText.line("* **Buy** eggs_and_ham", afterText: false)  // "* Buy eggs_and_ham"
/// MarkdownText.line("|---|:--:|", afterText: true)  // nil
/// ```
enum MarkdownText {
    /// A line outside code fences, reduced; `nil` when it is markup alone. `afterText` says whether the line
    /// before it held text, which makes a line of `=` or `-` that text's heading underline.
    static func line(_ line: String, afterText: Bool) -> String? {
        var rest = Substring(line)
        var quoted = false
        // Block quotes, nested or not: `> > text`.
        while let marker = quoteMarker(rest) {
            rest = rest[marker...]
            quoted = true
        }
        // A callout's or alert's kind (`> [!NOTE] Title`, `> [!tip]- Folded`): its title, or nothing.
        if quoted, rest.hasPrefix("[!"), let close = rest.firstIndex(of: "]") {
            rest = rest[rest.index(after: close)...].drop(while: { $0 == "+" || $0 == "-" || $0 == " " })
            if rest.allSatisfy(\.isWhitespace) { return nil }
        }
        let trimmed = rest.trimmingCharacters(in: .whitespaces)
        if isRule(trimmed) || (afterText && !trimmed.isEmpty && trimmed.allSatisfy({ $0 == "=" })) { return nil }
        if trimmed.contains("|") {
            if isTableDelimiter(trimmed) { return nil }
            if trimmed.first == "|" { return tableRow(trimmed) }
        }
        let indent = quoted ? "" : String(rest.prefix(while: { $0 == " " || $0 == "\t" }))
        let body = rest.drop(while: { $0 == " " || $0 == "\t" })
        // A bullet is kept as written; the emphasis pass must not read it as a marker.
        if let first = body.first, "-*+".contains(first), body.dropFirst().first == " " {
            return indent + String(first) + " " + inline(body.dropFirst(2))
        }
        return indent + inline(body)
    }

    /// Inline Markdown reduced: emphasis paired and removed, code spans and escapes taken literally, links,
    /// wiki links, autolinks and images reduced to their text.
    static func inline<S: StringProtocol>(_ text: S) -> String {
        var reader = InlineReader(Array(text))
        return reader.read()
    }

    /// The index after a block quote's `>` (and the one space after it), if the line starts with one (after
    /// at most three spaces).
    private static func quoteMarker(_ line: Substring) -> Substring.Index? {
        let spaces = line.prefix(while: { $0 == " " }).count
        guard spaces <= 3 else { return nil }
        let marker = line.index(line.startIndex, offsetBy: spaces)
        guard marker < line.endIndex, line[marker] == ">" else { return nil }
        let after = line.index(after: marker)
        return after < line.endIndex && line[after] == " " ? line.index(after: after) : after
    }

    /// `---`, `***`, `___` (three or more of one of them, spaces allowed between).
    private static func isRule(_ line: String) -> Bool {
        guard let first = line.first, "-*_".contains(first) else { return false }
        return line.allSatisfy({ $0 == first || $0 == " " }) && line.filter({ $0 == first }).count >= 3
    }

    /// A table's delimiter row: `|---|:--:|`, `--- | ---`.
    private static func isTableDelimiter(_ line: String) -> Bool {
        line.contains("-") && line.allSatisfy({ "|-: \t".contains($0) })
    }

    /// `| a | *b* |` → `a | b`: the cells reduced, without the outer pipes. An escaped pipe is the cell's text.
    private static func tableRow(_ line: String) -> String {
        var cells: [String] = []
        var cell = ""
        var escaped = false
        for character in line {
            if character == "|" && !escaped {
                cells.append(cell)
                cell = ""
            } else {
                cell.append(character)
            }
            escaped = character == "\\" && !escaped
        }
        cells.append(cell)
        if cells.first?.allSatisfy(\.isWhitespace) == true { cells.removeFirst() }
        if cells.last?.allSatisfy(\.isWhitespace) == true { cells.removeLast() }
        return cells.map { inline($0).trimmingCharacters(in: .whitespaces) }.joined(separator: " | ")
    }
}

/// One pass over a line's characters: text and delimiter runs, then the runs paired.
///
/// Linear in the line, whatever it holds: where the next `]`, `)`, `>`, `<` or space stands is looked up in a
/// table made once per character the line needs (a line of 40,000 `[` scanned the rest of the line for each),
/// a code span's closing run is found among the line's backtick runs of its length, and each marker pairs
/// with the top of its own marker's openers.
private struct InlineReader {
    /// A piece of output: text, or a run of emphasis markers that may still pair.
    private enum Piece {
        case text(String)
        case run(marker: Character, count: Int, canOpen: Bool, canClose: Bool)
    }

    private let characters: [Character]
    private var pieces: [Piece] = []
    private var text = ""
    /// Per pattern looked for (a character, or `]]`), the position of its next occurrence at or after each
    /// position (`characters.count` for none), made on first need.
    private var nextTables: [String: [Int32]] = [:]
    /// The starts of the line's backtick runs, by run length, in order (made on the first code span).
    private var backtickRuns: [Int: [Int]]?

    init(_ characters: [Character]) { self.characters = characters }

    mutating func read() -> String {
        var i = 0
        while i < characters.count {
            i = step(at: i)
        }
        flush()
        return paired()
    }

    /// Reads what starts at `i`; returns where the next piece starts.
    private mutating func step(at i: Int) -> Int {
        let character = characters[i]
        switch character {
        case "\\":
            if let next = at(i + 1), next.isASCII, next.isPunctuation || next.isSymbol {
                text.append(next)
                return i + 2
            }
        case "`":
            return codeSpan(at: i)
        case "[", "!":
            if let end = link(at: i) { return end }
        case "<":
            if let end = autolink(at: i) { return end }
        case "*", "_", "~", "=":
            return run(at: i)
        default:
            break
        }
        text.append(character)
        return i + 1
    }

    private func at(_ i: Int) -> Character? { i >= 0 && i < characters.count ? characters[i] : nil }

    private func runLength(at i: Int, of character: Character) -> Int {
        var end = i
        while end < characters.count && characters[end] == character { end += 1 }
        return end - i
    }

    /// A code span's text as written, its backticks removed; an unclosed run of backticks as written.
    private mutating func codeSpan(at i: Int) -> Int {
        let count = runLength(at: i, of: "`")
        if backtickRuns == nil {
            var runs: [Int: [Int]] = [:]
            var j = 0
            while j < characters.count {
                guard characters[j] == "`" else {
                    j += 1
                    continue
                }
                let length = runLength(at: j, of: "`")
                runs[length, default: []].append(j)
                j += length
            }
            backtickRuns = runs
        }
        // The first run of the same length after this one closes it.
        let starts = backtickRuns?[count] ?? []
        var low = 0
        var high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] <= i { low = middle + 1 } else { high = middle }
        }
        if low < starts.count {
            let j = starts[low]
            var content = characters[(i + count)..<j]
            if content.count >= 2, content.first == " ", content.last == " ", content.contains(where: { $0 != " " }) {
                content = content.dropFirst().dropLast()
            }
            text.append(contentsOf: content)
            return j + count
        }
        text.append(contentsOf: characters[i..<(i + count)])
        return i + count
    }

    /// A wiki link (`[[target]]`, `[[target|text]]`, `![[embed]]`), a link (`[text](address)`) or an image
    /// (`![description](file)`) at `i`, reduced; `nil` when there is none.
    private mutating func link(at i: Int) -> Int? {
        let isImage = characters[i] == "!"
        let open = isImage ? i + 1 : i
        guard at(open) == "[" else { return nil }
        if at(open + 1) == "[", let close = next("]]", from: open + 2) {
            let inside = String(characters[(open + 2)..<close])
            let shown = inside.split(separator: "|", maxSplits: 1).last.map(String.init) ?? inside
            text += shown.trimmingCharacters(in: .whitespaces)
            return close + 2
        }
        guard let close = next("]", from: open + 1), at(close + 1) == "(",
            let closeParen = next(")", from: close + 2)
        else { return nil }
        let label = MarkdownText.inline(String(characters[(open + 1)..<close]))
        let address = String(characters[(close + 2)..<closeParen]).trimmingCharacters(in: .whitespaces)
        text += label
        if !isImage, address != label, Self.isAddress(address) {
            text += label.isEmpty ? address : " (" + address + ")"
        }
        return closeParen + 1
    }

    /// `<https://…>` or `<name@example.com>`: the address.
    private mutating func autolink(at i: Int) -> Int? {
        guard let close = next(">", from: i + 1), close > i + 1 else { return nil }
        // No space and no other `<` inside (looked up, so a line of `<` is not read once per `<`).
        guard (next("<", from: i + 1) ?? close) >= close, (next(" ", from: i + 1) ?? close) >= close else {
            return nil
        }
        let inside = characters[(i + 1)..<close]
        guard !inside.contains(where: { $0.isWhitespace }) else { return nil }
        let address = String(inside)
        guard Self.isAddress(address) || (address.contains("@") && address.contains(".")) else { return nil }
        text += address
        return close + 1
    }

    /// Where `pattern` (a character or `]]`) next starts at or after `start`, on this line: O(1) after one pass
    /// over the line for the pattern.
    private mutating func next(_ pattern: String, from start: Int) -> Int? {
        guard start < characters.count else { return nil }
        if nextTables[pattern] == nil {
            let needle = Array(pattern)
            var table = [Int32](repeating: Int32(characters.count), count: characters.count + 1)
            for j in stride(from: characters.count - needle.count, through: 0, by: -1) {
                let matches = characters[j..<(j + needle.count)].elementsEqual(needle)
                table[j] = matches ? Int32(j) : table[j + 1]
            }
            nextTables[pattern] = table
        }
        guard let found = nextTables[pattern]?[start], Int(found) < characters.count else { return nil }
        return Int(found)
    }

    /// A run of `*`, `_`, `~~` or `==`, with whether it can open or close emphasis (CommonMark's flanking rules;
    /// an underscore inside a word does neither, nor a single `~` or `=`).
    private mutating func run(at i: Int) -> Int {
        let marker = characters[i]
        let count = runLength(at: i, of: marker)
        if (marker == "~" || marker == "=") && count != 2 {
            text.append(contentsOf: characters[i..<(i + count)])
            return i + count
        }
        let before = at(i - 1)
        let after = at(i + count)
        func isSpace(_ c: Character?) -> Bool { c.map { $0.isWhitespace } ?? true }
        func isPunctuation(_ c: Character?) -> Bool { c.map { $0.isPunctuation || $0.isSymbol } ?? false }
        let left = !isSpace(after) && (!isPunctuation(after) || isSpace(before) || isPunctuation(before))
        let right = !isSpace(before) && (!isPunctuation(before) || isSpace(after) || isPunctuation(after))
        let canOpen = marker == "_" ? left && (!right || isPunctuation(before)) : left
        let canClose = marker == "_" ? right && (!left || isPunctuation(after)) : right
        flush()
        pieces.append(.run(marker: marker, count: count, canOpen: canOpen, canClose: canClose))
        return i + count
    }

    private mutating func flush() {
        if !text.isEmpty { pieces.append(.text(text)) }
        text = ""
    }

    /// The pieces with paired markers removed and unpaired ones written as they were.
    private mutating func paired() -> String {
        // The openers with markers left, per marker, in order: a closer pairs with the top of its own marker's.
        var openers: [Character: [Int]] = [:]
        for index in pieces.indices {
            guard case .run(let marker, var count, let canOpen, let canClose) = pieces[index] else { continue }
            if canClose {
                while count > 0, let opener = openers[marker]?.last,
                    case .run(_, let openCount, let o, let c) = pieces[opener]
                {
                    let used = marker == "~" || marker == "=" ? min(openCount, count) : min(openCount, count, 2)
                    pieces[opener] = .run(marker: marker, count: openCount - used, canOpen: o, canClose: c)
                    count -= used
                    // Openers after the one paired can no longer pair across it (each is dropped once).
                    for other in openers.keys where other != marker {
                        while let last = openers[other]?.last, last > opener { openers[other]?.removeLast() }
                    }
                    if openCount - used == 0 { openers[marker]?.removeLast() }
                }
                pieces[index] = .run(marker: marker, count: count, canOpen: canOpen, canClose: canClose)
            }
            if canOpen && count > 0 { openers[marker, default: []].append(index) }
        }
        var output = ""
        for piece in pieces {
            switch piece {
            case .text(let text): output += text
            case .run(let marker, let count, _, _): output += String(repeating: marker, count: count)
            }
        }
        return output
    }

    /// A web or mail address (`https://…`, `www.…`, `mailto:…`), not a path within the notes.
    static func isAddress(_ url: String) -> Bool {
        let lower = url.lowercased()
        return lower.contains("://") || lower.hasPrefix("www.") || lower.hasPrefix("mailto:")
    }
}
