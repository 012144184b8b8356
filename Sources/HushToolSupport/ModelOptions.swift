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

    @Option(name: .long, help: "Worker threads for embedding (default: all cores).")
    package var threads: Int?

    @Flag(name: .long, help: "Use the lexical hashing embedder instead of a neural model (no model needed).")
    package var lexical = false

    package func validate() throws {
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
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
