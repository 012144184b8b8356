import Foundation

/// What a summary of a search chooses its sentences for: the query's vector and whether its search was across
/// languages (``SearchMode/acrossLanguages``).
struct SummaryFocus {
    var query: [Float]
    var acrossLanguages: Bool
}

extension Ranker {
    /// See the public method of the same name on ``HushStore``.
    ///
    /// With a `focus`, a sentence's relevance is its similarity to the query (the classic query-focused MMR),
    /// so that a summary of a search's hits says what they say about what was asked; without one, its
    /// similarity to the centroid of the documents' stored vectors (their theme). A multilingual model places
    /// a query nearer the sentences of its own language whatever they say: across languages, each sentence's
    /// similarity loses its document's language shift (``LanguageShift``), as the document's score does in the
    /// search, so that a sentence in another language competes on what it says.
    func summarize(ids: [String], sentences count: Int = 3, lambda: Float = 0.7, focus: SummaryFocus? = nil)
        throws -> Summary
    {
        guard count > 0 else { throw RankingError.invalidOption("sentences must be at least 1 (got \(count))") }
        guard (0...1).contains(lambda) else {
            throw RankingError.invalidOption("the MMR lambda must lie in 0…1 (got \(lambda))")
        }
        var unique: [String] = []
        for id in ids where !unique.contains(id) { unique.append(id) }
        guard !unique.isEmpty else { throw RankingError.invalidOption("give at least one document id") }

        // The documents' text and the centroid of their stored vectors.
        let current = embedder.identity
        if let blocker = try readyForSemantic() {
            throw blocker
        }
        let (centroid, shift): ([Float]?, [String: Float]) = try memory.read { state in
            try state.requireSemantic(current: current)
            let slots = state.slots(ofExternalIDs: unique)
            if let missing = unique.first(where: { slots[$0] == nil }) {
                throw RankingError.unknownDocument(id: missing)
            }
            guard let focus else {
                let table = try DocumentVectors(state: state, slots: slots.values)
                return (VectorMath.normalizedMean(unique.compactMap { slots[$0].flatMap(table.vector) }), [:])
            }
            // Focused on a query: no centroid to build, only each document's language shift.
            var shift: [String: Float] = [:]
            if focus.acrossLanguages,
                let languages = try state.languageShift(
                    query: focus.query, scope: embedder.languageScope, memory: memory)
            {
                for (id, slot) in slots { shift[id] = languages(slot) }
            }
            return (nil, shift)
        }
        let texts = try documentTexts(unique)

        // Every sentence of the bodies and the fields; short ones ("Approved.") only when the others are
        // fewer than asked for, so that `count` sentences come back whenever the documents hold them.
        // Each sentence is embedded as cleaned and shown as written.
        var all: [(text: String, shown: String, documentID: String, position: Int, substantial: Bool)] = []
        var seen = Set<String>()
        for id in unique {
            guard let document = texts[id] else { throw RankingError.unknownDocument(id: id) }
            for (position, sentence) in SentenceSplitter.sentences(of: document, cleaner: cleaner)
                .enumerated() where seen.insert(sentence.text).inserted
            {
                all.append((sentence.text, sentence.shown, id, position, sentence.substantial))
            }
        }
        let substantial = all.filter(\.substantial)
        let candidates = (substantial.count >= count ? substantial : all).map {
            (text: $0.text, shown: $0.shown, documentID: $0.documentID, position: $0.position)
        }
        guard !candidates.isEmpty else { return Summary(sentences: [], documentIDs: unique) }

        var vectors: [[Float]] = []
        vectors.reserveCapacity(candidates.count)
        let batch = max(1, embeddingBatchSize)
        do {
            for start in stride(from: 0, to: candidates.count, by: batch) {
                // A summary of many documents embeds many sentences: a cancelled caller stops between batches.
                try Task.checkCancellation()
                let texts = candidates[start..<min(candidates.count, start + batch)].map(\.text)
                for embedding in try embedder.embed(texts, role: .passage) {
                    if let problem = VectorBlob.problem(embedding.vector, dimension: current.dimension) {
                        throw RankingError.embeddingFailed(problem)
                    }
                    vectors.append(embedding.vector)
                }
            }
        } catch let error as RankingError {
            throw error
        } catch let error as CancellationError {
            throw error
        } catch {
            throw RankingError.embeddingFailed(String(describing: error))
        }
        guard vectors.count == candidates.count else {
            throw RankingError.embeddingFailed(
                "the embedder returned \(vectors.count) vectors for \(candidates.count) sentences")
        }
        vectors = vectors.map { VectorMath.normalized($0) ?? $0 }
        let center =
            focus.flatMap { VectorMath.normalized($0.query) } ?? centroid ?? VectorMath.normalizedMean(vectors) ?? []
        let relevance = zip(vectors, candidates).map { vector, candidate in
            VectorMath.dot(vector, center) - (shift[candidate.documentID] ?? 0)
        }
        let chosen = Diversifier.mmr(relevance: relevance, vectors: vectors, lambda: lambda, limit: count)
        // Candidates were appended in original order, so sorting the chosen indices restores it.
        let sentences = chosen.sorted().map { index in
            Summary.Sentence(
                text: candidates[index].shown, documentID: candidates[index].documentID,
                position: candidates[index].position, relevance: relevance[index])
        }
        return Summary(sentences: sentences, documentIDs: unique)
    }

    /// A summary of a search's hits' documents, oldest first, focused on the query's vector `focus` (see
    /// ``HushStore/summarize(query:k:sentences:mode:filter:minRelevance:lambda:)``).
    func summarize(hits: [SearchHit], sentences count: Int = 3, lambda: Float = 0.7, focus: SummaryFocus) throws
        -> Summary
    {
        guard !hits.isEmpty else { return Summary(sentences: [], documentIDs: []) }
        let ordered = hits.enumerated().sorted { lhs, rhs in
            lhs.element.createdAt != rhs.element.createdAt
                ? lhs.element.createdAt < rhs.element.createdAt : lhs.offset < rhs.offset
        }
        return try summarize(ids: ordered.map(\.element.id), sentences: count, lambda: lambda, focus: focus)
    }

    /// Title, body, quote and fields of stored documents, by id.
    func documentTexts(_ ids: [String]) throws -> [String: Document] {
        try database.documentTexts(ids: ids)
    }
}
