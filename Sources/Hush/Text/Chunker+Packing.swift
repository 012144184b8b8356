import Foundation

/// One indivisible piece of the source: a sentence, or a word (or part of a word) of an over-long sentence.
struct ChunkUnit {
    var range: Range<String.Index>
    /// Model tokens without the special tokens.
    var tokens: Int
    /// The paragraph the unit belongs to; overlap never crosses paragraphs.
    var paragraph: Int
}

/// The state of one `Chunker.chunk` call.
struct ChunkingRun {
    let configuration: ChunkingConfiguration
    let tokenCounter: @Sendable (String) -> Int
    let text: String
    /// Tokens the counter adds to every text (2 for BERT's `[CLS]` and `[SEP]`).
    let specials: Int
    /// The most content tokens (specials excluded) a chunk may hold.
    let hardLimit: Int
    /// The preferred content tokens per chunk.
    let targetLimit: Int
    let overlapLimit: Int

    private var chunks: [TextChunk] = []

    init(configuration: ChunkingConfiguration, tokenCounter: @escaping @Sendable (String) -> Int, text: String) {
        self.configuration = configuration
        self.tokenCounter = tokenCounter
        self.text = text
        let specials = max(0, tokenCounter(""))
        self.specials = specials
        hardLimit = max(1, configuration.maxTokens - specials)
        targetLimit = min(hardLimit, max(1, configuration.targetTokens - specials))
        overlapLimit = max(0, min(configuration.overlapTokens, targetLimit / 2))
    }

    /// Content tokens of `piece`, specials excluded.
    func contentTokens<S: StringProtocol>(_ piece: S) -> Int {
        max(0, tokenCounter(String(piece)) - specials)
    }

