import Foundation

/// Passages: the chosen hits' chunks read from the file, with where each hit's passage lies in its text.
extension Searcher {
    /// The hits for `chosen` (best first), with their chunks' text; a hit whose chunk is gone is left out.
    func hits(_ chosen: [Chosen], plan: SearchPlan) throws -> [SearchHit] {
        let chunks = try loadChunks(chosen.map(\.chunkID))
        return chosen.compactMap { entry in
            guard let (chunk, passageRange) = chunks[entry.chunkID] else { return nil }
            let record = entry.record
            var explanation = entry.candidate.explanation
            explanation.calibration = plan.calibrationName
            return SearchHit(
                id: record.externalID, score: explanation.finalScore, title: chunk.title, text: chunk.text,
                chunkOrdinal: chunk.ordinal, range: chunk.range, passageRange: passageRange,
                sourceType: record.sourceType, language: record.language, tags: record.tags,
                category: record.category, createdAt: Date(timeIntervalSince1970: record.createdAt),
                explanation: plan.explain ? explanation : nil)
        }
    }

    /// The chunks with these ids, each with where its passage lies in its text.
    func loadChunks(_ ids: [Int64]) throws -> [Int64: (chunk: ChunkRow, passageRange: Range<Int>)] {
        try database.chunks(ids: ids).mapValues { chunk in
            let passage = Self.passageRange(text: chunk.text, ordinal: chunk.ordinal, range: chunk.range) {
                cleaner.clean(Document(id: "", body: chunk.body, quoted: chunk.quoted))
            }
            return (chunk, passage)
        }
    }

    /// Where, in a chunk's `text` (title line, passage, field lines), the passage lies whose offsets in the
    /// document's cleaned body are `range`: found by comparing the cleaned body's slice with the text at the
    /// two places a passage can start (at 0, or after the title's blank line). Empty at 0 for a chunk without
    /// a passage (a title or fields alone). Only the first chunk can start with the title, so only its body
    /// needs cleaning: a later chunk's passage starts its text.
    static func passageRange(text: String, ordinal: Int, range: Range<Int>, cleanedBody: () -> String)
        -> Range<Int>
    {
        guard !range.isEmpty, range.lowerBound >= 0 else { return 0..<0 }
        guard ordinal == 0 else { return range.count <= text.utf16.count ? 0..<range.count : 0..<0 }
        return passageRange(text: text, range: range, cleanedBody: cleanedBody())
    }

    static func passageRange(text: String, range: Range<Int>, cleanedBody: String) -> Range<Int> {
        let body = Array(cleanedBody.utf16)
        let chunk = Array(text.utf16)
        guard !range.isEmpty, range.lowerBound >= 0, range.upperBound <= body.count else { return 0..<0 }
        let passage = body[range]
        var starts = [0]
        if let separator = text.range(of: "\n\n") { starts.append(separator.upperBound.utf16Offset(in: text)) }
        for start in starts where start + passage.count <= chunk.count {
            if chunk[start..<(start + passage.count)].elementsEqual(passage) { return start..<(start + passage.count) }
        }
        return 0..<0
    }
}
