import HushKernels

extension HNSWIndex {
    /// Inserts `row` (Algorithm 1): draws its level, descends greedily, links it on each of its levels to
    /// neighbours chosen by the heuristic of Algorithm 4, and shrinks neighbours' lists that overflow.
    ///
    /// - Complexity: about O(efConstruction × M0 × log n × dimension).
    ///
    /// ```swift
    /// try index.insert(row: view.count - 1, vectors: view)
    /// ```
    public func insert(row: Int, vectors: VectorView) throws {
        try checkVectors(vectors, covering: row)
        guard row >= 0 else { throw ANNError.rowOutOfRange(row: row, count: vectors.count) }
        guard !contains(row: row) else {
            throw ANNError.invalidParameter(
                name: "row", value: "\(row)", allowed: "a row not yet in the graph (delete and compact() first)")
        }
        let level = parameters.level(of: row)
        allocateNode(row, level: level)
        liveCount += 1
        dirtyRows.insert(row)
        removedRows.remove(row)
        guard entryPoint >= 0 else {
            entryPoint = row
            maxLevel = level
            return
        }
        let q = vectors.row(row)
        var current = entryPoint
        var currentScore = hush_dot_f32(vectors.row(current), q, dimension)
        if maxLevel > level {
            for l in stride(from: maxLevel, to: level, by: -1) {
                greedy(q, from: &current, score: &currentScore, level: l, vectors: vectors)
            }
        }
        let context = pool.borrow()
        defer { pool.giveBack(context) }
        for l in stride(from: min(level, maxLevel), through: 0, by: -1) {
            searchLayer(
                q, entry: current, entryScore: currentScore, ef: parameters.efConstruction, level: l,
                vectors: vectors, context: context, filter: nil, returnDeleted: true)
            let found = context.results.sorted()
            if let best = found.first {
                current = best.row
                currentScore = best.score
            }
            var ids: [Int32] = []
            var scores: [Float] = []
            ids.reserveCapacity(found.count)
            scores.reserveCapacity(found.count)
            for hit in found where hit.row != row && deletedFlags[hit.row] == 0 {
                ids.append(Int32(hit.row))
                scores.append(hit.score)
            }
            let selected = selectNeighbours(ids: ids, scores: scores, m: parameters.M, vectors: vectors)
            setLinks(row, l, selected.ids[...])
            for (i, neighbour) in selected.ids.enumerated() {
                connect(Int(neighbour), to: row, score: selected.scores[i], level: l, vectors: vectors)
            }
        }
        if level > maxLevel {
            maxLevel = level
            entryPoint = row
        }
    }

    /// Inserts every row of `rows` not yet in the graph, in order.
    ///
    /// - Complexity: rows × the cost of `insert(row:vectors:)`.
    ///
    /// ```swift
    /// try index.insert(rows: 0..<view.count, vectors: view)
    /// ```
    public func insert<Rows: Sequence<Int>>(rows: Rows, vectors: VectorView) throws {
        for row in rows where !contains(row: row) { try insert(row: row, vectors: vectors) }
    }

    /// Builds a graph over `rows` of `vectors`.
    ///
    /// - Complexity: rows × the cost of one insertion.
    ///
    /// ```swift
    /// let index = try matrix.withView { try HNSWIndex.build(dimension: 384, rows: 0..<$0.count, vectors: $0) }
    /// ```
    public static func build<Rows: Sequence<Int>>(
        dimension: Int, parameters: HNSWParameters = HNSWParameters(), rows: Rows, vectors: VectorView
    ) throws -> HNSWIndex {
        let index = try HNSWIndex(dimension: dimension, parameters: parameters)
        try index.insert(rows: rows, vectors: vectors)
        return index
    }

    /// Adds `new` to `node`'s list on `level`, shrinking with the heuristic when it overflows.
    func connect(_ node: Int, to new: Int, score: Float, level: Int, vectors: VectorView) {
        let list = links(node, level)
        let count = Int(list[0])
        let limit = maxDegree(level)
        dirtyRows.insert(node)
        for i in 0..<count where Int(list[1 + i]) == new { return }
        if count < limit {
            list[1 + count] = UInt32(new)
            list[0] = UInt32(count + 1)
            return
        }
        var entries: [(Int32, Float)] = [(Int32(new), score)]
        entries.reserveCapacity(count + 1)
        for i in 0..<count {
            let other = Int(list[1 + i])
            entries.append((Int32(other), similarity(node, other, vectors)))
        }
        entries.sort { $0.1 > $1.1 }
        let selected = selectNeighbours(
            ids: entries.map(\.0), scores: entries.map(\.1), m: limit, vectors: vectors)
        setLinks(node, level, selected.ids[...])
    }

    /// Algorithm 4 (SELECT-NEIGHBORS-HEURISTIC) on candidates sorted best first: keep a candidate only when
    /// it is closer to the base than to every neighbour already kept; optionally fill up with pruned ones.
    func selectNeighbours(ids: [Int32], scores: [Float], m: Int, vectors: VectorView) -> (ids: [Int32], scores: [Float])
    {
        if ids.count <= m && !parameters.keepPrunedConnections && ids.count <= 1 { return (ids, scores) }
        var keptIds: [Int32] = []
        var keptScores: [Float] = []
        var prunedIds: [Int32] = []
        var prunedScores: [Float] = []
        keptIds.reserveCapacity(m)
        keptScores.reserveCapacity(m)
        for (i, id) in ids.enumerated() {
            if keptIds.count >= m { break }
            let candidate = vectors.row(Int(id))
            var good = true
            for kept in keptIds where hush_dot_f32(candidate, vectors.row(Int(kept)), dimension) > scores[i] {
                good = false
                break
            }
            if good {
                keptIds.append(id)
                keptScores.append(scores[i])
            } else if parameters.keepPrunedConnections {
                prunedIds.append(id)
                prunedScores.append(scores[i])
            }
        }
        var p = 0
        while keptIds.count < m && p < prunedIds.count {
            keptIds.append(prunedIds[p])
            keptScores.append(prunedScores[p])
            p += 1
        }
        return (keptIds, keptScores)
    }
}
