import Foundation

/// The architecture of a BERT-family encoder, read from a Hugging Face `config.json`.
///
/// ```swift
/// let config = try BERTConfiguration(contentsOf: dir.appendingPathComponent("config.json"))
/// print(config.hiddenSize, config.numHiddenLayers)  // 384 6
/// ```
public struct BERTConfiguration: Sendable, Equatable, Codable {
    /// Width of every token vector (`H`).
    public var hiddenSize: Int
    /// Number of transformer layers.
    public var numHiddenLayers: Int
    /// Number of attention heads; `hiddenSize` must be a multiple of it.
    public var numAttentionHeads: Int
    /// Width of the feed-forward layer (`I`).
    public var intermediateSize: Int
    /// The feed-forward activation; only the exact erf `gelu` is supported.
    public var hiddenAct: String
    /// Layer-norm epsilon.
    public var layerNormEps: Float
    /// Number of learned absolute positions.
    public var maxPositionEmbeddings: Int
    /// Number of token types (segments).
    public var typeVocabSize: Int
    /// Number of vocabulary entries.
    public var vocabSize: Int
    /// Only `absolute` is supported.
    public var positionEmbeddingType: String

    enum CodingKeys: String, CodingKey {
        case hiddenSize = "hidden_size"
        case numHiddenLayers = "num_hidden_layers"
        case numAttentionHeads = "num_attention_heads"
        case intermediateSize = "intermediate_size"
        case hiddenAct = "hidden_act"
        case layerNormEps = "layer_norm_eps"
        case maxPositionEmbeddings = "max_position_embeddings"
        case typeVocabSize = "type_vocab_size"
        case vocabSize = "vocab_size"
        case positionEmbeddingType = "position_embedding_type"
    }

    /// Creates a configuration from values.
    public init(
        hiddenSize: Int, numHiddenLayers: Int, numAttentionHeads: Int, intermediateSize: Int,
        hiddenAct: String = "gelu", layerNormEps: Float = 1e-12, maxPositionEmbeddings: Int = 512,
        typeVocabSize: Int = 2, vocabSize: Int, positionEmbeddingType: String = "absolute"
    ) {
        self.hiddenSize = hiddenSize
        self.numHiddenLayers = numHiddenLayers
        self.numAttentionHeads = numAttentionHeads
        self.intermediateSize = intermediateSize
        self.hiddenAct = hiddenAct
        self.layerNormEps = layerNormEps
        self.maxPositionEmbeddings = maxPositionEmbeddings
        self.typeVocabSize = typeVocabSize
        self.vocabSize = vocabSize
        self.positionEmbeddingType = positionEmbeddingType
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        hiddenSize = try c.decode(Int.self, forKey: .hiddenSize)
        numHiddenLayers = try c.decode(Int.self, forKey: .numHiddenLayers)
        numAttentionHeads = try c.decode(Int.self, forKey: .numAttentionHeads)
        intermediateSize = try c.decode(Int.self, forKey: .intermediateSize)
        hiddenAct = try c.decodeIfPresent(String.self, forKey: .hiddenAct) ?? "gelu"
        layerNormEps = try c.decodeIfPresent(Float.self, forKey: .layerNormEps) ?? 1e-12
        maxPositionEmbeddings = try c.decodeIfPresent(Int.self, forKey: .maxPositionEmbeddings) ?? 512
        typeVocabSize = try c.decodeIfPresent(Int.self, forKey: .typeVocabSize) ?? 2
        vocabSize = try c.decode(Int.self, forKey: .vocabSize)
        positionEmbeddingType = try c.decodeIfPresent(String.self, forKey: .positionEmbeddingType) ?? "absolute"
    }

    /// Reads and checks a `config.json`.
    ///
    /// - Throws: `EmbeddingError.modelNotFound`, `.corruptModel` (unreadable JSON) or `.unsupportedModel`.
    public init(contentsOf url: URL) throws {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw EmbeddingError.modelNotFound(path: url.path)
        }
        do {
            self = try JSONDecoder().decode(BERTConfiguration.self, from: data)
        } catch {
            throw EmbeddingError.corruptModel(path: url.path, reason: "not a BERT config.json (\(error))")
        }
        try validate()
    }

    /// Width of one attention head.
    public var headSize: Int { hiddenSize / numAttentionHeads }

    func validate() throws {
        guard hiddenSize > 0, numHiddenLayers > 0, numAttentionHeads > 0, intermediateSize > 0, vocabSize > 0,
            maxPositionEmbeddings > 0, typeVocabSize > 0
        else {
            throw EmbeddingError.unsupportedModel(reason: "config.json has a zero or negative size")
        }
        guard hiddenSize % numAttentionHeads == 0 else {
            throw EmbeddingError.unsupportedModel(
                reason: "hidden_size \(hiddenSize) is not a multiple of num_attention_heads \(numAttentionHeads)")
        }
        guard hiddenAct == "gelu" else {
            throw EmbeddingError.unsupportedModel(
                reason: "hidden_act \(hiddenAct): only the exact erf \"gelu\" is supported")
        }
        guard positionEmbeddingType == "absolute" else {
            throw EmbeddingError.unsupportedModel(
                reason: "position_embedding_type \(positionEmbeddingType): only \"absolute\" is supported")
        }
    }
}
