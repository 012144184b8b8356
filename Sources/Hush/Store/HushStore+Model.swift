import Foundation

extension HushStore {
    /// Opens (or creates) a store with a model chosen by name.
    ///
    /// The store opens without reading the model's weights, for a new file (its identity is stamped from the
    /// model's small files) as for an existing one, by name or by path (a model folder shipped in the app's
    /// bundle): the model is loaded by the first call that embeds (a semantic search, related items, a write)
    /// or by ``warmUp()``, once, and ``releaseModel()`` gives its memory back (see ``modelInMemory``).
    ///
    /// `model` names the model (`ModelChoice`: `.e5Small`, `.miniLM` or a path). When it is `nil`, an
    /// existing file opens with the model it was made with (recognised from its stored identity), and a new
    /// file gets `ModelChoice.standard` (multilingual-e5-small). A file made with the lexical fallback
    /// opens with it. A read-only open of an existing file whose model is not installed, or was made with a
    /// model Hush does not know by name, still works, for reading and keyword search (as
    /// ``open(path:embedder:readOnly:options:)`` with `embedder: nil`; ``semanticAvailable`` says which). A
    /// `model` given must load, read-only or not.
    ///
    /// ```swift
    /// let journal = try await HushStore.open(path: "journal.hush")          // e5-small for a new file
    /// let notes = try await HushStore.open(path: "notes.hush", model: .miniLM)
    /// ```
    ///
    /// - Throws: `EmbeddingError.modelNotFound` naming `scripts/fetch-model` when the model is not installed
    ///   and the open needs it (a `model` given, a new file, a writable open),
    ///   ``StoreError/modelUnavailable(path:model:reason:)`` for a writable open of a file made with a model
    ///   Hush cannot find by name, `.corruptModel`, or any error of ``open(path:embedder:readOnly:options:)``.
    public static func open(
        path: String, model: ModelChoice? = nil, threads: Int? = nil, readOnly: Bool = false,
        options: StoreOptions = .init()
    ) async throws -> HushStore {
        let resolver = StoreModelResolver(
            request: model.map { .model($0) } ?? .stored, needsModel: !readOnly, threads: threads)
        return try open(path: path, readOnly: readOnly, options: options, ownsModel: true) { stored in
            try resolver.embedder(for: stored, path: path)
        }
    }

    /// Opens the file once, reads the identity stamped in it (`nil` for a new file) and opens the store with
    /// the embedder `resolve` picks for that identity (`nil`: without a model).
    ///
    /// ```swift
    /// let store = try HushStore.open(path: path, readOnly: true, options: .init()) { _ in HashingEmbedder() }
    /// ```
    package static func open(
        path: String, readOnly: Bool, options: StoreOptions, ownsModel: Bool = false,
        resolve: (EmbedderIdentity?) throws -> (any Embedder)?
    ) throws -> HushStore {
        let database = try StoreDatabase.open(path: path, readOnly: readOnly, busyTimeout: options.busyTimeout)
        do {
            // A file whose vectors' identity is lost opens without a model (reading, keyword search, deleting):
            // a model chosen for it, as for a new file, would be stamped over vectors it did not make.
            let embedder: (any Embedder)?
            switch try database.identityRecord() {
            case .unreadable: embedder = nil
            case .identity(let stored): embedder = try resolve(stored)
            case .none: embedder = try resolve(nil)
            }
            return try HushStore(
                database: database, embedder: embedder, readOnly: readOnly, options: options, ownsModel: ownsModel)
        } catch {
            // A file this call created stays only if the store opens (no empty file behind a missing model or a
            // refused option); what the open wrote into an existing one (a migration, a stamp) goes into the
            // file itself before the error leaves.
            database.abandon(readOnly: readOnly, busyTimeout: options.busyTimeout)
            throw error
        }
    }
}

extension HushStore {
    /// Whether the model's weights are in memory now. A store opened by model name loads them on first need
    /// and drops them on ``releaseModel()``; a store given a loaded embedder holds it for as long as it is
    /// open; a store without a model has none.
    ///
    /// ```swift
    /// let store = try await HushStore.open(path: "journal.hush")
    /// store.modelInMemory  // false: opening and keyword search read no weights
    /// ```
    public var modelInMemory: Bool {
        if let lazy = embedder as? LazyEmbedder { return lazy.isLoaded }
        return semanticAvailable
    }

    /// Gives the model's memory back (the weights, the worker threads, their buffers), the vectors' (they
    /// stay in the file) and the keyword rows kept for searches as you type, for an app under memory pressure
    /// or moving to the background: memory is then as after opening. The store stays open: reading, keyword search and deleting go on without either, and the
    /// next call that embeds or compares vectors loads them again. Calls running keep the model they started
    /// with until they finish. Does nothing for a store given a loaded embedder (the app holds it).
    ///
    /// ```swift
    /// NotificationCenter.default.addObserver(forName: UIApplication.didReceiveMemoryWarningNotification,
    ///                                        object: nil, queue: nil) { _ in store.releaseModel() }
    /// ```
    public func releaseModel() {
        // The keyword rows kept for searches as you type (up to 4 MiB) go too; the next keystroke reads them again.
        database.tokenTerms.withLock { $0 = KeywordIndexReader.TokenTerms() }
        guard let lazy = embedder as? LazyEmbedder else { return }
        lazy.release()
        memory.deferVectors()
    }
}

