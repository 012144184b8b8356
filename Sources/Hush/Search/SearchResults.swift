import Foundation

/// One document found by a search, with its best-matching chunk.
///
/// ```swift
/// for hit in try await store.search("travel budget").hits {
///     print(hit.id, hit.score, hit.passage)
/// }
/// ```
public struct SearchHit: Sendable, Hashable, Codable, Identifiable {
    /// Why a hit scored what it did: each arm's rank and score, the boosts, the final score.
    public struct Explanation: Sendable, Hashable, Codable {
        /// 1-based rank in the semantic arm's candidate pool (`nil` if outside the pool).
        public var semanticRank: Int?
        /// The document's semantic score: the best chunk's cosine with the query, blended with the opening chunk's
        /// (0.75 / 0.25) for a document of several chunks, less ``languageShift`` (`nil` in keyword mode).
        public var semanticScore: Float?
        /// What was taken off the semantic score for the part of the cosine the model gives by the document's
        /// language rather than its meaning (``SearchMode/acrossLanguages``, with a multilingual model in a store
        /// of several languages): 0 for documents in the query's language, negative (a lift) for the others, by
        /// the query's dot product with its own language's centre less the document's, times the query language's
        /// documents against the largest other language's (at most 1). `nil` when there is no shift (a search
        /// with raw cosines, one language, a document of undetermined language, or a model that is not
        /// multilingual).
        public var languageShift: Float?
        /// The semantic score after normalisation (hybrid convex fusion only).
        public var semanticNormalized: Float?
        /// 1-based rank in the keyword arm (`nil` when no query keyword matched).
        public var keywordRank: Int?
        /// bm25 relevance of the best chunk, larger is better (`nil` when no keyword matched).
        public var keywordScore: Float?
        /// The keyword score after normalisation (hybrid convex fusion only), weighed by the match's strength: a
        /// match whose keyword evidence is below 0.15 counts in proportion to it.
        public var keywordNormalized: Float?
        /// What the calibrated score and the hit's ``SearchHit/relevance`` were computed from: the cosine, how
        /// far it stands above the query's cosines over the store, and the keyword evidence (`nil` in keyword
        /// mode and for a model without a calibration table).
        public var evidence: ScoreCalibration.Evidence?
        /// The calibration table that turned the evidence into the hit's ``SearchHit/relevance`` (and, in calibrated
        /// fusion, into `baseScore`).
        public var calibration: String?
        /// The score before boosts.
        public var baseScore: Float
        /// The tags that matched query keywords.
        public var matchedTags: [String]
        /// Added for matching tags.
        public var tagBoost: Float
        /// Added for a matching category.
        public var categoryBoost: Float
        /// `baseScore + tagBoost + categoryBoost + timeBoost`.
        public var finalScore: Float
        /// Added because the document is dated in a time the query names, "in March" or "last week"
        /// (``Boosts/namedTime``).
        public var timeBoost: Float = 0
    }

    /// The document's id.
    public var id: String
    /// The ranking score (its meaning depends on the mode; see ``SearchResults``).
    public var score: Float
    /// The document's title.
    public var title: String?
    /// The best-matching chunk's text, as the person wrote it: the links and @mentions that the model read as
    /// `[link]` and `@user` are shown as they were written.
    public var text: String
    /// The ordinal of that chunk within the document.
    public var chunkOrdinal: Int
    /// The label of the document's labelled field that chunk holds (`Location` for a meeting's "Location:
    /// Room 4B"), when the hit is that field; `nil` when it is the title and body. The field's line is the
    /// hit's ``passage``.
    public var field: String?
    /// The UTF-16 offsets of the chunk's passage in the document's cleaned body (its body and quoted text
    /// after ``TextCleaner``), for showing where in the document the hit lies. `text` holds more than the
    /// passage when the document has a title (the first chunk starts with it): ``passageRange`` is where the
    /// passage lies in `text`. Empty for a chunk made of the title alone and for a field's chunk (whose
    /// ``passageRange`` is its field line), and in stores written before 0.3, where a record's fields
    /// followed its last passage, for a chunk of the fields alone.
    public var range: Range<Int>
    /// The UTF-16 offsets of the same passage in ``text``: `text`'s UTF-16 units in `passageRange` are the
    /// cleaned body's in ``range``, with any link or @mention in it as written. For a field's chunk
    /// (``field``), its `Label: value` line, after the record's heading.
    public var passageRange: Range<Int>
    /// The UTF-16 offsets in ``text`` of the words the query's keywords match, as the keyword index matches
    /// them (the same stem, a Chinese or Thai word's letter pairs; see ``snippet(maxLength:)``), in order and apart
    /// from each other. Empty when none does: a hit found by meaning alone.
    public var highlights: [Range<Int>] = []
    /// The document's source type.
    public var sourceType: String?
    /// The document's language.
    public var language: String
    /// The document's tags.
    public var tags: [String]
    /// The document's category.
    public var category: String?
    /// When the document was created.
    public var createdAt: Date
    /// The estimated probability that the document answers the query, 0…1, comparable across queries and
    /// modes: the store's model's calibration table (``ScoreCalibration``) applied to this hit's own evidence
    /// (its cosine, how far that stands above the query's cosines over the store, and its keyword evidence:
    /// the keyword arm's bm25, none for a document the arm did not return; in semantic mode none at all).
    /// `nil` in keyword mode and for a model without a table. The hit is a good match when it reaches
    /// ``SearchResults/goodMatchThreshold``.
    ///
    /// ```swift
    /// let hits = try await store.search("capital of Peru").hits
    /// hits.first?.relevance  // 0.02: nothing in the planner answers it
    /// ```
    public var relevance: Float?
    /// Score details, when the search asked for them.
    public var explanation: Explanation?

