import Foundation

extension HushStore {
    /// Re-orders search results by maximal marginal relevance over the hits' stored document vectors, so
    /// that near-duplicates do not crowd the top (see ``Diversifier``). The hits' scores are rescaled to 0…1
    /// over `results` and the vectors centred on their language's centre (as related items compare them), so
    /// that `lambda` means the same in every search mode and with every model.
    ///
    /// ```swift
    /// let pool = try await store.search("sleep and stress", limit: 30)
    /// let varied = try await store.diversify(pool, lambda: 0.7, limit: 10)
    /// ```
    ///
    /// - Throws: ``RankingError/invalidOption(_:)`` for `lambda` outside 0…1 or `limit` below 1.
    /// - Complexity: O(chunks × dimension) to build the hits' document vectors, plus O(limit × hits × dimension).
    public func diversify(_ results: SearchResults, lambda: Float = 0.7, limit: Int? = nil) async throws
        -> SearchResults
    {
        try ranker.diversify(results, lambda: lambda, limit: limit)
    }

    /// Orders documents by how well they fit what a person liked, blended with recency (a feed's "Relevant"
    /// sort).
    ///
    /// The interest centroid is the mean of the liked documents' vectors minus `dislikedWeight ×` the mean
    /// of the disliked ones, normalised: one per language when `options.perLanguage` (by default, unless the
    /// model is multilingual), else one for all. A candidate in a language with a centroid
    /// scores `alpha × cos(candidate, centroid) + (1 − alpha) × exp(−ln 2 × age / halfLife)`; ties go to the
    /// newer document. Candidates in languages without a liked document (or without vectors) follow the
    /// ranked ones in their original order: the order of `candidates`, or newest first when `candidates` is
    /// `nil` (every stored document). Liked and disliked documents are left out unless
    /// `options.includeRated`.
    ///
    /// ```swift
    /// let feed = try await store.rank(liked: ["r-sleep", "r-walk"], disliked: ["r-budget"], limit: 20)
    /// for item in feed { print(item.id, item.score ?? .nan) }
    /// ```
    ///
    /// Ids that name no stored document (a liked post pruned since) are skipped and listed in
    /// ``InterestRanking/unknownIDs``, unless `options.ignoreUnknownIDs` is false.
    ///
    /// - Throws: ``RankingError/unknownDocument(id:)`` (only when `options.ignoreUnknownIDs` is false),
    ///   ``RankingError/invalidOption(_:)``, ``StoreError/embedderMismatch(stored:current:)``.
    /// - Complexity: O(chunks × dimension) to build the document vectors, plus O(candidates × log candidates).
    public func rank(
        liked: [String], disliked: [String] = [], candidates: [String]? = nil, options: InterestOptions = .init(),
        limit: Int? = nil
    ) async throws -> InterestRanking {
        try ranker.rank(liked: liked, disliked: disliked, candidates: candidates, options: options, limit: limit)
    }

    /// The stored documents nearest in meaning to a stored one, from the vectors already in the file (nothing
    /// is re-embedded). The document itself is never returned.
    ///
    /// Documents are compared by the cosine of their mean chunk vectors less their language's centre (what
    /// every vector of the model in that language shares), normalised; `minCosine` applies to that cosine
    /// (measured against best-chunk pairing and against uncentred means; see <doc:FeedsAndPlanners>). Centred
    /// per language, a document's translation is found among its related items as well as a document of its own
    /// language would be.
    ///
    /// ```swift
    /// let more = try await store.related(to: "r-sleep", limit: 5, minCosine: 0.3, sameLanguage: true)
    /// ```
    ///
    /// `sameLanguage` keeps only documents in the source's language; `nil` decides by the model: on for a
    /// model per language (`LanguageScope.perLanguage`), off otherwise (a multilingual model relates a
    /// Chinese entry to its English twin).
    ///
    /// - Throws: ``RankingError/unknownDocument(id:)``, ``RankingError/noVectors(id:)``,
    ///   ``StoreError/embedderMismatch(stored:current:)``, ``RankingError/invalidOption(_:)``.
    /// - Complexity: exact index: O(chunks × dimension) (one pass to build the document vectors) plus
    ///   O(documents × log limit); HNSW/int8/binary: one approximate search per language for 4 × limit documents
    ///   near the source's mean vector, then O(chunks × dimension) to rank them by their mean vectors.
    public func related(
        to id: String, limit: Int = 10, minCosine: Float? = nil, sameLanguage: Bool? = nil,
        filter: SearchFilter = .init()
    ) async throws -> [RankedDocument] {
        try ranker.related(to: id, limit: limit, minCosine: minCosine, sameLanguage: sameLanguage, filter: filter)
    }

