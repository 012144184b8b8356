import Foundation

/// How a query is ranked: by meaning, by keywords, or by both fused.
///
/// ```swift
/// try await store.search("cheap flights", mode: .semantic)
/// try await store.search("cheap flights", mode: .hybrid(alpha: 0.8))
/// try await store.search("cheap flights", mode: .reciprocalRankFusion())
/// try await store.search("cheap flights", mode: .calibrated, minScore: 0.05)
/// ```
public struct SearchMode: Sendable, Hashable, Codable {
    /// Which arms run.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// Cosine similarity of the query vector with the chunk vectors: a document scores its best chunk, blended
        /// with its opening chunk when it has several (0.75 / 0.25).
        case semantic
        /// FTS5 bm25 over chunk text.
        case keyword
        /// Both arms, fused.
        case hybrid
    }

    /// How the two arms' scores are combined in hybrid search.
    public enum Fusion: Sendable, Hashable, Codable {
        /// The estimated probability that the hit is relevant (``ScoreCalibration``), from its own evidence
        /// alone (cosine, its standing over the store, keyword evidence): comparable across queries, so
        /// `minScore` can reject what does not fit. A model without a calibration table falls back to
        /// ``convexByModel(normalization:)`` with min-max normalisation. Not yet the default: its levels were
        /// fitted on stores of 200 technical pages and sit lower in a store of a few dozen short entries.
        case calibrated
        /// `alpha × semantic + (1 − alpha) × keyword`, each arm normalised over the candidate pool.
        case convex(alpha: Float, normalization: Normalization)
        /// A convex combination whose `alpha` follows how well the model knows the query's language
        /// (``HushStore/hybridAlpha(queryLanguage:)``, which gives the weights). The default. Scores are
        /// relative to the other candidates: the best scores 1 whatever the query.
        case convexByModel(normalization: Normalization)
        /// Reciprocal rank fusion: the sum over arms of `1 / (k + rank)`.
        case reciprocalRank(k: Int)
    }

    /// How one arm's scores are brought to a common scale before a convex combination.
    public enum Normalization: String, Sendable, Hashable, Codable {
        /// `(s − min) / (max − min)` over the candidates. When the keyword arm returned every match (fewer than
        /// its pool), its `min` is 0, the bm25 of a document that matched no word, so its weakest match still
        /// counts.
        case minMax
        /// The logistic of the z-score over the candidates, in (0, 1).
        case zScore
    }

    /// Which arms run.
    public var kind: Kind
    /// How hybrid scores are fused (ignored by the single-arm modes).
    public var fusion: Fusion
    /// How many documents each arm contributes to the fusion pool (at least the requested limit).
    public var candidates: Int
    /// Search as you type: the query is being typed, so its last word, unless a space or punctuation follows
    /// it, may be the start of a longer word. When no indexed word is that word exactly, the keyword arm also
    /// matches it as the start of longer words (`insom` finds `insomnia`), and the semantic arm embeds only the
    /// words before it (a keyword search alone when there are none). A last word the index holds as it is
    /// (`insomnia`) is searched exactly as without this option, so the ranking with the whole word typed is the
    /// same. One-character words and CJK text are searched as always (their bigrams match as they grow).
    public var asYouType: Bool
    /// Search across the languages of the store (on by default): with a multilingual model, in a store of two
    /// languages or more, the documents of the store's other languages are lifted toward the query's own by the
    /// part of their cosine the model gives by language alone, as far as the query's language holds as many
    /// documents as the largest other (``SearchHit/Explanation/languageShift``). A Chinese query then finds the
    /// English entry about sleep, while a store where the query's language is a small minority keeps its own documents
    /// first. Measured (docs/feed-quality.md, "Search across languages"): man pages half English, half Chinese,
    /// hybrid nDCG@10 0.585 → 0.674 for English queries and 0.457 → 0.573 for Chinese (a third each in English,
    /// Chinese and German: 0.544 → 0.644, 0.344 → 0.476, 0.393 → 0.536); 611 Chinese descriptions
    /// among 10,000 English, English queries for the Chinese descriptions 0.252 → 0.351, Chinese queries and
    /// English queries for English descriptions unchanged. Off (``withRawCosines``), semantic scores are the
    /// model's cosines as they are, which favour documents in the query's language; to keep a search to one
    /// language, filter by it (``SearchFilter/languages``).
    public var acrossLanguages: Bool

    /// Creates a mode.
    public init(
        kind: Kind, fusion: Fusion = .convexByModel(normalization: .minMax), candidates: Int = 100,
        asYouType: Bool = false, acrossLanguages: Bool = true
    ) {
        self.kind = kind
        self.fusion = fusion
        self.candidates = candidates
        self.asYouType = asYouType
        self.acrossLanguages = acrossLanguages
    }

    /// This mode scoring by the model's cosines as they are, which favour documents in the query's language
    /// (``acrossLanguages`` off).
    ///
    /// ```swift
    /// let hits = try await store.search("失眠怎么办", mode: .hybrid.withRawCosines, limit: 10)
    /// ```
    public var withRawCosines: SearchMode {
        var mode = self
        mode.acrossLanguages = false
        return mode
    }

    /// This mode for a search field that searches on every keystroke (``asYouType``).
    ///
    /// ```swift
    /// let hits = try await store.search(field.text, mode: .hybrid.whileTyping, limit: 8)
    /// ```
    public var whileTyping: SearchMode {
        var mode = self
        mode.asYouType = true
        return mode
    }

    enum CodingKeys: String, CodingKey {
        case kind, fusion, candidates, asYouType, acrossLanguages
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            kind: try container.decode(Kind.self, forKey: .kind),
            fusion: try container.decode(Fusion.self, forKey: .fusion),
            candidates: try container.decode(Int.self, forKey: .candidates),
            // Modes written before search as you type existed did not have it.
            asYouType: try container.decodeIfPresent(Bool.self, forKey: .asYouType) ?? false,
            // A mode written without it gets the default, as a search that does not mention it.
            acrossLanguages: try container.decodeIfPresent(Bool.self, forKey: .acrossLanguages) ?? true)
    }

    /// Meaning only.
    public static let semantic = SearchMode(kind: .semantic)
    /// Keywords only (bm25).
    public static let keyword = SearchMode(kind: .keyword)
    /// Both, by a min-max normalised convex combination whose weight on the semantic arm follows the model and
    /// the query's language (``Fusion/convexByModel(normalization:)``; the default). Its best hit scores 1
    /// whatever the query: use ``calibrated`` for a score that a threshold can cut.
    public static let hybrid = SearchMode(kind: .hybrid)

    /// Both, scored by the estimated probability that the hit is relevant (``Fusion/calibrated``), comparable
    /// across queries, so that `minScore` rejects what fits no better than chance.
    public static let calibrated = SearchMode(kind: .hybrid, fusion: .calibrated)

    /// Both, by a convex combination weighting the semantic arm by `alpha` (0…1).
    public static func hybrid(alpha: Float, normalization: Normalization = .minMax, candidates: Int = 100)
        -> SearchMode
    {
        SearchMode(kind: .hybrid, fusion: .convex(alpha: alpha, normalization: normalization), candidates: candidates)
    }

    /// Both, by reciprocal rank fusion with constant `k` (60 by convention).
    public static func reciprocalRankFusion(k: Int = 60, candidates: Int = 100) -> SearchMode {
        SearchMode(kind: .hybrid, fusion: .reciprocalRank(k: k), candidates: candidates)
    }
}

