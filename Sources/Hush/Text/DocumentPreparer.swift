import Foundation

/// A document ready to be stored: its cleaned text, its language and its chunks.
///
/// ```swift
/// let prepared = preparer.prepare(document)
/// print(prepared.language, prepared.chunks.count)
/// ```
public struct PreparedDocument: Sendable {
    /// The body (and quoted text) after cleaning; chunk ranges point into it.
    public var cleanedText: String
    /// The document's language, or the detected one (BCP-47 primary code, `und` when unknown).
    public var language: String
    /// The chunks to embed and index, in order.
    public var chunks: [TextChunk]
    /// The cleaned title and body when `language` was identified on a text too short for letter statistics;
    /// a write settles it with the rest of its batch
    /// (``DocumentPreparer/languages(guessed:shortTexts:storeLanguage:)``).
    var shortText: String?

    /// Creates a prepared document.
    public init(cleanedText: String, language: String, chunks: [TextChunk]) {
        self.cleanedText = cleanedText
        self.language = language
        self.chunks = chunks
    }
}

/// Cleans, identifies the language of, and chunks documents for one embedder.
///
/// ```swift
/// let preparer = DocumentPreparer(embedder: HashingEmbedder())
/// let prepared = preparer.prepare(Document(id: "n1", title: "Groceries", body: "Milk, eggs and bread."))
/// prepared.chunks[0].text  // "Groceries\n\nMilk, eggs and bread."
/// ```
public struct DocumentPreparer: Sendable {
    /// How text is cleaned.
    public var cleaner: TextCleaner
    /// How languages are identified.
    public var languages: LanguageIdentifier
    /// How text is chunked, with the embedder's token counter.
    public var chunker: Chunker

    /// Creates a preparer; chunk sizes default to the embedder's (``ChunkingConfiguration/init(for:)``) and
    /// tokens are counted by it.
    ///
    /// ```swift
    /// let preparer = DocumentPreparer(embedder: embedder, chunking: .init(targetTokens: 96))
    /// ```
    public init(
        embedder: any Embedder, chunking: ChunkingConfiguration? = nil, cleaner: TextCleaner = .init(),
        languages: LanguageIdentifier = .init()
    ) {
        let configuration = chunking ?? ChunkingConfiguration(for: embedder)
        self.cleaner = cleaner
        self.languages = languages
        self.chunker = Chunker(configuration: configuration, tokenCounter: { embedder.tokenCount($0) })
    }

    /// Cleans, identifies and chunks one document. Each labelled field gets a chunk of its own under the
    /// title and the day of `createdAt` (UTC), when the document has one.
    ///
    /// ```swift
    /// let prepared = preparer.prepare(Document(id: "p1", body: "Bonjour à tous, la réunion est demain."))
    /// prepared.language  // "fr"
    /// ```
    ///
    /// - Complexity: O(n) in the length of the document.
    public func prepare(_ document: Document) -> PreparedDocument {
        let cleaned = clean(document)
        let chunks = chunker.chunk(
            title: cleaned.title, text: cleaned.text, fields: cleaned.fields,
            date: cleaned.fields.isEmpty ? nil : document.createdAt.map(RecordDate.formatDay))
        var prepared = PreparedDocument(cleanedText: cleaned.text, language: cleaned.language, chunks: chunks)
        prepared.shortText = cleaned.shortText
        return prepared
    }

    /// The languages of a batch: each document's own or identified language (`guessed`), except that a text
    /// too short for letter statistics (`shortTexts[i]`, see ``LanguageIdentifier/isShortLatin(_:words:)``) is
    /// weighed against the language of its store (`storeLanguage`: the language of at least half its documents),
    /// or, in a store without one, the language of at least half the batch (its longer texts and the short ones
    /// whose function words name a language; ``LanguageIdentifier/settleShort(_:guess:fallback:margin:)``). A
    /// store of many languages, none of them half, keeps every guess. One
    /// short English text in six was filed under another Latin-script language, which a language filter,
    /// same-language related items and per-language feeds then left out.
    ///
    /// ```swift
    /// preparer.languages(
    ///     guessed: ["fi", "en"], shortTexts: ["Tomatoes, cucumber, olive oil", nil], storeLanguage: nil)
    /// // ["en", "en"]
    /// ```
    ///
    /// - Complexity: O(n) in the length of the short texts.
    func languages(guessed: [String], shortTexts: [String?], storeLanguage: String?) -> [String] {
        var identified: [String: Int] = [:]
        // What the batch says: its longer texts, and the short ones whose function words name one language
        // (letters alone misled too often to vote).
        for (language, short) in zip(guessed, shortTexts) {
            guard let found = short.map({ languages.functionWordLanguage($0) }) ?? language, found != "und" else {
                continue
            }
            identified[found, default: 0] += 1
        }
        let votes = identified.values.reduce(0, +)
        let batchLanguage = identified.max { ($0.value, $1.key) < ($1.value, $0.key) }.flatMap {
            2 * $0.value >= votes ? $0.key : nil
        }
        let fallback = storeLanguage ?? batchLanguage
        return zip(guessed, shortTexts).map { language, short in
            short.map { languages.settleShort($0, guess: language, fallback: fallback) } ?? language
        }
    }

    /// What `prepare` works out before chunking.
    struct CleanedDocument {
        /// The cleaned title, nil when empty.
        var title: String?
        /// The cleaned body (and quoted text).
        var text: String
        /// The cleaned fields.
        var fields: [Document.Field]
        /// The title and body as one text (a blank line between): what the language is identified on, and
        /// the one chunk of a document stored whole.
        var titledText: String
        /// The document's own language, else the one identified on `titledText`.
        var language: String
        /// `titledText` when the language was identified on it and it is too short for letter statistics
        /// (``LanguageIdentifier/isShortLatin(_:words:)``): the batch settles it
        /// (``languages(guessed:shortTexts:storeLanguage:)``).
        var shortText: String?
    }

    /// Cleans the title, body and fields of `document` and settles its language.
    func clean(_ document: Document) -> CleanedDocument {
        let text = cleaner.clean(document)
        let title = document.title.map { cleaner.cleanSingleLine($0) }.flatMap { $0.isEmpty ? nil : $0 }
        let fields = document.fields.map {
            Document.Field(label: cleaner.cleanSingleLine($0.label), value: cleaner.cleanSingleLine($0.value))
        }
        let titledText = [title ?? "", text].filter { !$0.isEmpty }.joined(separator: "\n\n")
        let language: String
        var shortText: String?
        if let given = document.language?.trimmingCharacters(in: .whitespaces), !given.isEmpty {
            language = given
        } else {
            let identified = languages.identifyDocument(titledText)
            language = identified.language
            if identified.isShort { shortText = titledText }
        }
        return CleanedDocument(
            title: title, text: text, fields: fields, titledText: titledText, language: language, shortText: shortText)
    }
}
