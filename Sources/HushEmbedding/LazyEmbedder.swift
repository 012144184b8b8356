import Foundation
import HushKernels

/// An embedder that loads its model on first need, not when it is made, and can give the model's memory back.
///
/// What a store needs before it embeds anything (the identity, the window, the chunk size, the language
/// scope) is known up front, from the store file's stamp and the model's name; the weights (tens of
/// megabytes, and a few hundred milliseconds to load) are read by the first `embed` or `tokenCount`, or by
/// ``load()``. Concurrent first calls load once. ``release()`` drops the loaded model: calls running keep the
/// model they started with, and the next call loads it again. A model that loads with another identity than
/// the one expected is refused (``EmbeddingError/identityChanged(path:expected:found:)``), so a model file
/// replaced under a store never mixes vector spaces.
///
/// ```swift
/// let lazy = try ModelChoice.e5Small.lazy(expecting: storedIdentity)
/// lazy.isLoaded            // false: nothing read yet
/// let query = try lazy.embed("trouble sleeping", role: .query)  // loads, once
/// lazy.release()           // the memory goes back; the next call loads again
/// ```
public final class LazyEmbedder: Embedder, @unchecked Sendable {
    // Sendable: `loaded` is only touched under `lock`; the rest is immutable.
    public let identity: EmbedderIdentity
    public let maxTokens: Int
    public let languageScope: LanguageScope
    public let preferredChunkSize: ChunkSize
    /// Where the model is loaded from (for errors).
    public let source: String
    private let loader: @Sendable () throws -> any Embedder
    private let lock = NSLock()
    private var loaded: (any Embedder)?
    private var loads = 0

    /// An embedder that loads with `load` on first need and must then have `identity` and `maxTokens`.
    ///
    /// ```swift
    /// let lazy = LazyEmbedder(identity: stamp, maxTokens: 512, languageScope: .multilingual,
    ///                         preferredChunkSize: .multilingualE5, source: path) { try E5Embedder() }
    /// ```
    public init(
        identity: EmbedderIdentity, maxTokens: Int, languageScope: LanguageScope, preferredChunkSize: ChunkSize,
        source: String, load: @escaping @Sendable () throws -> any Embedder
    ) {
        self.identity = identity
        self.maxTokens = maxTokens
        self.languageScope = languageScope
        self.preferredChunkSize = preferredChunkSize
        self.source = source
        self.loader = load
    }

    /// Whether the model is in memory now.
    public var isLoaded: Bool { lock.withLock { loaded != nil } }

    /// How many times the model was read from disk (the first need, and again after each ``release()``).
    public var loadCount: Int { lock.withLock { loads } }

    /// The model, loaded now if it is not in memory.
    ///
    /// ```swift
    /// _ = try lazy.load()  // before the person types: the first search does not wait for it
    /// ```
    ///
    /// - Throws: the model's load error (`EmbeddingError.modelNotFound`, `.corruptModel`), or
    ///   ``EmbeddingError/identityChanged(path:expected:found:)`` when the model found makes other vectors.
    @discardableResult
    public func load() throws -> any Embedder {
        try lock.withLock {
            if let loaded { return loaded }
            let model = try loader()
            guard model.identity == identity, model.maxTokens == maxTokens else {
                throw EmbeddingError.identityChanged(
                    path: source, expected: identity.description,
                    found: "\(model.identity), a \(model.maxTokens)-token window")
            }
            loaded = model
            loads += 1
            return model
        }
    }

    /// Drops the loaded model: its memory goes back once the calls using it finish; the next call loads it
    /// again.
    ///
    /// ```swift
    /// lazy.release()  // under memory pressure
    /// ```
    public func release() {
        let model = lock.withLock {
            defer { loaded = nil }
            return loaded
        }
        guard model != nil else { return }
        // Freed here, outside the lock, unless a running call still holds it (then when that call ends); the
        // allocator's free pages go back to the system.
        _ = consume model
        hush_release_free_memory()
    }

    public func embed(_ texts: [String], role: EmbeddingRole) throws -> [Embedding] {
        try load().embed(texts, role: role)
    }

    /// The model's count; when the model cannot load, an estimate that errs long (a UTF-8 byte a token), so
    /// that chunks stay within the window. The write that asked embeds next and reports the load's error.
    public func tokenCount(_ text: String) -> Int {
        guard let model = try? load() else { return text.utf8.count + 2 }
        return model.tokenCount(text)
    }
}
