import Foundation

/// What a store needs to know of a model before it embeds anything: the vectors it makes, its window, the
/// languages it reads and the chunk size that suits it. Read from the model's small files (its configuration,
/// its E5S1 header) and its weights' digest (remembered beside them), never from the weights themselves, so
/// that a store can open, stamp a new file and search by keyword with the model still on disk.
///
/// The embedders build their own identity from the same description, so a ``LazyEmbedder`` made from it agrees
/// with the model it loads later.
///
/// ```swift
/// let description = try ModelChoice.miniLM.describe()
/// description.identity.dimension  // 384
/// description.maxTokens           // 256
/// ```
public struct ModelDescription: Sendable, Equatable {
    /// The vectors the model makes.
    public var identity: EmbedderIdentity
    /// Tokens per window.
    public var maxTokens: Int
    /// The languages whose texts land in one vector space.
    public var languageScope: LanguageScope
    /// The chunk size that measures best for the model.
    public var preferredChunkSize: ChunkSize
    /// The file or folder the model loads from.
    public var source: String

    /// A description of a model whose weights are at `source`.
    ///
    /// ```swift
    /// let description = ModelDescription(
    ///     identity: identity, maxTokens: 512, languageScope: .multilingual,
    ///     preferredChunkSize: .multilingualE5, source: path)
    /// ```
    public init(
        identity: EmbedderIdentity, maxTokens: Int, languageScope: LanguageScope, preferredChunkSize: ChunkSize,
        source: String
    ) {
        self.identity = identity
        self.maxTokens = maxTokens
        self.languageScope = languageScope
        self.preferredChunkSize = preferredChunkSize
        self.source = source
    }
}

extension E5Embedder {
    /// The E5S1 file a path names: the file itself, or `e5-small-q4.bin` inside a folder.
    static func modelFile(at url: URL) throws -> URL {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw EmbeddingError.modelNotFound(path: url.path)
        }
        return isDirectory.boolValue ? url.appendingPathComponent(fileName) : url
    }

    /// The model in an E5S1 file (or the folder holding `e5-small-q4.bin`), from its header and digest.
    ///
    /// ```swift
    /// let description = try E5Embedder.describe(modelFile: E5Embedder.defaultModelFile)
    /// ```
    ///
    /// - Throws: `EmbeddingError.modelNotFound` when the file is absent, `.corruptModel` for a bad header.
    public static func describe(modelFile: URL = E5Embedder.defaultModelFile) throws -> ModelDescription {
        let file = try self.modelFile(at: modelFile)
        let configuration = try E5S1File.configuration(path: file.path)
        let identity = EmbedderIdentity(
            model: "multilingual-e5-small", weightsSHA256: try WeightsDigest.sha256(ofFileAt: file.path),
            dimension: configuration.hiddenSize, pooling: .mean, normalized: true,
            queryPrefix: prefixes.query, passagePrefix: prefixes.passage)
        return ModelDescription(
            identity: identity, maxTokens: configuration.maxPositionEmbeddings, languageScope: .multilingual,
            preferredChunkSize: .multilingualE5, source: file.path)
    }
}

extension BERTEmbedder {
    /// The model in a sentence-transformers folder, from its configuration files and its weights' digest.
    ///
    /// Multilingual for a vocabulary (`config.json`'s `vocab_size`) of at least 100,000 pieces (XLM-RoBERTa's
    /// 250,002, multilingual BERT's 119,547; English vocabularies have 30,000-50,000), else monolingual.
    ///
    /// ```swift
    /// let description = try BERTEmbedder.describe(modelDirectory: BERTEmbedder.defaultModelDirectory)
    /// ```
    ///
    /// - Throws: `EmbeddingError.modelNotFound` when the folder or its weights are absent, `.corruptModel` for
    ///   an unreadable configuration.
    public static func describe(modelDirectory: URL = BERTEmbedder.defaultModelDirectory) throws -> ModelDescription {
        guard FileManager.default.fileExists(atPath: modelDirectory.path) else {
            throw EmbeddingError.modelNotFound(path: modelDirectory.path)
        }
        let configuration = try BERTConfiguration(contentsOf: modelDirectory.appendingPathComponent("config.json"))
        let weights = modelDirectory.appendingPathComponent("model.safetensors").path
        let digest = try WeightsDigest.sha256(ofFileAt: weights)
        let pooling = try BERTModel.readPooling(modelDirectory.appendingPathComponent("1_Pooling/config.json"))
        var name = modelDirectory.standardizedFileURL.lastPathComponent
        if name == "model" { name = modelDirectory.standardizedFileURL.deletingLastPathComponent().lastPathComponent }
        let prefixes = try ModelFolderPrompts.read(modelDirectory, name: name)
        let identity = EmbedderIdentity(
            model: name, weightsSHA256: digest, dimension: configuration.hiddenSize, pooling: pooling,
            normalized: true, queryPrefix: prefixes.query, passagePrefix: prefixes.passage)
        let window = try BERTModel.window(modelDirectory: modelDirectory, configuration: configuration)
        let scope: LanguageScope = configuration.vocabSize >= 100_000 ? .multilingual : .monolingual
        return ModelDescription(
            identity: identity, maxTokens: window, languageScope: scope,
            preferredChunkSize: scope == .multilingual && window >= 512 ? .multilingualE5 : .standard,
            source: modelDirectory.path)
    }
}
