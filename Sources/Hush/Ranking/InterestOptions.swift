import Foundation

/// How ``HushStore/rank(liked:disliked:candidates:options:limit:)`` blends interest and recency.
///
/// ```swift
/// var options = InterestOptions(alpha: 0.7, halfLife: 7 * 86_400)
/// options.now = Date(timeIntervalSince1970: 1_767_225_600)  // fixed clock for tests
/// ```
public struct InterestOptions: Sendable, Hashable {
    /// Weight of the interest cosine; `1 − alpha` goes to recency. 0…1.
    public var alpha: Float
    /// Age (seconds) at which the recency weight falls to one half. Must be positive.
    public var halfLife: TimeInterval
    /// How much the mean of disliked documents is subtracted from the mean of liked ones (≥ 0).
    public var dislikedWeight: Float
    /// Whether liked and disliked documents may appear among the results.
    public var includeRated: Bool
    /// Skip liked, disliked and candidate ids that are not stored, listing them in
    /// ``InterestRanking/unknownIDs`` (the default: a feed whose old posts were pruned keeps ranking by the
    /// likes that remain); `false` throws ``RankingError/unknownDocument(id:)`` for the first instead.
    public var ignoreUnknownIDs: Bool
    /// The instant ages are measured from (`nil`: the current time).
    public var now: Date?
    /// Whether each language gets its own interest centroid (a document is scored only against likes in
    /// its language); `nil` decides by the model: off for a multilingual one, on otherwise.
    public var perLanguage: Bool?

    /// Creates options; defaults: `alpha` 0.8, half-life 14 days, disliked weight 0.5.
    public init(
        alpha: Float = 0.8, halfLife: TimeInterval = 14 * 86_400, dislikedWeight: Float = 0.5,
        includeRated: Bool = false, ignoreUnknownIDs: Bool = true, now: Date? = nil, perLanguage: Bool? = nil
    ) {
        self.alpha = alpha
        self.halfLife = halfLife
        self.dislikedWeight = dislikedWeight
        self.includeRated = includeRated
        self.ignoreUnknownIDs = ignoreUnknownIDs
        self.now = now
        self.perLanguage = perLanguage
    }
}

/// What ``HushStore/rank(liked:disliked:candidates:options:limit:)`` returns: the documents in order (it is a
/// collection of them) and the ids it was given that name no stored document, which it skipped.
///
/// ```swift
/// let feed = try await store.rank(liked: likedIDs, limit: 20)
/// for post in feed { print(post.id) }
/// if !feed.unknownIDs.isEmpty { forgetLikes(feed.unknownIDs) }  // pruned since they were liked
/// ```
public struct InterestRanking: RandomAccessCollection, Sendable, Hashable {
    /// The documents, best first.
    public var documents: [RankedDocument]
    /// The liked, disliked and candidate ids that named no stored document (distinct, in the order given).
    public var unknownIDs: [String]

    /// Creates a ranking.
    public init(documents: [RankedDocument], unknownIDs: [String] = []) {
        self.documents = documents
        self.unknownIDs = unknownIDs
    }

    public var startIndex: Int { documents.startIndex }
    public var endIndex: Int { documents.endIndex }
    public subscript(position: Int) -> RankedDocument { documents[position] }
}
