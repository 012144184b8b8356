import Foundation

/// A hit's one JSON shape, the library's `Codable` and `hush search --json` alike (docs/cli.md): `id`, `score`,
/// `title` (null without one), `text`, `chunk`, `field`, `range`, `passage_range`, `highlights`, `snippet`
/// (written, not read back: it is computed from the rest), `language`, `type`, `tags`, `category`, `created`,
/// `relevance` (null without one) and, when asked for, `explain`. Dates are written as the encoder's date
/// strategy says. A hit encoded before 0.3 (`chunkOrdinal`, `passageRange`, `sourceType`, `createdAt`,
/// `explanation`, camel-case explanation keys) decodes as well.
///
/// ```swift
/// let data = try JSONEncoder().encode(results.hits)
/// let hits = try JSONDecoder().decode([SearchHit].self, from: data)
/// ```
extension SearchHit {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: JSONKey.self)
        try container.encode(id, forKey: "id")
        try container.encode(score, forKey: "score")
        try container.encode(title, forKey: "title")
        try container.encode(text, forKey: "text")
        try container.encode(chunkOrdinal, forKey: "chunk")
        try container.encodeIfPresent(field, forKey: "field")
        try container.encode(range, forKey: "range")
        try container.encode(passageRange, forKey: "passage_range")
        try container.encode(highlights, forKey: "highlights")
        try container.encode(snippet().text, forKey: "snippet")
        try container.encode(language, forKey: "language")
        try container.encodeIfPresent(sourceType, forKey: "type")
        try container.encode(tags, forKey: "tags")
        try container.encodeIfPresent(category, forKey: "category")
        try container.encode(createdAt, forKey: "created")
        try container.encode(relevance, forKey: "relevance")
        try container.encodeIfPresent(explanation, forKey: "explain")
    }

    /// Decodes a hit of either shape; one encoded before hits carried ``highlights``, ``field`` or
    /// ``relevance`` decodes without.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: JSONKey.self)
        id = try container.decode(String.self, forKey: "id")
        score = try container.decode(Float.self, forKey: "score")
        title = try container.decodeIfPresent(String.self, forKey: "title")
        text = try container.decode(String.self, forKey: "text")
        chunkOrdinal = try container.decode(Int.self, forKey: "chunk", or: "chunkOrdinal")
        field = try container.decodeIfPresent(String.self, forKey: "field")
        range = try container.decode(Range<Int>.self, forKey: "range")
        passageRange = try container.decode(Range<Int>.self, forKey: "passage_range", or: "passageRange")
        highlights = try container.decodeIfPresent([Range<Int>].self, forKey: "highlights") ?? []
        sourceType = try container.decodeIfPresent(String.self, forKey: "type", or: "sourceType")
        language = try container.decode(String.self, forKey: "language")
        tags = try container.decode([String].self, forKey: "tags")
        category = try container.decodeIfPresent(String.self, forKey: "category")
        createdAt = try container.decode(Date.self, forKey: "created", or: "createdAt")
        relevance = try container.decodeIfPresent(Float.self, forKey: "relevance")
        explanation = try container.decodeIfPresent(Explanation.self, forKey: "explain", or: "explanation")
    }
}

