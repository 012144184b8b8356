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