/// Small score nudges for documents whose tags or category name what the query asks for, or what the app
/// names for this search, or that are dated in a time the query names ("in March", "last week"). Never a gate.
///
/// A tag (or the category) matches when each of its words is one the keyword index matches with a word of the
/// query, or of the app's hints: the same stem (``QueryAnalyzer/stem(_:)``), so "Cafés" matches the query
/// "cafe" and "meetings" the query "meeting", in any language.
///
/// ```swift
/// let results = try await store.search("budget", boosts: Boosts(perTag: 0.05, category: 0.1))
/// // The journal's own guesses for this worry (keywords from NLTagger, a category from its classifier):
/// let hinted = try await store.search(
///     "I can't stop thinking about her", boosts: Boosts(hintedTags: ["breakup"], hintedCategory: "relationships"))
/// // "in March" puts the records dated in March (their `createdAt`) first among those about the offsite:
/// let march = try await store.search("where was the offsite in March?")
/// // "last week" as of a year ago:
/// let asOf = try await store.search(
///     "what did we decide last week?", boosts: Boosts(today: Date(timeIntervalSinceNow: -365 * 86_400)))
/// ```
public struct Boosts: Sendable, Hashable, Codable {
    /// Added once per matching tag.
    public var perTag: Float
    /// At most this many tags count.
    public var maxTags: Int
    /// Added when the category matches.
    public var category: Float
    /// Tags the app names for this search, beside the query's words: its own guess of the topic, or a chip the
    /// person tapped. A document carrying one of them gets ``perTag`` as if the query had named it.
    public var hintedTags: [String]
    /// A category the app names for this search (its classifier's guess): a document in it gets ``category``
    /// as if the query had named it.
    public var hintedCategory: String?
    /// Added when the query names a time the document is dated in (its ``Document/createdAt``: a record dated
    /// by its day alone is on that day, one dated by a moment on the device's day of it): a month ("in March", in
    /// any year, or in the year named beside it: "March 2025"; in English, German, French, Spanish, Italian or
    /// Portuguese, an English abbreviation, "my feb 1:1", or "3月"); the start or the end of a year ("at the start
    /// of the year": January and February); a year alone ("in 2025"); or a time relative to ``today``
    /// ("yesterday", "last week": Monday to Sunday, "this month", "two weeks ago", "the past three days", "letzte
    /// Woche", "la semaine dernière", "上个月"): four times as much for a week or a day, twice for a month relative
    /// to today. Set it to 0 where a document's date says nothing of what a query's times mean: readings added
    /// over months, searched with worries such as "my dog died last week".
    public var namedTime: Float
    /// The moment "today", "last week" and the other relative times are read from, on the device's calendar day
    /// in its time zone; `nil`, the default, is the moment of the search. Set it to search as of another day
    /// ("what did we decide last week" in a journal read back a year later).
    public var today: Date?

