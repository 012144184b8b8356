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

    /// The configuration `embedder` chunks best with: its window and its `Embedder.preferredChunkSize`.
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

    /// The smallest chunk target a store or a build accepts, in tokens.
    static let smallestTarget = 8

    /// `base` (a store's recorded sizes, or the model's) with the sizes asked for put in: the one place
    /// `StoreOptions` and `BuildConfiguration` turn a chunk target and overlap into a chunker setting.
    ///
    /// A target given without an overlap takes the model's overlap (`model`), in the model's proportion
    /// when the target is smaller than the model's: multilingual-e5's 256 / 32 asked for 64 cuts 64 / 8,
    /// rather than repeating half of every chunk. An overlap given without a target must lie below `base`'s.
    ///
    /// - Returns: the configuration, or what is wrong with the sizes asked for.
    static func resolving(
        _ base: ChunkingConfiguration, model: ChunkSize, modelName: String, targetTokens: Int?, overlapTokens: Int?
    ) -> Result<ChunkingConfiguration, SizeProblem> {
        var chunking = base
        if let target = targetTokens {
            guard target >= smallestTarget else { return .failure(.targetTooSmall(target)) }
            guard target <= base.maxTokens else {
                return .failure(.targetAboveWindow(target, window: base.maxTokens, model: modelName))
            }
            chunking.targetTokens = target
            let proportional = (target * model.overlapTokens + model.targetTokens / 2) / max(1, model.targetTokens)
            chunking.overlapTokens = min(model.overlapTokens, proportional, target - 1)
        }
        if let overlap = overlapTokens {
            guard overlap >= 0, overlap < chunking.targetTokens else {
                return .failure(.overlapNotBelowTarget(overlap, target: chunking.targetTokens))
            }
            chunking.overlapTokens = overlap
        }
        return .success(chunking)
    }

    /// `self` when a model that reads `window` tokens at once can embed its chunks whole: its window no
    /// larger than the model's, and a target and overlap that ``resolving(_:model:modelName:targetTokens:overlapTokens:)``
    /// would accept. A configuration given whole (``StoreOptions/chunking``) is checked here.
    func checked(window: Int, modelName: String) -> Result<ChunkingConfiguration, SizeProblem> {
        guard maxTokens <= window else {
            return .failure(.windowAboveModel(maxTokens, window: window, model: modelName))
        }
        guard targetTokens >= Self.smallestTarget else { return .failure(.targetTooSmall(targetTokens)) }
        guard targetTokens <= maxTokens else {
            return .failure(.targetAboveWindow(targetTokens, window: maxTokens, model: modelName))
        }
        guard overlapTokens >= 0, overlapTokens < targetTokens else {
            return .failure(.overlapNotBelowTarget(overlapTokens, target: targetTokens))
        }
        return .success(self)
    }

    /// What is wrong with a chunk target or overlap asked for; its text names the fields by `target` and
    /// `overlap` (`"chunkTokens"` for ``StoreOptions``, `"chunking.targetTokens"` for a build configuration).
    enum SizeProblem: Error, Equatable {
        case targetTooSmall(Int)
        case targetAboveWindow(Int, window: Int, model: String)
        case overlapNotBelowTarget(Int, target: Int)
        case windowAboveModel(Int, window: Int, model: String)

        func reason(target: String, overlap: String) -> String {
            switch self {
            case .windowAboveModel(let value, let window, let model):
                "chunking.maxTokens must be at most \(window), the most tokens \(model) reads at once (got \(value))"
            case .targetTooSmall(let value):
                "\(target) must be at least \(ChunkingConfiguration.smallestTarget) (got \(value))"
            case .targetAboveWindow(let value, let window, let model):
                "\(target) must be at most \(window), the most tokens \(model) reads at once (got \(value))"
            case .overlapNotBelowTarget(let value, let chunkTarget):
                "\(overlap) must lie in 0…\(chunkTarget - 1), below the chunk target of \(chunkTarget) tokens "
                    + "(got \(value))"
            }
        }
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
    /// or of a labelled field have an empty range (at 0 for a title alone, at the end of the text for a field).
    public var range: Range<Int>
    /// The number of model tokens of `text`, special tokens included.
    public var tokenCount: Int
    /// Whether one unsplittable piece still exceeded `maxTokens`, so the model will cut its tail.
    public var truncated: Bool
    /// The UTF-16 offset in `text` where the source span (`range`) starts: after the title and its blank line
    /// in a first chunk with a title, else 0. `text`'s UTF-16 units from there, `range.count` of them, are the
    /// source text's in `range`. In a chunk of a labelled field (``field``), where its `Label: value` line
    /// starts, after the record's heading: the line runs to the end of `text`.
    public var passageStart: Int
    /// The label of the labelled field this chunk holds (`Location`), or `nil` for a chunk of the title and
    /// body. A field without a label has an empty one.
    public var field: String?

    /// Creates a chunk.
    ///
    /// ```swift
    /// let chunk = TextChunk(ordinal: 0, text: "Trip\n\nPack light.", range: 0..<11, tokenCount: 7,
    ///                       truncated: false, passageStart: 6)
    /// ```
    public init(
        ordinal: Int, text: String, range: Range<Int>, tokenCount: Int, truncated: Bool, passageStart: Int = 0,
        field: String? = nil
    ) {
        self.ordinal = ordinal
        self.text = text
        self.range = range
        self.tokenCount = tokenCount
        self.truncated = truncated
        self.passageStart = passageStart
        self.field = field
    }

    /// Where, in a chunk's `text`, the passage lies whose offsets in its document's cleaned body are `range`,
    /// for a chunk stored without its ``passageStart`` (files written before schema version 4): found by
    /// comparing the body's slice with the text at the two places a passage can start (at 0, or after the
    /// title's blank line). Empty at 0 when neither matches or the chunk has no passage (a title or fields
    /// alone). `body` and `quoted` are the document's as stored, cleaned by `cleaner` as when it was cut.
    ///
    /// - Complexity: O(n) in the lengths of `text` and the body.
    static func passageRange(text: String, range: Range<Int>, body: String, quoted: String?, cleaner: TextCleaner)
        -> Range<Int>
    {
        passageRange(text: text, range: range, cleanedBody: cleaner.clean(Document(id: "", body: body, quoted: quoted)))
    }

    /// ``passageRange(text:range:body:quoted:cleaner:)`` with the document's body already cleaned.
    static func passageRange(text: String, range: Range<Int>, cleanedBody: String) -> Range<Int> {
        let body = Array(cleanedBody.utf16)
        let chunk = Array(text.utf16)
        guard !range.isEmpty, range.lowerBound >= 0, range.upperBound <= body.count else { return 0..<0 }
        let passage = body[range]
        var starts = [0]
        if let separator = text.range(of: "\n\n") { starts.append(separator.upperBound.utf16Offset(in: text)) }
        for start in starts where start + passage.count <= chunk.count {
            if chunk[start..<(start + passage.count)].elementsEqual(passage) { return start..<(start + passage.count) }
        }
        return 0..<0
    }
}