    mutating func chunks(title rawTitle: String?, fields: [Document.Field], date: String?) -> [TextChunk] {
        chunks = []
        let prepared = configuration.prefixTitle ? preparedTitle(rawTitle) : nil
        let title = prepared?.text
        let titleTokens = prepared?.tokens ?? 0
        let units = makeUnits(limit: max(1, hardLimit - titleTokens))
        pack(units, title: title, titleTokens: titleTokens)
        let fieldLines = fields.compactMap(Self.fieldLine)
        if !fieldLines.isEmpty {
            let heading = [title, date.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
            addFields(fieldLines, heading: heading.isEmpty ? nil : heading)
        }
        if chunks.isEmpty, let title {
            chunks.append(
                TextChunk(
                    ordinal: 0, text: title, range: 0..<0, tokenCount: tokenCounter(title),
                    truncated: titleTokens > hardLimit))
        }
        return chunks
    }

    // MARK: - Title and fields

    /// `text` on one line: its runs of white space as one space, none at its ends.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// The title on one line, cut at a word boundary to at most half the window.
    private func preparedTitle(_ raw: String?) -> (text: String, tokens: Int)? {
        guard let raw else { return nil }
        let title = Self.oneLine(raw)
        guard !title.isEmpty else { return nil }
        let limit = max(1, hardLimit / 2)
        let tokens = contentTokens(title)
        guard tokens > limit else { return (title, tokens) }
        var kept: [Substring] = []
        var used = 0
        for word in title.split(separator: " ") {
            let cost = contentTokens(word)
            if used + cost > limit { break }
            kept.append(word)
            used += cost
        }
        return kept.isEmpty ? nil : (kept.joined(separator: " "), used)
    }

    /// A field's label and value each on one line (the label is what ``TextChunk/field`` records); `nil` for an
    /// empty value.
    static func fieldLine(_ field: Document.Field) -> (label: String, value: String)? {
        let value = oneLine(field.value)
        return value.isEmpty ? nil : (oneLine(field.label), value)
    }

    /// Each field in a chunk of its own after the body's, under the record's heading (its title and day), so
    /// that a question about one field ("where was the retro?") lands on that field's line and a hit can show
    /// it: the planner's "Location: Room 4B" is not diluted by the rest of the record. The line is `Label: value`
    /// (the value alone without a label); a line longer than the window is split at words, each piece keeping
    /// its label.
    private mutating func addFields(_ fields: [(label: String, value: String)], heading: String?) {
        let end = text.utf16.count
        let headingTokens = heading.map { contentTokens($0) } ?? 0
        for (label, value) in fields {
            let prefix = label.isEmpty ? "" : label + ": "
            let line = prefix + value
            let pieces =
                contentTokens(line) + headingTokens <= hardLimit
                ? [line] : splitFieldLine(prefix: prefix, value: value, limit: max(1, targetLimit - headingTokens))
            for piece in pieces {
                let chunkText = heading.map { $0 + "\n\n" + piece } ?? piece
                let count = tokenCounter(chunkText)
                chunks.append(
                    TextChunk(
                        ordinal: chunks.count, text: chunkText, range: end..<end, tokenCount: count,
                        truncated: count > configuration.maxTokens,
                        passageStart: heading.map { $0.utf16.count + 2 } ?? 0, field: label))
            }
        }
    }

    /// A field's line (`prefix`, its `Label: `, then `value`) as pieces of at most `limit` content tokens, cut at
    /// words, each starting with `prefix`.
    private func splitFieldLine(prefix: String, value: String, limit: Int) -> [String] {
        var prefix = prefix
        var words = value.split(separator: " ")
        var prefixCost = prefix.isEmpty ? 0 : contentTokens(prefix)
        // A label of more than a quarter of the room is split with its value instead of repeated on each piece
        // (a label of 250,000 tokens was copied onto every word of its value).
        if prefixCost > limit / 4 {
            words = (prefix + value).split(separator: " ")
            prefix = ""
            prefixCost = 0
        }
        let room = max(1, limit - prefixCost)
        var pieces: [String] = []
        var current: [Substring] = []
        var used = 0
        for word in words {
            let cost = contentTokens(word)
            if !current.isEmpty, used + cost > room {
                pieces.append(prefix + current.joined(separator: " "))
                current = []
                used = 0
            }
            current.append(word)
            used += cost
        }
        if !current.isEmpty { pieces.append(prefix + current.joined(separator: " ")) }
        return pieces
    }

    // MARK: - Units

    /// Paragraphs -> sentences -> (for sentences over `limit`) words -> (for words over `limit`) pieces.
    func makeUnits(limit: Int) -> [ChunkUnit] {
        var units: [ChunkUnit] = []
        for (paragraphIndex, paragraph) in TextSegmentation.paragraphs(in: text).enumerated() {
            for sentence in TextSegmentation.sentences(in: text[paragraph]) {
                let cost = contentTokens(text[sentence])
                if cost <= limit {
                    units.append(ChunkUnit(range: sentence, tokens: cost, paragraph: paragraphIndex))
                    continue
                }
                for word in TextSegmentation.spaceSeparatedRuns(in: text[sentence]) {
                    let wordCost = contentTokens(text[word])
                    if wordCost <= limit {
                        units.append(ChunkUnit(range: word, tokens: wordCost, paragraph: paragraphIndex))
                    } else {
                        for (piece, pieceCost) in splitWord(word, cost: wordCost, limit: limit) {
                            units.append(ChunkUnit(range: piece, tokens: pieceCost, paragraph: paragraphIndex))
                        }
                    }
                }
            }
        }
        return units
    }

    /// Cuts one over-long word (a long URL-less token, a run of CJK text) into pieces of at most `limit`.
    private func splitWord(_ word: Range<String.Index>, cost: Int, limit: Int) -> [(Range<String.Index>, Int)] {
        let characters = text[word].count
        var pieces: [(Range<String.Index>, Int)] = []
        var start = word.lowerBound
        var remaining = characters
        let perToken = Double(characters) / Double(max(1, cost))
        while start < word.upperBound {
            var length = max(1, min(remaining, Int(Double(limit) * perToken * 0.9)))
            while true {
                let end = text.index(start, offsetBy: length, limitedBy: word.upperBound) ?? word.upperBound
                let pieceCost = contentTokens(text[start..<end])
                if pieceCost <= limit || length == 1 {
                    pieces.append((start..<end, pieceCost))
                    start = end
                    remaining -= length
                    break
                }
                length = max(1, length * 3 / 4)
            }
        }
        return pieces
    }

    // MARK: - Packing

    /// Packs `units` into chunks of even size: as many chunks as greedy packing up to the target makes, each
    /// as small as that count allows. Greedy packing alone leaves a short tail (a 300-token text at a
    /// 256-token target becomes 256 + 44), and a short tail ranks above whole passages in search because it
    /// says one thing only (the measurements are in docs/e5-chunking.md).
    ///
    /// - Complexity: O(n log target) in the number of units, and one token count per chunk emitted: the
    ///   smaller limit is found on the units' counts, and only the final packing counts chunk texts.
    private mutating func pack(_ units: [ChunkUnit], title: String?, titleTokens: Int) {
        let hasTitle = title != nil
        let count = plannedChunks(units, titleTokens: hasTitle ? titleTokens : 0, limit: targetLimit)
        guard count > 1 else {
            pack(units, title: title, titleTokens: titleTokens, limit: targetLimit)
            return
        }
        // The smallest limit that still packs into `count` chunks.
        let total = units.reduce(0) { $0 + $1.tokens } + (hasTitle ? titleTokens : 0)
        var low = max(1, (total + count - 1) / count)
        var high = targetLimit
        while low < high {
            let middle = (low + high) / 2
            if plannedChunks(units, titleTokens: hasTitle ? titleTokens : 0, limit: middle) <= count {
                high = middle
            } else {
                low = middle + 1
            }
        }
        pack(units, title: title, titleTokens: titleTokens, limit: low)
        if chunks.count > count {
            // The real counts of the chunk texts came out above the units' sums: back to the target.
            chunks = []
            pack(units, title: title, titleTokens: titleTokens, limit: targetLimit)
        }
    }

    /// How many chunks greedy packing up to `limit` makes, on the units' token counts alone (without the check
    /// of each chunk's real count, and without emitting anything).
    private mutating func plannedChunks(_ units: [ChunkUnit], titleTokens: Int, limit: Int) -> Int {
        pack(units, title: nil, titleTokens: titleTokens, limit: limit, countOnly: true)
    }

    /// Packs `units` greedily into chunks of at most `limit` content tokens (the window caps every chunk) and
    /// returns how many it made; with `countOnly`, only counts them, taking `titleTokens` off the first chunk's
    /// budget whatever `title` is.
    @discardableResult
    private mutating func pack(
        _ units: [ChunkUnit], title: String?, titleTokens: Int, limit: Int, countOnly: Bool = false
    ) -> Int {
        let firstBudgetCut = countOnly || title != nil ? titleTokens : 0
        var made = 0
        var current: [ChunkUnit] = []
        var used = 0
        var index = 0
        while index < units.count || !current.isEmpty {
            if index < units.count {
                let unit = units[index]
                let budget = limit - (made == 0 ? firstBudgetCut : 0)
                if current.isEmpty || used + unit.tokens <= budget {
                    current.append(unit)
                    used += unit.tokens
                    index += 1
                    continue
                }
            }
            // The chunk is full (or the text ended): emit it, taking back units if the real count is too high.
            let returned = countOnly ? 0 : emit(current, title: made == 0 ? title : nil)
            made += 1
            index -= returned
            let kept = Array(current.dropLast(returned))
            current = index < units.count ? overlap(after: kept, before: units[index], limit: limit) : []
            used = current.reduce(0) { $0 + $1.tokens }
        }
        return made
    }

    /// The tail of `previous` to repeat before `next`: whole units of the same paragraph, at most
    /// `overlapLimit` tokens, leaving room for `next`.
    private func overlap(after previous: [ChunkUnit], before next: ChunkUnit, limit: Int) -> [ChunkUnit] {
        guard overlapLimit > 0 else { return [] }
        var tail: [ChunkUnit] = []
        var used = 0
        for unit in previous.reversed() {
            guard unit.paragraph == next.paragraph, used + unit.tokens <= overlapLimit,
                used + unit.tokens + next.tokens <= limit
            else { break }
            tail.insert(unit, at: 0)
            used += unit.tokens
        }
        // Never repeat a whole chunk.
        return tail.count == previous.count ? [] : tail
    }

    /// Appends a chunk for `units`; when the real count exceeds the window, drops trailing units and
    /// returns how many were given back (always keeping at least one).
    private mutating func emit(_ units: [ChunkUnit], title: String?) -> Int {
        var count = units.count
        while true {
            guard let first = units.first else { return 0 }
            let range = first.range.lowerBound..<units[count - 1].range.upperBound
            let body = String(text[range])
            let chunkText = title.map { $0 + "\n\n" + body } ?? body
            let tokens = tokenCounter(chunkText)
            if tokens <= configuration.maxTokens || count == 1 {
                chunks.append(
                    TextChunk(
                        ordinal: chunks.count, text: chunkText,
                        range: range.lowerBound.utf16Offset(in: text)..<range.upperBound.utf16Offset(in: text),
                        tokenCount: tokens, truncated: tokens > configuration.maxTokens,
                        passageStart: title.map { $0.utf16.count + 2 } ?? 0))
                return units.count - count
            }
            count -= 1
        }
    }
}
