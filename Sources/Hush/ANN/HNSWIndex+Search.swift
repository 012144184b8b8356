import HushKernels

extension HNSWIndex {
    /// The `k` live rows most similar to `query`, optionally restricted to `filter`.
    ///
    /// The filter is applied inside the traversal: excluded and tombstoned nodes still route but are not
    /// returned. When the allowed rows are fewer than `parameters.exactFilterFraction` of the live rows, or
    /// the traversal returns fewer than k of them, the allowed rows are scanned exactly instead, so the
    /// result is never short when k live rows are allowed.
    ///
    /// - Complexity: about O(ef × M0 × log n × dimension); O(allowed × dimension) for selective filters.
    ///
    /// ```swift
    /// let hits = try index.search(query, k: 10, ef: 64, vectors: view)
    /// ```
    public func search(_ query: [Float], k: Int, ef: Int? = nil, filter: RowBitmap? = nil, vectors: VectorView)
        throws -> [ScoredRow]
    {
        guard query.count == dimension else {
            throw ANNError.dimensionMismatch(expected: dimension, actual: query.count)
        }
        guard vectors.dimension == dimension else {
            throw ANNError.dimensionMismatch(expected: dimension, actual: vectors.dimension)
        }
        guard slotCount <= vectors.count else {
            throw ANNError.rowOutOfRange(row: slotCount - 1, count: vectors.count)
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
            var current = entryPoint
            var currentScore = hush_dot_f32(vectors.row(current), q, dimension)
            if maxLevel > 0 {
                for level in stride(from: maxLevel, to: 0, by: -1) {
                    greedy(q, from: &current, score: &currentScore, level: level, vectors: vectors)
                }
            }
            searchLayer(
                q, entry: current, entryScore: currentScore, ef: max(ef ?? parameters.efSearch, k), level: 0,
                vectors: vectors, context: context, filter: filter, returnDeleted: false)
            while context.results.count > k { _ = context.results.popWorst() }
            let hits = context.results.sorted()
            if hits.count < k, let filter {
                let possible = allowedLiveCount(filter, limit: k)
                if hits.count < possible { return exactAllowed(q, k: k, filter: filter, vectors: vectors) }
            }
            return hits
        }
    }

    /// Live rows of `filter`, counted up to `limit`.
    func allowedLiveCount(_ filter: RowBitmap, limit: Int) -> Int {
        var n = 0
        filter.forEachAllowed { row in
            if n < limit, row < slotCount, levels[row] >= 0, deletedFlags[row] == 0 { n += 1 }
        }
        return n
    }

    /// Exact scan of the allowed live rows.
    func exactAllowed(_ q: UnsafePointer<Float>, k: Int, filter: RowBitmap, vectors: VectorView) -> [ScoredRow] {
        var top = RowTopK(capacity: k)
        filter.forEachAllowed { row in
            guard row < slotCount, levels[row] >= 0, deletedFlags[row] == 0 else { return }
            top.offer(row: row, score: hush_dot_f32(vectors.row(row), q, dimension))
        }
        return top.sorted()
    }

    /// Greedy walk on one upper level (ef = 1).
    @inline(__always)
    func greedy(_ q: UnsafePointer<Float>, from current: inout Int, score: inout Float, level: Int, vectors: VectorView)
    {
        var changed = true
        while changed {
            changed = false
            let list = links(current, level)
            let n = Int(list[0])
            for i in 0..<n {
                let node = Int(list[1 + i])
                let s = hush_dot_f32(vectors.row(node), q, dimension)
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
    func searchLayer(
        _ q: UnsafePointer<Float>, entry: Int, entryScore: Float, ef: Int, level: Int, vectors: VectorView,
        context: HNSWSearchContext, filter: RowBitmap?, returnDeleted: Bool
    ) {
        context.begin(nodes: slotCount, ef: ef)
        let generation = context.generation
        let dim = dimension
        let deleted = deletedFlags
        // The heaps are moved into locals for the loop (no dynamic exclusivity checks on class properties).
        var candidates = context.candidates
        var results = context.results
        context.candidates = CandidateHeap()
        context.results = RowTopK(capacity: 0)
        defer {
            context.candidates = candidates
            context.results = results
        }
        context.visited.withUnsafeMutableBufferPointer { visitedBuffer in
            guard let visited = visitedBuffer.baseAddress else { return }
            visited[entry] = generation
            candidates.push(entry, entryScore)
            if (returnDeleted || deleted[entry] == 0) && (filter?.contains(entry) ?? true) {
                results.offer(row: entry, score: entryScore)
            }
            while let candidate = candidates.pop() {
                if results.isFull && candidate.score < results.threshold { break }
                let list = links(candidate.node, level)
                let n = Int(list[0])
                // Start loading every unvisited neighbour's vector before scoring the first one, so the
                // memory latency of the whole list overlaps (as hnswlib does).
                for i in 0..<n {
                    let node = Int(list[1 + i])
                    if visited[node] != generation { hush_prefetch(vectors.row(node), dim * 4) }
                }
                for i in 0..<n {
                    let node = Int(list[1 + i])
                    if visited[node] == generation { continue }
                    visited[node] = generation
                    let s = hush_dot_f32(vectors.row(node), q, dim)
                    if !results.isFull || s > results.threshold {
                        candidates.push(node, s)
                        // Its list will be read if it is expanded: start loading it now (hnswlib keeps lists
                        // beside vectors for the same reason).
                        prefetchLinks(node, level)
                        if (returnDeleted || deleted[node] == 0) && (filter?.contains(node) ?? true) {
                            results.offer(row: node, score: s)
                        }
                    }
                }
            }
        }
    }
}
