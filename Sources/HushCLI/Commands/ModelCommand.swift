import ArgumentParser
import Foundation
import Hush
import HushToolSupport

/// `hush model`: what a model folder holds.
struct ModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model", abstract: "Inspect the embedding model.", subcommands: [Info.self])

    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "info", abstract: "Print the model's identity, dimension, pooling and maximum tokens.")

        @OptionGroup var modelOptions: ModelOptions

        @Flag(name: .long, help: "Print one JSON object.")
        var json = false

        func run() throws {
            let embedder = try modelOptions.makeEmbedder()
            let identity = embedder.identity
            if json {
                Console.json(try JSONOutput.line(ModelInfoJSON(embedder: embedder)))
            } else {
                Console.out("model:      \(identity.model)")
                if let bert = embedder as? BERTEmbedder { Console.out("path:       \(bert.modelDirectory.path)") }
                if let e5 = embedder as? E5Embedder { Console.out("path:       \(e5.modelFile.path)") }
                Console.out("weights:    sha256 \(identity.weightsSHA256)")
                Console.out("dimension:  \(identity.dimension)")
                Console.out("pooling:    \(identity.pooling.rawValue)\(identity.normalized ? ", L2-normalised" : "")")
                Console.out("max tokens: \(embedder.maxTokens)")
                Console.out("languages:  \(embedder.languageScope.rawValue)")
                Console.out("compute:    \(ComputeInfo.cpu); kernels \(ComputeInfo.kernels); \(ComputeInfo.blas)")
                if !identity.queryPrefix.isEmpty || !identity.passagePrefix.isEmpty {
                    Console.out(
                        "prefixes:   \"\(identity.queryPrefix)\" (queries), \"\(identity.passagePrefix)\" (passages)")
                }
                let encoder: (BERTConfiguration, Int, String)? =
                    if let bert = embedder as? BERTEmbedder {
                        (
                            bert.model.configuration, bert.tokenizer.vocabularySize,
                            bert.tokenizer is UnigramTokenizer ? "SentencePiece Unigram" : "WordPiece"
                        )
                    } else if let e5 = embedder as? E5Embedder {
                        (e5.model.configuration, e5.tokenizer.vocabularySize, "SentencePiece Unigram, 4-bit weights")
                    } else { nil }
                if let (c, vocabulary, kind) = encoder {
                    Console.out(
                        "encoder:    BERT, \(c.numHiddenLayers) layers, \(c.numAttentionHeads) heads, hidden \(c.hiddenSize), intermediate \(c.intermediateSize), vocabulary \(vocabulary) (\(kind))"
                    )
                }
            }
        }
    }
}

/// `hush model info --json`: the identity, the limits, the compute in use and, for a neural model, where it
/// was loaded from and its size (prefixes only when the model has them).
struct ModelInfoJSON: Encodable {
    var embedder: any Embedder

    enum CodingKeys: String, CodingKey {
        case model
        case weightsSHA256 = "weights_sha256"
        case dimension, pooling, normalized
        case maxTokens = "max_tokens"
        case languages, cpu, kernels, blas
        case queryPrefix = "query_prefix"
        case passagePrefix = "passage_prefix"
        case path, layers, vocabulary
    }

    func encode(to encoder: any Encoder) throws {
        let identity = embedder.identity
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(identity.model, forKey: .model)
        try container.encode(identity.weightsSHA256, forKey: .weightsSHA256)
        try container.encode(identity.dimension, forKey: .dimension)
        try container.encode(identity.pooling, forKey: .pooling)
        try container.encode(identity.normalized, forKey: .normalized)
        try container.encode(embedder.maxTokens, forKey: .maxTokens)
        try container.encode(embedder.languageScope, forKey: .languages)
        try container.encode(ComputeInfo.cpu, forKey: .cpu)
        try container.encode(ComputeInfo.kernels, forKey: .kernels)
        try container.encode(ComputeInfo.blas, forKey: .blas)
        if !identity.queryPrefix.isEmpty || !identity.passagePrefix.isEmpty {
            try container.encode(identity.queryPrefix, forKey: .queryPrefix)
            try container.encode(identity.passagePrefix, forKey: .passagePrefix)
        }
        if let bert = embedder as? BERTEmbedder {
            try container.encode(bert.modelDirectory.path, forKey: .path)
            try container.encode(bert.model.configuration.numHiddenLayers, forKey: .layers)
            try container.encode(bert.tokenizer.vocabularySize, forKey: .vocabulary)
        } else if let e5 = embedder as? E5Embedder {
            try container.encode(e5.modelFile.path, forKey: .path)
            try container.encode(e5.model.configuration.numHiddenLayers, forKey: .layers)
            try container.encode(e5.tokenizer.vocabularySize, forKey: .vocabulary)
        }
    }
}