/// Which embedder a store file opens with: the one place that decides it, for
/// ``HushStore/open(path:model:threads:readOnly:options:)`` and for the `hush` command line (whose flags
/// only say which ``Request`` to make and whether the command embeds).
///
/// - The lexical fallback (asked for, or the one a file was made with) always opens, with the file's
///   dimension when the file was made with it.
/// - A model asked for by name or path must load: when it cannot, that is the error, whatever the open does.
/// - Otherwise an existing file opens with the model it was made with, recognised by its stored identity
///   (``ModelChoice/matching(_:)``), and a new file with `ModelChoice.standard`. When that model is not
///   installed, or the file was made with a model folder Hush does not know by name (it never guesses
///   another), an open that embeds nothing opens without a model (reading, keyword search, deleting); one
///   that embeds throws.
///
/// ```swift
/// let resolver = StoreModelResolver(request: .stored, needsModel: false)
/// let store = try HushStore.open(path: path, readOnly: true, options: .init()) { stored in
///     try resolver.embedder(for: stored, path: path)
/// }
/// ```
package struct StoreModelResolver: Sendable {
    /// The model an open asks for.
    package enum Request: Sendable, Hashable {
        /// The model the file was made with; `ModelChoice.standard` for a new file.
        case stored
        /// This model, whatever the file was made with (another vector space is refused by the open).
        case model(ModelChoice)
        /// The lexical fallback, ``HashingEmbedder``.
        case lexical
    }

    /// The model asked for.
    package var request: Request
    /// Whether the open embeds text (writes new documents): then the model must load. Without it, a model
    /// that is not installed or not known by name opens the store without one.
    package var needsModel: Bool
    /// Worker threads for the model; `nil` for all active cores.
    package var threads: Int?

    /// Creates a resolver.
    ///
    /// ```swift
    /// let resolver = StoreModelResolver(request: .model(.miniLM), needsModel: true, threads: 2)
    /// ```
    package init(request: Request, needsModel: Bool, threads: Int? = nil) {
        self.request = request
        self.needsModel = needsModel
        self.threads = threads
    }

    /// The embedder for a new file (or for embedding text without a file): the lexical fallback, the model
    /// asked for, or `ModelChoice.standard`; a model as a ``LazyEmbedder``, described from its small files and
    /// loaded by the first embedding.
    ///
    /// ```swift
    /// let embedder = try StoreModelResolver(request: .stored, needsModel: true).embedder()  // e5-small
    /// ```
    ///
    /// - Throws: `EmbeddingError.modelNotFound` (with the command that fetches it) or `.corruptModel`.
    package func embedder() throws -> any Embedder {
        switch request {
        case .lexical: return HashingEmbedder()
        case .model(let choice): return try choice.lazy(threads: threads)
        case .stored: return try ModelChoice.standard.lazy(threads: threads)
        }
    }

    /// Whether the model a file stamped with `stored` was made with can be found without being named: the
    /// lexical fallback, or a model Hush knows (``ModelChoice/matching(_:)``). A file made with any other model
    /// folder needs it asked for (``Request/model(_:)``, `--model FOLDER`).
    ///
    /// ```swift
    /// if !StoreModelResolver.findsModel(of: store.identity) { print("pass the model folder") }
    /// ```
    package static func findsModel(of stored: EmbedderIdentity) -> Bool {
        stored.pooling == .lexical || ModelChoice.matching(stored) != nil
    }

    /// The embedder for the file at `path` stamped with `stored` (`nil`: a new file), or `nil` to open it
    /// without a model.
    ///
    /// ```swift
    /// let embedder = try StoreModelResolver(request: .stored, needsModel: false).embedder(for: stored, path: path)
    /// ```
    ///
    /// - Throws: the model's load error (`EmbeddingError.modelNotFound`, `.corruptModel`) for a model asked
    ///   for, a new file's, or one the open needs; ``StoreError/modelUnavailable(path:model:reason:)`` when
    ///   the open needs the model of a file made with a model Hush does not know by name;
    ///   ``StoreError/notAStore(path:reason:)`` for a lexical identity without a positive dimension.
    package func embedder(for stored: EmbedderIdentity?, path: String) throws -> (any Embedder)? {
        guard let stored else { return try embedder() }
        if case .model(let choice) = request {
            return try choice.lazy(expecting: stored, threads: threads) ?? choice.load(threads: threads)
        }
        if stored.pooling == .lexical {
            guard stored.dimension > 0 else {
                throw StoreError.notAStore(path: path, reason: "its lexical embedder has dimension \(stored.dimension)")
            }
            return HashingEmbedder(dimension: stored.dimension)
        }
        // The lexical fallback for a neural file: another vector space, which the open refuses and names.
        if request == .lexical { return HashingEmbedder() }
        guard let known = ModelChoice.matching(stored) else {
            // A model folder of the app's own: never guess another model for it.
            guard !needsModel else {
                throw StoreError.modelUnavailable(
                    path: path, model: stored.model,
                    reason: "not a model Hush can find by itself; pass it with open(path:embedder:)")
            }
            return nil
        }
        do {
            // Loaded on first need: opening, reading and keyword search never read the weights.
            return try known.lazy(expecting: stored, threads: threads) ?? known.load(threads: threads)
        } catch EmbeddingError.modelNotFound where !needsModel {
            return nil
        }
    }
}