    /// Creates boosts.
    public init(
        perTag: Float = 0.03, maxTags: Int = 3, category: Float = 0.05, hintedTags: [String] = [],
        hintedCategory: String? = nil, namedTime: Float = 0.05, today: Date? = nil
    ) {
        self.perTag = perTag
        self.maxTags = maxTags
        self.category = category
        self.hintedTags = hintedTags
        self.hintedCategory = hintedCategory
        self.namedTime = namedTime
        self.today = today
    }

    /// Decodes boosts; the hints are optional (boosts encoded before they existed have none).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        perTag = try container.decode(Float.self, forKey: .perTag)
        maxTags = try container.decode(Int.self, forKey: .maxTags)
        category = try container.decode(Float.self, forKey: .category)
        hintedTags = try container.decodeIfPresent([String].self, forKey: .hintedTags) ?? []
        hintedCategory = try container.decodeIfPresent(String.self, forKey: .hintedCategory)
        namedTime = try container.decodeIfPresent(Float.self, forKey: .namedTime) ?? Self.default.namedTime
        today = try container.decodeIfPresent(Date.self, forKey: .today)
    }

    /// `+0.03` per matching tag (up to 3), `+0.05` for a matching category, `+0.05` for the time named.
    public static let `default` = Boosts()
    /// No boosts.
    public static let none = Boosts(perTag: 0, maxTags: 0, category: 0, namedTime: 0)
}
