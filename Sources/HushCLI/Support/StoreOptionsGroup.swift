import ArgumentParser
import Foundation
import Hush

/// `--db` and the embedder options shared by the commands that open a store.
struct StoreArguments: ParsableArguments {
    @Option(name: .long, help: "The Hush database file.")
    var db: String

    @OptionGroup var modelOptions: ModelOptions

    /// The embedder for this file: `--lexical`, or the lexical fallback when the file was built with it,
    /// else the neural model.
    func makeEmbedder() throws -> any Embedder {
        if !modelOptions.lexical, let stored = try HushStore.storedIdentity(path: db), stored.pooling == .lexical {
            return HashingEmbedder(dimension: stored.dimension)
        }
        return try modelOptions.makeEmbedder()
    }

    /// Opens the store (creating it when `create` is true).
    func open(create: Bool = false, options: StoreOptions = .init()) async throws -> HushStore {
        if !create, !FileManager.default.fileExists(atPath: db) {
            throw ValidationError("no database at \(db): create one with `hush index --db \(db) PATH...`")
        }
        return try await HushStore.open(path: db, embedder: try makeEmbedder(), options: options)
    }
}
