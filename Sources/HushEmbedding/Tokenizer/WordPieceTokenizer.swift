import Foundation

/// A BERT WordPiece tokenizer that produces the same ids as Hugging Face `tokenizers` for a BERT
/// `tokenizer.json` (BertNormalizer, BertPreTokenizer, WordPiece, `[CLS] … [SEP]` template).
///
/// ```swift
/// let tokenizer = try WordPieceTokenizer(modelDirectory: modelURL)
/// let tokens = tokenizer.encode("Hello, world!", maxLength: 256)
/// print(tokens.ids)  // [101, 7592, 1010, 2088, 999, 102]
/// ```
public struct WordPieceTokenizer: Sendable {
    /// How text is normalized and split before vocabulary lookup.
    ///
    /// ```swift
    /// var configuration = WordPieceTokenizer.Configuration()
    /// configuration.lowercase = false  // a cased model
    /// ```
    public struct Configuration: Sendable, Equatable {
        /// Lowercase every scalar (Rust `char::to_lowercase`, no context rules such as final sigma).
        public var lowercase: Bool
        /// Decompose (NFD) and drop nonspacing marks; nil follows `lowercase`, as in BertNormalizer.
        public var stripAccents: Bool?
        /// Put spaces around CJK ideographs so each becomes its own word.
        public var handleChineseChars: Bool
        /// Remove NUL, U+FFFD and control characters and turn whitespace into spaces.
        public var cleanText: Bool
        /// The token that replaces a word that cannot be split into vocabulary pieces.
        public var unknownToken: String
        /// The marker of a piece that continues a word, `##` for BERT.
        public var continuingSubwordPrefix: String
        /// Words with more Unicode scalars than this become the unknown token.
        public var maxInputCharsPerWord: Int
        /// The token placed first in every sequence.
        public var classifierToken: String
        /// The token placed last in every sequence.
        public var separatorToken: String
        /// The token used to pad batches.
        public var paddingToken: String
        /// Tokens matched literally in the raw text before normalization (`added_tokens`).
        public var addedTokens: [String]

        /// The BERT uncased defaults (all-MiniLM-L6-v2, bert-base-uncased).
        ///
        /// ```swift
        /// let configuration = WordPieceTokenizer.Configuration(lowercase: true)
        /// ```
        public init(
            lowercase: Bool = true,
            stripAccents: Bool? = nil,
            handleChineseChars: Bool = true,
            cleanText: Bool = true,
            unknownToken: String = "[UNK]",
            continuingSubwordPrefix: String = "##",
            maxInputCharsPerWord: Int = 100,
            classifierToken: String = "[CLS]",
            separatorToken: String = "[SEP]",
            paddingToken: String = "[PAD]",
            addedTokens: [String] = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
        ) {
            self.lowercase = lowercase
            self.stripAccents = stripAccents
            self.handleChineseChars = handleChineseChars
            self.cleanText = cleanText
            self.unknownToken = unknownToken
            self.continuingSubwordPrefix = continuingSubwordPrefix
            self.maxInputCharsPerWord = maxInputCharsPerWord
            self.classifierToken = classifierToken
            self.separatorToken = separatorToken
            self.paddingToken = paddingToken
            self.addedTokens = addedTokens
        }
    }

    /// The configuration in use.
    public let configuration: Configuration
    /// The id of the padding token.
    public let padID: Int32
    /// The id of the token placed first.
    public let clsID: Int32
    /// The id of the token placed last.
    public let sepID: Int32
    /// The id of the unknown token.
    public let unknownID: Int32

    let vocabulary: [String]
    let wordStarts: VocabularyTable
    let wordContinuations: VocabularyTable
    let added: AddedTokens

    /// The number of ids (the embedding table's row count).
    ///
    /// ```swift
    /// assert(tokenizer.vocabularySize == 30522)
    /// ```
    public var vocabularySize: Int { vocabulary.count }

    /// Creates a tokenizer from a vocabulary (index = id) and a configuration.
    ///
    /// Throws ``EmbeddingError/corruptModel(path:reason:)`` when a token the configuration names is missing.
    ///
    /// ```swift
    /// let tokenizer = try WordPieceTokenizer(vocabulary: lines, configuration: .init())
    /// ```
    public init(vocabulary: [String], configuration: Configuration) throws {
        try self.init(vocabulary: vocabulary, configuration: configuration, source: "vocabulary")
    }

