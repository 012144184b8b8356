import ArgumentParser
import Hush

/// `--chunk-tokens` and `--chunk-overlap`: the chunk size of `hush index` and `hush build`, where the model's
/// own (or, for a store, the one it was made with) is not wanted.
struct ChunkOptions: ParsableArguments {
    @Option(
        name: .customLong("chunk-tokens"),
        help: """
            Chunk target in model tokens, from 8 to the model's window (512 for e5-small, 256 for minilm; \
            default: the store's, or the model's: 256 for e5-small, 128 for minilm). Changing it re-chunks and \
            re-embeds each document.
            """)
    var tokens: Int?

    @Option(
        name: .customLong("chunk-overlap"),
        help: """
            Tokens repeated between consecutive chunks (default: with --chunk-tokens, the model's, scaled \
            down for a smaller target: 8 at 64 tokens for e5-small; else the store's or the model's).
            """)
    var overlap: Int?

    func validate() throws {
        if let tokens, tokens < 8 { throw ValidationError("--chunk-tokens must be at least 8 (got \(tokens))") }
        if let overlap, overlap < 0 { throw ValidationError("--chunk-overlap must be 0 or more (got \(overlap))") }
        if let tokens, let overlap, overlap >= tokens {
            throw ValidationError("--chunk-overlap (\(overlap)) must be less than --chunk-tokens (\(tokens))")
        }
    }
}