    /// The passage of the document this hit found, without the title or fields the chunk was embedded with:
    /// the text to show under the hit's title. A chunk of the title or the fields alone gives its whole
    /// ``text``.
    ///
    /// ```swift
    /// for hit in try await store.search("when is my dentist appointment").hits {
    ///     print(hit.title ?? hit.id, "—", hit.passage)
    /// }
    /// ```
    public var passage: String {
        let units = text.utf16
        guard !passageRange.isEmpty, passageRange.lowerBound >= 0, passageRange.upperBound <= units.count,
            let start = units.index(units.startIndex, offsetBy: passageRange.lowerBound).samePosition(in: text),
            let end = units.index(units.startIndex, offsetBy: passageRange.upperBound).samePosition(in: text)
        else { return text }
        return String(text[start..<end])
    }
}

/// What a search returns: the hits, best first, and where the time went.
///
/// Scores: hybrid (the default, min-max convex), 0…1 relative to the other candidates (the best scores 1);
/// calibrated, the estimated probability that the hit is relevant (0…1, comparable across queries; see
/// ``ScoreCalibration``); semantic mode, cosine similarity (−1…1); keyword mode, bm25 relevance (≥ 0,
/// unbounded); hybrid RRF, the sum of `1/(k + rank)`; each plus boosts.
public struct SearchResults: Sendable, Hashable, Codable {
    /// Milliseconds spent per stage.
    public struct Timings: Sendable, Hashable, Codable {
        /// Embedding the query (0 when it came from the cache).
        public var embedMs: Double
        /// Filtering, scanning, keyword search, fusion and loading the hits.
        public var searchMs: Double
        /// The whole call.
        public var totalMs: Double
    }

    /// The query as given.
    public var query: String
    /// The hits, best first.
    public var hits: [SearchHit]
    /// Where the time went.
    public var timings: Timings
    /// The ``SearchHit/relevance`` from which a hit is a good match: the model's calibration table's
    /// ``ScoreCalibration/recommendedMinScore`` (0.089 for multilingual-e5-small in English). `nil` when the
    /// hits carry no relevance (keyword mode, a model without a table), and in a store of fewer than 100 chunks,
    /// too few to tell how far a hit stands out from the rest: there any hit counts as a good match.
    public var goodMatchThreshold: Float?
    /// The names the query gives (words written with a capital and small letters mid-sentence) that nothing in
    /// the store mentions: no chunk holds them. Each makes every hit's ``SearchHit/relevance`` less likely (its odds
    /// divided by 8), so that "What did we agree about the Munich office?" is no good match in notes about the
    /// Berlin office, and an app can say why. Empty when there are none, for a query in German (which capitalises
    /// every noun), and when the hits carry no relevance.
    ///
    /// ```swift
    /// let results = try await store.search("Who is presenting at the Web Summit?")
    /// if !results.goodMatch, let name = results.unmentionedNames.first {
    ///     showEmptyState("Nothing in your notes mentions \(name).")
    /// }
    /// ```
    public var unmentionedNames: [String]

    /// Whether the best hit is a good match for the query: its ``SearchHit/relevance`` reaches
    /// ``goodMatchThreshold``. A search that found nothing has none; a hit without a relevance (keyword mode,
    /// a model without a calibration table) counts as one, since its words matched. On the planner set of
    /// docs/benchmarks.md it is false for questions nothing in the store answers ("What is the capital of
    /// Peru?") and true for those one record answers.
    ///
    /// ```swift
    /// let results = try await store.search("when is the mobile app launching?")
    /// if !results.goodMatch { showEmptyState("Nothing in your notes answers that.") }
    /// ```
    public var goodMatch: Bool {
        guard let first = hits.first else { return false }
        return Self.isGood(first, threshold: goodMatchThreshold)
    }

    /// The hits that are good matches (every hit when they carry no relevance), best first: what a summary
    /// or a language model's context is made of.
    ///
    /// ```swift
    /// let answers = try await store.search("who is booking the train?").goodMatches
    /// ```
    public var goodMatches: [SearchHit] {
        hits.filter { Self.isGood($0, threshold: goodMatchThreshold) }
    }

    private static func isGood(_ hit: SearchHit, threshold: Float?) -> Bool {
        guard let relevance = hit.relevance, let threshold else { return true }
        return relevance >= threshold
    }

    init(query: String, hits: [SearchHit], timings: Timings, goodMatchThreshold: Float?, unmentionedNames: [String]) {
        self.query = query
        self.hits = hits
        self.timings = timings
        self.goodMatchThreshold = goodMatchThreshold
        self.unmentionedNames = unmentionedNames
    }

    private enum CodingKeys: String, CodingKey {
        case query, hits, timings, goodMatchThreshold, unmentionedNames
    }

    /// Decodes results; results encoded before they carried their query, threshold or unmentioned names decode
    /// without them.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        query = try container.decodeIfPresent(String.self, forKey: .query) ?? ""
        hits = try container.decode([SearchHit].self, forKey: .hits)
        timings = try container.decode(Timings.self, forKey: .timings)
        goodMatchThreshold = try container.decodeIfPresent(Float.self, forKey: .goodMatchThreshold)
        unmentionedNames = try container.decodeIfPresent([String].self, forKey: .unmentionedNames) ?? []
    }
}
