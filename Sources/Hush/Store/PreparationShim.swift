// TEMPORARY stand-in for the `text` branch's API (Sources/Hush/Text), so the store builds before that
// branch is merged. Deleted by the merge commit. Not a chunker: one chunk per document.
import Foundation

public struct TextChunk: Sendable, Hashable {
    public var ordinal: Int
    public var text: String
    public var range: Range<Int>
    public var tokenCount: Int
    public var truncated: Bool
}

public struct PreparedDocument: Sendable {
    public var cleanedText: String
    public var language: String
    public var chunks: [TextChunk]
}

public struct DocumentPreparer: Sendable {
    let embedder: any Embedder
    public init(embedder: any Embedder) { self.embedder = embedder }
    public func prepare(_ document: Document) -> PreparedDocument {
        var text = document.body
        if let title = document.title, !title.isEmpty { text = title + "\n" + text }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let chunks =
            trimmed.isEmpty
            ? []
            : [
                TextChunk(
                    ordinal: 0, text: trimmed, range: 0..<trimmed.utf16.count,
                    tokenCount: embedder.tokenCount(trimmed), truncated: false)
            ]
        return PreparedDocument(cleanedText: trimmed, language: document.language ?? "en", chunks: chunks)
    }
}

public struct QueryAnalysis: Sendable, Hashable, Codable {
    public var original: String
    public var cleaned: String
    public var language: String
    public var keywords: [String]
    public var terms: [String]
}

public struct QueryAnalyzer: Sendable {
    public init() {}
    public func analyze(_ query: String) -> QueryAnalysis {
        let terms = FTSQuery.terms(query)
        return QueryAnalysis(
            original: query, cleaned: query.trimmingCharacters(in: .whitespacesAndNewlines), language: "en",
            keywords: terms, terms: terms)
    }
    public static func stem(_ word: String) -> String { word }
}
