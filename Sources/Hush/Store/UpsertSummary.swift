/// What an `upsert` did.
///
/// ```swift
/// let summary = try await store.upsert(documents)
/// print(summary.added, summary.updated, summary.unchanged, summary.errors.count)
/// ```
public struct UpsertSummary: Sendable, Hashable, Codable {
    /// A document that was not stored, and why.
    public struct DocumentError: Sendable, Hashable, Codable {
        /// The document's id.
        public var id: String
        /// What is wrong and what to change.
        public var reason: String
    }

    /// Documents stored for the first time.
    public var added = 0
    /// Documents whose stored version changed (text changes are re-embedded; metadata-only changes are not).
    public var updated = 0
    /// Of ``updated``, the documents whose text did not change (only their tags, category, metadata or dates
    /// did): their row was rewritten, their chunks and vectors were kept, nothing was embedded.
    public var metadataOnly = 0
    /// Documents identical to their stored version (skipped, not re-embedded).
    public var unchanged = 0
    /// Chunks embedded by this call.
    public var chunksEmbedded = 0
    /// Documents that were rejected.
    public var errors: [DocumentError] = []

    /// Creates an empty summary.
    public init() {}
}

/// Progress of a long store operation.
public struct StoreProgress: Sendable, Hashable {
    /// Items finished so far.
    public var completed: Int
    /// Items in total.
    public var total: Int
}
