import Foundation

/// The search part of a store: analyses and embeds the query, runs the semantic arm through the vector index
/// and the keyword arm through FTS5, fuses them, applies boosts and reads the hits' text.
///
/// Memory is read in two short holds of the index's read lock, with the file's keyword index read between
/// them, out of the lock. The second hold checks the index's generation: if a write landed in between (slots
/// are reused), the search starts again, and after three such tries it holds the read lock across both
/// passes, so that it always finishes.
struct Searcher: Sendable {
    let database: StoreDatabase
    let index: VectorIndex
    let embedder: any Embedder
    let cache: QueryEmbeddingCache
    let analyzer: QueryAnalyzer
    let cleaner: TextCleaner
    let recorder: MetricsRecorder
    let testHooks: Locked<HushStore.TestHooks>

    /// What one search asks for, worked out before memory is read.
    struct Plan {
        var kind: SearchMode.Kind
        /// The fusion with the store's choices made: the weight for the query's language, the calibration.
        var fusion: ResolvedFusion
        var filter: SearchFilter
        var queryVector: [Float]?
        var expression: String?
        /// How many candidates each arm returns.
        var pool: Int
        var limit: Int
        var minScore: Float?
        var boosts: Boosts
        /// The keyword index's stems of the query's words, for the tag and category boosts
        /// (``Searcher/boostKeywords(_:)``).
        var keywords: Set<String>

        /// The calibration's coefficients when the fusion is calibrated.
        var calibration: ScoreCalibration.Coefficients? {
            if case .calibrated(let coefficients) = fusion { return coefficients }
            return nil
        }
    }

    /// See ``HushStore/search(_:mode:filter:limit:minScore:boosts:explain:)``.
    func search(
        _ query: String, mode: SearchMode, filter: SearchFilter, limit: Int, minScore: Float?, boosts: Boosts,
        explain: Bool
    ) throws -> SearchResults {
        let clock = ContinuousClock()
        let started = clock.now
        guard limit > 0 else { throw SearchError.invalidLimit(limit) }
        if let minScore, minScore.isNaN { throw SearchError.invalidFusion("minScore is NaN: give a number") }
        guard mode.candidates > 0 else { throw SearchError.invalidLimit(mode.candidates) }
        switch mode.fusion {
        case .convex(let alpha, _) where !(0...1).contains(alpha) || alpha.isNaN:
            throw SearchError.invalidFusion("alpha must lie in 0…1 (got \(alpha))")
        case .reciprocalRank(let k) where k <= 0:
            throw SearchError.invalidFusion("the RRF constant k must be positive (got \(k))")
        default:
            break
        }

        let analysis = analyze(query)
        let (fusion, calibrationName) = ResolvedFusion.resolve(
            mode.fusion, embedder: embedder, queryLanguage: analysis.language)
        let trimmed = query.trimmingCharacters(in: .whitespacesAndNewlines)

        // Embed the query (outside any lock; cached).
        var queryVector: [Float]?
        var embedMs = 0.0
        var embedded = false
        if mode.kind != .keyword && !trimmed.isEmpty {
            if let blocker = try index.semanticBlocker(current: embedder.identity, database: database) {
                throw blocker
            }
            let embedStart = clock.now
            let query = try queryEmbedding(
                String(Self.firstWindow(of: Self.embeddedText(analysis, query: query), embedder: embedder)))
            queryVector = query.vector
            // 0 when the vector came from the cache: nothing was embedded.
            if query.embedded {
                embedded = true
                embedMs = Self.milliseconds(clock.now - embedStart)
            }
        }
        let searchStart = clock.now
        let expression = mode.kind != .semantic ? keywordExpression(analysis, query: trimmed) : nil
        guard queryVector != nil || expression != nil else {
            let timings = SearchResults.Timings(
                embedMs: embedMs, searchMs: 0, totalMs: Self.milliseconds(clock.now - started))
            recorder.record(timings, embedded: embedded)
            return SearchResults(hits: [], timings: timings)
        }
        let plan = Plan(
            kind: mode.kind, fusion: fusion, filter: filter, queryVector: queryVector, expression: expression,
            pool: index.clampedLimit(max(limit, mode.candidates)), limit: index.clampedLimit(limit),
            minScore: minScore, boosts: boosts, keywords: Self.boostKeywords(analysis))
        let chosen = try choose(plan)

        let chunks = try loadChunks(chosen.map(\.chunkID))
        let hits: [SearchHit] = chosen.compactMap { entry in
            guard let (chunk, passageRange) = chunks[entry.chunkID] else { return nil }
            let record = entry.record
            var explanation = entry.candidate.explanation
            explanation.calibration = calibrationName
            return SearchHit(
                id: record.externalID, score: explanation.finalScore, title: chunk.title, text: chunk.text,
                chunkOrdinal: chunk.ordinal, range: chunk.range, passageRange: passageRange,
                sourceType: record.sourceType, language: record.language, tags: record.tags,
                category: record.category, createdAt: Date(timeIntervalSince1970: record.createdAt),
                explanation: explain ? explanation : nil)
        }
        let end = clock.now
        let timings = SearchResults.Timings(
            embedMs: embedMs, searchMs: Self.milliseconds(end - searchStart), totalMs: Self.milliseconds(end - started))
        recorder.record(timings, embedded: embedded)
        return SearchResults(hits: hits, timings: timings)
    }

