import Foundation

extension Ranker {
    /// See the public method of the same name on ``HushStore``.
    func related(
        to id: String, limit: Int = 10, minCosine: Float? = nil, sameLanguage: Bool? = nil,
        filter: SearchFilter = .init()
    ) throws -> [RankedDocument] {
        try relatedDocuments(
            to: id, limit: limit, minCosine: minCosine,
            sameLanguage: sameLanguage ?? (embedder.languageScope == .perLanguage), filter: filter,
            similarity: .meanVector)
    }

    /// ``related(to:limit:minCosine:sameLanguage:filter:)`` with a chosen document similarity (for measuring).
    func relatedDocuments(
        to id: String, limit: Int, minCosine: Float?, sameLanguage: Bool, filter: SearchFilter,
        similarity: DocumentSimilarity
    ) throws -> [RankedDocument] {
        guard limit > 0 else { throw RankingError.invalidOption("limit must be at least 1 (got \(limit))") }
        let limit = clampedLimit(limit)
        if let minCosine, minCosine.isNaN { throw RankingError.invalidOption("minCosine is NaN") }
        let current = embedder.identity
        if let blocker = try readyForSemantic() {
            throw blocker
        }
        let found: [(slot: Int, score: Float)] = try memory.read { state in
            try state.requireSemantic(current: current)
            guard let source = state.slot(ofExternalID: id), let record = state.record(source)
            else { throw RankingError.unknownDocument(id: id) }
            var mask = state.allowedSlots(filter) ?? state.liveSlots
            mask.remove(source)
            if sameLanguage {
                let language = record.language.lowercased()
                let candidates = mask
                candidates.forEachAllowed { slot in
                    if state.record(slot)?.language.lowercased() != language {
                        mask.remove(slot)
                    }
                }
            }
            var heap = TopK(capacity: limit)
            switch similarity {
            case .meanVector:
                let centres = try memory.documentCentres(of: state)
                guard let query = try DocumentVectors(state: state, slots: [source], centres: centres).vector(source)
                else {
                    throw RankingError.noVectors(id: id)
                }
                if state.isApproximate {
                    // Through the approximate index: in each language, the documents whose chunks are nearest to
                    // the mean vector (4 × limit of them), then ranked exactly by their own mean vectors. A
                    // walk per language, because a chunk's cosine to the query carries its language's centre,
                    // which a document's vector does not: one walk would find mostly the source's language.
                    let near =
                        try centres.map {
                            try state.approximateTopPerLanguage(
                                query: query, mask: mask, k: limit * 4, centres: $0, shift: nil)
                        } ?? state.semanticTop(query: query, mask: mask, k: limit * 4)
                    let slots = near.map(\.slot)  // each language's walk finds its own documents: no repeats
                    let vectors = try DocumentVectors(state: state, slots: slots, centres: centres)
                    for slot in slots {
                        if let score = vectors.dot(slot, query) { heap.offer(id: slot, score: score) }
                    }
                } else {
                    let vectors = try DocumentVectors(state: state, wanted: mask, centres: centres)
                    mask.forEachAllowed { slot in
                        if let score = vectors.dot(slot, query) { heap.offer(id: slot, score: score) }
                    }
                }
            case .bestChunkPair:
                guard let rows = state.rows(ofSlots: [source])[source], !rows.isEmpty else {
                    throw RankingError.noVectors(id: id)
                }
                var best = [Float](repeating: -.infinity, count: mask.count)
                for row in rows {
                    let found = try state.semanticTop(query: state.vector(row: row), mask: mask, k: limit)
                    for hit in found where hit.slot < best.count { best[hit.slot] = max(best[hit.slot], hit.score) }
                }
                for slot in best.indices where best[slot] > -.infinity { heap.offer(id: slot, score: best[slot]) }
            }
            return heap.sorted().map { ($0.id, $0.score) }.filter { minCosine == nil || $0.score >= minCosine ?? 0 }
        }
        return try describe(found.map { ($0.slot, $0.score, $0.score, nil) })
    }

    /// Turns `(slot, score, similarity, recency)` into ``RankedDocument``s, loading titles from SQLite.
    func describe(_ entries: [(slot: Int, score: Float?, similarity: Float?, recency: Float?)]) throws
        -> [RankedDocument]
    {
        let records: [(DocumentRecord?, Float?, Float?, Float?)] = memory.read { state in
            entries.map { (state.record($0.slot), $0.score, $0.similarity, $0.recency) }
        }
        let rowids = records.compactMap { $0.0?.rowid }
        let titles = try database.titles(rowids: rowids)
        return records.compactMap { record, score, similarity, recency in
            guard let record else { return nil }
            return RankedDocument(
                id: record.externalID, score: score, similarity: similarity, recency: recency,
                title: titles[record.rowid], language: record.language, sourceType: record.sourceType,
                tags: record.tags, category: record.category,
                createdAt: Date(timeIntervalSince1970: record.createdAt))
        }
    }
}
