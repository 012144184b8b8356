import Foundation

extension HushStore {
    /// Opens (or creates) a store with a model chosen by name, loading it.
    ///
    /// `model` names the model (``ModelChoice``: `.e5Small`, `.miniLM` or a path). When it is `nil`, an
    /// existing file opens with the model it was made with (recognised from its stored identity), and a new
    /// file gets ``ModelChoice/standard`` (multilingual-e5-small). A file made with the lexical fallback
    /// opens with it. A read-only open of an existing file whose model is not installed, or was made with a
    /// model Hush does not know by name, still works, for reading and keyword search (as
    /// ``open(path:embedder:readOnly:options:)`` with `embedder: nil`; ``semanticAvailable`` says which).
    ///
    /// ```swift
    /// let journal = try await HushStore.open(path: "journal.hush")          // e5-small for a new file
    /// let notes = try await HushStore.open(path: "notes.hush", model: .miniLM)
    /// ```
    ///
    /// - Throws: `EmbeddingError.modelNotFound` naming `scripts/fetch-model` when the model is not installed
    ///   (and the open needs it), ``StoreError/modelUnavailable(path:model:reason:)`` for a writable open of a
    ///   file made with a model Hush cannot find by name, `.corruptModel`, or any error of
    ///   ``open(path:embedder:readOnly:options:)``.
    public static func open(
        path: String, model: ModelChoice? = nil, threads: Int? = nil, readOnly: Bool = false,
        options: StoreOptions = .init()
    ) async throws -> HushStore {
        try open(path: path, readOnly: readOnly, options: options) { stored in
            if model == nil, let stored, stored.pooling == .lexical {
                return HashingEmbedder(dimension: stored.dimension)
            }
            if model == nil, let stored, ModelChoice.matching(stored) == nil {
                // Made with a model Hush does not know by name (an app's own folder): never guess another one.
                guard readOnly else {
                    throw StoreError.modelUnavailable(
                        path: path, model: stored.model,
                        reason: "not a model Hush can find by itself; pass it with open(path:embedder:)")
                }
                return nil
            }
            let choice = model ?? stored.flatMap(ModelChoice.matching) ?? .standard
            do {
                return try choice.load(threads: threads)
            } catch EmbeddingError.modelNotFound where readOnly && stored != nil && model == nil {
                return nil
            }
        }
    }

    /// Opens the file once, reads the identity stamped in it (`nil` for a new file) and opens the store with
    /// the embedder `resolve` picks for that identity (`nil`: without a model).
    ///
    /// ```swift
    /// let store = try HushStore.open(path: path, readOnly: true, options: .init()) { _ in HashingEmbedder() }
    /// ```
    package static func open(
        path: String, readOnly: Bool, options: StoreOptions,
        resolve: (EmbedderIdentity?) throws -> (any Embedder)?
    ) throws -> HushStore {
        let existed = FileManager.default.fileExists(atPath: path)
        let database = try StoreDatabase.open(path: path, readOnly: readOnly, busyTimeout: options.busyTimeout)
        let embedder: (any Embedder)?
        do {
            embedder = try resolve(try database.storedIdentity())
        } catch {
            // A file this call created stays only if the store opens (no empty file behind a missing model).
            if !existed {
                try? database.close()
                for file in [path, path + "-wal", path + "-shm"] { try? FileManager.default.removeItem(atPath: file) }
            }
            throw error
        }
        do {
            return try HushStore(database: database, embedder: embedder, readOnly: readOnly, options: options)
        } catch {
            // What the open wrote (a migration, a stamp) goes into the file itself before the error leaves.
            try? database.finish(checkpointing: !readOnly, busyTimeout: options.busyTimeout)
            throw error
        }
    }
}
