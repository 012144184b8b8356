import ArgumentParser
import Foundation
import Hush

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
                if let bert = embedder as? BERTEmbedder {
                    line.add("path", bert.modelDirectory.path)
                    line.add("layers", bert.model.configuration.numHiddenLayers)
                    line.add("vocabulary", bert.tokenizer.vocabularySize)
                }
                Console.out(line.finish())
            } else {
                Console.out("model:      \(identity.model)")
                if let bert = embedder as? BERTEmbedder { Console.out("path:       \(bert.modelDirectory.path)") }
                Console.out("weights:    sha256 \(identity.weightsSHA256)")
                Console.out("dimension:  \(identity.dimension)")
                Console.out("pooling:    \(identity.pooling.rawValue)\(identity.normalized ? ", L2-normalised" : "")")
                Console.out("max tokens: \(embedder.maxTokens)")
                if let bert = embedder as? BERTEmbedder {
                    let c = bert.model.configuration
                    Console.out(
                        "encoder:    BERT, \(c.numHiddenLayers) layers, \(c.numAttentionHeads) heads, hidden \(c.hiddenSize), intermediate \(c.intermediateSize), vocabulary \(bert.tokenizer.vocabularySize)"
                    )
                }
            }
        }
    }
}
