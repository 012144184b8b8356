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
            // Centred as for related items: e5's vectors of unrelated texts have cosine 0.82 on average, so
            // uncentred, every hit looked almost as redundant as every other.
            let table = try DocumentVectors(
                state: state, slots: slots.values, centres: try memory.documentCentres(of: state))
            return results.hits.map { hit in slots[hit.id].flatMap(table.vector) ?? [] }
        }
        let order = Diversifier.mmr(
            relevance: Self.relevance(results.hits.map(\.score)), vectors: vectors, lambda: lambda, limit: limit)
        var diversified = results
        diversified.hits = order.map { results.hits[$0] }
        return diversified
    }

    /// The hits' scores rescaled to 0…1 over the pool (best 1, worst 0; all 1 when they are equal), as a hybrid
    /// search's fused scores already are, so that `lambda` weighs relevance against redundancy alike in every
    /// mode and with every model. A semantic search's cosines spread over a few hundredths within a pool
    /// (e5's most of all), which the redundancy of centred vectors (0…1) outweighed whatever `lambda`: MMR then
    /// kept one hit per subject, the answer's own siblings pushed out (scripts/bench/diversity.py).
    static func relevance(_ scores: [Float]) -> [Float] {
        let finite = scores.filter(\.isFinite)
        guard let low = finite.min(), let high = finite.max() else { return scores }
        guard high > low else { return scores.map { $0.isFinite ? 1 : $0 } }
        return scores.map { $0.isFinite ? ($0 - low) / (high - low) : $0 }
    }
}
