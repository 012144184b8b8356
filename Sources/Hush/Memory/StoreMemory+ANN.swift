import Foundation
import HushKernels

/// How a store picks and tunes its vector index (from `StoreOptions`).
struct IndexPolicy: Sendable, Equatable {
    var forced: IndexStrategy?
    var memoryBudget: Int
    var hnsw: HNSWParameters
    var int8GuideThreshold = IndexStrategy.int8GuideThreshold

    /// Whether an HNSW index over `vectorCount` vectors also keeps int8 codes to walk on: from the threshold,
    /// when vectors, graph and codes fit the budget (or HNSW is forced).
    func wantsGuide(vectorCount: Int, dimension: Int) -> Bool {
        guard vectorCount >= int8GuideThreshold else { return false }
        if forced == .hnsw { return true }
        let need =
            (IndexStrategy.hnsw.bytesPerVector(dimension: dimension, M: hnsw.M)
                + IndexStrategy.int8.bytesPerVector(dimension: dimension)) * vectorCount
        return need <= memoryBudget
    }

    /// A store that uses HNSW keeps it until its vectors fall below this fraction of the exact threshold, so
    /// that deletions around the threshold do not rebuild the graph again and again.
    static let hysteresis = 0.75

    /// The strategy for `vectorCount` vectors, given what is in use now.
    func choose(vectorCount: Int, dimension: Int, current: IndexStrategy?) -> IndexChoice {
        let choice = IndexStrategy.choose(
            vectorCount: vectorCount, dimension: dimension, memoryBudget: memoryBudget, forced: forced)
        if forced == nil, current == .hnsw, choice.strategy == .exact,
            Double(vectorCount) >= Self.hysteresis * Double(IndexStrategy.exactThreshold)
        {
            return IndexChoice(
                strategy: .hnsw,
                reason: "hnsw: kept while \(IndexStrategy.formatted(vectorCount)) vectors stay above 3/4 of the "
                    + "exact-scan threshold of \(IndexStrategy.formatted(IndexStrategy.exactThreshold))")
        }
        return choice
    }
}

/// The approximate structures beside the vector matrix: a graph (with, at scale, codes to walk it on) or a code
/// matrix to scan.
struct ANNState: Sendable {
    var choice = IndexChoice(strategy: .exact, reason: "exact: no vectors loaded")
    var hnsw: HNSWIndex?
    /// Codes the graph is walked on (HNSW only): int8 for a large store with its vectors in memory (see
    /// `StoreOptions.int8GuideThreshold`), 4-bit for one opened from its saved image (see `saveImage(to:)`).
    var guide: QuantizedMatrix?
    var codes: QuantizedMatrix?

    /// Bytes of the graph and its guide, or of the codes.
    var bytes: Int {
        if let hnsw { return hnsw.graphBytes + (guide.map { $0.count * $0.bytesPerVector } ?? 0) }
        if let codes { return codes.count * codes.bytesPerVector }
        return 0
    }
}

/// When a write transaction saves the graph's changed lists.
enum GraphSave: Equatable {
    /// In this transaction: every write that is one transaction, and the last batch of a bulk write.
    case now
    /// Only once ``HNSWIndex/saveIsDue`` (the other batches of a bulk write). The bulk write saves what is left
    /// when it ends (`StoreWriter.settle()`), and an open after a crash inserts the nodes the saved graph lacks.
    case whenDue
}

/// What of the graph a change of memory leaves for the file to store. The writer saves it in the write
/// transaction of the vectors, so the graph tables and the vectors commit together.
enum GraphWrite: Equatable {
    /// Nothing: no graph, or its changes wait until a save is due (``GraphSave/whenDue``).
    case nothing
    /// The graph's nodes changed since its last save.
    case changes
    /// The whole graph, or emptied tables when there is no graph any more (it was built or dropped).
    case whole
}

/// One document found by a search arm, inside the engine: its slot, the score of its best chunk and that
/// chunk's id. Row hits (`ScoredRow`) are the layer below; `SearchHit` is what leaves the store.
struct DocumentHit: Equatable {
    var slot: Int
    var score: Float
    var chunkID: Int64
}

