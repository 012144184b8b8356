/// What can go wrong finding related items, ranking by interest, diversifying or summarising. Each case
/// says what to fix. (A store that cannot compare vectors, or a database failure, is a ``StoreError``.)
///
/// ```swift
/// do { _ = try await store.related(to: "missing") } catch RankingError.unknownDocument(let id) { print(id) }
/// ```
public enum RankingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No stored document has this id.
    case unknownDocument(id: String)
    /// The document is stored but has no vectors (its text was empty), so it has no meaning to compare.
    case noVectors(id: String)
    /// An argument is out of range.
    case invalidOption(String)
    /// The embedder failed on the sentences of a summary.
    case embeddingFailed(String)

    public var description: String {
        switch self {
        case .unknownDocument(let id):
            return "no document with id \"\(id)\" in the store (it was never stored, or was deleted or pruned): "
                + "drop it from the list, or let unknown ids be skipped (ignoreUnknownIDs)"
        case .noVectors(let id):
            return "document \"\(id)\" has no vectors (its text is empty, or its chunks were lost from a damaged "
                + "file): upsert it again, with some text"
        case .invalidOption(let what):
            return "invalid option: \(what)"
        case .embeddingFailed(let reason):
            return "could not embed the summary's sentences: \(reason)"
        }
    }
}

extension RankingError: TypedError {}
