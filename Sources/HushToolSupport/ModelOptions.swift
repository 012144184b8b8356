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

    /// The model `--model` names, or `fallback` (the standard model when none is given).
    package func choice(fallback: ModelChoice = .standard) -> ModelChoice {
        model.map(ModelChoice.init) ?? fallback
    }

    /// The embedder these options name (`fallback` when `--model` is absent), with `threads` workers
    /// (default: `--threads`, else all cores).
    package func makeEmbedder(fallback: ModelChoice = .standard, threads: Int? = nil) throws -> any Embedder {
        if lexical { return HashingEmbedder() }
        return try choice(fallback: fallback).load(threads: threads ?? self.threads)
    }
}
