/// How a store is opened and written.
///
/// ```swift
/// let store = try await HushStore.open(path: path, embedder: embedder,
///                                      options: StoreOptions(allowEmbedderMismatch: true))
/// try await store.reembed()
/// ```
public struct StoreOptions: Sendable, Hashable {
    /// Open a file made with another embedder (only to call `reembed`; semantic search and upserts are refused
    /// until it finishes).
    public var allowEmbedderMismatch: Bool
    /// Documents per write transaction during `upsert`.
    public var batchSize: Int
    /// Texts per `embed` call.
    public var embeddingBatchSize: Int
    /// Query vectors kept in the LRU cache (0 disables it).
    public var queryCacheCapacity: Int
    /// How documents are chunked; `nil` for the default sizes in the embedder's window. Part of the text hash,
    /// so changing it re-embeds on the next upsert.
    public var chunking: ChunkingConfiguration?

    /// Creates options.
    public init(
        allowEmbedderMismatch: Bool = false, batchSize: Int = 64, embeddingBatchSize: Int = 32,
        queryCacheCapacity: Int = 256, chunking: ChunkingConfiguration? = nil
    ) {
        self.chunking = chunking
        self.allowEmbedderMismatch = allowEmbedderMismatch
        self.batchSize = batchSize
        self.embeddingBatchSize = embeddingBatchSize
        self.queryCacheCapacity = queryCacheCapacity
    }
}
