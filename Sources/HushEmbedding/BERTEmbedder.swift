import Foundation

/// Sentence embeddings from a BERT-family sentence-transformers checkpoint, computed natively in Swift.
///
/// Loads a model folder (`config.json`, `model.safetensors`, `vocab.txt` or `tokenizer.json`, optional
/// `1_Pooling/config.json` and `sentence_bert_config.json`) and gives the same vectors as
/// sentence-transformers (cosine ≥ 0.99999 on the parity fixture). Nothing is downloaded: a missing model
/// is an `EmbeddingError.modelNotFound` that names the command fetching it.
///
/// ```swift
/// let embedder = try BERTEmbedder()  // HUSH_MODEL_DIR or ~/.cache/hush/models/all-MiniLM-L6-v2
/// let vectors = try embedder.embed(["should I text my ex?", "reaching out to someone from the past"])
/// let similarity = zip(vectors[0].vector, vectors[1].vector).map(*).reduce(0, +)
/// ```
public final class BERTEmbedder: Embedder {
    public let identity: EmbedderIdentity
    public let maxTokens: Int
    /// The WordPiece tokenizer of the model folder.
    public let tokenizer: WordPieceTokenizer
    /// The encoder.
    public let model: BERTModel
    /// The model folder.
    public let modelDirectory: URL

    /// The sha256 of all-MiniLM-L6-v2's `model.safetensors`, the file `scripts/fetch-model` installs.
    public static let knownSHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"

    /// The default model folder: `$HUSH_MODEL_DIR`, else `~/.cache/hush/models/all-MiniLM-L6-v2`
    /// (where `scripts/fetch-model` puts all-MiniLM-L6-v2).
    public static var defaultModelDirectory: URL {
        if let path = ProcessInfo.processInfo.environment["HUSH_MODEL_DIR"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return ModelLocation.cacheDirectory.appendingPathComponent("all-MiniLM-L6-v2")
    }

    /// Loads a model folder.
    ///
    /// - Parameters:
    ///   - modelDirectory: the folder; defaults to ``defaultModelDirectory``.
    ///   - threads: worker threads for `embed`; `nil` for all active cores.
    /// - Throws: `EmbeddingError` naming the missing or broken file and how to fetch the model again.
    public init(modelDirectory: URL = BERTEmbedder.defaultModelDirectory, threads: Int? = nil) throws {
        guard FileManager.default.fileExists(atPath: modelDirectory.path) else {
            throw EmbeddingError.modelNotFound(path: modelDirectory.path)
        }
        let model = try BERTModel(modelDirectory: modelDirectory, threads: threads)
        let tokenizer = try WordPieceTokenizer(modelDirectory: modelDirectory)
        guard tokenizer.vocabularySize <= model.configuration.vocabSize else {
            throw EmbeddingError.corruptModel(
                path: modelDirectory.path,
                reason:
                    "the vocabulary has \(tokenizer.vocabularySize) entries, the model only \(model.configuration.vocabSize)"
            )
        }
        let digest = try WeightsDigest.sha256(ofFileAt: model.weightsPath)
        var name = modelDirectory.standardizedFileURL.lastPathComponent
        if name == "model" { name = modelDirectory.standardizedFileURL.deletingLastPathComponent().lastPathComponent }
        self.identity = EmbedderIdentity(
            model: name, weightsSHA256: digest, dimension: model.configuration.hiddenSize, pooling: model.pooling,
            normalized: true)
        self.maxTokens = model.maxSequenceLength
        self.tokenizer = tokenizer
        self.model = model
        self.modelDirectory = modelDirectory
    }

    /// Embeds texts: tokenised (truncated at ``maxTokens``), encoded in packed batches over all worker
    /// threads, pooled and L2-normalised.
    ///
    /// - Complexity: linear in the total number of tokens; see ``BERTModel/embed(tokenIDs:)``.
    ///
    /// MiniLM is symmetric: `role` makes no difference.
    public func embed(_ texts: [String], role: EmbeddingRole) throws -> [Embedding] {
        let tokenized = texts.map { tokenizer.encode($0, maxLength: maxTokens) }
        let vectors = model.embed(tokenIDs: tokenized.map(\.ids))
        let embeddings = zip(tokenized, vectors).map { tokens, vector in
            Embedding(vector: vector, tokenCount: tokens.ids.count, truncated: tokens.truncated)
        }
        try FiniteVectors.check(embeddings, model: model.weightsPath)
        return embeddings
    }

    public func tokenCount(_ text: String) -> Int {
        tokenizer.encode(text, maxLength: Int.max).untruncatedCount
    }
}

/// The sha256 of a weights file, remembered beside it (`.<name>.sha256`, keyed by size and modification
/// time) so that opening a model does not re-read 90 MB every time.
enum WeightsDigest {
    static func sha256(ofFileAt path: String) throws -> String {
        let size = FileStatus.size(path) ?? -1
        let modified = FileStatus.modified(path)?.timeIntervalSince1970 ?? 0
        let key = "\(size) \(modified)"
        let url = URL(fileURLWithPath: path)
        let cache = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).sha256")
        if let cached = try? String(contentsOf: cache, encoding: .utf8) {
            let parts = cached.split(separator: "\n")
            if parts.count == 2, parts[0] == key, parts[1].count == 64 { return String(parts[1]) }
        }
        let digest = try SHA256.hexDigest(ofFileAt: path)
        try? "\(key)\n\(digest)".write(to: cache, atomically: true, encoding: .utf8)
        return digest
    }
}
