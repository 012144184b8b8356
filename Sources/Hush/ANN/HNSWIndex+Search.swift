import HushKernels

extension HNSWIndex {
    /// The `k` live rows most similar to `query`, optionally restricted to `filter`.
    ///
    /// The filter is applied inside the traversal: excluded and tombstoned nodes still route but are not
    /// returned. When the allowed rows are fewer than `parameters.exactFilterFraction` of the live rows, or
    /// the traversal returns fewer than k of them, the allowed rows are scanned exactly instead, so the
    /// result is never short when k live rows are allowed.
    ///
    /// With `guide` (int8 codes of the same rows), the traversal scores nodes on the codes, which are a quarter
    /// of the f32 vectors' bytes, and the `ef` rows it finds are rescored exactly on `vectors`: at a million
    /// vectors, where every visited node is a cache miss, this answers faster at the same ef. Binary codes are
    /// not used as a guide (too coarse to steer the walk).
    ///
    /// - Complexity: about O(ef × M0 × log n × dimension); O(allowed × dimension) for selective filters.
    ///
    /// ```swift
    /// let hits = try index.search(query, k: 10, ef: 64, vectors: view)
    /// let guided = try index.search(query, k: 10, ef: 64, vectors: view, guide: int8Codes)
    /// ```
    package func search(
        _ query: [Float], k: Int, ef: Int? = nil, filter: Bitset? = nil, vectors: VectorView,
        guide: QuantizedMatrix? = nil
    ) throws -> [ScoredRow] {
        guard query.count == dimension else {
            throw ANNError.dimensionMismatch(expected: dimension, actual: query.count)
        }
        guard vectors.dimension == dimension else {
            throw ANNError.dimensionMismatch(expected: dimension, actual: vectors.dimension)
        }
        guard slotCount <= vectors.count else {
            throw ANNError.rowOutOfRange(row: slotCount - 1, count: vectors.count)
        }
        if let guide {
            guard guide.dimension == dimension else {
                throw ANNError.dimensionMismatch(expected: dimension, actual: guide.dimension)
            }
            guard slotCount <= guide.count else {
                throw ANNError.rowOutOfRange(row: slotCount - 1, count: guide.count)
            }
        }
        guard k > 0, liveCount > 0, entryPoint >= 0 else { return [] }
        return query.withUnsafeBufferPointer { buffer -> [ScoredRow] in
            guard let q = buffer.baseAddress else { return [] }
            if let filter,
                Double(filter.allowedCount) < parameters.exactFilterFraction * Double(liveCount)
                    || filter.allowedCount <= k
            {
                return exactAllowed(q, k: k, filter: filter, vectors: vectors)
            }
            let context = pool.borrow()
            defer { pool.giveBack(context) }
            let width = max(ef ?? parameters.efSearch, k)
            let hits: [ScoredRow]
            if let guide, case .int8(let quantizer) = guide.encoding {
                let (codes, _) = quantizer.encodeQuery(query)
                hits = codes.withUnsafeBufferPointer { codeBuffer in
                    guide.int8Codes.withUnsafeBufferPointer { matrix in
                        guide.rowScales.withUnsafeBufferPointer { scales in
                            guard let qc = codeBuffer.baseAddress, let base = matrix.baseAddress else { return [] }
                            let scorer = Int8Scorer(
                                codes: base, rowScales: quantizer.calibration == .perVector ? scales.baseAddress : nil,
                                query: qc, dimension: dimension)
                            walk(scorer, ef: width, context: context, filter: filter)
                            return rescored(q, k: k, context: context, vectors: vectors)
                        }
                    }
                }
            } else {
                walk(F32Scorer(vectors: vectors, query: q), ef: width, context: context, filter: filter)
                while context.results.count > k { _ = context.results.pop() }
                hits = context.results.sortedRows()
            }
            if hits.count < k, let filter {
                let possible = allowedLiveCount(filter, limit: k)
                if hits.count < possible { return exactAllowed(q, k: k, filter: filter, vectors: vectors) }
            }
            return hits
        }
    }

    /// Greedy descent through the upper levels, then the layer-0 search, leaving the ef best returnable rows
    /// (by `scorer`) in `context.results`.
    @inline(__always)
    func walk<Scorer: NodeScorer>(_ scorer: Scorer, ef: Int, context: HNSWSearchContext, filter: Bitset?) {
        var current = entryPoint
        var currentScore = scorer.score(current)
        if maxLevel > 0 {
            for level in stride(from: maxLevel, to: 0, by: -1) {
                greedy(scorer, from: &current, score: &currentScore, level: level)
            }
        }
        searchLayer(
            scorer, entry: current, entryScore: currentScore, ef: ef, level: 0, context: context, filter: filter,
            returnDeleted: false)
    }

    /// The best `k` of the rows in `context.results`, rescored with the exact f32 dot product.
    func rescored(_ q: UnsafePointer<Float>, k: Int, context: HNSWSearchContext, vectors: VectorView) -> [ScoredRow] {
        var found = context.results
        context.results = TopK(capacity: 0)
        defer { context.results = found }
        var rows: [Int] = []
        rows.reserveCapacity(found.count)
        while let worst = found.pop() { rows.append(worst.id) }
        for row in rows { hush_prefetch(vectors.row(row), dimension * 4) }
        var top = TopK(capacity: k)
        for row in rows { top.offer(id: row, score: hush_dot_f32(vectors.row(row), q, dimension)) }
        return top.sortedRows()
    }

