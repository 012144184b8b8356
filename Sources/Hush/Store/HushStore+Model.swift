import Foundation

extension HushStore {
    /// Opens (or creates) a store with a model chosen by name, loading it.
    ///
    /// `model` names the model (``ModelChoice``: `.e5Small`, `.miniLM` or a path). When it is `nil`, an
    /// existing file opens with the model it was made with (recognised from its stored identity), and a new
    /// file gets ``ModelChoice/standard`` (multilingual-e5-small). A file made with the lexical fallback
    /// opens with it. A read-only open of an existing file whose model is not installed still works, for
    /// reading and keyword search (as ``open(path:embedder:readOnly:options:)`` with `embedder: nil`).
    ///
    /// ```swift
    /// let journal = try await HushStore.open(path: "journal.hush")          // e5-small for a new file
    /// let notes = try await HushStore.open(path: "notes.hush", model: .miniLM)
    /// ```
    ///
    /// - Throws: `EmbeddingError.modelNotFound` naming `scripts/fetch-model` when the model is not installed
    ///   (and the open needs it), `.corruptModel`, or any error of ``open(path:embedder:readOnly:options:)``.
    public static func open(
        path: String, model: ModelChoice? = nil, threads: Int? = nil, readOnly: Bool = false,
        options: StoreOptions = .init()
    ) async throws -> HushStore {
        let stored = try storedIdentity(path: path, busyTimeout: options.busyTimeout)
        let embedder: (any Embedder)?
        if model == nil, let stored, stored.pooling == .lexical {
            embedder = HashingEmbedder(dimension: stored.dimension)
        } else {
            let choice = model ?? stored.flatMap(ModelChoice.matching) ?? .standard
            do {
                embedder = try choice.load(threads: threads)
            } catch EmbeddingError.modelNotFound where readOnly && stored != nil && model == nil {
                embedder = nil
            }
        }
        return try await open(path: path, embedder: embedder, readOnly: readOnly, options: options)
    }
}
