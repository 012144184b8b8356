import ArgumentParser
import Foundation
import Hush
import HushToolSupport

/// `--db`: the Hush database file, the one declaration every command that opens a store uses.
struct DatabaseOption: ParsableArguments {
    @Option(name: .long, help: "The Hush database file.")
    var db: String
}

/// `--db` and the embedder options shared by the commands that open a store.
struct StoreArguments: ParsableArguments {
    @OptionGroup var database: DatabaseOption

    /// The database file's path.
    var db: String { database.db }

    @OptionGroup var modelOptions: ModelOptions

    /// How a command uses the store.
    enum Access {
        /// Reads only (search, get, stats, related, rank, summarize, eval): the file is opened read-only, so
        /// it is never written, works in a read-only folder and never waits for another process's writes;
        /// the model is loaded when it is installed, and keyword search and reading work without it.
        case read
        /// Writes that need no model (delete, prune, compact).
        case maintain
        /// Writes that embed (index, import): the model must load.
        case embed
    }

    /// The embedder for a file stamped with `stored` (`nil`: a new file): `--lexical` or `--model` when given;
    /// else the model the file was made with (the lexical fallback, or a known model recognised by its
    /// identity); else the standard model.
    func makeEmbedder(stored: EmbedderIdentity?) throws -> any Embedder {
        if !modelOptions.lexical, modelOptions.model == nil, let stored, stored.pooling == .lexical {
            return HashingEmbedder(dimension: stored.dimension)
        }
        return try modelOptions.makeEmbedder(fallback: stored.flatMap(ModelChoice.matching) ?? .standard)
    }

    /// The embedder for `access`, or `nil` when the model is not installed and the command can do without it
    /// (an explicit `--model` that fails to load is always an error).
    func embedder(for access: Access, stored: EmbedderIdentity?) throws -> (any Embedder)? {
        do {
            return try makeEmbedder(stored: stored)
        } catch EmbeddingError.modelNotFound where access != .embed && modelOptions.model == nil {
            return nil
        }
    }

    /// Opens the store for `access` (creating it for `.embed` when `create` is true), reading the file once.
    func open(_ access: Access, create: Bool = false, options: StoreOptions = .init()) async throws -> HushStore {
        if !create, !FileManager.default.fileExists(atPath: db) {
            throw ValidationError("no database at \(db): create one with `hush index --db \(db) PATH...`")
        }
        let store = try HushStore.open(path: db, readOnly: access == .read, options: options) { stored in
            try embedder(for: access, stored: stored)
        }
        return OpenStores.shared.track(store)
    }
}
