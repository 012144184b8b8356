import Foundation

/// A tokenizer that turns text into a model's input ids: BERT's WordPiece (``WordPieceTokenizer``) or
/// SentencePiece Unigram (``UnigramTokenizer``).
///
/// ```swift
/// let tokenizer = try TextTokenizers.load(modelDirectory: folder)  // whichever the folder holds
/// let ids = tokenizer.encode("失眠怎么办", maxLength: 512).ids
/// ```
public protocol TextTokenizer: Sendable {
    /// The number of ids the tokenizer can produce.
    var vocabularySize: Int { get }
    /// The ids of `text`, the model's special tokens around them, truncated to `maxLength` ids in all.
    func encode(_ text: String, maxLength: Int) -> TokenizedText
    /// The piece of an id, or nil when out of range.
    func token(for id: Int32) -> String?
}

extension WordPieceTokenizer: TextTokenizer {}
extension UnigramTokenizer: TextTokenizer {}

/// Loading the tokenizer of a model folder, whatever its kind.
public enum TextTokenizers {
    /// The tokenizer of a model folder: a `tokenizer.json` with a Unigram model (XLM-RoBERTa,
    /// multilingual-e5) is a ``UnigramTokenizer``; any other `tokenizer.json`, or a `vocab.txt`, a
    /// ``WordPieceTokenizer``.
    ///
    /// ```swift
    /// let tokenizer = try TextTokenizers.load(modelDirectory: URL(fileURLWithPath: "multilingual-e5-small"))
    /// ```
    ///
    /// - Throws: `EmbeddingError.modelNotFound` when the folder has no tokenizer, `.unsupportedModel` for
    ///   another tokenizer model (named), `.corruptModel` for a damaged file.
    public static func load(modelDirectory: URL) throws -> any TextTokenizer {
        let json = modelDirectory.appendingPathComponent("tokenizer.json")
        guard FileManager.default.fileExists(atPath: json.path) else {
            return try WordPieceTokenizer(modelDirectory: modelDirectory)
        }
        // Parsed once, numbers exactly (a Unigram model's scores break ties between segmentations).
        let object = try TokenizerFile.jsonObject(json, exactNumbers: true)
        if (object["model"] as? [String: Any])?["type"] as? String == "Unigram" {
            return try UnigramTokenizer(tokenizerJSON: object, path: json.path)
        }
        return try WordPieceTokenizer(tokenizerJSON: object, path: json.path)
    }
}
