import Foundation

extension HushStore {
    /// Re-orders search results by maximal marginal relevance over the hits' stored document vectors, so
    /// that near-duplicates do not crowd the top (see ``Diversifier``).
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
        guard (0...1).contains(lambda) else {
            throw RankingError.invalidOption("the MMR lambda must lie in 0…1 (got \(lambda))")
        }
        if let limit, limit < 1 { throw RankingError.invalidOption("limit must be at least 1 (got \(limit))") }
        let vectors: [[Float]] = index.read { state in
            guard state.semanticReady else { return results.hits.map { _ in [] } }
            let slots = state.slots(ofExternalIDs: results.hits.map(\.id))
            let table = DocumentVectors(state: state, slots: slots.values)
            return results.hits.map { hit in slots[hit.id].flatMap(table.vector) ?? [] }
        }
        let order = Diversifier.mmr(
            relevance: results.hits.map(\.score), vectors: vectors, lambda: lambda, limit: limit)
        var diversified = results
        diversified.hits = order.map { results.hits[$0] }
        return diversified
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
        minScore: Float? = nil, boosts: Boosts = .default, explain: Bool = false, diversify lambda: Float
    ) async throws -> SearchResults {
        guard limit > 0 else { throw SearchError.invalidLimit(limit) }
        let wanted = clampedLimit(limit)  // so that the pool's size below cannot overflow
        let pool = try await search(
            query, mode: mode, filter: filter, limit: max(wanted * 3, wanted + 10), minScore: minScore, boosts: boosts,
            explain: explain)
        return try await diversify(pool, lambda: lambda, limit: limit)
    }
}
