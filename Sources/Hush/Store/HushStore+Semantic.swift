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
        index.read { $0.semanticReady }
    }

    /// `limit` clamped to the number of documents the store can return (at least 1): any `Int` is a valid
    /// limit, and no buffer is ever sized by more than what exists.
    func clampedLimit(_ limit: Int) -> Int {
        let documents = index.read { $0.documents.records.count }
        return min(limit, max(1, documents))
    }

    /// Why this store cannot compare vectors right now, as the ``StoreError`` every caller reports (search,
    /// related items, interest ranking, summaries, writes), or `nil`.
    func semanticBlocker() -> StoreError? {
        let (gap, stored) = index.read { ($0.gap, $0.storedIdentity) }
        switch gap {
        case nil:
            return nil
        case .mismatch:
            return StoreError.embedderMismatch(stored: stored, current: embedder.identity)
        case .modelNotLoaded:
            return StoreError.modelNotLoaded(stored: stored)
        case .reembedUnfinished:
            let progress = try? database.unfinishedReembed()
            return StoreError.reembedUnfinished(
                target: embedder.identity, completed: progress?.completed ?? 0, total: progress?.total ?? 0)
        }
    }

    /// Throws unless this store may be written: opened writable, with the model its vectors were made with.
    func requireWritable(_ operation: String, needsModel: Bool) throws {
        if readOnly { throw StoreError.readOnly(path: path ?? ":memory:", operation: operation) }
        guard needsModel else { return }
        if let blocker = semanticBlocker() {
            throw blocker
        }
    }
}
