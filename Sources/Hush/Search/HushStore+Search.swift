import Foundation

extension HushStore {
    /// Finds the documents that best match `query`.
    ///
    /// Filters are applied before ranking, so the hits are the top `limit` of the matching documents (never
    /// fewer when that many match). Semantic search goes through the store's index (``StoreStats/index``):
    /// an exact scan of every chunk vector below 20 000 vectors, else an HNSW graph or int8/binary codes with
    /// exact rescoring (approximate; scores are exact cosines); keyword search uses FTS5 bm25 with
    /// a query built so that no input can be a syntax error; hybrid fuses both (see ``SearchMode``).
    /// Each document appears once, represented by its best chunk. A phrase in double quotes ranks the documents
    /// that say it as written first; a word or quoted phrase after a minus (`"flying -fish"`) leaves out the
    /// documents that hold it, in every mode.
    ///
    /// Each hit also carries its ``SearchHit/relevance``, the estimated probability that it answers the query,
    /// and ``SearchResults/goodMatch`` says whether the best one is a good match. `minScore` is in the mode's
    /// units (see ``SearchResults``); `minRelevance` is in those of the relevance, the same in every mode
    /// and for every query: `minRelevance: results.goodMatchThreshold` keeps the good matches alone.
    ///
    /// ```swift
    /// let results = try await store.search("how much did we spend on travel?",
    ///                                      filter: SearchFilter(tagsAny: ["finance"]), limit: 5, explain: true)
    /// for hit in results.hits { print(hit.id, hit.score, hit.explanation?.keywordRank ?? 0) }
    /// if !results.goodMatch { print("nothing stored answers that") }
    /// ```
    ///
    /// - Complexity: exact: O(chunks × dimension) for the semantic scan (one vectorised pass); HNSW: about
    ///   O(ef × log chunks × dimension); int8/binary: O(chunks × code bytes); plus the FTS5 query, plus
    ///   O(documents) for the filter.
    ///
    /// - Parameters:
    ///   - query: What to look for.
    ///   - mode: How to rank (``SearchMode``; hybrid by default).
    ///   - filter: Which documents may be hits, applied before ranking.
    ///   - limit: The most hits.
    ///   - minScore: Leave out the hits scoring below this, in the mode's units.
    ///   - minRelevance: Leave out the hits whose ``SearchHit/relevance`` is below this (0…1); hits without
    ///     one (keyword mode) are kept.
    ///   - boosts: The tag and category nudges (``Boosts``).
    ///   - explain: Whether each hit carries its ``SearchHit/Explanation``.
    public func search(
        _ query: String, mode: SearchMode = .hybrid, filter: SearchFilter = .init(), limit: Int = 10,
        minScore: Float? = nil, minRelevance: Float? = nil, boosts: Boosts = .default, explain: Bool = false
    ) async throws -> SearchResults {
        try searcher.search(
            query, mode: mode, filter: filter, limit: limit, minScore: minScore, minRelevance: minRelevance,
            boosts: boosts, explain: explain)
    }

    /// Searches a pool of `3 × limit` candidates (at least `limit + 10`) and returns `limit` of them
    /// re-ordered by maximal marginal relevance with weight `diversify` on relevance (see
    /// ``diversify(_:lambda:limit:)``).
    ///
    /// ```swift
    /// let results = try await store.search("sleep and stress", limit: 5, diversify: 0.7)
    /// ```
    ///
    /// - Complexity: one search with the larger limit, plus the MMR pass.
    public func search(
        _ query: String, mode: SearchMode = .hybrid, filter: SearchFilter = .init(), limit: Int = 10,
        minScore: Float? = nil, minRelevance: Float? = nil, boosts: Boosts = .default, explain: Bool = false,
        diversify lambda: Float
    ) async throws -> SearchResults {
        guard limit > 0 else { throw SearchError.invalidLimit(limit) }
        let wanted = memory.clampedLimit(limit)  // so that the pool's size below cannot overflow
        let pool = try searcher.search(
            query, mode: mode, filter: filter, limit: max(wanted * 3, wanted + 10), minScore: minScore,
            minRelevance: minRelevance, boosts: boosts, explain: explain)
        return try ranker.diversify(pool, lambda: lambda, limit: limit)
    }

    /// What a query says: its cleaned text, language and keywords, exactly as ``search(_:mode:filter:limit:minScore:minRelevance:boosts:explain:)``
    /// sees it. A short query whose words do not show its language takes the store's most common one.
    ///
    /// ```swift
    /// let analysis = store.analyze("Meetings about the running budget")
    /// print(analysis.language, analysis.words)  // en ["meetings", "running", "budget"]
    /// print(analysis.keywords)  // ["meet", "run", "budget"]: the stems the keyword index matches
    /// ```
    ///
    /// - Complexity: O(n) in the length of the query.
    public func analyze(_ query: String) -> QueryAnalysis {
        searcher.analyze(query)
    }
}

extension HushStore {
    /// The calibration table of the store's model (``ScoreCalibration/builtIn(for:)``), which scores the
    /// default hybrid search; `nil` when Hush ships none for it.
    public var scoreCalibration: ScoreCalibration? { ScoreCalibration.builtIn(for: embedder.identity) }

    /// The semantic weight of the default hybrid search for a query in `queryLanguage` (an ISO 639-1 code,
    /// or `und`; `zh-Hans` counts as `zh`), by how well the model knows that language: 0.75 with
    /// multilingual-e5-small in every language; with all-MiniLM-L6-v2 0.6 in English, 0 in Chinese and Japanese
    /// and 0.3 elsewhere; 0.15 for the lexical fallback. The measurements behind them are in docs/benchmarks.md (multilingual retrieval quality).
    ///
    /// ```swift
    /// store.hybridAlpha(queryLanguage: "de")  // 0.75 with e5-small, 0.3 with MiniLM, 0.15 lexical
    /// ```
    public func hybridAlpha(queryLanguage: String) -> Float {
        embedder.defaultHybridAlpha(queryLanguage: queryLanguage)
    }
}
