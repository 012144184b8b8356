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
    package func insert(row: Int, vectors: VectorView) throws {
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
                greedy(F32Scorer(vectors: vectors, query: q), from: &current, score: &currentScore, level: l)
            }
        }
        let context = pool.borrow()
        var scratch = context.scratch
        context.scratch = HNSWScratch()
        defer {
            context.scratch = scratch
            pool.giveBack(context)
        }
        for l in stride(from: min(level, maxLevel), through: 0, by: -1) {
            searchLayer(
                F32Scorer(vectors: vectors, query: q), entry: current, entryScore: currentScore,
                ef: parameters.efConstruction, level: l, context: context, filter: nil, returnDeleted: true)
            chooseLinks(
                for: row, context: context, scratch: &scratch, entry: &current, entryScore: &currentScore,
                vectors: vectors)
            setLinks(row, l, scratch.linkIds[...])
            for i in 0..<scratch.linkIds.count {
                connect(
                    Int(scratch.linkIds[i]), to: row, score: scratch.linkScores[i], level: l, vectors: vectors,
                    scratch: &scratch)
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
    package func insert<Rows: Sequence<Int>>(rows: Rows, vectors: VectorView) throws {
        for row in rows where !contains(row: row) { try insert(row: row, vectors: vectors) }
    }

    /// Builds a graph over `rows` of `vectors`.
    ///
    /// - Complexity: rows × the cost of one insertion.
    ///
    /// ```swift
    /// let index = try matrix.withView { try HNSWIndex.build(dimension: 384, rows: 0..<$0.count, vectors: $0) }
    /// ```
    package static func build<Rows: Sequence<Int>>(
        dimension: Int, parameters: HNSWParameters = HNSWParameters(), rows: Rows, vectors: VectorView
    ) throws -> HNSWIndex {
        let index = try HNSWIndex(dimension: dimension, parameters: parameters)
        try index.insert(rows: rows, vectors: vectors)
        return index
    }

    /// Adds `new` to `node`'s list on `level`, shrinking with the heuristic when it overflows, and marks
    /// `node` for the next incremental save.
    func connect(_ node: Int, to new: Int, score: Float, level: Int, vectors: VectorView, scratch: inout HNSWScratch) {
        dirtyRows.insert(node)
        connectUnmarked(node, to: new, score: score, level: level, vectors: vectors, scratch: &scratch)
    }

    /// `connect` without marking the node dirty (the parallel build marks every node at the end).
    func connectUnmarked(
        _ node: Int, to new: Int, score: Float, level: Int, vectors: VectorView, scratch: inout HNSWScratch
    ) {
        let list = links(node, level)
        let count = Int(list[0])
        let limit = maxDegree(level)
        for i in 0..<count where Int(list[1 + i]) == new { return }
        if count < limit {
            list[1 + count] = UInt32(new)
            list[0] = UInt32(count + 1)
            return
        }
        scratch.clearCandidates()
        scratch.insertCandidate(Int32(new), score)
        let base = vectors.row(node)
        for i in 0..<count { hush_prefetch(vectors.row(Int(list[1 + i])), dimension * 4) }
        for i in 0..<count {
            let other = Int(list[1 + i])
            scratch.insertCandidate(Int32(other), hush_dot_f32(base, vectors.row(other), dimension))
        }
        selectHeuristic(&scratch, m: limit, vectors: vectors)
        list[0] = UInt32(scratch.keptIds.count)
        for (i, id) in scratch.keptIds.enumerated() { list[1 + i] = UInt32(id) }
    }

    /// After `row`'s search of one layer (results in `context.results`): the best row found becomes `entry`
    /// for the next layer down, and the heuristic's choice among the rows found, self and tombstones excluded,
    /// fills `scratch.linkIds`/`linkScores`.
    func chooseLinks(
        for row: Int, context: HNSWSearchContext, scratch: inout HNSWScratch, entry: inout Int,
        entryScore: inout Float, vectors: VectorView
    ) {
        var results = context.results
        context.results = TopK(capacity: 0)
        let found = scratch.takeCandidates(from: &results)
        context.results = results
        if found > 0 {
            entry = Int(scratch.candIds[0])
            entryScore = scratch.candScores[0]
        }
        var kept = 0
        for i in 0..<found where Int(scratch.candIds[i]) != row && deletedFlags[Int(scratch.candIds[i])] == 0 {
            scratch.candIds[kept] = scratch.candIds[i]
            scratch.candScores[kept] = scratch.candScores[i]
            kept += 1
        }
        scratch.candIds.removeLast(found - kept)
        scratch.candScores.removeLast(found - kept)
        selectHeuristic(&scratch, m: parameters.M, vectors: vectors)
        scratch.linkIds.removeAll(keepingCapacity: true)
        scratch.linkScores.removeAll(keepingCapacity: true)
        scratch.linkIds.append(contentsOf: scratch.keptIds)
        scratch.linkScores.append(contentsOf: scratch.keptScores)
    }

    /// Algorithm 4 on `scratch.cand*` (sorted best first) into `scratch.kept*`, without allocating: keep a
    /// candidate only when it is closer to the base than to every neighbour already kept; optionally fill up
    /// with pruned ones. Same rule as `selectNeighbours`.
    func selectHeuristic(_ scratch: inout HNSWScratch, m: Int, vectors: VectorView) {
        scratch.keptIds.removeAll(keepingCapacity: true)
        scratch.keptScores.removeAll(keepingCapacity: true)
        scratch.prunedIds.removeAll(keepingCapacity: true)
        scratch.prunedScores.removeAll(keepingCapacity: true)
        let n = scratch.candIds.count
        if n <= 1 && !parameters.keepPrunedConnections {
            scratch.keptIds.append(contentsOf: scratch.candIds)
            scratch.keptScores.append(contentsOf: scratch.candScores)
            return
        }
        for i in 0..<n {
            if scratch.keptIds.count >= m { break }
            let id = scratch.candIds[i]
            let score = scratch.candScores[i]
            let candidate = vectors.row(Int(id))
            var good = true
            for kept in scratch.keptIds where hush_dot_f32(candidate, vectors.row(Int(kept)), dimension) > score {
                good = false
                break
            }
            if good {
                scratch.keptIds.append(id)
                scratch.keptScores.append(score)
            } else if parameters.keepPrunedConnections {
                scratch.prunedIds.append(id)
                scratch.prunedScores.append(score)
            }
        }
        var p = 0
        while scratch.keptIds.count < m && p < scratch.prunedIds.count {
            scratch.keptIds.append(scratch.prunedIds[p])
            scratch.keptScores.append(scratch.prunedScores[p])
            p += 1
        }
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