    /// Live rows of `filter`, counted up to `limit`.
    func allowedLiveCount(_ filter: Bitset, limit: Int) -> Int {
        var n = 0
        filter.forEachAllowed { row in
            if n < limit, row < slotCount, levels[row] >= 0, deletedFlags[row] == 0 { n += 1 }
        }
        return n
    }

    /// Exact scan of the allowed live rows.
    func exactAllowed(_ q: UnsafePointer<Float>, k: Int, filter: Bitset, vectors: VectorView) -> [ScoredRow] {
        var live = Bitset(count: min(slotCount, vectors.count))
        filter.forEachAllowed { row in
            if row < live.count, levels[row] >= 0, deletedFlags[row] == 0 { live.insert(row) }
        }
        return ExactScan.search(q, k: k, filter: live, vectors: vectors)
    }

    /// Greedy walk on one upper level (ef = 1).
    @inline(__always)
    func greedy<Scorer: NodeScorer>(_ scorer: Scorer, from current: inout Int, score: inout Float, level: Int) {
        var changed = true
        while changed {
            changed = false
            let list = links(current, level)
            let n = Int(list[0])
            for i in 0..<n {
                let node = Int(list[1 + i])
                let s = scorer.score(node)
                if s > score {
                    score = s
                    current = node
                    changed = true
                }
            }
        }
    }

    /// Algorithm 2 (SEARCH-LAYER) from one entry point; leaves the ef best returnable nodes in
    /// `context.results`. Nodes that are tombstoned (unless `returnDeleted`) or outside `filter` route but are
    /// not returned.
    func searchLayer<Scorer: NodeScorer>(
        _ scorer: Scorer, entry: Int, entryScore: Float, ef: Int, level: Int, context: HNSWSearchContext,
        filter: Bitset?, returnDeleted: Bool
    ) {
        context.begin(nodes: slotCount, ef: ef)
        let deleted = deletedFlags
        // Without tombstones every node is returnable: skip reading the flags (a cache miss per node at scale).
        let returnAll = returnDeleted || deletedCount == 0
        // The heaps and the visited set are moved into locals for the loop (no dynamic exclusivity checks on
        // class properties).
        var candidates = context.candidates
        var results = context.results
        var visited = context.visited
        context.candidates = CandidateQueue()
        context.results = TopK(capacity: 0)
        defer {
            context.candidates = candidates
            context.results = results
            context.visited = visited
        }
        _ = visited.insert(entry)
        candidates.offer(id: entry, score: entryScore)
        if (returnAll || deleted[entry] == 0) && (filter?.contains(entry) ?? true) {
            results.offer(id: entry, score: entryScore)
        }
        while let candidate = candidates.pop() {
            if results.isFull && candidate.score < results.threshold { break }
            let list = links(candidate.id, level)
            let n = Int(list[0])
            // Start loading every unvisited neighbour before scoring the first one, so the memory latency of
            // the whole list overlaps (as hnswlib does).
            for i in 0..<n {
                let node = Int(list[1 + i])
                if !visited.contains(node) { scorer.prefetch(node) }
            }
            for i in 0..<n {
                let node = Int(list[1 + i])
                guard visited.insert(node) else { continue }
                let s = scorer.score(node)
                if !results.isFull || s > results.threshold {
                    candidates.offer(id: node, score: s)
                    // Its list will be read if it is expanded: start loading it now (hnswlib keeps lists
                    // beside vectors for the same reason).
                    prefetchLinks(node, level)
                    if (returnAll || deleted[node] == 0) && (filter?.contains(node) ?? true) {
                        results.offer(id: node, score: s)
                    }
                }
            }
        }
    }
}

/// How a traversal scores a node against its query (specialised per type, so the calls inline).
protocol NodeScorer {
    /// Similarity of `node` to the query (higher is closer).
    func score(_ node: Int) -> Float
    /// Starts loading what `score` will read for `node`.
    func prefetch(_ node: Int)
}

/// Exact f32 dot products.
struct F32Scorer: NodeScorer {
    let vectors: VectorView
    let query: UnsafePointer<Float>

    @inline(__always) func score(_ node: Int) -> Float {
        hush_dot_f32(vectors.row(node), query, vectors.dimension)
    }

    @inline(__always) func prefetch(_ node: Int) { hush_prefetch(vectors.row(node), vectors.dimension * 4) }
}

/// Approximate dot products on int8 codes (times the row's scale for per-vector codes).
struct Int8Scorer: NodeScorer {
    let codes: UnsafePointer<Int8>
    let rowScales: UnsafePointer<Float>?
    let query: UnsafePointer<Int8>
    let dimension: Int

    @inline(__always) func score(_ node: Int) -> Float {
        let dot = Float(hush_dot_i8(codes + node * dimension, query, dimension))
        guard let rowScales else { return dot }
        return dot * rowScales[node]
    }

    @inline(__always) func prefetch(_ node: Int) { hush_prefetch(codes + node * dimension, dimension) }
}