/// An explanation's JSON: each arm's rank and scores (null outside it), `language_shift` when there is one,
/// `evidence` (`cosine`, `standing`, `keyword` and the `calibration` table's name) when there is some, the
/// boosts and the final score.
extension SearchHit.Explanation {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: JSONKey.self)
        try container.encode(semanticRank, forKey: "semantic_rank")
        try container.encode(semanticScore, forKey: "semantic_score")
        try container.encode(semanticNormalized, forKey: "semantic_normalized")
        try container.encodeIfPresent(languageShift, forKey: "language_shift")
        try container.encode(keywordRank, forKey: "keyword_rank")
        try container.encode(keywordScore, forKey: "keyword_score")
        try container.encode(keywordNormalized, forKey: "keyword_normalized")
        if let evidence {
            var nested = container.nestedContainer(keyedBy: JSONKey.self, forKey: "evidence")
            try nested.encode(evidence.cosine, forKey: "cosine")
            try nested.encode(evidence.standing, forKey: "standing")
            try nested.encode(evidence.keyword, forKey: "keyword")
            try nested.encodeIfPresent(calibration, forKey: "calibration")
        }
        try container.encode(baseScore, forKey: "base_score")
        try container.encode(matchedTags, forKey: "matched_tags")
        try container.encode(tagBoost, forKey: "tag_boost")
        try container.encode(categoryBoost, forKey: "category_boost")
        try container.encode(timeBoost, forKey: "time_boost")
        try container.encode(finalScore, forKey: "final_score")
    }

    /// Decodes an explanation of either shape (camel-case keys and a separate `calibration` before 0.3).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: JSONKey.self)
        var calibration = try container.decodeIfPresent(String.self, forKey: "calibration")
        var evidence: ScoreCalibration.Evidence?
        if container.contains("evidence"), try !container.decodeNil(forKey: "evidence") {
            let nested = try container.nestedContainer(keyedBy: JSONKey.self, forKey: "evidence")
            evidence = ScoreCalibration.Evidence(
                cosine: try nested.decode(Float.self, forKey: "cosine"),
                standing: try nested.decode(Float.self, forKey: "standing"),
                keyword: try nested.decode(Float.self, forKey: "keyword"))
            calibration = try nested.decodeIfPresent(String.self, forKey: "calibration") ?? calibration
        }
        self.init(
            semanticRank: try container.decodeIfPresent(Int.self, forKey: "semantic_rank", or: "semanticRank"),
            semanticScore: try container.decodeIfPresent(Float.self, forKey: "semantic_score", or: "semanticScore"),
            languageShift: try container.decodeIfPresent(Float.self, forKey: "language_shift", or: "languageShift"),
            semanticNormalized: try container.decodeIfPresent(
                Float.self, forKey: "semantic_normalized", or: "semanticNormalized"),
            keywordRank: try container.decodeIfPresent(Int.self, forKey: "keyword_rank", or: "keywordRank"),
            keywordScore: try container.decodeIfPresent(Float.self, forKey: "keyword_score", or: "keywordScore"),
            keywordNormalized: try container.decodeIfPresent(
                Float.self, forKey: "keyword_normalized", or: "keywordNormalized"),
            evidence: evidence, calibration: calibration,
            baseScore: try container.decode(Float.self, forKey: "base_score", or: "baseScore"),
            matchedTags: try container.decode([String].self, forKey: "matched_tags", or: "matchedTags"),
            tagBoost: try container.decode(Float.self, forKey: "tag_boost", or: "tagBoost"),
            categoryBoost: try container.decode(Float.self, forKey: "category_boost", or: "categoryBoost"),
            finalScore: try container.decode(Float.self, forKey: "final_score", or: "finalScore"),
            timeBoost: try container.decodeIfPresent(Float.self, forKey: "time_boost", or: "timeBoost") ?? 0)
    }
}

/// A JSON key named by a string literal.
struct JSONKey: CodingKey, ExpressibleByStringLiteral {
    let stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
    init(stringLiteral value: String) { stringValue = value }
}

extension KeyedDecodingContainer where Key == JSONKey {
    /// The value under `key`, or under its older name `older` when only that is there.
    func decode<T: Decodable>(_ type: T.Type, forKey key: JSONKey, or older: JSONKey) throws -> T {
        try decode(type, forKey: contains(key) || !contains(older) ? key : older)
    }

    /// The value under `key` or, when only that is there, its older name `older`; nil when neither holds one.
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: JSONKey, or older: JSONKey) throws -> T? {
        try decodeIfPresent(type, forKey: contains(key) || !contains(older) ? key : older)
    }
}
