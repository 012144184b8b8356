import Foundation

/// Fusion: from the two arms' candidates to the chosen hits (each arm's rank and score, the fused score, the
/// boosts, the threshold, the order, and the chunk that represents each hit).
extension Searcher {
    /// Every candidate's keyword evidence for its relevance and calibrated fusion: the keyword arm's bm25, and in
    /// calibrated fusion also that of the documents only the semantic arm returned (their best chunk's), so that
    /// no calibrated score depends on which other documents were candidates. In the other modes a document the
    /// keyword arm did not return has none: it matched no word, or (when the arm's pool is full) fewer than
    /// the pool's weakest.
    func keywordEvidence(
        _ plan: SearchPlan, _ first: FirstPass, keyword: [DocumentHit], bm25: [Int64: Float], state: StoreMemory.State
    ) -> [Int: Float] {
        guard plan.relevance != nil, let expression = plan.keyword else { return [:] }
        var scores: [Int: Float] = [:]
        for hit in keyword { scores[hit.slot] = hit.score }
        for hit in first.semantic where scores[hit.slot] == nil {
            if let score = bm25[hit.chunkID] { scores[hit.slot] = score }
        }
        return scores.mapValues {
            ScoreCalibration.keywordEvidence(
                bm25: $0, queryTerms: expression.alternatives, indexedChunks: state.liveRows)
        }
    }

    /// Fuses the two arms (or takes the one), adds the boosts, applies the threshold and picks each hit's chunk.
    func fuse(
        _ plan: SearchPlan, _ first: FirstPass, keyword: [DocumentHit], evidence keywordEvidence: [Int: Float],
        state: StoreMemory.State
    ) throws -> [Chosen] {
        var semanticBest: [Int: DocumentHit] = [:]
        for hit in first.semantic { semanticBest[hit.slot] = hit }
        // The exact best chunk of a document the semantic arm did not return (keyword-only candidates).
        if let query = plan.queryVector {
            for hit in keyword where semanticBest[hit.slot] == nil {
                semanticBest[hit.slot] = try state.exactBest(slot: hit.slot, query: query, shift: first.shift)
            }
        }
        func semanticHit(_ slot: Int) -> DocumentHit? { semanticBest[slot] }
        // The query's cosines over the store, against which a document's cosine stands out or not.
        let background =
            plan.relevance == nil
            ? nil : plan.queryVector.flatMap { state.background(query: $0, shift: first.shift) }
        // What the query's unmentioned names take from a hit's estimate (the relevance and the calibrated score).
        func penalty(_ slot: Int) -> Float {
            guard let relevance = plan.relevance, !relevance.unmentionedNames.isEmpty,
                let language = state.record(slot)?.language
            else { return 0 }
            return relevance.logOddsPenalty(language: language)
        }
        func evidence(slot: Int, cosine: Float) -> ScoreCalibration.Evidence {
            var standing: Float = 0
            if let background { standing = (cosine - background.mean) / max(background.deviation, 1e-3) }
            return ScoreCalibration.Evidence(cosine: cosine, standing: standing, keyword: keywordEvidence[slot] ?? 0)
        }

        let semantic = first.semantic.map { (slot: $0.slot, score: $0.score) }
        let keywordRanked = keyword.map { (slot: $0.slot, score: $0.score) }
        // One arm alone: its rank and score, and its score as the base.
        func alone(
            _ ranked: [(slot: Int, score: Float)], rank: WritableKeyPath<SearchHit.Explanation, Int?>,
            score: WritableKeyPath<SearchHit.Explanation, Float?>
        ) -> [FusedCandidate] {
            ranked.enumerated().map { position, entry in
                var candidate = FusedCandidate(slot: entry.slot)
                candidate.explanation[keyPath: rank] = position + 1
                candidate.explanation[keyPath: score] = entry.score
                candidate.explanation.baseScore = entry.score
                return candidate
            }
        }
        var candidates: [FusedCandidate]
        switch plan.kind {
        case .semantic:
            candidates = alone(semantic, rank: \.semanticRank, score: \.semanticScore)
        case .keyword:
            candidates = alone(keywordRanked, rank: \.keywordRank, score: \.keywordScore)
        case .hybrid:
            candidates = HybridFusion.fuse(
                semantic: semantic, keyword: keywordRanked, semanticScore: { semanticHit($0)?.score },
                fusion: plan.fusion, keywordComplete: keywordRanked.count < plan.pool,
                evidence: evidence, keywordStrength: { keywordEvidence[$0] }, logOddsPenalty: penalty)
        }

        // Boosts, threshold, order.
        candidates = candidates.compactMap { candidate in
            guard let record = state.record(candidate.slot) else { return nil }
            var boosted = candidate
            if let shift = first.shift, candidate.explanation.semanticScore != nil {
                boosted.explanation.languageShift = shift(candidate.slot)
            }
            Self.boost(&boosted.explanation, record: record, words: plan.boostWords, boosts: plan.boosts)
            return boosted
        }
        // Equal scores (a fusion that gives the semantic arm no weight, documents no keyword matched) are
        // ordered by meaning, then by slot so that the order is stable.
        candidates.sort { lhs, rhs in
            let l = lhs.explanation.finalScore
            let r = rhs.explanation.finalScore
            if l != r { return l > r }
            let ls = lhs.explanation.semanticScore ?? -.infinity
            let rs = rhs.explanation.semanticScore ?? -.infinity
            return ls != rs ? ls > rs : lhs.slot < rhs.slot
        }
        if let minScore = plan.minScore { candidates.removeAll { $0.explanation.finalScore < minScore } }
        // Each hit's estimated probability of relevance, from its own evidence whatever the mode ranked by.
        if let relevance = plan.relevance {
            for index in candidates.indices {
                guard let cosine = semanticHit(candidates[index].slot)?.score else { continue }
                let found = evidence(slot: candidates[index].slot, cosine: cosine)
                candidates[index].relevance = ScoreCalibration.sigmoid(
                    relevance.coefficients.logit(found) - penalty(candidates[index].slot))
                if plan.explain, candidates[index].explanation.evidence == nil {
                    candidates[index].explanation.evidence = found
                }
            }
        }
        if let minRelevance = plan.minRelevance {
            candidates.removeAll { ($0.relevance ?? minRelevance) < minRelevance }
        }

        // The chunk that represents each hit: the best semantic chunk, else the best keyword chunk.
        var keywordChunk: [Int: Int64] = [:]
        for hit in keyword { keywordChunk[hit.slot] = hit.chunkID }
        return candidates.prefix(plan.limit).compactMap { candidate in
            let slot = candidate.slot
            let semanticChunk = semanticHit(slot).map(\.chunkID).flatMap { $0 >= 0 ? $0 : nil }
            guard let record = state.record(slot), let chunkID = semanticChunk ?? keywordChunk[slot] else {
                return nil
            }
            return Chosen(candidate: candidate, record: record, chunkID: chunkID)
        }
    }

