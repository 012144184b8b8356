import Foundation

/// Passages: the chosen hits' chunks read from the file, with where each hit's passage lies in its text.
extension Searcher {
    /// The hits for `chosen` (best first), with their chunks' text; a hit whose chunk is gone is left out.
    func hits(_ chosen: [Chosen], plan: SearchPlan) throws -> [SearchHit] {
        let kept = try withoutAmounts(chosen, plan: plan)
        var chunks = try loadChunks(kept.map(\.chunkID))
        let chosen = try answeringFields(kept, chunks: chunks, plan: plan)
        let swapped = chosen.map(\.chunkID).filter { chunks[$0] == nil }
        if !swapped.isEmpty { chunks.merge(try loadChunks(swapped)) { kept, _ in kept } }
        return chosen.compactMap { entry in
            guard let (chunk, passageRange) = chunks[entry.chunkID] else { return nil }
            let record = entry.record
            var explanation = entry.candidate.explanation
            explanation.calibration =
                plan.calibrationName
                ?? (explanation.evidence == nil ? nil : ScoreCalibration.builtIn(for: embedder.identity)?.name)
            return SearchHit(
                id: record.externalID, score: explanation.finalScore, title: chunk.title, text: chunk.text,
                chunkOrdinal: chunk.ordinal, field: chunk.field, range: chunk.range, passageRange: passageRange,
                highlights: plan.highlighter.ranges(in: chunk.text), sourceType: record.sourceType,
                language: record.language, tags: record.tags,
                category: record.category, createdAt: Date(timeIntervalSince1970: record.createdAt),
                relevance: entry.candidate.relevance, explanation: plan.explain ? explanation : nil)
        }
    }

    /// `chosen` with the relevance of each record that states no amount of money made far smaller when the
    /// question asks what something cost (``AskedAmount``), and those that then fall below the search's
    /// `minRelevance` left out.
    private func withoutAmounts(_ chosen: [Chosen], plan: SearchPlan) throws -> [Chosen] {
        guard plan.asked.asksForMoney, plan.relevance != nil, chosen.contains(where: { $0.candidate.relevance != nil })
        else { return chosen }
        let documents = try database.documentTexts(ids: chosen.map(\.record.externalID))
        let penalty = log(AskedAmount.oddsDivisor)
        return chosen.compactMap { entry in
            guard let relevance = entry.candidate.relevance, let document = documents[entry.record.externalID]
            else { return entry }
            let text =
                ([document.title, document.body, document.quoted].compactMap { $0 } + document.fields.map(\.value))
            guard !text.contains(where: AskedAmount.holdsMoney) else { return entry }
            var lowered = entry
            let odds = max(relevance, .leastNormalMagnitude) / max(1 - relevance, .leastNormalMagnitude)
            lowered.candidate.relevance = ScoreCalibration.sigmoid(log(odds) - penalty)
            if let minimum = plan.minRelevance, let now = lowered.candidate.relevance, now < minimum { return nil }
            return lowered
        }
    }

