import Foundation

extension HushStore {
    /// Finds the documents that best match `query`.
    ///
    /// Filters are applied before ranking, so the hits are the top `limit` of the matching documents (never
    /// fewer when that many match). Semantic search goes through the store's index (``StoreStats/index``):
    /// an exact scan of every chunk vector below 20 000 vectors, else an HNSW graph or int8/binary codes with
    /// exact rescoring (approximate; scores are exact cosines); keyword search uses FTS5 bm25 with
    /// a query built so that no input can be a syntax error; hybrid fuses both (see ``SearchMode``).
    /// Each document appears once, represented by its best chunk.
    ///
    /// ```swift
    /// let results = try await store.search("how much did we spend on travel?",
    ///                                      filter: SearchFilter(tagsAny: ["finance"]), limit: 5, explain: true)
    /// for hit in results.hits { print(hit.id, hit.score, hit.explanation?.keywordRank ?? 0) }
    /// ```
    ///
    /// - Complexity: exact: O(chunks × dimension) for the semantic scan (one vectorised pass); HNSW: about
    ///   O(ef × log chunks × dimension); int8/binary: O(chunks × code bytes); plus the FTS5 query, plus
    ///   O(documents) for the filter.
    public func search(
        _ query: String, mode: SearchMode = .hybrid, filter: SearchFilter = .init(), limit: Int = 10,
        minScore: Float? = nil, boosts: Boosts = .default, explain: Bool = false
    ) async throws -> SearchResults {
        let clock = ContinuousClock()
        let started = clock.now
        guard limit > 0 else { throw SearchError.invalidLimit(limit) }
        if let minScore, minScore.isNaN { throw SearchError.invalidFusion("minScore is NaN: give a number") }
        guard mode.candidates > 0 else { throw SearchError.invalidLimit(mode.candidates) }
        let limit = clampedLimit(limit)
        switch mode.fusion {
        case .convex(let alpha, _) where !(0...1).contains(alpha) || alpha.isNaN:
            throw SearchError.invalidFusion("alpha must lie in 0…1 (got \(alpha))")
        case .reciprocalRank(let k) where k <= 0:
            throw SearchError.invalidFusion("the RRF constant k must be positive (got \(k))")
        default:
            break
        }

        let analysis = analyze(query)
        var mode = mode
        var calibration: ScoreCalibration.Coefficients?
        var calibrationName: String?
        if mode.fusion == .calibrated {
            if let table = scoreCalibration {
                calibration = table.coefficients(forLanguage: analysis.language)
                calibrationName = table.name
            } else {
                mode.fusion = .convexByModel(normalization: .minMax)
            }
        }
        if case .convexByModel(let normalization) = mode.fusion {
            mode.fusion = .convex(alpha: hybridAlpha(queryLanguage: analysis.language), normalization: normalization)
        }
        let trimmed = query.trimmingCharacters(in: .whitespacesAndNewlines)
        let useSemantic = mode.kind != .keyword
        let useKeyword = mode.kind != .semantic

        // Embed the query (outside any lock; cached).
        var queryVector: [Float]?
        var embedMs = 0.0
        var embedded = false
        if useSemantic && !trimmed.isEmpty {
            if let blocker = semanticBlocker() {
                throw blocker
            }
            let text = analysis.cleaned.isEmpty ? trimmed : analysis.cleaned
            let embedStart = clock.now
            let query = try queryEmbedding(text)
            queryVector = query.vector
            // 0 when the vector came from the cache: nothing was embedded.
            if query.embedded {
                embedded = true
                embedMs = Self.milliseconds(clock.now - embedStart)
            }
        }
        let searchStart = clock.now
        let matchExpression = useKeyword ? keywordExpression(analysis, query: trimmed) : nil
        guard queryVector != nil || matchExpression != nil else {
            let timings = SearchResults.Timings(
                embedMs: embedMs, searchMs: 0, totalMs: Self.milliseconds(clock.now - started))
            recorder.record(timings, embedded: embedded)
            return SearchResults(hits: [], timings: timings)
        }

        let pool = clampedLimit(max(limit, mode.candidates))
        let keywords = Set(analysis.keywords)
        // Under the index's read lock: everything that reads memory. The hits' text is read from the file
        // after the lock is released.
        let chosen: [Chosen] = try index.read { state in
            let mask = state.documents.mask(for: filter)

            // Semantic arm: the allowed documents' best chunks, through the chosen index.
            var semanticBest: [Int: DocumentHit] = [:]
            var semantic: [(slot: Int, score: Float)] = []
            if let queryVector {
                let found = try state.semanticTop(query: queryVector, mask: mask, k: pool)
                semantic = found.map { ($0.slot, $0.score) }
                for hit in found { semanticBest[hit.slot] = hit }
            }
            // The exact best chunk of a document the semantic arm did not return (keyword-only candidates).
            func semanticHit(_ slot: Int) -> DocumentHit? {
                if let hit = semanticBest[slot] { return hit }
                guard let queryVector else { return nil }
                return state.exactBest(slot: slot, query: queryVector)
            }

            // Keyword arm: bm25 per chunk, best chunk per allowed document, in rank order.
            var keyword: [(slot: Int, score: Float)] = []
            var keywordChunk: [Int: Int64] = [:]
            if let matchExpression {
                for match in try keywordMatches(matchExpression, state: state, mask: mask, limit: pool) {
                    keyword.append((match.slot, match.score))
                    keywordChunk[match.slot] = match.chunkID
                }
            }

            // Keyword evidence (calibrated fusion): every candidate's own bm25, also for the documents only the
            // semantic arm returned, so that no score depends on which other documents were candidates.
            var keywordEvidence: [Int: Float] = [:]
            if calibration != nil, let matchExpression {
                var bm25: [Int: Float] = [:]
                for entry in keyword { bm25[entry.slot] = entry.score }
                let missing = semantic.compactMap { entry -> (slot: Int, chunk: Int64)? in
                    guard bm25[entry.slot] == nil, let hit = semanticBest[entry.slot] else { return nil }
                    let chunk = hit.chunkID
                    return chunk >= 0 ? (entry.slot, chunk) : nil
                }
                let scored = try database.chunkBM25(matchExpression, chunks: missing.map(\.chunk))
                for entry in missing { if let score = scored[entry.chunk] { bm25[entry.slot] = score } }
                let terms = FTSQuery.tokenCount(matchExpression)
                let rows = state.matrix.liveRows
                for (slot, score) in bm25 {
                    keywordEvidence[slot] = ScoreCalibration.keywordEvidence(
                        bm25: score, queryTerms: terms, indexedChunks: rows)
                }
            }
            // The query's cosines over the store, against which a document's cosine stands out or not.
            let background = calibration == nil ? nil : queryVector.flatMap { state.matrix.background(query: $0) }
            func evidence(slot: Int, cosine: Float) -> ScoreCalibration.Evidence {
                var standing: Float = 0
                if let background { standing = (cosine - background.mean) / max(background.deviation, 1e-3) }
                return ScoreCalibration.Evidence(
                    cosine: cosine, standing: standing, keyword: keywordEvidence[slot] ?? 0)
            }

            // Fuse (or take the one arm).
            var candidates: [FusedCandidate]
            switch mode.kind {
            case .semantic:
                candidates = semantic.enumerated().map { rank, entry in
                    FusedCandidate(
                        slot: entry.slot, semanticRank: rank + 1, semanticScore: entry.score, score: entry.score)
                }
            case .keyword:
                candidates = keyword.enumerated().map { rank, entry in
                    FusedCandidate(
                        slot: entry.slot, keywordRank: rank + 1, keywordScore: entry.score, score: entry.score)
                }
            case .hybrid:
                candidates = HybridFusion.fuse(
                    semantic: semantic, keyword: keyword,
                    semanticScore: { slot in semanticHit(slot)?.score }, fusion: mode.fusion,
                    calibration: calibration, evidence: evidence)
            }

            // Boosts, threshold, order.
            var ranked: [(candidate: FusedCandidate, boost: BoostResult)] = candidates.compactMap { candidate in
                guard let record = state.documents.record(atSlot: Int32(candidate.slot)) else { return nil }
                let boost = Self.boost(record: record, keywords: keywords, boosts: boosts)
                return (candidate, boost)
            }
            // Equal scores (a fusion that gives the semantic arm no weight, documents no keyword matched) are
            // ordered by meaning, then by slot so that the order is stable.
            ranked.sort { lhs, rhs in
                let l = lhs.candidate.score + lhs.boost.total
                let r = rhs.candidate.score + rhs.boost.total
                if l != r { return l > r }
                let ls = lhs.candidate.semanticScore ?? -.infinity
                let rs = rhs.candidate.semanticScore ?? -.infinity
                return ls != rs ? ls > rs : lhs.candidate.slot < rhs.candidate.slot
            }
            if let minScore { ranked.removeAll { $0.candidate.score + $0.boost.total < minScore } }
            ranked = Array(ranked.prefix(limit))

            // The chunk that represents each hit: the best semantic chunk, else the best keyword chunk.
            var chunkOf: [Int: Int64] = [:]
            for entry in ranked {
                let slot = entry.candidate.slot
                if let hit = semanticHit(slot), hit.chunkID >= 0 {
                    chunkOf[slot] = hit.chunkID
                } else if let chunk = keywordChunk[slot] {
                    chunkOf[slot] = chunk
                }
            }
            return ranked.compactMap { entry in
                guard let record = state.documents.record(atSlot: Int32(entry.candidate.slot)),
                    let chunkID = chunkOf[entry.candidate.slot]
                else { return nil }
                return Chosen(candidate: entry.candidate, boost: entry.boost, record: record, chunkID: chunkID)
            }
        }
        let chunks = try loadChunks(chosen.map(\.chunkID))
        let hits: [SearchHit] = chosen.compactMap { entry in
            let candidate = entry.candidate
            let record = entry.record
            guard let (chunk, passageRange) = chunks[entry.chunkID] else { return nil }
            let final = candidate.score + entry.boost.total
            let explanation =
                explain
                ? SearchHit.Explanation(
                    semanticRank: candidate.semanticRank, semanticScore: candidate.semanticScore,
                    semanticNormalized: candidate.semanticNormalized, keywordRank: candidate.keywordRank,
                    keywordScore: candidate.keywordScore, keywordNormalized: candidate.keywordNormalized,
                    evidence: candidate.evidence,
                    calibration: calibrationName, baseScore: candidate.score,
                    matchedTags: entry.boost.matchedTags,
                    tagBoost: entry.boost.tag, categoryBoost: entry.boost.category, finalScore: final)
                : nil
            return SearchHit(
                id: record.externalID, score: final, title: chunk.title, text: chunk.text,
                chunkOrdinal: chunk.ordinal, range: chunk.range, passageRange: passageRange,
                sourceType: record.sourceType,
                language: record.language, tags: record.tags, category: record.category,
                createdAt: Date(timeIntervalSince1970: record.createdAt), explanation: explanation)
        }
        let end = clock.now
        let timings = SearchResults.Timings(
            embedMs: embedMs, searchMs: Self.milliseconds(end - searchStart), totalMs: Self.milliseconds(end - started))
        recorder.record(timings, embedded: embedded)
        return SearchResults(hits: hits, timings: timings)
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) * 1000 + Double(parts.attoseconds) / 1e15
    }

    /// The query vector, from the cache (`embedded` false) or the embedder.
    func queryEmbedding(_ text: String) throws -> (vector: [Float], embedded: Bool) {
        if let cached = cache.value(for: text) { return (cached, false) }
        let vector: [Float]
        do {
            vector = try embedder.embed(text, role: .query).vector
        } catch {
            throw SearchError.queryEmbeddingFailed(String(describing: error))
        }
        if let problem = VectorBlob.problem(vector, dimension: embedder.identity.dimension) {
            throw SearchError.queryEmbeddingFailed(problem)
        }
        cache.insert(vector, for: text)
        return (vector, true)
    }

    /// The FTS5 expression for a query: the analyzer's content words (stop words removed; it keeps them
    /// when the query has nothing else), each re-split the way the index tokenizes, or the raw terms.
    func keywordExpression(_ analysis: QueryAnalysis, query: String) -> String? {
        var terms: [String] = []
        for term in analysis.terms { terms.append(contentsOf: FTSQuery.terms(term)) }
        if terms.isEmpty { terms = FTSQuery.terms(query) }
        return FTSQuery.expression(terms: terms)
    }

    /// The best-ranked chunk of up to `limit` documents allowed by `mask`, best first (bm25 negated: larger
    /// is better). Chunk → document goes through the in-memory maps, falling back to the file for a chunk they
    /// do not hold. See ``StoreDatabase/keywordMatches(_:limit:slot:)`` for the row budget.
    func keywordMatches(_ expression: String, state: VectorIndex.State, mask: Bitset?, limit: Int) throws
        -> [DocumentHit]
    {
        try database.keywordMatches(expression, limit: limit) { chunkID, documentID in
            let slot: Int?
            if let row = state.matrix.rowByChunk[chunkID] {
                slot = Int(state.matrix.rowSlot[Int(row)])
            } else {
                slot = try documentID().flatMap { state.documents.slot(ofRowid: $0) }.map(Int.init)
            }
            guard let slot, slot >= 0 else { return nil }
            if let mask, !mask.contains(slot) { return nil }
            return slot
        }
    }

    /// A hit chosen under the lock, before its chunk's text is read.
    struct Chosen {
        var candidate: FusedCandidate
        var boost: BoostResult
        var record: DocumentRecord
        var chunkID: Int64
    }

    /// Where, in a chunk's `text` (title line, passage, field lines), the passage lies whose offsets in the
    /// document's cleaned body are `range`: found by comparing the cleaned body's slice with the text at the
    /// two places a passage can start (at 0, or after the title's blank line). Empty at 0 for a chunk without
    /// a passage (a title or fields alone). Only the first chunk can start with the title, so only its body
    /// needs cleaning: a later chunk's passage starts its text.
    static func passageRange(text: String, ordinal: Int, range: Range<Int>, cleanedBody: () -> String)
        -> Range<Int>
    {
        guard !range.isEmpty, range.lowerBound >= 0 else { return 0..<0 }
        guard ordinal == 0 else { return range.count <= text.utf16.count ? 0..<range.count : 0..<0 }
        return passageRange(text: text, range: range, cleanedBody: cleanedBody())
    }

    static func passageRange(text: String, range: Range<Int>, cleanedBody: String) -> Range<Int> {
        let body = Array(cleanedBody.utf16)
        let chunk = Array(text.utf16)
        guard !range.isEmpty, range.lowerBound >= 0, range.upperBound <= body.count else { return 0..<0 }
        let passage = body[range]
        var starts = [0]
        if let separator = text.range(of: "\n\n") { starts.append(separator.upperBound.utf16Offset(in: text)) }
        for start in starts where start + passage.count <= chunk.count {
            if chunk[start..<(start + passage.count)].elementsEqual(passage) { return start..<(start + passage.count) }
        }
        return 0..<0
    }

    /// The chunks with these ids, each with where its passage lies in its text.
    func loadChunks(_ ids: [Int64]) throws -> [Int64: (chunk: ChunkRow, passageRange: Range<Int>)] {
        try database.chunks(ids: ids).mapValues { chunk in
            let passage = Self.passageRange(text: chunk.text, ordinal: chunk.ordinal, range: chunk.range) {
                preparer.cleaner.clean(Document(id: "", body: chunk.body, quoted: chunk.quoted))
            }
            return (chunk, passage)
        }
    }

    struct BoostResult {
        var tag: Float = 0
        var category: Float = 0
        var matchedTags: [String] = []
        var total: Float { tag + category }
    }

    /// Tag and category nudges: a tag or category matches when all its stemmed words are query keywords.
    static func boost(record: DocumentRecord, keywords: Set<String>, boosts: Boosts) -> BoostResult {
        var result = BoostResult()
        guard !keywords.isEmpty else { return result }
        func matches(_ label: String) -> Bool {
            let words = FTSQuery.terms(label)
            return !words.isEmpty
                && words.allSatisfy { keywords.contains(QueryAnalyzer.stem($0)) || keywords.contains($0) }
        }
        if boosts.perTag != 0 && boosts.maxTags > 0 {
            for tag in record.tags where matches(tag) {
                result.matchedTags.append(tag)
                if result.matchedTags.count == boosts.maxTags { break }
            }
            result.tag = boosts.perTag * Float(result.matchedTags.count)
        }
        if boosts.category != 0, let category = record.category, matches(category) {
            result.category = boosts.category
        }
        return result
    }
}

