import Foundation

/// What can go wrong while loading a model or embedding text. Each case says what to fix.
///
/// ```swift
/// do {
///     _ = try BERTEmbedder(modelDirectory: dir)
/// } catch let error as EmbeddingError {
///     print(error)  // no model at /path: put the model file there …
/// }
/// ```
public enum EmbeddingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The model folder or one of its files does not exist.
    case modelNotFound(path: String)
    /// A model file exists but cannot be used (truncated, malformed, wrong checksum …).
    case corruptModel(path: String, reason: String)
    /// A tensor the architecture needs is missing from the weights.
    case missingTensor(name: String, path: String)
    /// A tensor has a shape other than the configuration implies.
    case shapeMismatch(name: String, expected: [Int], actual: [Int])
    /// The configuration describes something this encoder cannot run.
    case unsupportedModel(reason: String)
    /// A model loaded on first need (``LazyEmbedder``) makes other vectors than the store expects: the model
    /// at `path` was replaced since the store was made.
    case identityChanged(path: String, expected: String, found: String)
    /// Input text that cannot be embedded (for example invalid UTF-8 on a line of standard input).
    case invalidInput(reason: String)
    /// The model file changed while the model was in use (truncated, or rewritten in place): the model cannot go
    /// on reading it. A model file is replaced by writing the new one beside it and renaming it over the old,
    /// which a model in use does not see; then the model is loaded again.
    case modelChanged(path: String, reason: String)
    /// A bug in Hush: please report it.
    case internalInconsistency(String)

    public var description: String {
        switch self {
        case .modelNotFound(let path):
            return "no model at \(path): put the model file there (in the app's bundle, or downloaded to that "
                + "path), or choose another model"
        case .corruptModel(let path, let reason):
            return "the model file \(path) is unusable: \(reason); replace it with a good copy"
        case .modelChanged(let path, let reason):
            return "the model file \(path) changed while it was in use (\(reason)): load the model again; to "
                + "replace a model file, write the new one beside it and rename it over the old"
        case .missingTensor(let name, let path):
            return "tensor \(name) is missing from \(path): is this a BERT-family checkpoint?"
        case .shapeMismatch(let name, let expected, let actual):
            return "tensor \(name) has shape \(actual), config.json implies \(expected)"
        case .unsupportedModel(let reason):
            return "unsupported model: \(reason)"
        case .identityChanged(let path, let expected, let found):
            return "the model at \(path) is \(found), not \(expected) as the store expects: put back the model "
                + "the store was made with, or re-embed the store with this one (HushStore.reembed)"
        case .invalidInput(let reason):
            return "invalid input: \(reason)"
        case .internalInconsistency(let what):
            return "internal error (please report): \(what)"
        }
    }
}

extension EmbeddingError: LocalizedError {
    public var errorDescription: String? { description }
}
