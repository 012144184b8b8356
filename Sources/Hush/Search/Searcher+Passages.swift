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

    /// The chunks with these ids, each with where its passage lies in its text: from the passage start stored
    /// with the chunk, or, for a chunk written before schema version 4, by comparison with its document's
    /// cleaned body (only a first chunk can start with the title, so only its body needs cleaning).
    func loadChunks(_ ids: [Int64]) throws -> [Int64: (chunk: ChunkRow, passageRange: Range<Int>)] {
        try database.chunks(ids: ids).mapValues { chunk in
            let range = chunk.range
            let length = chunk.text.utf16.count
            guard !range.isEmpty, range.lowerBound >= 0 else { return (chunk, 0..<0) }
            if let start = chunk.passageStart ?? (chunk.ordinal == 0 ? nil : 0) {
                return (chunk, start >= 0 && start + range.count <= length ? start..<(start + range.count) : 0..<0)
            }
            let passage = TextChunk.passageRange(
                text: chunk.text, range: range, body: chunk.body ?? "", quoted: chunk.quoted, cleaner: cleaner)
            return (chunk, passage)
        }
    }
}
