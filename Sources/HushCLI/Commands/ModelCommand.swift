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
            abstract: "Print the model's identity, dimension, pooling and maximum tokens.")

        @OptionGroup var modelOptions: ModelOptions

        @Flag(name: .long, help: "Print one JSON object.")
        var json = false

        func run() throws {
            let embedder = try modelOptions.makeEmbedder()
            let identity = embedder.identity
            if json {
                var line = JSONLine()
                line.add("model", identity.model)
                line.add("weights_sha256", identity.weightsSHA256)
                line.add("dimension", identity.dimension)
                line.add("pooling", identity.pooling.rawValue)
                line.add("normalized", identity.normalized)
                line.add("max_tokens", embedder.maxTokens)
                line.add("languages", embedder.languageScope.rawValue)
                line.add("cpu", ComputeInfo.cpu)
                line.add("kernels", ComputeInfo.kernels)
                line.add("blas", ComputeInfo.blas)
                if !identity.queryPrefix.isEmpty || !identity.passagePrefix.isEmpty {
                    line.add("query_prefix", identity.queryPrefix)
                    line.add("passage_prefix", identity.passagePrefix)
                }
                if let bert = embedder as? BERTEmbedder {
                    line.add("path", bert.modelDirectory.path)
                    line.add("layers", bert.model.configuration.numHiddenLayers)
                    line.add("vocabulary", bert.tokenizer.vocabularySize)
                } else if let e5 = embedder as? E5Embedder {
                    line.add("path", e5.modelFile.path)
                    line.add("layers", e5.model.configuration.numHiddenLayers)
                    line.add("vocabulary", e5.tokenizer.vocabularySize)
                }
                Console.out(line.finish())
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
