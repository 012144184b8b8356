import Foundation

/// How texts are cut into chunks that fit the embedding model's window.
///
/// All sizes are in model tokens and include the two special tokens (`[CLS]`, `[SEP]`) a BERT model adds.
///
/// ```swift
/// let config = ChunkingConfiguration(maxTokens: 256, targetTokens: 128, overlapTokens: 24)
/// ```
public struct ChunkingConfiguration: Sendable, Hashable, Codable {
    /// The model's hard window, special tokens included (256 for all-MiniLM-L6-v2). No chunk exceeds it.
    public var maxTokens: Int
    /// The preferred chunk size; sentences are packed greedily up to it.
    public var targetTokens: Int
    /// The most tokens of whole sentences (or words) repeated between consecutive chunks of one paragraph.
    public var overlapTokens: Int
    /// Whether the title is prefixed to the first chunk (`"Title\n\nfirst text"`).
    public var prefixTitle: Bool

    /// Creates a configuration.
    ///
    /// ```swift
    /// let small = ChunkingConfiguration(targetTokens: 64, overlapTokens: 0)
    /// ```
    public init(maxTokens: Int = 256, targetTokens: Int = 128, overlapTokens: Int = 24, prefixTitle: Bool = true) {
        self.maxTokens = maxTokens
        self.targetTokens = targetTokens
        self.overlapTokens = overlapTokens
        self.prefixTitle = prefixTitle
    }

    /// The configuration `embedder` chunks best with: its window and its ``Embedder/preferredChunkSize``.
    ///
    /// ```swift
    /// let configuration = ChunkingConfiguration(for: try E5Embedder())  // 512 / 256 / 32
    /// ```
    public init(for embedder: any Embedder) {
        let size = embedder.preferredChunkSize
        self.init(
            maxTokens: embedder.maxTokens, targetTokens: min(size.targetTokens, embedder.maxTokens),
            overlapTokens: size.overlapTokens)
    }
}

/// One piece of a document, the unit that is embedded and full-text indexed.
///
/// ```swift
/// for chunk in chunks { print(chunk.ordinal, chunk.tokenCount, chunk.text) }
/// ```
public struct TextChunk: Sendable, Hashable {
    /// The position of the chunk within its document, from 0.
    public var ordinal: Int
    /// The text to embed and index; the first chunk starts with the title when there is one.
    public var text: String
    /// UTF-16 offsets of the source span in the text given to the chunker. Chunks made only of the title
    /// or of labelled fields have an empty range (at 0 for a title alone, at the end of the text for fields).
    public var range: Range<Int>
    /// The number of model tokens of `text`, special tokens included.
    public var tokenCount: Int
    /// Whether one unsplittable piece still exceeded `maxTokens`, so the model will cut its tail.
    public var truncated: Bool

    /// Creates a chunk.
    public init(ordinal: Int, text: String, range: Range<Int>, tokenCount: Int, truncated: Bool) {
        self.ordinal = ordinal
        self.text = text
        self.range = range
        self.tokenCount = tokenCount
        self.truncated = truncated
    }
}

/// Cuts a text into chunks that respect paragraphs, then sentences, then words.
///
/// Sentences are packed greedily up to `targetTokens`; a sentence longer than the window is split at
/// words. Consecutive chunks of one paragraph overlap by whole sentences (or words) up to
/// `overlapTokens`. Labelled fields become `Label: value` lines after the body, kept together when they fit.
///
/// ```swift
/// let chunker = Chunker(tokenCounter: { embedder.tokenCount($0) })
/// let chunks = chunker.chunk(title: "Trip notes", text: longText)
/// ```
public struct Chunker: Sendable {
    /// The sizes used.
    public var configuration: ChunkingConfiguration
    private let tokenCounter: @Sendable (String) -> Int

    /// Creates a chunker that counts tokens with `tokenCounter` (special tokens included).
    ///
    /// ```swift
    /// let chunker = Chunker(configuration: .init(maxTokens: 256), tokenCounter: embedder.tokenCount)
    /// ```
    public init(configuration: ChunkingConfiguration = .init(), tokenCounter: @escaping @Sendable (String) -> Int) {
        self.configuration = configuration
        self.tokenCounter = tokenCounter
    }

    /// Cuts `text` (already cleaned) into chunks, prefixing `title` to the first and adding `fields` last.
    ///
    /// ```swift
    /// let chunks = chunker.chunk(
    ///     title: "Standup", text: "We shipped the importer.",
    ///     fields: [.init(label: "Attendees", value: "Ana, Bo")])
    /// // one chunk: "Standup\n\nWe shipped the importer.\n\nAttendees: Ana, Bo"
    /// ```
    ///
    /// - Complexity: O(n) in the length of the text: each sentence is counted once (each word once for
    ///   sentences longer than the window), plus one count per chunk to confirm its size.
    public func chunk(title: String?, text: String, fields: [Document.Field] = []) -> [TextChunk] {
        var run = ChunkingRun(configuration: configuration, tokenCounter: tokenCounter, text: text)
        return run.chunks(title: title, fields: fields)
    }
}
