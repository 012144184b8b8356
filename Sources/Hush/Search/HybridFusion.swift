import Foundation

/// One document in a fused ranking: its slot and its explanation so far, each arm's rank and score and the
/// fused score (`baseScore`); the boosts are added after fusion, and the explanation leaves the store with its
/// ``SearchHit`` when asked for.
struct FusedCandidate {
    var slot: Int
    var explanation = SearchHit.Explanation()
    /// The estimated probability that the document is relevant (``SearchHit/relevance``).
    var relevance: Float?
}

extension SearchHit.Explanation {
    /// An explanation with nothing found yet.
    init() {
        self.init(
            semanticRank: nil, semanticScore: nil, languageShift: nil, semanticNormalized: nil, keywordRank: nil,
            keywordScore: nil, keywordNormalized: nil, evidence: nil, calibration: nil, baseScore: 0, matchedTags: [],
            tagBoost: 0, categoryBoost: 0, finalScore: 0)
    }
}

/// A search's fusion with every choice the store makes already made: the semantic weight for the query's
/// language (``SearchMode/Fusion/convexByModel(normalization:)``), the calibration table's coefficients for it
/// (``SearchMode/Fusion/calibrated``, or the model's weight by min-max when Hush has no table for the model).
/// Resolved once per search, so fusion itself never guesses.
enum ResolvedFusion: Equatable {
    case convex(alpha: Float, normalization: SearchMode.Normalization)
    case reciprocalRank(k: Int)
    case calibrated(ScoreCalibration.Coefficients)

    /// `fusion` resolved for a query in `queryLanguage` with `embedder`, and the calibration table's name when
    /// it is calibrated.
    static func resolve(_ fusion: SearchMode.Fusion, embedder: any Embedder, queryLanguage: String) -> (
        ResolvedFusion, calibrationName: String?
    ) {
        switch fusion {
        case .calibrated:
            guard let table = ScoreCalibration.builtIn(for: embedder.identity) else {
                return (
                    .convex(alpha: embedder.defaultHybridAlpha(queryLanguage: queryLanguage), normalization: .minMax),
                    nil
                )
            }
            return (.calibrated(table.coefficients(forLanguage: queryLanguage)), table.name)
        case .convexByModel(let normalization):
            return (
                .convex(alpha: embedder.defaultHybridAlpha(queryLanguage: queryLanguage), normalization: normalization),
                nil
            )
        case .convex(let alpha, let normalization):
            return (.convex(alpha: alpha, normalization: normalization), nil)
        case .reciprocalRank(let k):
            return (.reciprocalRank(k: k), nil)
        }
    }
}

