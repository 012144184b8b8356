/// What can go wrong in a search's arguments or its query. Each case says what to fix. (A store that cannot
/// compare vectors, or a database failure, is a ``StoreError``: one error per condition, whichever call meets
/// it.)
///
/// ```swift
/// do { _ = try await store.search("x", limit: 0) } catch let error as SearchError { print(error) }
/// ```
public enum SearchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `limit` (or the candidate count) must be at least 1.
    case invalidLimit(Int)
    /// The hybrid weight must lie in 0…1 and the RRF constant must be positive.
    case invalidFusion(String)
    /// The embedder failed on the query, or returned an unusable vector.
    case queryEmbeddingFailed(String)

    public var description: String {
        switch self {
        case .invalidLimit(let limit):
            return "search limit must be at least 1 (got \(limit))"
        case .invalidFusion(let what):
            return "invalid hybrid fusion: \(what)"
        case .queryEmbeddingFailed(let reason):
            return "could not embed the query: \(reason)"
        }
    }
}

extension SearchError: TypedError {}