extension StoreMemory.State {
    // MARK: - Choosing and building

    /// Re-evaluates the strategy for the current number of vectors and builds or drops structures to match.
    /// Returns true when the graph was built or dropped (the caller saves it whole).
    @discardableResult
    mutating func applyPolicy(_ policy: IndexPolicy) throws -> Bool {
        guard semanticReady else { return false }
        let current: IndexStrategy? = ann.hnsw != nil ? .hnsw : ann.codes.map { _ in ann.choice.strategy }
        let choice = policy.choose(vectorCount: matrix.liveRows, dimension: matrix.dimension, current: current)
        ann.choice = choice
        var graphChanged = false
        switch choice.strategy {
        case .exact:
            ann.codes = nil
            ann.guide = nil
            if ann.hnsw != nil {
                ann.hnsw = nil
                graphChanged = true
            }
        case .hnsw:
            ann.codes = nil
            if ann.hnsw == nil {
                ann.hnsw = try buildGraph(policy.hnsw)
                graphChanged = true
            }
            if policy.wantsGuide(vectorCount: matrix.liveRows, dimension: matrix.dimension) {
                if ann.guide == nil { ann.guide = buildCodes(.int8) }
                ann.choice.reason +=
                    "; the graph is walked on int8 codes (from "
                    + "\(IndexStrategy.formatted(policy.int8GuideThreshold)) vectors), the rows found rescored exactly"
            } else {
                ann.guide = nil
            }
        case .int8, .binary:
            ann.guide = nil
            if ann.hnsw != nil {
                ann.hnsw = nil
                graphChanged = true
            }
            let wanted = choice.strategy
            let have: IndexStrategy? = ann.codes.map {
                if case .int8 = $0.encoding { return .int8 }
                return .binary
            }
            if have != wanted { ann.codes = buildCodes(wanted) }
        }
        return graphChanged
    }

    /// A graph over every live row. Graphs of fewer than ``parallelBuildRows`` rows are built by one thread:
    /// that takes well under a second, and the same rows then always give the same graph (a concurrent
    /// build's lists depend on how the threads interleave).
    func buildGraph(_ parameters: HNSWParameters) throws -> HNSWIndex {
        let rowChunk = matrix.rowChunk
        let threads = Self.threads(linking: matrix.liveRows, into: matrix.liveRows)
        return try matrix.withView { view in
            try HNSWIndex.build(
                dimension: matrix.dimension, parameters: parameters,
                rows: (0..<view.count).lazy.filter { rowChunk[$0] >= 0 }, vectors: view, threads: threads)
        }
    }

    /// The number of rows from which a graph is built by two threads.
    static let parallelBuildRows = 10_000

    /// Threads for linking `count` new rows into a graph of `size`: two (on two cores or more) for a batch of
    /// 32 rows or more into a graph of ``parallelBuildRows`` or more, else one (small graphs stay
    /// reproducible, small writes pay no hand-over).
    static func threads(linking count: Int, into size: Int) -> Int {
        count >= 32 && size >= parallelBuildRows ? min(2, ProcessInfo.processInfo.activeProcessorCount) : 1
    }

    /// Codes of every row (holes encode the zero vector and are never returned).
    func buildCodes(_ strategy: IndexStrategy) -> QuantizedMatrix {
        matrix.withView { view in
            var codes =
                strategy == .binary
                ? QuantizedMatrix(binary: BinaryQuantizer(centredOn: view))
                : QuantizedMatrix(int8: Int8Quantizer.perDimension(calibratedOn: view))
            codes.append(contentsOf: view)
            return codes
        }
    }

    /// The graph in use, if any (what tests inspect).
    var hnsw: HNSWIndex? { ann.hnsw }

    // MARK: - Keeping up with writes