    /// What a query says, as search sees it: a short query whose words do not show its language takes the
    /// store's most common one.
    func analyze(_ query: String) -> QueryAnalysis {
        var analysis = analyzer.analyze(query, fallbackLanguage: index.read { $0.dominantLanguage })
        let modelText = Self.firstWindow(of: Self.embeddedText(analysis, query: query), embedder: embedder)
        if modelText.endIndex < analysis.cleaned.endIndex { analysis.modelCharacters = modelText.count }
        return analysis
    }

    /// The text a query's vector is made from: the cleaned query, or the query as typed when cleaning left
    /// nothing.
    static func embeddedText(_ analysis: QueryAnalysis, query: String) -> String {
        analysis.cleaned.isEmpty ? query.trimmingCharacters(in: .whitespacesAndNewlines) : analysis.cleaned
    }

    /// The longest prefix of `text` (whole characters, without trailing whitespace) that fits the model's window
    /// with its role prefix and special tokens. A longer query would be embedded window by window (e5) or cut by the model anyway, at a
    /// cost that grows with its length (a 100,000-character query took 14 s), so a search embeds this prefix.
    ///
    /// - Complexity: O(n log n) in the prefix's length (token counts of doubling, then halving, prefixes).
    static func firstWindow(of text: String, embedder: any Embedder) -> Substring {
        let budget = max(8, embedder.maxTokens - 8)  // room for the query prefix, whatever the model's is
        // Every token but the special ones covers at least one byte, so a text this short always fits.
        if text.utf8.count <= budget { return text[...] }
        func fits(_ count: Int) -> Bool { embedder.tokenCount(String(text.prefix(count))) <= budget }
        var low = 0  // a prefix of `low` characters fits
        var high = budget  // the first probe
        while true {
            let prefix = text.prefix(high)
            if prefix.endIndex == text.endIndex {
                if fits(high) { return text[...] }
                break
            }
            guard fits(high) else { break }
            low = high
            high *= 2
        }
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if fits(middle) { low = middle } else { high = middle }
        }
        // A cut between two words would leave a space, which the model reads as a token of its own.
        var prefix = text.prefix(low)
        while prefix.last?.isWhitespace == true { prefix = prefix.dropLast() }
        return prefix
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) * 1000 + Double(parts.attoseconds) / 1e15
    }

    // MARK: - Choosing the hits

    /// A hit chosen from memory, before its chunk's text is read.
    struct Chosen {
        var candidate: FusedCandidate
        var record: DocumentRecord
        var chunkID: Int64
    }

    /// What the first hold of the read lock found: the allowed documents and the semantic arm.
    struct FirstPass {
        var generation: UInt64
        var mask: Bitset?
        var semantic: [DocumentHit]
    }

    /// What the second hold of the read lock made of the keyword rows.
    enum SecondPass {
        case chosen([Chosen])
        /// A write landed since the first pass: start again.
        case stale
        /// Too few allowed documents in the rows read, and the file has more: read more rows.
        case short
    }

    /// The plan's hits, best first: up to three tries with the keyword SQL out of the lock, then one with the
    /// read lock held across both passes.
    func choose(_ plan: Plan) throws -> [Chosen] {
        for _ in 0..<3 {
            if let chosen = try choose(plan, holding: nil) { return chosen }
        }
        // Writes kept landing between the passes: this search holds the read lock across them (writers wait).
        return try index.read { state in try choose(plan, holding: state) } ?? []
    }

    /// One try: `nil` when a write landed between the passes. With `held`, both passes read that state (the
    /// caller holds the read lock).
    private func choose(_ plan: Plan, holding held: VectorIndex.State?) throws -> [Chosen]? {
        func memory<T>(_ body: (VectorIndex.State) throws -> T) rethrows -> T {
            if let held { return try body(held) }
            return try index.read(body)
        }
        func firstPass(_ state: VectorIndex.State) throws -> FirstPass {
            let mask = state.allowedSlots(plan.filter)
            let semantic = try plan.queryVector.map { try state.semanticTop(query: $0, mask: mask, k: plan.pool) }
            return FirstPass(generation: state.generation, mask: mask, semantic: semantic ?? [])
        }
        guard let expression = plan.expression else {
            // Semantic only: no SQL, so one hold does it all.
            return try memory { state in try fuse(plan, try firstPass(state), keyword: [], evidence: [:], state: state)
            }
        }
        let first = try memory(firstPass)
        // The keyword arm, from the file: 4 rows per wanted document, then 8× more, then all, until the
        // allowed documents fill the pool (many chunks per document, or a selective filter).
        // Calibrated fusion also needs the bm25 of the semantic arm's chunks.
        let bm25 =
            plan.calibration == nil
            ? [:] : try database.chunkBM25(expression, chunks: first.semantic.map(\.chunkID).filter { $0 >= 0 })
        var budget: Int? = plan.pool * 4
        // Without a filter every document is allowed: reading stops at the pool's number of documents.
        var documents: Int? = first.mask == nil ? plan.pool : nil
        while true {
            let (rows, complete) = try database.keywordRows(expression, limit: budget, documents: documents)
            if held == nil { try testHooks.value.afterKeywordRead?() }
            let outcome = try memory { state -> SecondPass in
                guard state.generation == first.generation else { return .stale }
                let keyword = keywordHits(rows, mask: first.mask, limit: plan.pool, state: state)
                guard keyword.count >= plan.pool || complete else { return .short }
                let evidence = keywordEvidence(plan, first, keyword: keyword, bm25: bm25, state: state)
                return .chosen(try fuse(plan, first, keyword: keyword, evidence: evidence, state: state))
            }
            switch outcome {
            case .chosen(let chosen): return chosen
            case .stale: return nil
            case .short where documents != nil: documents = nil
            case .short: budget = budget.flatMap { $0 >= plan.pool * 32 ? nil : $0 * 8 }
            }
        }
    }

    /// The best-ranked chunk of up to `limit` allowed documents, best first.
    private func keywordHits(_ rows: [KeywordRow], mask: Bitset?, limit: Int, state: VectorIndex.State)
        -> [DocumentHit]
    {
        var seen = Set<Int>()
        var hits: [DocumentHit] = []
        for row in rows where hits.count < limit {
            guard let slot = row.documentRowid.flatMap(state.slot(ofRowid:)), mask?.contains(slot) ?? true,
                seen.insert(slot).inserted
            else { continue }
            hits.append(DocumentHit(slot: slot, score: row.score, chunkID: row.chunkID))
        }
        return hits
    }

    /// Every candidate's keyword evidence for calibrated fusion: its own bm25, also for the documents only the
    /// semantic arm returned (their best chunk's), so that no score depends on which other documents were
    /// candidates.
    private func keywordEvidence(
        _ plan: Plan, _ first: FirstPass, keyword: [DocumentHit], bm25: [Int64: Float], state: VectorIndex.State
    ) -> [Int: Float] {
        guard plan.calibration != nil, let expression = plan.expression else { return [:] }
        var scores: [Int: Float] = [:]
        for hit in keyword { scores[hit.slot] = hit.score }
        for hit in first.semantic where scores[hit.slot] == nil {
            if let score = bm25[hit.chunkID] { scores[hit.slot] = score }
        }
        let terms = FTSQuery.tokenCount(expression)
        return scores.mapValues {
            ScoreCalibration.keywordEvidence(bm25: $0, queryTerms: terms, indexedChunks: state.liveRows)
        }
    }

    /// Fuses the two arms (or takes the one), adds the boosts, applies the threshold and picks each hit's chunk.
    private func fuse(
        _ plan: Plan, _ first: FirstPass, keyword: [DocumentHit], evidence keywordEvidence: [Int: Float],
        state: VectorIndex.State
    ) throws -> [Chosen] {
        var semanticBest: [Int: DocumentHit] = [:]
        for hit in first.semantic { semanticBest[hit.slot] = hit }
        // The exact best chunk of a document the semantic arm did not return (keyword-only candidates).
        if let query = plan.queryVector {
            for hit in keyword where semanticBest[hit.slot] == nil {
                semanticBest[hit.slot] = try state.exactBest(slot: hit.slot, query: query)
            }
        }
        func semanticHit(_ slot: Int) -> DocumentHit? { semanticBest[slot] }
        // The query's cosines over the store, against which a document's cosine stands out or not.
        let background = plan.calibration == nil ? nil : plan.queryVector.flatMap { state.background(query: $0) }
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
                evidence: evidence)
        }

        // Boosts, threshold, order.
        candidates = candidates.compactMap { candidate in
            guard let record = state.record(candidate.slot) else { return nil }
            var boosted = candidate
            Self.boost(&boosted.explanation, record: record, keywords: plan.keywords, boosts: plan.boosts)
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

    // MARK: - Query, boosts and text

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

    /// What the boosts match tags against: the stem the keyword index gives each of the query's words (the
    /// words the keyword arm searches for), whatever the query's language. The analyzer leaves the keywords of
    /// a query in another language unstemmed, but the index stems every word the same way.
    static func boostKeywords(_ analysis: QueryAnalysis) -> Set<String> {
        Set(analysis.terms.flatMap(FTSQuery.terms).map(QueryAnalyzer.stem))
    }

    /// Adds the tag and category nudges to `explanation` (its final score is the base score plus them): a tag or
    /// category matches when each of its words has the stem of a query word (`keywords`, from
    /// ``boostKeywords(_:)``), that is when the keyword index would match each of its words with a query word.
    static func boost(
        _ explanation: inout SearchHit.Explanation, record: DocumentRecord, keywords: Set<String>, boosts: Boosts
    ) {
        defer { explanation.finalScore = explanation.baseScore + (explanation.tagBoost + explanation.categoryBoost) }
        guard !keywords.isEmpty else { return }
        func matches(_ label: String) -> Bool {
            let words = FTSQuery.terms(label)
            return !words.isEmpty
                && words.allSatisfy { keywords.contains(QueryAnalyzer.stem($0)) }
        }
        if boosts.perTag != 0 && boosts.maxTags > 0 {
            for tag in record.tags where matches(tag) {
                explanation.matchedTags.append(tag)
                if explanation.matchedTags.count == boosts.maxTags { break }
            }
            explanation.tagBoost = boosts.perTag * Float(explanation.matchedTags.count)
        }
        if boosts.category != 0, let category = record.category, matches(category) {
            explanation.categoryBoost = boosts.category
        }
    }

    /// The chunks with these ids, each with where its passage lies in its text.
    func loadChunks(_ ids: [Int64]) throws -> [Int64: (chunk: ChunkRow, passageRange: Range<Int>)] {
        try database.chunks(ids: ids).mapValues { chunk in
            let passage = Self.passageRange(text: chunk.text, ordinal: chunk.ordinal, range: chunk.range) {
                cleaner.clean(Document(id: "", body: chunk.body, quoted: chunk.quoted))
            }
            return (chunk, passage)
        }
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
}
