import ArgumentParser
import Foundation
import Hush

/// Options shared by every command that embeds text.
struct ModelOptions: ParsableArguments {
    @Option(name: .long, help: "Model folder (default: $HUSH_MODEL_DIR or ~/.cache/hush/models/all-MiniLM-L6-v2).")
    var model: String?

    @Option(name: .long, help: "Worker threads for embedding (default: all cores).")
    var threads: Int?

    @Flag(name: .long, help: "Use the lexical hashing embedder instead of a neural model (no model needed).")
    var lexical = false

    func validate() throws {
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
    }

    var modelDirectory: URL {
        model.map { URL(fileURLWithPath: $0) } ?? BERTEmbedder.defaultModelDirectory
    }

    /// The embedder these options name.
    func makeEmbedder() throws -> any Embedder {
        if lexical { return HashingEmbedder() }
        return try BERTEmbedder(modelDirectory: modelDirectory, threads: threads)
    }
}
