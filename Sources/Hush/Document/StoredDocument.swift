import Foundation

/// A document as the store holds it, with what indexing derived from it.
///
/// ```swift
/// if let stored = try await store.document(id: "note-42") {
///     print(stored.document.title ?? "", stored.language, stored.chunkCount)
/// }
/// ```
public struct StoredDocument: Sendable, Hashable {
    /// The document (with `createdAt` filled in and `language` as detected when it was not given).
    public var document: Document
    /// The language it was indexed as.
    public var language: String
    /// The number of chunks it was split into.
    public var chunkCount: Int
    /// The change-detection hash of every field.
    public var contentHash: String
}

/// A `reembed` that stopped part-way: the model it converts to and how far it got.
///
/// ```swift
/// if let pending = try await store.stats().unfinishedReembed {
///     print("re-embed to \(pending.target.model): \(pending.completed)/\(pending.total) chunks")
/// }
/// ```
public struct UnfinishedReembed: Sendable, Hashable {
    /// The embedder the new vectors come from.
    public var target: EmbedderIdentity
    /// Chunks that already have their new vector.
    public var completed: Int
    /// Chunks in the store.
    public var total: Int
}
