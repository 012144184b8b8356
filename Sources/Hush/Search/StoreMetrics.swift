import Foundation

/// What a store has done since it was opened: its searches, how long they took, and how the query cache
/// served them. Local figures for an app's own telemetry; nothing leaves the device.
///
/// ```swift
/// let metrics = store.metrics
/// print(metrics.queryCache.hitRate, metrics.searches.meanTotalMs)
/// ```
public struct StoreMetrics: Sendable, Hashable, Codable {
    /// The query-vector cache.
    public struct QueryCache: Sendable, Hashable, Codable {
        /// Searches whose query vector came from the cache.
        public var hits: Int
        /// Searches that embedded their query.
        public var misses: Int
        /// Vectors held now.
        public var entries: Int
        /// The most it holds (``StoreOptions/queryCacheCapacity``).
        public var capacity: Int
        /// `hits / (hits + misses)`, 0 before the first semantic search.
        public var hitRate: Double { hits + misses == 0 ? 0 : Double(hits) / Double(hits + misses) }
    }

    /// Searches and their timings (``SearchResults/Timings``), in milliseconds.
    public struct Searches: Sendable, Hashable, Codable {
        /// Searches answered.
        public var count: Int
        /// Of those, how many embedded their query (the others had none to embed or found it cached).
        public var embedded: Int
        /// Sum of the embedding times.
        public var embedMs: Double
        /// Sum of the search times (filter, scan, keywords, fusion, loading hits).
        public var searchMs: Double
        /// Sum of the whole calls.
        public var totalMs: Double
        /// The slowest whole call.
        public var maxTotalMs: Double
        /// Mean embedding time of the searches that embedded, 0 when none did.
        public var meanEmbedMs: Double { embedded == 0 ? 0 : embedMs / Double(embedded) }
        /// Mean whole-call time, 0 before the first search.
        public var meanTotalMs: Double { count == 0 ? 0 : totalMs / Double(count) }
    }

    /// The query-vector cache.
    public var queryCache: QueryCache
    /// Searches and their timings.
    public var searches: Searches
}

/// Adds up search timings (searches run concurrently).
final class MetricsRecorder: Sendable {
    private let searches = Locked(
        StoreMetrics.Searches(count: 0, embedded: 0, embedMs: 0, searchMs: 0, totalMs: 0, maxTotalMs: 0))

    func record(_ timings: SearchResults.Timings, embedded: Bool) {
        searches.withLock { searches in
            searches.count += 1
            if embedded { searches.embedded += 1 }
            searches.embedMs += timings.embedMs
            searches.searchMs += timings.searchMs
            searches.totalMs += timings.totalMs
            searches.maxTotalMs = max(searches.maxTotalMs, timings.totalMs)
        }
    }

    var snapshot: StoreMetrics.Searches { searches.value }
}

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
