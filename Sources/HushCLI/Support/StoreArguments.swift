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
        /// the file's model is loaded when it can be (installed, and known by name), and keyword search and
        /// reading work without it.
        case read
        /// Writes that need no model (delete, prune, compact): as `read`, the file's model when it can be loaded.
        case maintain
        /// Writes that embed (index): the model must load.
        case embed
    }

    /// Which embedder `access` opens the file with: the library's one resolver, asked for what the flags say
    /// (`--lexical`, `--model`, else the file's own model); only indexing needs the model to load.
    func resolver(for access: Access) -> StoreModelResolver {
        StoreModelResolver(request: modelOptions.request, needsModel: access == .embed, threads: modelOptions.threads)
    }

    /// Opens the store for `access` (creating it for `.embed` when `create` is true), reading the file once.
    func open(_ access: Access, create: Bool = false, options: StoreOptions = .init()) async throws -> HushStore {
        if !create, !FileManager.default.fileExists(atPath: db) {
            throw ValidationError("no database at \(db): create one with `hush index --db \(db) PATH...`")
        }
        let resolver = resolver(for: access)
        let store = try HushStore.open(path: db, readOnly: access == .read, options: options) { stored in
            try resolver.embedder(for: stored, path: db)
        }
        if access == .read, let problem = store.imageProblem {
            Console.error(
                "note: the saved index in \(db) is damaged (\(problem)), so it was read from its tables instead (same "
                    + "answers, slower to open); `hush compact --db \(db)` saves a sound one")
        }
        if access == .read, store.keywordIndexProblem != nil {
            Console.error(
                "note: the keyword index of \(db) is missing or damaged, so keyword search cannot run and hybrid "
                    + "search answers by meaning alone; `hush compact --db \(db)` builds it again from the stored text")
        }
        return OpenStores.shared.track(store)
    }
}