    /// Follows a write: `freed` rows lost their chunk (holes now), `added` rows got a new vector. The graph
    /// drops and compacts the freed rows before the holes become reusable, then links the new rows; codes are
    /// re-encoded. Then the strategy is re-evaluated. Returns what the write transaction of the vectors must
    /// save of the graph: its changes always with `.now`, only when due with `.whenDue` (see ``GraphSave``), all
    /// of it when it was built or dropped.
    mutating func followWrite(
        freed: [Int32], added: [Int32], policy: IndexPolicy, graphSave: GraphSave = .now
    ) throws -> GraphWrite {
        rowsChangedSinceImage += freed.count + added.count
        guard semanticReady else {
            matrix.release(freed)
            return .nothing
        }
        if let hnsw = ann.hnsw {
            try matrix.withView { view in
                for row in freed where hnsw.contains(row: Int(row)) { try hnsw.delete(row: Int(row), vectors: view) }
                // A re-embedded row already in the graph: take it out first.
                for row in added where hnsw.contains(row: Int(row)) { try hnsw.delete(row: Int(row), vectors: view) }
                if hnsw.deletedCount > 0 { try hnsw.compact(vectors: view) }
                try hnsw.insert(
                    rows: added.map(Int.init), vectors: view,
                    threads: Self.threads(linking: added.count, into: hnsw.liveCount))
            }
        }
        matrix.release(freed)
        if var codes = ann.codes {
            ann.codes = nil  // no copy-on-write while updating
            refresh(&codes, added: added)
            ann.codes = codes
        }
        if var guide = ann.guide {
            ann.guide = nil
            refresh(&guide, added: added)
            ann.guide = guide
        }
        if try applyPolicy(policy) { return .whole }
        if let graph = ann.hnsw, graphSave == .now || graph.saveIsDue { return .changes }
        return .nothing
    }

    /// Brings `codes` up to date with the matrix: new rows appended, re-embedded rows encoded again.
    func refresh(_ codes: inout QuantizedMatrix, added: [Int32]) {
        matrix.withView { view in
            if codes.count < view.count { codes.append(contentsOf: view) }
            for row in added where Int(row) < codes.count {
                codes.update(row: Int(row), vector: view.row(Int(row)))
            }
        }
    }

    // MARK: - Searching

    /// The rows of the documents allowed by `mask` as a bitmap (holes excluded).
    ///
    /// - Complexity: O(documents + allowed rows).
    func rowBitmap(mask: Bitset?) -> Bitset {
        var bitmap = Bitset(count: matrix.rows)
        guard let mask else {
            for row in 0..<matrix.rows where matrix.rowSlot[row] >= 0 { bitmap.insert(row) }
            return bitmap
        }
        mask.forEachAllowed { slot in
            for row in matrix.rows(ofSlot: slot) { bitmap.insert(Int(row)) }
        }
        return bitmap
    }

    /// The `k` best documents for `query` among those allowed by `mask`, each by its best chunk (blended with its
    /// lead chunk, ``DocumentScoring``), through the chosen index. Approximate strategies are asked for as many
    /// chunks as `k` documents hold on average (`k` to `4k`; a graph is walked `4k` wide), growing ×4 until `k`
    /// distinct documents are found or the allowed rows are exhausted, so the answer is never short.
    ///
    /// - Complexity: exact: O(rows × dimension); HNSW: about O(ef × M0 × log n × dimension) per round;
    ///   int8/binary: O(rows × code size) per round plus the exact rescoring.
    ///
    /// With `shift`, each document's score is less its language's share of the cosine (``LanguageShift``): the
    /// exact scan takes it off every document before choosing; an approximate index is searched once per
    /// language (`k` documents each, ``approximateTopPerLanguage(query:mask:k:centres:shift:)``), since its
    /// candidates would otherwise come mostly from the query's language, and the shifted hits merged.
    func semanticTop(query: [Float], mask: Bitset?, k: Int, shift: LanguageShift? = nil) throws -> [DocumentHit] {
        guard k > 0, matrix.liveRows > 0, query.count == matrix.dimension else { return [] }
        if ann.hnsw == nil && ann.codes == nil {
            var scores = scoreDocuments(query: query, mask: mask)
            shift?.subtract(from: &scores)
            return scores.top(k).map {
                DocumentHit(
                    slot: $0.id, score: $0.score, chunkID: matrix.rowChunk[Int(scores.bestRow[$0.id])])
            }
        }
        guard let shift else { return try approximateTop(query: query, mask: mask, k: k) }
        let hits = try approximateTopPerLanguage(query: query, mask: mask, k: k, centres: shift.centres, shift: shift)
        return hits.sorted { $0.score != $1.score ? $0.score > $1.score : $0.slot < $1.slot }.prefix(k).map { $0 }
    }

