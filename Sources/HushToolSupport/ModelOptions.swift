import ArgumentParser
import Foundation
import Hush
import HushEmbedding

/// Options shared by every command that embeds text.
package struct ModelOptions: ParsableArguments {
    package init() {}

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The model: e5-small (multilingual, the default for new stores), minilm (English), or a model folder or file.",
            discussion:
                "An existing store keeps the model it was made with unless --model is given. Models live in ~/.cache/hush/models (scripts/fetch-model); HUSH_MODEL sets the default, HUSH_MODEL_DIR MiniLM's folder, HUSH_E5_MODEL the e5 file."
        ))
    package var model: String?

    @Option(name: .long, help: "Worker threads for embedding, 1 to the number of cores (default: all cores).")
    package var threads: Int?

    @Flag(name: .long, help: "Use the lexical hashing embedder instead of a neural model (no model needed).")
    package var lexical = false

    package func validate() throws {
        // More threads than cores only wait for each other (100,000 exhausted the machine's process limit).
        let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
        if let threads, !(1...cores).contains(threads) {
            throw ValidationError(
                "--threads must be between 1 and \(cores) (the cores of this machine); got \(threads)")
        }
    }

    /// What these options ask a store to open with: `--lexical`, `--model`, else the model the file was made
    /// with (the standard one for a new file).
    package var request: StoreModelResolver.Request {
        if lexical { return .lexical }
        return model.map { .model(ModelChoice($0)) } ?? .stored
    }

    /// The embedder these options name (the standard model when neither `--model` nor `--lexical` is given),
    /// with `threads` workers (default: `--threads`, else all cores).
    package func makeEmbedder(threads: Int? = nil) throws -> any Embedder {
        let embedder = try StoreModelResolver(request: request, needsModel: true, threads: threads ?? self.threads)
            .embedder()
        // A tool embeds at once and shows the model's own details (its tokens, its layers): the model itself,
        // loaded now, not the store's lazy stand-in.
        return try (embedder as? LazyEmbedder)?.load() ?? embedder
    }
}