    /// `chosen` with each record shown by the field that answers: its field of a kind the question asks for
    /// (``FieldQuestion``) when its chosen chunk is not one ("Where did I meet Priya about her workload?" matches
    /// the meeting's Purpose line best, and its Location line answers), or else, when a body chunk was chosen,
    /// the field whose line holds more of the question's words than the body does, or, for a question that names
    /// no kind of field, the field of what was decided ("What's the tagline for the launch?" matches the body
    /// "Planning the campaign for the app v2 launch." best, and the Outcomes line names the tagline). Of several
    /// fields of the kinds asked for, the one whose line holds the most of the question's words, the chosen one and
    /// then the first in the record's order on a tie. Words are counted once per stem, the words of the record's
    /// title aside (every chunk of the record repeats them).
    /// `chunks`: the chosen chunks, loaded.
    private func answeringFields(
        _ chosen: [Chosen], chunks: [Int64: (chunk: ChunkRow, passageRange: Range<Int>)], plan: SearchPlan
    ) throws -> [Chosen] {
        // Only a record with fields may be shown by one; without a kind asked for, only one shown by its body.
        let candidates = chosen.filter { entry in
            guard let chunk = chunks[entry.chunkID]?.chunk, chunk.recordHasFields else { return false }
            return !plan.asked.kinds.isEmpty || plan.asked.asksForMoney || plan.asked.asksForDate
                || (chunk.field == nil && !plan.highlighter.isEmpty)
        }
        guard !candidates.isEmpty else { return chosen }
        let fields = try database.fieldChunks(documents: candidates.map(\.record.rowid))
        guard !fields.isEmpty else { return chosen }
        // A store's records share a few labels: each is read once; so is what the question asks of each title.
        var kinds: [String: FieldQuestion.Kind?] = [:]
        func kind(_ field: FieldChunk) -> FieldQuestion.Kind? {
            if let known = kinds[field.field] { return known }
            let kind = FieldQuestion.kind(ofLabel: field.field)
            kinds[field.field] = kind
            return kind
        }
        var askedOf: [String: Set<FieldQuestion.Kind>] = [:]
        func asked(ofTitle title: String?) -> Set<FieldQuestion.Kind> {
            guard let title else { return plan.asked.kinds }
            if let known = askedOf[title] { return known }
            let asked = plan.asked.kinds(ofTitle: title)
            askedOf[title] = asked
            return asked
        }
        return chosen.map { entry in
            guard let own = fields[entry.record.rowid], let (chunk, passage) = chunks[entry.chunkID] else {
                return entry
            }
            var shown = entry
            // A question about a cost is answered by a line that states an amount ("How much money did we put
            // aside for the audit?": the task "Aiko: budget 42,000 euros", not the outcome that names the auditor),
            // whatever kind of field it asks for.
            if plan.asked.asksForMoney {
                if AskedAmount.holdsMoney(Self.passage(of: chunk, at: passage)) { return entry }
                let stating = own.filter { AskedAmount.holdsMoney($0.line) }
                if !stating.isEmpty {
                    let words = QueryWords(highlighter: plan.highlighter, title: chunk.title)
                    shown.chunkID = (words.fieldWithMore(stating, than: -1) ?? stating[0]).id
                    return shown
                }
            }
            // "How many yubikeys were we ordering?" is answered by a line that gives their number ("Daniel: order 50
            // YubiKeys"): the line shown when it gives one, else the one line that does.
            if let counted = plan.asked.counted {
                if Self.statesCount(of: counted, in: Self.passage(of: chunk, at: passage)) { return entry }
                let stating = own.filter { Self.statesCount(of: counted, in: $0.line) }
                if stating.count == 1 {
                    shown.chunkID = stating[0].id
                    return shown
                }
            }
            // "When is Amir's Berlin visit?" is answered by a field's line that states a date ("Lena: schedule his
            // Berlin visit in May"), unless the record has a field for dates: of those lines, the one holding the
            // most of the question's words, the field shown when it states one and holds as many.
            if plan.asked.asksForDate, !own.contains(where: { kind($0) == .time }) {
                let dated = own.filter { CalendarWords.statesDate($0.line) }
                if !dated.isEmpty {
                    let words = QueryWords(highlighter: plan.highlighter, title: chunk.title)
                    let line = Self.passage(of: chunk, at: passage)
                    let least = chunk.field != nil && CalendarWords.statesDate(line) ? words.count(in: line) : -1
                    guard let answer = words.fieldWithMore(dated, than: least) else { return entry }
                    shown.chunkID = answer.id
                    return shown
                }
            }
            let askedKinds = asked(ofTitle: chunk.title)
            let asked = askedKinds.isEmpty ? [] : own.filter { kind($0).map(askedKinds.contains) ?? false }
            if asked.count == 1 {
                shown.chunkID = asked[0].id
            } else if !asked.isEmpty {
                let words = QueryWords(highlighter: plan.highlighter, title: chunk.title)
                let counts = asked.map { words.count(in: $0.line) }
                let most = counts.max() ?? 0
                if let current = asked.firstIndex(where: { $0.id == entry.chunkID }), counts[current] == most {
                    return entry
                }
                shown.chunkID = asked[counts.firstIndex(of: most) ?? 0].id
            } else if chunk.field == nil {
                let words = QueryWords(highlighter: plan.highlighter, title: chunk.title)
                let body = Self.passage(of: chunk, at: passage)
                if let answer = words.fieldWithMore(own, than: words.count(in: body)) {
                    shown.chunkID = answer.id
                } else if plan.asked.isQuestion, askedKinds.isEmpty,
                    let outcome = own.first(where: { kind($0) == .decision })
                {
                    shown.chunkID = outcome.id
                }
            }
            return shown
        }
    }

    /// Whether `text` gives a number of `word`: a number right before a word of its stem, or one word before it
    /// ("50 YubiKeys", "14 months", "3 new laptops").
    static func statesCount(of word: String, in text: String) -> Bool {
        let stem = QueryAnalyzer.stem(word)
        let words = KeywordText.words(text)
        for (index, candidate) in words.enumerated() where QueryAnalyzer.stem(candidate) == stem {
            let before = words[max(0, index - 2)..<index]
            if before.contains(where: { $0.first?.isNumber == true }) { return true }
        }
        return false
    }

    /// The passage of `chunk` at `range` (its whole text when the range does not fit it).
    private static func passage(of chunk: ChunkRow, at range: Range<Int>) -> String {
        let units = Array(chunk.text.utf16)
        return range.isEmpty || range.upperBound > units.count
            ? chunk.text : String(decoding: units[range], as: UTF16.self)
    }

    /// Counts the query's words in a record's lines: as `highlighter` marks them, once per stem, the words of
    /// the record's title aside.
    struct QueryWords {
        let highlighter: KeywordHighlighter
        let title: Set<String>

        init(highlighter: KeywordHighlighter, title: String?) {
            self.highlighter = highlighter
            self.title = title.map { Self.stems($0, highlighter: highlighter) } ?? []
        }

        /// The stems of the words of `text` that `highlighter` marks.
        static func stems(_ text: String, highlighter: KeywordHighlighter) -> Set<String> {
            let units = Array(text.utf16)
            return Set(
                highlighter.ranges(in: text).compactMap { range in
                    range.upperBound <= units.count
                        ? QueryAnalyzer.stem(String(decoding: units[range], as: UTF16.self)) : nil
                })
        }