    /// The `k` best documents of each language of `centres` that `mask` allows, through the approximate index
    /// (one walk per language, filtered to its rows), less `shift`; the languages' lists one after the other.
    /// Stores and masks of one language take one walk.
    ///
    /// - Complexity: a walk per language, plus O(rows / 64) per language to filter a walk by `mask`.
    func approximateTopPerLanguage(
        query: [Float], mask: Bitset?, k: Int, centres: DocumentCentres, shift: LanguageShift?
    ) throws -> [DocumentHit] {
        // The centres' rows are those of the generation they were computed at; fall back to one walk otherwise.
        guard centres.languageRows.count > 1, centres.languageRows.allSatisfy({ $0.count == matrix.rows }) else {
            return try approximateTop(query: query, mask: mask, k: k)
        }
        let allowed = mask.map { rowBitmap(mask: $0) }
        var hits: [DocumentHit] = []
        for rows in centres.languageRows {
            let filter = allowed.map { $0.intersection(rows) } ?? rows
            guard filter.allowedCount > 0 else { continue }
            for var hit in try approximateTop(query: query, filter: filter, k: k) {
                if let shift { hit.score -= shift(hit.slot) }
                hits.append(hit)
            }
        }
        return hits
    }

    /// ``semanticTop(query:mask:k:shift:)`` through the approximate index, unshifted.
    private func approximateTop(query: [Float], mask: Bitset?, k: Int) throws -> [DocumentHit] {
        let filter: Bitset? = (mask != nil || (ann.codes != nil && matrix.hasHoles)) ? rowBitmap(mask: mask) : nil
        return try approximateTop(query: query, filter: filter, k: k)
    }

    /// The `k` best documents among the rows `filter` allows (every live row when `nil`) through the approximate
    /// index, unshifted.
    private func approximateTop(query: [Float], filter: Bitset?, k: Int) throws -> [DocumentHit] {
        let available = filter?.allowedCount ?? matrix.liveRows
        // Rows: as many chunks as k documents hold on average (1 to 4 per document), so that a store whose vectors
        // stay in the file reads no more of them than the answer needs. The graph's walk: 4k wide, whatever the
        // chunks, so that the answer's tail (the pool beyond the hits shown) is found as well as its head.
        let chunksPerDocument = min(4, (matrix.liveRows + documents.count - 1) / max(1, documents.count))
        var wanted = min(available, k * max(1, chunksPerDocument))
        var width = 4 * k
        while true {
            let rows: [ScoredRow] =
                try matrix.isResident
                ? residentScoredRows(query: query, filter: filter, wanted: wanted, width: width)
                : fileScoredRows(query: query, filter: filter, wanted: wanted, width: width)
            var best: [Int: DocumentHit] = [:]
            for hit in rows {
                let slot = Int(matrix.rowSlot[hit.row])
                guard slot >= 0 else { continue }
                if let seen = best[slot], seen.score >= hit.score { continue }
                best[slot] = DocumentHit(slot: slot, score: hit.score, chunkID: matrix.rowChunk[hit.row])
            }
            if best.count >= k || wanted >= available || rows.count < wanted {
                try blendLeadChunks(&best, scored: rows, query: query)
                return best.values.sorted { $0.score != $1.score ? $0.score > $1.score : $0.slot < $1.slot }
                    .prefix(k).map { $0 }
            }
            wanted = min(available, wanted * 4)
            width *= 4
        }
    }

