import Foundation
import HushEmbedding

/// Sizes and identity of a store.
///
/// ```swift
/// let stats = try await store.stats()
/// print("\(stats.documents) documents, \(stats.vectorBytes / 1_048_576) MiB of vectors")
/// ```
public struct StoreStats: Sendable, Hashable {
    /// Stored documents.
    public var documents: Int
    /// Stored chunks.
    public var chunks: Int
    /// Stored vectors (equal to `chunks` unless a re-embed is half-way).
    public var vectors: Int
    /// The embedder the store's vectors were made with.
    public var embedder: EmbedderIdentity
    /// Bytes on disk: the database file plus its write-ahead log (0 in memory).
    public var fileSizeBytes: Int64
    /// Bytes of the in-memory vector matrix.
    public var vectorBytes: Int
    /// The vector index semantic search goes through.
    public var index: IndexStrategy = .exact
    /// Why that index (the `IndexChoice` reason, e.g. "hnsw: 120k vectors exceed the exact-scan threshold …").
    public var indexReason: String = ""
    /// Bytes of the HNSW graph (lists, levels, flags) or of the int8/binary codes in memory; 0 for exact.
    public var indexBytes: Int = 0
    /// Bytes the saved HNSW graph takes in the file (its tables; 0 without a graph or in memory).
    public var graphFileBytes: Int64 = 0
    /// A re-embed that stopped part-way, or `nil`. Until it finishes the store searches with its old vectors.
    public var unfinishedReembed: UnfinishedReembed?
    /// Whether the store was opened read-only.
    public var readOnly = false
    /// Whether the store has its model: `false` for a store opened without it, where reading, keyword
    /// search and deleting work but semantic search does not (see ``HushStore/semanticAvailable``). A store
    /// with its model may not have read its weights yet: see ``modelInMemory``.
    public var modelLoaded = true
    /// Whether the model's weights are in memory now (see ``HushStore/modelInMemory``): a store opened by model
    /// name reads them on first need and gives them back on ``HushStore/releaseModel()``.
    public var modelInMemory = false
    /// How long opening took, in milliseconds: reading the schema and filling memory (from the saved index
    /// image when it is current, else from the tables); the model's load is not included.
    public var openMilliseconds: Double = 0
    /// Whether the f32 vectors stay in the file (`vectorBytes` is then 0): a store on HNSW opened from its saved
    /// image keeps only 4-bit codes and the graph in memory and reads the few vectors a search rescores.
    public var vectorsInFile = false
    /// Bytes of the saved memory image in the file (0 without one).
    public var imageBytes: Int64 = 0
    /// Whether the saved memory image is current, so that the next open reads it instead of the tables.
    public var imageCurrent = false
    /// How the store cuts documents into chunks (see ``HushStore/chunking``).
    public var chunking = ChunkingConfiguration()
    /// Documents per language, as given or guessed when they were stored (`und` where neither named one):
    /// what search across languages, per-language centres and `SearchFilter(languages:)` go by.
    ///
    /// ```swift
    /// try await store.stats().documentsPerLanguage  // ["en": 3000, "de": 250, "pl": 250]
    /// ```
    public var documentsPerLanguage: [String: Int] = [:]
    /// Whether the keyword index may still hold words (with their positions) of deleted or replaced documents: a
    /// write purges them when it ends in a store of up to 25,000 chunks; a larger one keeps them until
    /// ``HushStore/compact()``. The documents' text itself is overwritten when they are deleted.
    ///
    /// ```swift
    /// if try await store.stats().deletedWordsRemain { _ = try await store.compact() }
    /// ```
    public var deletedWordsRemain = false
    /// Why the saved memory image was set aside when the store opened (it is damaged), or `nil`: the store then
    /// read its tables instead (slower, same answers). A writable open saves a sound image at once; a read-only
    /// one reads the tables at every open until a write (``HushStore/compact()``) saves it.
    public var imageProblem: String?
    /// What is wrong with the keyword index, or `nil` when it is whole (see ``HushStore/keywordIndexProblem``).
    public var keywordIndexProblem: String?
    /// Why the tidying after the last write's commit did not finish, or `nil` (see
    /// ``HushStore/pendingCleanup``).
    public var pendingCleanup: String?
}