    init(vocabulary: [String], configuration: Configuration, source: String) throws {
        self.vocabulary = vocabulary
        self.configuration = configuration
        var starts: [(key: [UInt8], id: Int32)] = []
        var continuations: [(key: [UInt8], id: Int32)] = []
        starts.reserveCapacity(vocabulary.count)
        let prefix = Array(configuration.continuingSubwordPrefix.utf8)
        var index: [String: Int32] = [:]
        for (id, token) in vocabulary.enumerated() {
            let bytes = Array(token.utf8)
            let id32 = Int32(truncatingIfNeeded: id)
            index[token] = id32
            starts.append((bytes, id32))
            if bytes.count >= prefix.count && bytes.starts(with: prefix) {
                continuations.append((Array(bytes[prefix.count...]), id32))
            }
        }
        func id(of token: String) throws -> Int32 {
            guard let id = index[token] else {
                throw EmbeddingError.corruptModel(path: source, reason: "token \(token) is not in the vocabulary")
            }
            return id
        }
        wordStarts = VocabularyTable(entries: starts)
        wordContinuations = VocabularyTable(entries: continuations)
        unknownID = try id(of: configuration.unknownToken)
        clsID = try id(of: configuration.classifierToken)
        sepID = try id(of: configuration.separatorToken)
        padID = try id(of: configuration.paddingToken)
        var addedTokens: [(bytes: [UInt8], id: Int32)] = []
        for token in configuration.addedTokens where !token.isEmpty {
            addedTokens.append((Array(token.utf8), try id(of: token)))
        }
        added = AddedTokens(tokens: addedTokens)
    }

    /// The vocabulary entry of an id, or nil when out of range.
    ///
    /// ```swift
    /// tokenizer.token(for: 7592)  // "hello"
    /// ```
    public func token(for id: Int32) -> String? {
        guard id >= 0, Int(id) < vocabulary.count else { return nil }
        return vocabulary[Int(id)]
    }

    /// Tokenizes one text: `[CLS]`, at most `maxLength - 2` content tokens, `[SEP]`.
    ///
    /// - Complexity: O(n) in the text's length for normal words (WordPiece is quadratic only inside a word,
    ///   whose length is bounded by `maxInputCharsPerWord`).
    ///
    /// ```swift
    /// let tokens = tokenizer.encode(longText, maxLength: 256)
    /// if tokens.truncated { print("kept 256 of \(tokens.untruncatedCount)") }
    /// ```
    public func encode(_ text: String, maxLength: Int) -> TokenizedText {
        var content: [Int32] = []
        content.reserveCapacity(text.utf8.count / 4 + 8)
        appendContentIDs(of: text, to: &content)
        let budget = max(0, maxLength - 2)
        var ids: [Int32] = []
        ids.reserveCapacity(min(content.count, budget) + 2)
        ids.append(clsID)
        ids.append(contentsOf: content.prefix(budget))
        ids.append(sepID)
        return TokenizedText(ids: ids, truncated: content.count > budget, untruncatedCount: content.count + 2)
    }

    /// Tokenizes several texts and pads them with `[PAD]` to the longest one, with an attention mask.
    ///
    /// - Complexity: O(total length of the texts + count × longest row).
    ///
    /// ```swift
    /// let batch = tokenizer.encodeBatch(["short", "a somewhat longer text"], maxLength: 256)
    /// assert(batch.attentionMask.count == 2 * batch.sequenceLength)
    /// ```
    public func encodeBatch(_ texts: [String], maxLength: Int) -> TokenBatch {
        let rows = texts.map { encode($0, maxLength: maxLength) }
        let length = rows.map(\.ids.count).max() ?? 0
        var ids = [Int32](repeating: padID, count: rows.count * length)
        var mask = [Int32](repeating: 0, count: rows.count * length)
        for (row, tokens) in rows.enumerated() {
            let base = row * length
            for (column, id) in tokens.ids.enumerated() {
                ids[base + column] = id
                mask[base + column] = 1
            }
        }
        return TokenBatch(
            ids: ids, attentionMask: mask, lengths: rows.map(\.ids.count), sequenceLength: length,
            truncated: rows.map(\.truncated))
    }
}

/// Literal tokens found in the raw text (leftmost, then longest match).
struct AddedTokens: Sendable {
    let tokens: [(bytes: [UInt8], id: Int32)]
    /// Whether any token starts with a byte.
    let firstBytes: [Bool]

    init(tokens: [(bytes: [UInt8], id: Int32)]) {
        self.tokens = tokens.sorted { $0.bytes.count > $1.bytes.count }
        var first = [Bool](repeating: false, count: 256)
        for token in tokens { if let byte = token.bytes.first { first[Int(byte)] = true } }
        firstBytes = first
    }

    /// The longest token that starts at `position`, as (byte length, id).
    @inline(__always)
    func match(_ text: UnsafeBufferPointer<UInt8>, at position: Int) -> (length: Int, id: Int32)? {
        guard firstBytes[Int(text[position])] else { return nil }
        for token in tokens where token.bytes.count <= text.count - position {
            var equal = true
            for offset in 0..<token.bytes.count where text[position + offset] != token.bytes[offset] {
                equal = false
                break
            }
            if equal { return (token.bytes.count, token.id) }
        }
        return nil
    }
}
