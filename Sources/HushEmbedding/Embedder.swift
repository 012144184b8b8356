/// Who made a vector: stamped into every Hush file so that vectors from different models never mix.
///
/// Two embedders with equal identities produce interchangeable vectors. Equality is decided by what decides
/// the vectors: the weights digest, dimension, pooling, normalisation and the prefixes put before queries
/// and passages (multilingual-e5 reads `query: ` and `passage: `). The model's name is only a label
/// (it comes from the folder the files sit in), so the same weights copied to another folder are the same
/// identity. Embedders without weights (`weightsSHA256 == "none"`, the lexical fallback) are told apart by
/// their name, which names their scheme.
///
/// ```swift
/// let identity = try BERTEmbedder(modelDirectory: dir).identity
/// print(identity)  // all-MiniLM-L6-v2 (sha256 53aa5117…, 384-d, mean, normalized)
/// ```
public struct EmbedderIdentity: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The model's name, for example `all-MiniLM-L6-v2`, or `hush-lexical-hashing-v1` for the fallback.
    public var model: String
    /// The sha256 of the weights file, lower-case hex (`"none"` for embedders without weights).
    public var weightsSHA256: String
    /// The number of components in each vector.
    public var dimension: Int
    /// How token vectors are pooled into one sentence vector.
    public var pooling: Pooling
    /// Whether vectors are L2-normalised (so that cosine similarity is a dot product).
    public var normalized: Bool
    /// Put before a search query's text (`"query: "` for multilingual-e5, empty for MiniLM).
    public var queryPrefix: String
    /// Put before a document's text (`"passage: "` for multilingual-e5, empty for MiniLM).
    public var passagePrefix: String

    /// Creates an identity.
    public init(
        model: String, weightsSHA256: String, dimension: Int, pooling: Pooling, normalized: Bool,
        queryPrefix: String = "", passagePrefix: String = ""
    ) {
        self.model = model
        self.weightsSHA256 = weightsSHA256
        self.dimension = dimension
        self.pooling = pooling
        self.normalized = normalized
        self.queryPrefix = queryPrefix
        self.passagePrefix = passagePrefix
    }

    /// The prefix for texts in `role`.
    ///
    /// ```swift
    /// identity.prefix(for: .query)  // "query: "
    /// ```
    public func prefix(for role: EmbeddingRole) -> String {
        role == .query ? queryPrefix : passagePrefix
    }

    /// The parts that decide the vectors; the name counts only for embedders without weights.
    private var vectorSpaceKey: (String, Int, Pooling, Bool, String, String) {
        (
            weightsSHA256 == "none" ? "none:" + model : weightsSHA256, dimension, pooling, normalized, queryPrefix,
            passagePrefix
        )
    }

    public static func == (lhs: EmbedderIdentity, rhs: EmbedderIdentity) -> Bool {
        lhs.vectorSpaceKey == rhs.vectorSpaceKey
    }

    public func hash(into hasher: inout Hasher) {
        let key = vectorSpaceKey
        hasher.combine(key.0)
        hasher.combine(key.1)
        hasher.combine(key.2)
        hasher.combine(key.3)
        hasher.combine(key.4)
        hasher.combine(key.5)
    }

    enum CodingKeys: String, CodingKey {
        case model, weightsSHA256, dimension, pooling, normalized, queryPrefix, passagePrefix
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            model: try container.decode(String.self, forKey: .model),
            weightsSHA256: try container.decode(String.self, forKey: .weightsSHA256),
            dimension: try container.decode(Int.self, forKey: .dimension),
            pooling: try container.decode(Pooling.self, forKey: .pooling),
            normalized: try container.decode(Bool.self, forKey: .normalized),
            // Identities written before roles existed had no prefixes.
            queryPrefix: try container.decodeIfPresent(String.self, forKey: .queryPrefix) ?? "",
            passagePrefix: try container.decodeIfPresent(String.self, forKey: .passagePrefix) ?? "")
    }

    public var description: String {
        let digest = weightsSHA256.count > 8 ? String(weightsSHA256.prefix(8)) + "…" : weightsSHA256
        let prefixes =
            queryPrefix.isEmpty && passagePrefix.isEmpty
            ? "" : ", prefixes \"\(queryPrefix)\" / \"\(passagePrefix)\""
        return
            "\(model) (sha256 \(digest), \(dimension)-d, \(pooling.rawValue)\(normalized ? ", normalized" : "")\(prefixes))"
    }
}

/// What a text is to the model: a search query, or a passage (a document or chunk) to be found.
///
/// Asymmetric models such as multilingual-e5 embed the two differently (`query: ` / `passage: `); symmetric
/// ones (MiniLM, the lexical fallback) ignore the role.
///
/// ```swift
/// let query = try embedder.embed("失眠怎么办", role: .query).vector
/// ```
public enum EmbeddingRole: String, Sendable, Hashable, Codable, CaseIterable {
    /// A search query.
    case query
    /// A document, chunk or any text to be found.
    case passage
}

/// How per-token vectors become one sentence vector.
public enum Pooling: String, Sendable, Hashable, Codable {
    /// The mean of the token vectors, padding excluded (sentence-transformers' default).
    case mean
    /// The vector of the `[CLS]` token.
    case cls
    /// Not a neural pooling: the vector is built directly (the lexical fallback).
    case lexical
}