extension HushStore {
    /// The calibration table of the store's model (``ScoreCalibration/builtIn(for:)``), which scores the
    /// default hybrid search; `nil` when Hush ships none for it.
    public var scoreCalibration: ScoreCalibration? { ScoreCalibration.builtIn(for: embedder.identity) }

    /// The semantic weight of the default hybrid search for a query in `queryLanguage` (an ISO 639-1 code,
    /// or `und`), by how well the model knows that language. Measured on the multilingual man-page set
    /// (`scripts/bench/quality-multilingual.sh`, nDCG@10, alphas 0 to 0.85; see the README): with
    /// multilingual-e5-small, 0.75 is the one weight at which the hybrid beats both arms in all seven
    /// languages (its mean is within 0.0003 of 0.7's); with all-MiniLM-L6-v2, 0.6 in English, 0.3 in German,
    /// French, Spanish and Russian, where its semantic arm is weak, and 0 in Chinese and Japanese, where any
    /// semantic weight ranked below the keyword arm alone (ties are then ordered by meaning, and a query no
    /// keyword matches is still answered by meaning).
    ///
    /// ```swift
    /// store.hybridAlpha(queryLanguage: "de")  // 0.75 with e5-small, 0.3 with MiniLM
    /// ```
    public func hybridAlpha(queryLanguage: String) -> Float {
        switch embedder.languageScope {
        case .multilingual: 0.75
        case .monolingual:
            switch queryLanguage {
            case "en", "und": 0.6
            // An English model's vectors of Chinese or Japanese text rank worse than chance within the keyword
            // matches: keywords decide, meaning orders what they leave tied or finds what they miss.
            case "zh", "ja": 0
            default: 0.3
            }
        case .perLanguage: 0.6
        }
    }
}
