/// What can go wrong in a search. Each case says what to fix.
///
/// ```swift
/// do { _ = try await store.search("x", limit: 0) } catch let error as SearchError { print(error) }
/// ```
public enum SearchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `limit` (or the candidate count) must be at least 1.
    case invalidLimit(Int)
    /// The hybrid weight must lie in 0…1 and the RRF constant must be positive.
    case invalidFusion(String)
    /// The store's vectors were made by another embedder; semantic search would compare unrelated spaces.
    case embedderMismatch(stored: EmbedderIdentity, current: EmbedderIdentity)
    /// The embedder failed on the query, or returned an unusable vector.
    case queryEmbeddingFailed(String)
    /// SQLite failed while searching.
    case database(String)

    public var description: String {
        switch self {
        case .invalidLimit(let limit):
            return "search limit must be at least 1 (got \(limit))"
        case .invalidFusion(let what):
            return "invalid hybrid fusion: \(what)"
        case .embedderMismatch(let stored, let current):
            return "the store was indexed with \(stored) but the current embedder is \(current): "
                + "run reembed (open with allowEmbedderMismatch: true), or use keyword mode"
        case .queryEmbeddingFailed(let reason):
            return "could not embed the query: \(reason)"
        case .database(let reason):
            return "database error while searching: \(reason)"
        }
    }
}