/// Cuts a text into chunks that respect paragraphs, then sentences, then words.
///
/// Sentences are packed greedily up to `targetTokens`; a sentence longer than the window is split at
/// words. Consecutive chunks of one paragraph overlap by whole sentences (or words) up to
/// `overlapTokens`. Each labelled field becomes a chunk of its own after the body's: the record's heading (its
/// title and day), a blank line, and the field's `Label: value` line.
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

    /// Cuts `text` (already cleaned) into chunks, prefixing `title` to the first, then adds a chunk for each
    /// of `fields` under the heading `title (date)`.
    ///
    /// ```swift
    /// let chunks = chunker.chunk(
    ///     title: "Standup", text: "We shipped the importer.",
    ///     fields: [.init(label: "Attendees", value: "Ana, Bo")], date: "2026-03-02")
    /// // "Standup\n\nWe shipped the importer."
    /// // "Standup (2026-03-02)\n\nAttendees: Ana, Bo"  (field "Attendees")
    /// ```
    ///
    /// - Complexity: O(n) in the length of the text: each sentence is counted once (each word once for
    ///   sentences longer than the window), plus one count per chunk to confirm its size.
    public func chunk(title: String?, text: String, fields: [Document.Field] = [], date: String? = nil)
        -> [TextChunk]
    {
        var run = ChunkingRun(configuration: configuration, tokenCounter: tokenCounter, text: text)
        return run.chunks(title: title, fields: fields, date: date)
    }
}
