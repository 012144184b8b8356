import Foundation

extension Ranker {
    /// See the public method of the same name on ``HushStore``.
    func diversify(_ results: SearchResults, lambda: Float = 0.7, limit: Int? = nil) throws
        -> SearchResults
    {
        guard (0...1).contains(lambda) else {
            throw RankingError.invalidOption("the MMR lambda must lie in 0…1 (got \(lambda))")
        }
        if let limit, limit < 1 { throw RankingError.invalidOption("limit must be at least 1 (got \(limit))") }
        try memory.loadDeferredVectors()
        let vectors: [[Float]] = try memory.read { state in
            guard state.semanticReady else { return results.hits.map { _ in [] } }
            let slots = state.slots(ofExternalIDs: results.hits.map(\.id))
            let table = try DocumentVectors(state: state, slots: slots.values)
            return results.hits.map { hit in slots[hit.id].flatMap(table.vector) ?? [] }
        }
        let order = Diversifier.mmr(
            relevance: results.hits.map(\.score), vectors: vectors, lambda: lambda, limit: limit)
        var diversified = results
        diversified.hits = order.map { results.hits[$0] }
        return diversified
    }
}