        /// How many of the query's words `text` holds, the title's aside.
        func count(in text: String) -> Int { Self.stems(text, highlighter: highlighter).subtracting(title).count }

        /// The first of `fields` whose line holds the most of the query's words, when that is more than `least`;
        /// `nil` when none holds more.
        func fieldWithMore(_ fields: [FieldChunk], than least: Int) -> FieldChunk? {
            var most = least
            var best: FieldChunk?
            for field in fields {
                let count = count(in: field.line)
                if count > most {
                    most = count
                    best = field
                }
            }
            return best
        }
    }

    /// The chunks with these ids, each with where its passage lies in its text: a field chunk's line, from the
    /// passage start stored with the chunk, or, for a chunk written before schema version 4, by comparison with its document's
    /// cleaned body (only a first chunk can start with the title, so only its body needs cleaning).
    func loadChunks(_ ids: [Int64]) throws -> [Int64: (chunk: ChunkRow, passageRange: Range<Int>)] {
        try database.chunks(ids: ids).mapValues { chunk in
            let range = chunk.range
            let length = chunk.text.utf16.count
            let passage: Range<Int>
            if chunk.field != nil, let start = chunk.passageStart, start >= 0, start < length {
                // A chunk of one labelled field: its line, after the record's heading.
                passage = start..<length
            } else if range.isEmpty || range.lowerBound < 0 {
                passage = 0..<0
            } else if let start = chunk.passageStart ?? (chunk.ordinal == 0 ? nil : 0) {
                passage = start >= 0 && start + range.count <= length ? start..<(start + range.count) : 0..<0
            } else {
                passage = TextChunk.passageRange(
                    text: chunk.text, range: range, body: chunk.body ?? "", quoted: chunk.quoted, cleaner: cleaner)
            }
            return chunk.fields == nil ? (chunk, passage) : restored(chunk, passage: passage)
        }
    }

    /// `chunk` as the person wrote it: the links and @mentions that cleaning replaced (`[link]`, `@user`, what
    /// the model read) put back in its passage, in the title before it and in the fields after it, with the
    /// passage's new place in the text.
    private func restored(_ chunk: ChunkRow, passage: Range<Int>) -> (chunk: ChunkRow, passageRange: Range<Int>) {
        let units = Array(chunk.text.utf16)
        guard passage.upperBound <= units.count else { return (chunk, passage) }
        func text(_ range: Range<Int>) -> String { String(decoding: units[range], as: UTF16.self) }
        // A field chunk's passage is its field line: put back like the fields after a body's passage.
        let isField = chunk.field != nil
        var before = text(0..<passage.lowerBound)
        var after = text((isField ? passage.lowerBound : passage.upperBound)..<units.count)
        var middle = isField ? "" : text(passage)
        if !passage.isEmpty && !isField {
            let body = Document(id: "", body: chunk.body ?? "", quoted: chunk.quoted)
            middle = TextCleaner.restore(
                middle, at: chunk.range, from: cleaner.cleanWithReplacements(body).replacements)
        }
        // The title before the passage, and each field's line after it (`Label: value`, as the chunker writes
        // it; its value alone where a long line was cut), in order: the first place each stands as cleaned, so
        // that two mentions cleaned alike are each put back where they were.
        func asWritten(_ text: String) -> (cleaned: String, written: String) {
            let (cleaned, replacements) = cleaner.cleanSingleLineWithReplacements(text)
            return (cleaned, TextCleaner.restore(cleaned, at: 0..<cleaned.utf16.count, from: replacements))
        }
        func putBack(_ cleaned: String, _ written: String, in text: inout String) -> Bool {
            guard cleaned != written, let found = text.range(of: cleaned) else { return false }
            text.replaceSubrange(found, with: written)
            return true
        }
        if let title = chunk.title {
            // A chunk of the title alone has no passage: the title is all its text.
            let (cleaned, written) = asWritten(title)
            _ =
                passage.isEmpty && !isField
                ? putBack(cleaned, written, in: &after) : putBack(cleaned, written, in: &before)
        }
        for field in JSONCoding.decodeFields(chunk.fields ?? "[]") {
            let label = asWritten(field.label)
            // A field chunk holds one field's line (or a piece of it): only that field's words are put back.
            if let only = chunk.field, ChunkingRun.oneLine(label.cleaned) != only { continue }
            let value = asWritten(field.value)
            let line =
                label.cleaned.isEmpty
                ? value : (cleaned: label.cleaned + ": " + value.cleaned, written: label.written + ": " + value.written)
            if !putBack(line.cleaned, line.written, in: &after) {
                _ = putBack(value.cleaned, value.written, in: &after)
            }
        }
        var shown = chunk
        shown.text = before + middle + after
        let start = before.utf16.count
        if isField { return (shown, passage.isEmpty ? passage : start..<shown.text.utf16.count) }
        return (shown, passage.isEmpty ? passage : start..<(start + middle.utf16.count))
    }
}
