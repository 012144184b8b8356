import Foundation

/// A document returned by ``HushStore/related(to:limit:minCosine:sameLanguage:filter:)`` or
/// ``HushStore/rank(liked:disliked:candidates:options:limit:)``, with why it is where it is.
///
/// ```swift
/// for item in try await store.related(to: "r-sleep", limit: 3) { print(item.id, item.score) }
/// ```
public struct RankedDocument: Sendable, Hashable, Codable, Identifiable {
    /// The document's id.
    public var id: String
    /// The ranking score: the cosine for related items; `alpha × similarity + (1 − alpha) × recency` for
    /// interest ranking; `nil` for a document kept in its original order (no liked item in its language).
    public var score: Float?
    /// Cosine similarity with the source document or the interest centroid, on document vectors centred on
    /// their language (`nil` when not compared).
    public var similarity: Float?
    /// The recency weight, `exp(−ln 2 × age / halfLife)` (interest ranking only).
    public var recency: Float?
    /// The document's title.
    public var title: String?
    /// The document's language.
    public var language: String
    /// The document's source type.
    public var sourceType: String?
    /// The document's tags.
    public var tags: [String]
    /// The document's category.
    public var category: String?
    /// When the document was created.
    public var createdAt: Date

    /// Creates a ranked document.
    public init(
        id: String, score: Float?, similarity: Float?, recency: Float?, title: String?, language: String,
        sourceType: String?, tags: [String], category: String?, createdAt: Date
    ) {
        self.id = id
        self.score = score
        self.similarity = similarity
        self.recency = recency
        self.title = title
        self.language = language
        self.sourceType = sourceType
        self.tags = tags
        self.category = category
        self.createdAt = createdAt
    }
}