    /// Blends each found document of several chunks with its lead chunk (``DocumentScoring``): the lead's score
    /// from `scored` when the walk scored it, else from its vector (read from the file when the vectors stay
    /// there).
    private func blendLeadChunks(_ best: inout [Int: DocumentHit], scored: [ScoredRow], query: [Float]) throws {
        var leads: [Int: Int] = [:]  // lead row -> slot
        for (slot, hit) in best {
            guard let lead = matrix.leadRow(ofSlot: slot), matrix.rowChunk[Int(lead)] != hit.chunkID else {
                continue
            }
            leads[Int(lead)] = slot
        }
        guard !leads.isEmpty else { return }
        var leadScores: [Int: Float] = [:]
        for hit in scored where leads[hit.row] != nil { leadScores[hit.row] = hit.score }
        let missing = leads.keys.filter { leadScores[$0] == nil }.sorted()
        if !missing.isEmpty {
            try query.withUnsafeBufferPointer { q in
                guard let qp = q.baseAddress else { return }
                try withRowVectors(missing) { row, vector in
                    leadScores[row] = hush_dot_f32(vector, qp, matrix.dimension)
                }
            }
        }
        for (row, slot) in leads {
            guard let lead = leadScores[row], !lead.isNaN, let hit = best[slot] else { continue }
            best[slot]?.score = DocumentScoring.blend(best: hit.score, lead: lead)
        }
    }

    /// The `wanted` best rows among `filter`'s through the graph (a walk `width` wide, at least `efSearch`) or
    /// the codes, rescored on the vectors in memory.
    private func residentScoredRows(query: [Float], filter: Bitset?, wanted: Int, width: Int) throws -> [ScoredRow] {
        try matrix.withView { view in
            if let hnsw = ann.hnsw {
                return try hnsw.search(
                    query, k: wanted, ef: max(hnsw.parameters.efSearch, width, wanted), filter: filter, vectors: view,
                    guide: ann.guide)
            }
            guard let codes = ann.codes else { return [] }
            return try QuantizedScan(codes: codes).search(query, k: wanted, filter: filter, vectors: view)
        }
    }

    /// The exact best chunk of one document for `query` (the semantic score of a keyword-only candidate),
    /// scored as the semantic arm scores documents (``DocumentScoring``), less `shift`.
    ///
    /// - Complexity: O(chunks of the document × dimension), plus a read per chunk when the vectors are in the
    ///   file.
    func exactBest(slot: Int, query: [Float], shift: LanguageShift? = nil) throws -> DocumentHit? {
        let rows = matrix.rows(ofSlot: slot).map(Int.init)
        guard !rows.isEmpty, query.count == matrix.dimension else { return nil }
        let leadRow = matrix.leadRow(ofSlot: slot).map(Int.init)
        var best: DocumentHit?
        var lead: Float?
        try query.withUnsafeBufferPointer { q in
            guard let qp = q.baseAddress else { return }
            try withRowVectors(rows) { row, vector in
                let score = hush_dot_f32(vector, qp, matrix.dimension)
                if score.isNaN { return }
                if row == leadRow { lead = score }
                if best.map({ score > $0.score }) ?? true {
                    best = DocumentHit(slot: slot, score: score, chunkID: matrix.rowChunk[row])
                }
            }
        }
        if let lead, let hit = best { best?.score = DocumentScoring.blend(best: hit.score, lead: lead) }
        if let shift { best?.score -= shift(slot) }
        return best
    }
}

extension StoreMemory.State {
    /// Drops deleted documents and their chunks from memory and from the index (inside the write transaction);
    /// returns what the transaction must save of the graph.
    mutating func remove(_ removed: [RemovedDocument], policy: IndexPolicy) throws -> GraphWrite {
        if removed.contains(where: { !$0.chunks.isEmpty }) { try makeResident() }
        var freed: [Int32] = []
        for entry in removed {
            for chunk in entry.chunks {
                if let row = matrix.remove(chunkID: chunk) { freed.append(row) }
            }
            documents.remove(rowid: entry.rowid)
        }
        return try followWrite(freed: freed, added: [], policy: policy)
    }
}
