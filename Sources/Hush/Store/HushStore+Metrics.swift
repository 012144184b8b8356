import Foundation

extension HushStore {
    /// What the store has done since it was opened: searches and their timings, and the query cache's hits
    /// and misses (see ``StoreMetrics``).
    ///
    /// ```swift
    /// _ = try await store.search("sleep")
    /// _ = try await store.search("sleep")
    /// store.metrics.queryCache.hits  // 1
    /// ```
    public var metrics: StoreMetrics {
        let counters = cache.counters
        return StoreMetrics(
            queryCache: .init(
                hits: counters.hits, misses: counters.misses, entries: counters.entries, capacity: cache.capacity),
            searches: recorder.snapshot)
    }

    /// Loads what the first query needs, so that it is as fast as the ones after it: runs the model once on a
    /// short text (its weights are read and packed, its threads started), makes one pass of the vector index
    /// and reads the keyword index's first pages. It is not a search: nothing is cached or counted in
    /// ``metrics``. Returns how long that took. Without a model only the keyword
    /// index is touched.
    ///
    /// ```swift
    /// Task.detached(priority: .utility) { try await store.warmUp() }  // at launch, off the main thread
    /// ```
    ///
    /// - Throws: ``SearchError/queryEmbeddingFailed(_:)`` when the model fails.
    @discardableResult
    public func warmUp() async throws -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        if semanticAvailable {
            let vector: [Float]
            do {
                vector = try embedder.embed("warm up", role: .query).vector
            } catch {
                throw SearchError.queryEmbeddingFailed(String(describing: error))
            }
            // One pass of the index the first query will use (scan, codes or graph), its vectors read first.
            try memory.loadDeferredVectors()
            if vector.count == embedder.identity.dimension {
                _ = try memory.read { state in try state.semanticTop(query: vector, mask: nil, k: 1) }
            }
        }
        if try !database.keywordIndexIsMissing() {
            _ = try database.readKeywordIndex { try $0.bm25(FTSQuery.quote("hush"), chunks: [0]) }
        }
        return clock.now - start
    }
}