/// One text's sentence vector, with what happened to the text on the way.
public struct Embedding: Sendable, Hashable {
    /// The sentence vector (`dimension` components, L2-normalised when the identity says so).
    public var vector: [Float]
    /// The number of tokens the model saw, special tokens included.
    public var tokenCount: Int
    /// Whether the text was longer than the model's window and its tail was cut off.
    public var truncated: Bool

    /// Creates an embedding.
    public init(vector: [Float], tokenCount: Int, truncated: Bool) {
        self.vector = vector
        self.tokenCount = tokenCount
        self.truncated = truncated
    }
}

/// Turns text into sentence vectors.
///
/// Implementations are value types or immutable classes that are safe to share between tasks.
///
/// ```swift
/// let embedder: any Embedder = try BERTEmbedder(modelDirectory: BERTEmbedder.defaultModelDirectory)
/// let passages = try embedder.embed(["reaching out to someone from the past"], role: .passage)
/// let query = try embedder.embed("should I text my ex?", role: .query)
/// ```
public protocol Embedder: Sendable {
    /// Who makes these vectors (model, weights digest, dimension, pooling, normalisation, prefixes).
    var identity: EmbedderIdentity { get }
    /// The most tokens one text should have, special tokens included (chunks are sized to fit); longer texts
    /// are truncated, or, for models that window (multilingual-e5), averaged over windows of this size.
    var maxTokens: Int { get }
    /// Embeds a batch of texts in one role, one vector per text, in order.
    ///
    /// - Complexity: linear in the total number of tokens (quadratic in each text's length, up to `maxTokens`).
    func embed(_ texts: [String], role: EmbeddingRole) throws -> [Embedding]
    /// The number of tokens the model would see for `text` as a passage (its prefix and special tokens
    /// included), before truncation.
    func tokenCount(_ text: String) -> Int
    /// Which texts' vectors may be compared: any two (multilingual), those in the model's language
    /// (monolingual), or only texts of the same language (a model per language). Defaults to monolingual.
    var languageScope: LanguageScope { get }
    /// The chunk size this model retrieves best with: what a store cuts documents into unless it is told
    /// otherwise. Defaults to 128 tokens with 24 of overlap (MiniLM's measured best), capped by the window.
    var preferredChunkSize: ChunkSize { get }
}

/// A chunk size in model tokens (special tokens included): the size chunks are packed to, and how many
/// tokens of whole sentences consecutive chunks of a paragraph repeat.
///
/// ```swift
/// let size = embedder.preferredChunkSize  // 256 / 32 for multilingual-e5-small
/// ```
public struct ChunkSize: Sendable, Hashable, Codable {
    /// The size chunks are packed to.
    public var targetTokens: Int
    /// The most tokens repeated between consecutive chunks of one paragraph.
    public var overlapTokens: Int

    /// Creates a chunk size.
    ///
    /// ```swift
    /// let size = ChunkSize(targetTokens: 256, overlapTokens: 32)
    /// ```
    public init(targetTokens: Int, overlapTokens: Int) {
        self.targetTokens = targetTokens
        self.overlapTokens = overlapTokens
    }

    /// 128 tokens, 24 of overlap: all-MiniLM-L6-v2's best on the man-page sets, and the size every store made
    /// before models chose their own was cut with.
    public static let standard = ChunkSize(targetTokens: 128, overlapTokens: 24)

    /// 256 tokens, 32 of overlap: multilingual-e5-small's best on the parallel man-page set (same-language
    /// search on par with 128, cross-language search ahead, half the chunks; docs/e5-chunking.md).
    public static let multilingualE5 = ChunkSize(targetTokens: 256, overlapTokens: 32)
}

/// How a model's vectors relate across languages; decides whether related items and interest ranking
/// compare documents of different languages by default.
///
/// ```swift
/// let partition = embedder.languageScope != .multilingual  // interest centroids per language
/// ```
public enum LanguageScope: String, Sendable, Hashable, Codable {
    /// One vector space for many languages: a text and its translation land close (multilingual-e5).
    case multilingual
    /// Trained on one language (MiniLM: English): other languages embed, but poorly, and their vectors
    /// land near each other by script rather than by meaning.
    case monolingual
    /// A separate model per language (Apple's NLEmbedding): vectors of different languages must never be
    /// compared.
    case perLanguage
}

extension Embedder {
    /// The number of components in each vector.
    public var dimension: Int { identity.dimension }

    /// Monolingual, unless the embedder says otherwise.
    public var languageScope: LanguageScope { .monolingual }

    /// ``ChunkSize/standard``, within the window, unless the embedder says otherwise.
    public var preferredChunkSize: ChunkSize {
        ChunkSize(
            targetTokens: min(ChunkSize.standard.targetTokens, maxTokens),
            overlapTokens: min(ChunkSize.standard.overlapTokens, max(0, maxTokens / 4)))
    }

    /// Embeds one text.
    ///
    /// ```swift
    /// let query = try embedder.embed("should I text my ex?", role: .query).vector
    /// ```
    public func embed(_ text: String, role: EmbeddingRole) throws -> Embedding {
        let result = try embed([text], role: role)
        guard let first = result.first else {
            throw EmbeddingError.internalInconsistency("embedder returned no vector for one text")
        }
        return first
    }
}