    /// Adds the tag, category and time nudges to `explanation` (its final score is the base score plus them): a
    /// tag or category matches when each of its words has the stem of a query word or of the app's hints (`words`,
    /// from ``Searcher/boostWords(_:query:boosts:)``), that is when the keyword index would match each of its words
    /// with one of them; the time when the record is dated in one the query names.
    static func boost(
        _ explanation: inout SearchHit.Explanation, record: DocumentRecord, words: BoostWords, boosts: Boosts
    ) {
        defer {
            explanation.finalScore =
                explanation.baseScore + (explanation.tagBoost + explanation.categoryBoost + explanation.timeBoost)
        }
        explanation.timeBoost = boosts.namedTime * words.times.weight(seconds: record.createdAt)
        func matches(_ label: String, _ stems: Set<String>) -> Bool {
            guard !stems.isEmpty else { return false }
            let words = FTSQuery.terms(label)
            return !words.isEmpty && words.allSatisfy { stems.contains(QueryAnalyzer.stem($0)) }
        }
        if boosts.perTag != 0 && boosts.maxTags > 0 {
            for tag in record.tags where matches(tag, words.tags) {
                explanation.matchedTags.append(tag)
                if explanation.matchedTags.count == boosts.maxTags { break }
            }
            explanation.tagBoost = boosts.perTag * Float(explanation.matchedTags.count)
        }
        if boosts.category != 0, let category = record.category, matches(category, words.category) {
            explanation.categoryBoost = boosts.category
        }
    }
}
