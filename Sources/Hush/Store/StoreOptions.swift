import Foundation

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
    /// How documents are chunked; `nil` for how the store's chunks were cut (recorded in the file), or, in a
    /// new store, the embedder's own sizes (``ChunkingConfiguration/init(for:)``). Part of the text hash, so
    /// changing it re-chunks and re-embeds each document on its next upsert; the store records the new sizes.
    /// Its `maxTokens` must not exceed the model's window (the model would cut every longer chunk's tail), and
    /// its target must lie in 8…`maxTokens` with the overlap below it: the open throws
    /// ``StoreError/invalidOption(_:)`` otherwise.
    public var chunking: ChunkingConfiguration?
    /// The chunk target in tokens, when ``chunking`` is `nil`: from 8 to the model's window (a target outside
    /// is refused with ``StoreError/invalidOption(_:)``); `nil` keeps the store's (or, in a new store, the
    /// model's). `StoreOptions(chunkTokens: 480)` is `hush index --chunk-tokens 480`.
    public var chunkTokens: Int?
    /// The overlap between consecutive chunks in tokens, below the target, when ``chunking`` is `nil`. `nil`
    /// with a ``chunkTokens`` takes the model's overlap, in the model's proportion for a smaller target than
    /// its own (multilingual-e5: 32 of 256, so 8 at 64 tokens); `nil` without keeps the store's.
    public var chunkOverlapTokens: Int?
    /// The vector index to use, or `nil` to let `IndexStrategy.choose` decide from the number of vectors and
    /// `memoryBudget` (exact below 20 000 vectors, then HNSW while vectors and graph fit, then int8 or binary
    /// codes with exact rescoring). Re-evaluated on open and after every write.
    public var indexStrategy: IndexStrategy?
    /// Memory the vector index may use, in bytes (default 2 GiB).
    public var memoryBudget: Int
    /// Graph parameters used when the store builds an HNSW graph (a saved graph keeps its own).
    public var hnswParameters: HNSWParameters
    /// From this many vectors, an HNSW store also keeps int8 codes of its vectors (a quarter of their size)
    /// and walks the graph on them, rescoring the rows found exactly, when the codes fit `memoryBudget` too.
    /// At a million vectors this halves query time at the same recall. `Int.max` turns it off.
    public var int8GuideThreshold: Int
    /// How long a write waits for another process's write transaction on the same file before it fails
    /// with ``StoreError/busy(path:)`` (seconds). Reads never wait: they run beside a writer.
    public var busyTimeout: TimeInterval
    /// How text is cleaned before it is chunked and embedded (links to `[link]`, @mentions to `@user` by
    /// default). The keyword index also keeps what the cleaner replaced, as written, with the tags and the
    /// category, so that a handle, a site, a tag or a category can be found by keyword.
    public var cleaner: TextCleaner
    /// The data-protection class the store file and its `-wal` and `-shm` get at every writable open (iOS,
    /// iPadOS, visionOS and watchOS; other systems accept it and do nothing), or `nil` to leave them with the
    /// class of the folder they were made in. It decides whether the app can index while the device is
    /// locked: see ``StoreFileProtection``. A read-only open leaves the file as it is.
    public var fileProtection: StoreFileProtection?

    /// Creates options.
    public init(
        allowEmbedderMismatch: Bool = false, batchSize: Int = 64, embeddingBatchSize: Int = 32,
        queryCacheCapacity: Int = 256, chunking: ChunkingConfiguration? = nil, indexStrategy: IndexStrategy? = nil,
        memoryBudget: Int = 2 << 30, hnswParameters: HNSWParameters = HNSWParameters(),
        int8GuideThreshold: Int = IndexStrategy.int8GuideThreshold, busyTimeout: TimeInterval = 10,
        cleaner: TextCleaner = TextCleaner(), chunkTokens: Int? = nil, chunkOverlapTokens: Int? = nil,
        fileProtection: StoreFileProtection? = nil
    ) {
        self.fileProtection = fileProtection
        self.chunkTokens = chunkTokens
        self.chunkOverlapTokens = chunkOverlapTokens
        self.busyTimeout = busyTimeout
        self.cleaner = cleaner
        self.chunking = chunking
        self.allowEmbedderMismatch = allowEmbedderMismatch
        self.batchSize = batchSize
        self.embeddingBatchSize = embeddingBatchSize
        self.queryCacheCapacity = queryCacheCapacity
        self.indexStrategy = indexStrategy
        self.memoryBudget = memoryBudget
        self.hnswParameters = hnswParameters
        self.int8GuideThreshold = int8GuideThreshold
    }

    var indexPolicy: IndexPolicy {
        IndexPolicy(
            forced: indexStrategy, memoryBudget: memoryBudget, hnsw: hnswParameters,
            int8GuideThreshold: int8GuideThreshold)
    }
}