    /// An extractive summary of stored documents (one note, a thread, a day's entries).
    ///
    /// The documents' cleaned bodies and their labelled fields (a meeting's outcomes, action items) are split
    /// into sentences (the chunker's segmentation), the sentences are
    /// embedded with the store's embedder, and `sentences` of them are chosen by maximal marginal relevance
    /// against the centroid of the documents' stored vectors (each document weighs the same), so the summary
    /// covers the main theme without repeating itself. They come back in original order: the order of `ids`,
    /// then their position in the document.
    ///
    /// ```swift
    /// let summary = try await store.summarize(ids: ["m-offsite", "m-launch", "m-retro"], sentences: 3)
    /// print(summary.text)
    /// ```
    ///
    /// - Throws: ``RankingError/unknownDocument(id:)``, ``RankingError/invalidOption(_:)``,
    ///   ``StoreError/embedderMismatch(stored:current:)``, ``RankingError/embeddingFailed(_:)``.
    /// - Complexity: one embedding per sentence, plus O(chunks × dimension) for the centroid and
    ///   O(sentences × candidates × dimension) for MMR.
    public func summarize(ids: [String], sentences count: Int = 3, lambda: Float = 0.7) async throws
        -> Summary
    {
        try ranker.summarize(ids: ids, sentences: count, lambda: lambda)
    }

    /// An extractive summary of what a search finds: the top `k` hits' documents that are good matches
    /// (``SearchResults/goodMatches``), oldest first, summarised as by ``summarize(ids:sentences:lambda:)`` but
    /// with the sentences chosen for their similarity to the query rather than to the documents' common theme,
    /// so that the summary answers what was asked (a hit that only came close adds nothing off the subject).
    /// A question nothing stored answers gets an empty summary.
    ///
    /// ```swift
    /// let summary = try await store.summarize(query: "offsite budget", k: 5, sentences: 3)
    /// ```
    ///
    /// - Parameters:
    ///   - query: What the summary is about.
    ///   - k: How many hits of its search to summarise, at most.
    ///   - count: How many sentences.
    ///   - mode: The search's mode.
    ///   - filter: The search's filter.
    ///   - minRelevance: The lowest ``SearchHit/relevance`` a hit needs to be summarised; `nil` for the good
    ///     matches' threshold (``SearchResults/goodMatchThreshold``).
    ///   - lambda: The MMR weight on relevance against redundancy, 0…1.
    /// - Complexity: one search plus ``summarize(ids:sentences:lambda:)`` on its hits.
    public func summarize(
        query: String, k: Int = 5, sentences count: Int = 3, mode: SearchMode = .hybrid, filter: SearchFilter = .init(),
        minRelevance: Float? = nil, lambda: Float = 0.7
    ) async throws -> Summary {
        guard k > 0 else { throw RankingError.invalidOption("k must be at least 1 (got \(k))") }
        let results = try searcher.search(
            query, mode: mode, filter: filter, limit: memory.clampedLimit(k), minScore: nil,
            minRelevance: minRelevance, boosts: .default, explain: false)
        // With a floor of its own, the search kept the hits that reach it.
        let hits = minRelevance == nil ? results.goodMatches : results.hits
        return try summarize(hits: hits, query: query, sentences: count, mode: mode, lambda: lambda)
    }

    /// An extractive summary of a search's good matches (``SearchResults/goodMatches``), oldest first, with the
    /// sentences closest to its query: what ``summarize(query:k:sentences:mode:filter:minRelevance:lambda:)``
    /// does, for results already shown, without searching again. Empty when no hit is a good match.
    ///
    /// ```swift
    /// let results = try await store.search("what did we decide about travel?", limit: 5)
    /// let summary = try await store.summarize(results: results, sentences: 2)
    /// for sentence in summary.sentences { print(sentence.text, "—", sentence.documentID) }
    /// ```
    ///
    /// - Parameters:
    ///   - results: A search's results.
    ///   - count: How many sentences.
    ///   - mode: The mode `results` were searched in: with ``SearchMode/acrossLanguages`` off, the sentences
    ///     are compared with the query as the model's cosines are.
    ///   - lambda: The MMR weight on relevance against redundancy, 0…1.
    /// - Complexity: one query embedding (cached after a search) plus ``summarize(ids:sentences:lambda:)``.
    public func summarize(
        results: SearchResults, sentences count: Int = 3, mode: SearchMode = .hybrid, lambda: Float = 0.7
    )
        async throws -> Summary
    {
        try summarize(hits: results.goodMatches, query: results.query, sentences: count, mode: mode, lambda: lambda)
    }

    /// The summary of `hits` of a search of `query`, with the sentences closest to it.
    private func summarize(hits: [SearchHit], query: String, sentences count: Int, mode: SearchMode, lambda: Float)
        throws -> Summary
    {
        guard !hits.isEmpty else { return Summary(sentences: [], documentIDs: []) }
        // The search cached the query's vector (a keyword search embeds it here): the sentences chosen are
        // those closest to what was asked, not merely to the hits' common theme.
        let focus = SummaryFocus(query: try searcher.queryVector(for: query), acrossLanguages: mode.acrossLanguages)
        return try ranker.summarize(hits: hits, sentences: count, lambda: lambda, focus: focus)
    }
}
