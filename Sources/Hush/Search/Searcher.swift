import Foundation

/// The search part of a store. A search is planned once (``SearchPlan``: `SearchPlan.swift`), executed here,
/// fused (`Searcher+Fusion.swift`) and given its passages (`Searcher+Passages.swift`).
///
/// Execution reads memory, then the file, then memory again:
/// 1. one hold of the index's read lock: the documents the filter allows and the semantic arm;
/// 2. out of the lock, one read transaction of the keyword index: its best rows and, for calibrated fusion, the
///    bm25 of the semantic arm's chunks;
/// 3. a second hold: the keyword rows mapped to the allowed documents, fusion, and the chosen hits. When a
///    selective filter leaves fewer allowed documents than the pool and the file has more matches, steps 2
///    and 3 repeat with more rows.
///
/// Slots, rowids and chunk ids are reused, so the keyword rows only mean what they say while memory is at the
/// generation the first hold saw. When a write lands in between, the search runs once more holding the read
/// lock across the steps (writers wait for this one search), so that it always finishes with the hits of one
/// state. A semantic search reads no SQL: one hold does it all.
struct Searcher: Sendable {
    let database: StoreDatabase
    let memory: StoreMemory
    let embedder: any Embedder
    let cache: QueryEmbeddingCache
    let analyzer: QueryAnalyzer
    let cleaner: TextCleaner
    let recorder: MetricsRecorder
    let testHooks: Locked<StoreTestHooks>

    /// See ``HushStore/search(_:mode:filter:limit:minScore:minRelevance:boosts:explain:)``.
    func search(
        _ query: String, mode: SearchMode, filter: SearchFilter, limit: Int, minScore: Float?,
        minRelevance: Float? = nil, boosts: Boosts, explain: Bool
    ) throws -> SearchResults {
        let clock = ContinuousClock()
        let started = clock.now
        let plan = try self.plan(
            query, mode: mode, filter: filter, limit: limit, minScore: minScore, minRelevance: minRelevance,
            boosts: boosts, explain: explain)
        // A search as you type is dropped when the next keystroke's replaces it: between embedding the query
        // and reading the index is where it stops.
        try Task.checkCancellation()
        let searchStart = clock.now
        let hits = plan.isEmpty ? [] : try self.hits(execute(plan), plan: plan)
        let end = clock.now
        let timings = SearchResults.Timings(
            embedMs: plan.embedMilliseconds, searchMs: plan.isEmpty ? 0 : Self.milliseconds(end - searchStart),
            totalMs: Self.milliseconds(end - started))
        recorder.record(timings, embedded: plan.embedded)
        return SearchResults(
            query: query, hits: hits, timings: timings, goodMatchThreshold: plan.relevance?.threshold,
            unmentionedNames: plan.relevance?.unmentionedNames ?? [])
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) * 1000 + Double(parts.attoseconds) / 1e15
    }

    // MARK: - Executing a plan

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
        /// What each document's semantic score is less for its language (a search across languages with a
        /// multilingual model in a store of several languages), or `nil`.
        var shift: LanguageShift?
    }

    /// What the second hold of the read lock made of the keyword rows.
    enum SecondPass {
        case chosen([Chosen])
        /// A write landed since the first hold: run again.
        case stale
        /// Too few allowed documents in the rows read, and the file has more: read more rows.
        case short
    }

    /// The plan's hits, best first: memory, file, memory; once more holding the read lock across them when a
    /// write landed in between.
    func execute(_ plan: SearchPlan) throws -> [Chosen] {
        if let chosen = try execute(plan, holding: nil) { return chosen }
        return try memory.read { state in try execute(plan, holding: state) } ?? []
    }

    /// One run of the plan: `nil` when a write landed between the holds. With `held`, every step reads that
    /// state (the caller holds the read lock, so nothing can land). Memory is never read inside a read
    /// transaction: a writer takes the index's lock before the file's.
    private func execute(_ plan: SearchPlan, holding held: StoreMemory.State?) throws -> [Chosen]? {
        func hold<T>(_ body: (StoreMemory.State) throws -> T) rethrows -> T {
            if let held { return try body(held) }
            return try memory.read(body)
        }
        // The documents the query excludes, read before the first hold (its generation checked there).
        let excluded = try plan.excluded.map { expression in
            let generation = held?.generation ?? memory.read { $0.generation }
            let rowids = try database.readKeywordIndex { try $0.documents(matching: expression.text) }
            return (generation: generation, rowids: rowids)
        }
        let first = try hold { state -> FirstPass? in
            var mask = state.allowedSlots(plan.filter)
            if let excluded {
                guard state.generation == excluded.generation else { return nil }
                var allowed = mask ?? state.liveSlots
                for rowid in excluded.rowids { if let slot = state.slot(ofRowid: rowid) { allowed.remove(slot) } }
                mask = allowed
            }
            let shift =
                plan.acrossLanguages
                ? try plan.queryVector.flatMap {
                    try state.languageShift(query: $0, scope: embedder.languageScope, memory: memory)
                } : nil
            let semantic = try plan.queryVector.map {
                try state.semanticTop(query: $0, mask: mask, k: plan.pool, shift: shift)
            }
            return FirstPass(generation: state.generation, mask: mask, semantic: semantic ?? [], shift: shift)
        }
        guard let first else { return nil }
        guard let expression = plan.keyword else {
            return try hold { state in try fuse(plan, first, keyword: [], evidence: [:], state: state) }
        }
        // The keyword arm: 4 rows per wanted document, then 8× more, then all, until the allowed documents fill
        // the pool (many chunks per document, or a selective filter). Without a filter every document is
        // allowed: reading stops at the row that brings the pool's number of documents. Calibrated fusion also
        // needs the bm25 of the semantic arm's chunks, read with the first rows (FTS5's own ranking of the whole
        // expression: 12 ms of a man-page search against 6, so the other modes' relevance takes the keyword arm's
        // bm25 alone).
        var budget: Int? = plan.pool * 4
        var documents: Int? = first.mask == nil ? plan.pool : nil
        var bm25: [Int64: Float]?
        while true {
            let (rows, complete) = try database.readKeywordIndex { reader in
                if bm25 == nil {
                    let chunks = plan.calibration == nil ? [] : first.semantic.map(\.chunkID).filter { $0 >= 0 }
                    bm25 = try reader.bm25(expression.text, chunks: chunks)
                }
                return try reader.rows(expression, limit: budget, documents: documents)
            }
            if held == nil { try testHooks.value.afterKeywordRead?() }
            let outcome = try hold { state -> SecondPass in
                guard state.generation == first.generation else { return .stale }
                let keyword = keywordHits(rows, mask: first.mask, limit: plan.pool, state: state)
                guard keyword.count >= plan.pool || complete else { return .short }
                let evidence = keywordEvidence(plan, first, keyword: keyword, bm25: bm25 ?? [:], state: state)
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
    private func keywordHits(_ rows: [KeywordRow], mask: Bitset?, limit: Int, state: StoreMemory.State)
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
}
