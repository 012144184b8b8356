/// Who made a vector: stamped into every Hush file so that vectors from different models never mix.
///
/// Two embedders with equal identities produce interchangeable vectors. Equality is decided by what decides
/// the vectors: the weights digest, dimension, pooling and normalisation. The model's name is only a label
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

    /// Creates an identity.
    public init(model: String, weightsSHA256: String, dimension: Int, pooling: Pooling, normalized: Bool) {
        self.model = model
        self.weightsSHA256 = weightsSHA256
        self.dimension = dimension
        self.pooling = pooling
        self.normalized = normalized
    }

    /// The parts that decide the vectors; the name counts only for embedders without weights.
    private var vectorSpaceKey: (String, Int, Pooling, Bool) {
        (weightsSHA256 == "none" ? "none:" + model : weightsSHA256, dimension, pooling, normalized)
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
    }

    public var description: String {
        let digest = weightsSHA256.count > 8 ? String(weightsSHA256.prefix(8)) + "…" : weightsSHA256
        return "\(model) (sha256 \(digest), \(dimension)-d, \(pooling.rawValue)\(normalized ? ", normalized" : ""))"
    }
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
/// let vectors = try embedder.embed(["reaching out to someone from the past", "should I text my ex?"])
/// ```
public protocol Embedder: Sendable {
    /// Who makes these vectors (model, weights digest, dimension, pooling, normalisation).
    var identity: EmbedderIdentity { get }
    /// The most tokens one text may have, special tokens included; longer texts are truncated.
    var maxTokens: Int { get }
    /// Embeds a batch of texts, one vector per text, in order.
    ///
    /// - Complexity: linear in the total number of tokens (quadratic in each text's length, up to `maxTokens`).
    func embed(_ texts: [String]) throws -> [Embedding]
    /// The number of tokens the model would see for `text`, special tokens included, before truncation.
    func tokenCount(_ text: String) -> Int
}

extension Embedder {
    /// The number of components in each vector.
    public var dimension: Int { identity.dimension }

    /// Embeds one text.
    ///
    /// ```swift
    /// let query = try embedder.embed("should I text my ex?").vector
    /// ```
    public func embed(_ text: String) throws -> Embedding {
        let result = try embed([text])
        guard let first = result.first else {
            throw EmbeddingError.internalInconsistency("embedder returned no vector for one text")
        }
        return first
    }
}
