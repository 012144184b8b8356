import Foundation

/// Stands in for the model a store was made with when that model is not loaded: it carries the stored
/// identity (so chunking and hashing stay as they were) and refuses to embed.
struct UnavailableEmbedder: Embedder {
    let identity: EmbedderIdentity
    var maxTokens: Int { 512 }

    func embed(_ texts: [String], role: EmbeddingRole) throws -> [Embedding] {
        throw StoreError.modelNotLoaded(stored: identity)
    }

    func tokenCount(_ text: String) -> Int {
        text.split(whereSeparator: \.isWhitespace).count + 2
    }

    var languageScope: LanguageScope {
        ModelChoice.matching(identity) == .e5Small ? .multilingual : .monolingual
    }
}

extension HushStore {
    /// The identity of the embedder the store uses: the one it was opened with, or the file's when its model is
    /// not loaded.
    ///
    /// ```swift
    /// print(store.identity.model)  // "multilingual-e5-small"
    /// ```
    public var identity: EmbedderIdentity { embedder.identity }

    /// Whether semantic search, related items and writes can run: the embedder is loaded and the file's
    /// vectors were made with it (no unfinished re-embed). Keyword search and reading always work.
    ///
    /// ```swift
    /// let mode: SearchMode = store.semanticAvailable ? .hybrid : .keyword
    /// ```
    public var semanticAvailable: Bool {
        memory.read { $0.semanticReady }
    }
}
