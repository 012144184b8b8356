import Foundation

/// What a knowledge base file was built from and with: stored in the file (`meta` key `build_manifest`)
/// and beside it as `NAME.manifest.json` (which adds the output file's sha256, impossible inside the file).
///
/// ```swift
/// if let manifest = try BuildManifest.read(fromStoreAt: "kb.sqlite") { print(manifest.contentDigest) }
/// ```
public struct BuildManifest: Sendable, Hashable, Codable {
    /// Document, chunk and vector counts, and input files read and skipped.
    public struct Counts: Sendable, Hashable, Codable {
        /// Documents stored.
        public var documents: Int
        /// Chunks stored.
        public var chunks: Int
        /// Vectors stored.
        public var vectors: Int
        /// Input files read.
        public var inputFiles: Int
        /// Input files or records skipped.
        public var skippedInputs: Int
    }

    /// The parameters that shape the vectors; a previous build is reused only when they are equal.
    public struct Parameters: Sendable, Hashable, Codable {
        /// The chunker settings (window, target, overlap, title prefix).
        public var chunking: ChunkingConfiguration
        /// The source type given to records without one.
        public var sourceType: String?
        /// Whether the lexical embedder was used.
        public var lexical: Bool
        /// The store schema version.
        public var schemaVersion: Int
    }

    /// The manifest format, `hush-build-manifest-1`.
    public var format: String
    /// The Hush version that built the file.
    public var hushVersion: String
    /// When the content was built (ISO 8601, UTC); kept from the previous build when the content is unchanged.
    public var created: String
    /// The embedder whose vectors the file holds.
    public var embedder: EmbedderIdentity
    /// The parameters.
    public var parameters: Parameters
    /// The counts.
    public var counts: Counts
    /// sha256 over the sorted input files' relative paths and bytes.
    public var inputDigest: String
    /// sha256 over the stored documents, chunks and vectors (see `KnowledgeBaseBuilder.contentDigest`).
    public var contentDigest: String
    /// sha256 of the output file (only in the file beside it).
    public var outputSHA256: String?

    static let format1 = "hush-build-manifest-1"

    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return encoder
    }

    static var decoder: JSONDecoder {
        JSONDecoder()
    }

    /// The manifest as JSON (keys sorted, as the property names).
    ///
    /// ```swift
    /// let text = String(decoding: try manifest.json(), as: UTF8.self)
    /// ```
    public func json() throws -> Data {
        try Self.encoder.encode(self)
    }

    /// The manifest stored in a knowledge base file, or `nil` when it has none.
    ///
    /// ```swift
    /// let manifest = try BuildManifest.read(fromStoreAt: "kb.sqlite")
    /// ```
    ///
    /// - Throws: ``StoreError/notAStore(path:reason:)`` when the file is not a SQLite database.
    public static func read(fromStoreAt path: String) throws -> BuildManifest? {
        guard let text = try StoreFile.meta(path: path, key: StoreSchema.Key.buildManifest) else { return nil }
        return try? decoder.decode(BuildManifest.self, from: Data(text.utf8))
    }

    /// The manifest file beside a knowledge base: `kb.sqlite` → `kb.manifest.json`.
    ///
    /// ```swift
    /// let url = BuildManifest.sidecarURL(for: URL(fileURLWithPath: "kb.sqlite"))
    /// ```
    public static func sidecarURL(for output: URL) -> URL {
        output.deletingPathExtension().appendingPathExtension("manifest.json")
    }
}
