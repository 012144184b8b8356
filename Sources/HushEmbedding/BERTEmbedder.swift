import Foundation

/// Sentence embeddings from a BERT-family sentence-transformers checkpoint, computed natively in Swift.
///
/// Loads a model folder (`config.json`, `model.safetensors`, `vocab.txt` or `tokenizer.json`, optional
/// `1_Pooling/config.json`, `sentence_bert_config.json` and `config_sentence_transformers.json`) and gives
/// the same vectors as sentence-transformers (cosine ≥ 0.99999 on the parity fixture). The tokenizer is
/// WordPiece (all-MiniLM-L6-v2, BERT) or, for a `tokenizer.json` with a Unigram model, SentencePiece: so the
/// original Hugging Face folder of intfloat/multilingual-e5-small loads as it is, in f32. Nothing is
/// downloaded: a missing model is an `EmbeddingError.modelNotFound` that names the command fetching it.
///
/// Prefixes by role come from the `prompts` of `config_sentence_transformers.json` (`query`, and `passage`,
/// `document` or `corpus`); a folder of the e5 family without prompts (its name or `config.json`'s
/// `_name_or_path` says `e5`) gets e5's `query: ` and `passage: `.
///
/// ```swift
/// let embedder = try BERTEmbedder()  // HUSH_MODEL_DIR or ~/.cache/hush/models/all-MiniLM-L6-v2
/// let embeddings = try embedder.embed(["should I text my ex?", "reaching out to someone from the past"])
/// let similarity = zip(embeddings[0].vector, embeddings[1].vector).map(*).reduce(0, +)  // [Embedding]
/// ```
public final class BERTEmbedder: Embedder {
    public let identity: EmbedderIdentity
    public let maxTokens: Int
    /// The tokenizer of the model folder: ``WordPieceTokenizer`` or ``UnigramTokenizer``.
    public let tokenizer: any TextTokenizer
    /// The encoder.
    public let model: BERTModel
    /// The model folder.
    public let modelDirectory: URL
    /// Multilingual for a vocabulary of at least 100,000 pieces (XLM-RoBERTa's 250,002, multilingual BERT's
    /// 119,547; English vocabularies have 30,000-50,000), else monolingual (``describe(modelDirectory:)``).
    public let languageScope: LanguageScope
    /// ``ChunkSize/multilingualE5`` for a multilingual model with a window of at least 512 tokens (the
    /// multilingual-e5 folders), else ``ChunkSize/standard``.
    public var preferredChunkSize: ChunkSize {
        languageScope == .multilingual && maxTokens >= 512 ? .multilingualE5 : .standard
    }

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
        // Before any file is read: a bad count is the caller's to fix whatever the model.
        _ = try BERTModel.checkedThreads(threads)
        guard FileManager.default.fileExists(atPath: modelDirectory.path) else {
            throw EmbeddingError.modelNotFound(path: modelDirectory.path)
        }
        let model = try BERTModel(modelDirectory: modelDirectory, threads: threads)
        let tokenizer = try TextTokenizers.load(modelDirectory: modelDirectory)
        guard tokenizer.vocabularySize <= model.configuration.vocabSize else {
            throw EmbeddingError.corruptModel(
                path: modelDirectory.path,
                reason:
                    "the vocabulary has \(tokenizer.vocabularySize) entries, the model only \(model.configuration.vocabSize)"
            )
        }
        let description = try Self.describe(modelDirectory: modelDirectory)
        self.identity = description.identity
        self.maxTokens = model.maxSequenceLength
        self.tokenizer = tokenizer
        self.model = model
        self.modelDirectory = modelDirectory
        self.languageScope = description.languageScope
    }

    /// The ids the model sees for `text` in `role`: the role's prefix, the text, the special tokens,
    /// truncated at ``maxTokens``.
    ///
    /// ```swift
    /// let ids = try BERTEmbedder().tokens("Hello, world!", role: .query).ids  // [101, 7592, 1010, 2088, 999, 102]
    /// ```
    public func tokens(_ text: String, role: EmbeddingRole) -> TokenizedText {
        tokenizer.encode(identity.prefix(for: role) + text, maxLength: maxTokens)
    }

    /// Embeds texts in a role: each with the role's prefix (none for MiniLM, which is symmetric), tokenised
    /// (truncated at ``maxTokens``), encoded in packed batches over all worker threads, pooled and
    /// L2-normalised.
    ///
    /// - Complexity: linear in the total number of tokens; see ``BERTModel/embed(tokenIDs:)``.
    public func embed(_ texts: [String], role: EmbeddingRole) throws -> [Embedding] {
        let tokenized = texts.map { tokens($0, role: role) }
        let vectors = try model.embed(tokenIDs: tokenized.map(\.ids))
        let embeddings = zip(tokenized, vectors).map { tokens, vector in
            Embedding(vector: vector, tokenCount: tokens.ids.count, truncated: tokens.truncated)
        }
        try FiniteVectors.check(embeddings, model: model.weightsPath)
        return embeddings
    }

    public func tokenCount(_ text: String) -> Int {
        tokenizer.encode(identity.passagePrefix + text, maxLength: Int.max).untruncatedCount
    }
}

/// The prefixes a model folder's texts get by role.
enum ModelFolderPrompts {
    /// From `config_sentence_transformers.json`'s `prompts`, else e5's for a folder of the e5 family, else
    /// none.
    static func read(_ folder: URL, name: String) throws -> (query: String, passage: String) {
        let prompts = folder.appendingPathComponent("config_sentence_transformers.json")
        if FileManager.default.fileExists(atPath: prompts.path) {
            let object = try TokenizerFile.jsonObject(prompts)
            if let table = object["prompts"] as? [String: Any], let query = table["query"] as? String {
                let passage = ["passage", "document", "corpus"].lazy.compactMap { table[$0] as? String }.first
                return (query, passage ?? "")
            }
        }
        var names = [name]
        let config = folder.appendingPathComponent("config.json")
        if let object = try? TokenizerFile.jsonObject(config), let origin = object["_name_or_path"] as? String {
            names.append(origin)
        }
        return names.contains(where: isE5) ? E5Embedder.prefixes : ("", "")
    }

    /// Whether a model name is of the e5 family: `e5` as a word of it (`multilingual-e5-small`,
    /// `intfloat/e5-base-v2`), not inside another word.
    static func isE5(_ name: String) -> Bool {
        let words = name.lowercased().split { !($0.isLetter || $0.isNumber) }
        return words.contains("e5")
    }
}