/// Combines the semantic and keyword arms of a hybrid search.
enum HybridFusion {
    /// Fuses two ranked candidate lists (best first, `(slot, score)`).
    ///
    /// `semanticScore` gives the exact semantic score of any document (the scan scored them all), so a
    /// document found only by keywords still gets its true semantic score rather than a guess. A document
    /// that no keyword matched gets keyword score 0 after normalisation. When the keyword arm found
    /// nothing, the semantic arm alone decides (its weight becomes 1), and vice versa.
    ///
    /// `keywordComplete` says that the keyword arm returned every document that matched (fewer than its pool
    /// size). Min-max then runs the keyword arm from "no match" (bm25 0), so its weakest match still counts;
    /// in a full pool the weakest candidate is only where the list was cut, hardly better than the unseen
    /// matches below it, and min-max runs from it.
    ///
    /// With `.calibrated`, its coefficients are those of the query's language and `evidence` gives any
    /// candidate's evidence from its slot and cosine; each candidate then scores the probability that it
    /// is relevant, from its own evidence only.
    ///
    /// With convex fusion, `keywordStrength` gives a keyword candidate's evidence (0…1, as the calibration
    /// reads it; `nil` when unknown): a match weaker than ``strongKeywordEvidence`` counts in proportion.
    ///
    /// - Complexity: O(c log c) for c candidates.
    static func fuse(
        semantic: [(slot: Int, score: Float)], keyword: [(slot: Int, score: Float)],
        semanticScore: (Int) -> Float?, fusion: ResolvedFusion, keywordComplete: Bool = false,
        evidence: (_ slot: Int, _ cosine: Float) -> ScoreCalibration.Evidence? = { _, _ in nil },
        keywordStrength: (_ slot: Int) -> Float? = { _ in nil }, logOddsPenalty: (_ slot: Int) -> Float = { _ in 0 }
    ) -> [FusedCandidate] {
        var bySlot: [Int: FusedCandidate] = [:]
        var order: [Int] = []
        func touch(_ slot: Int) {
            if bySlot[slot] == nil {
                bySlot[slot] = FusedCandidate(slot: slot)
                order.append(slot)
            }
        }
        for (rank, entry) in semantic.enumerated() {
            touch(entry.slot)
            bySlot[entry.slot]?.explanation.semanticRank = rank + 1
            bySlot[entry.slot]?.explanation.semanticScore = entry.score
        }
        for (rank, entry) in keyword.enumerated() {
            touch(entry.slot)
            bySlot[entry.slot]?.explanation.keywordRank = rank + 1
            bySlot[entry.slot]?.explanation.keywordScore = entry.score
        }
        for slot in order where bySlot[slot]?.explanation.semanticScore == nil {
            bySlot[slot]?.explanation.semanticScore = semanticScore(slot)
        }

        switch fusion {
        case .calibrated(let calibration):
            for slot in order {
                guard let explanation = bySlot[slot]?.explanation,
                    let found = evidence(slot, explanation.semanticScore ?? 0)
                else { continue }
                bySlot[slot]?.explanation.evidence = found
                bySlot[slot]?.explanation.baseScore = ScoreCalibration.sigmoid(
                    calibration.logit(found) - logOddsPenalty(slot))
            }
        case .reciprocalRank(let k):
            let constant = Float(k)
            for slot in order {
                guard let explanation = bySlot[slot]?.explanation else { continue }
                var score: Float = 0
                if let rank = explanation.semanticRank { score += 1 / (constant + Float(rank)) }
                if let rank = explanation.keywordRank { score += 1 / (constant + Float(rank)) }
                bySlot[slot]?.explanation.baseScore = score
            }
        case .convex(let alpha, let normalization):
            let semanticValues = order.compactMap { bySlot[$0]?.explanation.semanticScore }
            let keywordValues = keyword.map(\.score)
            let semanticNormalize = normalizer(semanticValues, normalization)
            let keywordNormalize = normalizer(keywordValues, normalization, noMatch: keywordComplete ? 0 : nil)
            let semanticWeight: Float
            if keywordValues.isEmpty {
                semanticWeight = 1
            } else if semanticValues.isEmpty {
                semanticWeight = 0
            } else {
                semanticWeight = min(1, max(0, alpha))
            }
            for slot in order {
                guard var explanation = bySlot[slot]?.explanation else { continue }
                let s = explanation.semanticScore.map(semanticNormalize) ?? 0
                var k = explanation.keywordScore.map(keywordNormalize) ?? 0
                if let strength = keywordStrength(slot) { k *= min(1, strength / Self.strongKeywordEvidence) }
                explanation.semanticNormalized = explanation.semanticScore == nil ? nil : s
                explanation.keywordNormalized = explanation.keywordScore == nil ? nil : k
                explanation.baseScore = semanticWeight * s + (1 - semanticWeight) * k
                bySlot[slot]?.explanation = explanation
            }
        }
        return order.compactMap { bySlot[$0] }
    }

    /// The keyword evidence (``ScoreCalibration/keywordEvidence(bm25:queryTerms:indexedChunks:)``) from which a
    /// keyword match counts in full in convex fusion; a weaker one counts in proportion. Min-max makes the best
    /// keyword match 1 however weak it is, so one common word of a worry ("feel", "heart") shared with a short
    /// reading of another subject overturned a near tie in meaning. Measured on the journal set
    /// (`scripts/bench/journal-close-calls.py`) and checked on the man pages and held-out Debian descriptions
    /// (docs/benchmarks.md, "Close calls in a journal").
    static let strongKeywordEvidence: Float = 0.15

    /// A spread of scores smaller than this, relative to their magnitude (at least 1), is float noise, not a
    /// difference: f32 dot products of equal texts differ in the last bits, and stretching that to 0…1 would
    /// split identical documents.
    static let noiseTolerance: Float = 1e-4

    /// A function mapping raw scores of one arm to 0…1. Scores that differ by no more than
    /// ``noiseTolerance`` all map to 1 (min-max) or 0.5 (z-score): equal inputs give equal outputs.
    ///
    /// `noMatch` is the score of a document the arm did not find, when the arm has one (bm25: 0). Min-max then
    /// runs from it rather than from the weakest candidate, so the last keyword match still counts: with three
    /// matches at bm25 6, 3 and 1.5, they map to 1, 0.5 and 0.25 (without it, to 1, 0.33 and 0, the same as a
    /// document that matched no word).
    static func normalizer(
        _ values: [Float], _ normalization: SearchMode.Normalization, noMatch: Float? = nil
    ) -> (Float) -> Float {
        guard var low = values.min(), let high = values.max() else { return { _ in 0 } }
        if normalization == .minMax, let noMatch { low = min(low, noMatch) }
        let noise = noiseTolerance * max(1, abs(low), abs(high))
        switch normalization {
        case .minMax:
            let span = high - low
            guard span > noise else { return { _ in 1 } }
            return { min(1, max(0, ($0 - low) / span)) }
        case .zScore:
            let count = Float(values.count)
            let mean = values.reduce(0, +) / count
            let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / count
            let deviation = variance.squareRoot()
            guard deviation > noise else { return { _ in 0.5 } }
            return { 1 / (1 + Float(exp(Double(-($0 - mean) / deviation)))) }
        }
    }
}
