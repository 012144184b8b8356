import Foundation
import HushEmbedding

/// Turns a hit's evidence into an estimate of the probability that it is relevant to the query: the score of
/// the default hybrid search.
///
/// The evidence of one document (``Evidence``) does not depend on the other candidates, so the score means
/// the same whatever else the store returned:
/// - the document's semantic score: the cosine similarity of the query with its best chunk (for a document of
///   several chunks blended with its opening chunk's, 0.75 / 0.25);
/// - its standing: how many standard deviations that cosine lies above the query's mean cosine over the store
///   (a model's cosines sit higher or lower by domain and language; the standing does not);
/// - the keyword evidence, its bm25 as a fraction of the most that a query with that many terms can score in a
///   store of that size (``keywordEvidence(bm25:queryTerms:indexedChunks:)``, 0…1; 0 when no term matched).
///
/// The probability is the logistic of `intercept + cosine × a + standing × b + keyword × c + standing ×
/// keyword × d`, fitted once per model on labelled queries (Debian's translated man pages, half of the queries
/// of each language; the other half measures it: see docs/benchmarks.md's calibration table). A model without a table
/// falls back to the min-max fusion, whose scores are relative to the other candidates.
///
/// ```swift
/// if let calibration = store.scoreCalibration {
///     let evidence = ScoreCalibration.Evidence(cosine: 0.86, standing: 3.1, keyword: 0.4)
///     calibration.probability(evidence, language: "en")
/// }
/// ```
public struct ScoreCalibration: Sendable, Hashable, Codable {
    /// The fitted weights for the queries of one group of languages.
    public struct Coefficients: Sendable, Hashable, Codable {
        /// The log-odds when there is no evidence.
        public var intercept: Float
        /// Weight of the cosine similarity.
        public var cosine: Float
        /// Weight of the semantic standing: how many standard deviations the cosine lies above the query's
        /// mean cosine over the store.
        public var standing: Float
        /// Weight of the keyword evidence.
        public var keyword: Float
        /// Weight of standing × keyword evidence (both arms agreeing).
        public var product: Float

        /// Creates coefficients.
        public init(intercept: Float, cosine: Float, standing: Float, keyword: Float, product: Float) {
            self.intercept = intercept
            self.cosine = cosine
            self.standing = standing
            self.keyword = keyword
            self.product = product
        }

        /// The log-odds that a hit with this evidence is relevant.
        public func logit(_ evidence: Evidence) -> Float {
            intercept + cosine * evidence.cosine + standing * evidence.standing + keyword * evidence.keyword
                + product * evidence.standing * evidence.keyword
        }
    }

    /// What is known of one hit, none of it from the other candidates.
    public struct Evidence: Sendable, Hashable, Codable {
        /// The document's semantic score: its best chunk's cosine with the query (blended with its opening chunk's
        /// when it has several).
        public var cosine: Float
        /// `(cosine − mean) / deviation` of the query's cosines over the store (a sample of up to 1,024
        /// chunks): how far the document stands out from what this query scores against everything.
        public var standing: Float
        /// bm25 as a fraction of the most a query with as many terms can score in the store, 0…1.
        public var keyword: Float

        /// Creates evidence.
        public init(cosine: Float, standing: Float, keyword: Float) {
            self.cosine = cosine
            self.standing = standing
            self.keyword = keyword
        }
    }

    /// What the table was fitted for and on, shown by explain.
    public var name: String
    /// Coefficients for English (and undetermined) queries.
    public var english: Coefficients
    /// Coefficients for Chinese, Japanese and Korean queries.
    public var cjk: Coefficients
    /// Coefficients for queries in other languages.
    public var other: Coefficients
    /// A `minScore` for searches that should show nothing rather than a poor match: the highest threshold that
    /// kept 85 % of the correct first hits of the fitting queries, in the same language and across languages
    /// (see docs/benchmarks.md for what it keeps and rejects on the held-out queries). Searches apply no threshold
    /// unless given one: a paraphrase with no word in common with its answer, in a store of a few dozen entries,
    /// has little evidence and can score below it.
    public var recommendedMinScore: Float

    /// Creates a calibration.
    public init(name: String, english: Coefficients, cjk: Coefficients, other: Coefficients, recommendedMinScore: Float)
    {
        self.name = name
        self.english = english
        self.cjk = cjk
        self.other = other
        self.recommendedMinScore = recommendedMinScore
    }

    /// A calibration whose coefficients are the same for every language.
    public init(name: String, coefficients: Coefficients, recommendedMinScore: Float) {
        self.init(
            name: name, english: coefficients, cjk: coefficients, other: coefficients,
            recommendedMinScore: recommendedMinScore)
    }

    /// The coefficients for a query in `language` (an ISO 639-1 code or `und`; a longer tag such as `zh-Hans` counts
    /// as its primary code).
    public func coefficients(forLanguage language: String) -> Coefficients {
        switch LanguageTag.primary(language) {
        case "en", "und": english
        case "zh", "ja", "ko": cjk
        default: other
        }
    }

    /// The estimated probability that a hit with this evidence is relevant to a query in `language`, in 0…1.
    public func probability(_ evidence: Evidence, language: String) -> Float {
        Self.sigmoid(coefficients(forLanguage: language).logit(evidence))
    }

    static func sigmoid(_ logit: Float) -> Float {
        1 / (1 + Float(exp(Double(-logit))))
    }

    /// FTS5's bm25 constants (`k1`, `b` are SQLite's fixed values).
    static let bm25K1: Float = 1.2

    /// A document's bm25 as a fraction of the most a query of `queryTerms` terms can score in an index of
    /// `indexedChunks` rows: each term contributes at most `idf × (k1 + 1)`, and no idf exceeds that of a term
    /// found in one row, `ln((N − 0.5) / 1.5)` (at least 1, so that tiny stores do not inflate it). 0…1.
    ///
    /// ```swift
    /// ScoreCalibration.keywordEvidence(bm25: 6.2, queryTerms: 3, indexedChunks: 500)  // ≈ 0.15
    /// ```
    public static func keywordEvidence(bm25: Float, queryTerms: Int, indexedChunks: Int) -> Float {
        guard bm25 > 0, queryTerms > 0 else { return 0 }
        let rows = Double(max(indexedChunks, 1))
        let idf = max(1, log((rows - 0.5) / 1.5))
        let most = Double(queryTerms) * idf * Double(bm25K1 + 1)
        return Float(min(1, Double(bm25) / most))
    }
}

extension ScoreCalibration {
    /// The table shipped for the embedder that made `identity`'s vectors, or `nil` when Hush has none for it
    /// (its hybrid search then fuses by min-max normalisation).
    ///
    /// ```swift
    /// ScoreCalibration.builtIn(for: store.identity)?.recommendedMinScore
    /// ```
    public static func builtIn(for identity: EmbedderIdentity) -> ScoreCalibration? {
        switch identity.model {
        case "multilingual-e5-small": .multilingualE5Small
        case "all-MiniLM-L6-v2": .allMiniLML6v2
        case "hush-lexical-hashing-v1": .lexicalHashing
        default: nil
        }
    }
}
