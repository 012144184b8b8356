extension HNSWIndex {
    /// Tombstones `row`: it keeps routing searches but is never returned. Each live neighbour's list is
    /// repaired at once (the deleted row is replaced by the heuristic's pick among both lists), so routing
    /// does not depend on tombstones for long; `compact()` then removes them from the graph.
    ///
    /// - Complexity: O(level × M0² × dimension).
    ///
    /// ```swift
    /// try index.delete(row: 7, vectors: view)
    /// ```
    package func delete(row: Int, vectors: VectorView) throws {
        guard contains(row: row) else { throw ANNError.rowOutOfRange(row: row, count: slotCount) }
        try checkVectors(vectors, covering: slotCount - 1)
        guard deletedFlags[row] == 0 else { return }
        deletedFlags[row] = 1
        liveCount -= 1
        deletedCount += 1
        dirtyRows.insert(row)
        for level in 0...Int(levels[row]) {
            for neighbour in neighbours(of: row, level: level)
            where deletedFlags[neighbour] == 0 && Int(levels[neighbour]) >= level {
                let current = neighbours(of: neighbour, level: level)
                guard current.contains(row) else { continue }
                var pool = current.filter { $0 != row && deletedFlags[$0] == 0 }
                for other in neighbours(of: row, level: level)
                where other != neighbour && deletedFlags[other] == 0 && !pool.contains(other) {
                    pool.append(other)
                }
                relink(neighbour, level: level, candidates: pool, vectors: vectors)
            }
        }
    }

    /// Removes tombstoned rows from the graph: every list that names one is rebuilt from its live entries
    /// and the live neighbours of the removed ones (Algorithm 4), then the tombstones become free slots and
    /// a new entry point is chosen if needed.
    ///
    /// - Complexity: O(n × M0) scan plus O(affected lists × M0² × dimension).
    ///
    /// ```swift
    /// if index.deletedCount > index.liveCount / 10 { try index.compact(vectors: view) }
    /// ```
    package func compact(vectors: VectorView) throws {
        guard deletedCount > 0 else { return }
        try checkVectors(vectors, covering: slotCount - 1)
        for node in 0..<slotCount where levels[node] >= 0 && deletedFlags[node] == 0 {
            for level in 0...Int(levels[node]) {
                let current = neighbours(of: node, level: level)
                guard current.contains(where: { deletedFlags[$0] != 0 }) else { continue }
                var pool = current.filter { deletedFlags[$0] == 0 }
                for gone in current where deletedFlags[gone] != 0 {
                    for other in neighbours(of: gone, level: level)
                    where other != node && deletedFlags[other] == 0 && !pool.contains(other) {
                        pool.append(other)
                    }
                }
                relink(node, level: level, candidates: pool, vectors: vectors)
            }
        }
        var newEntry = -1
        var newMax = -1
        for node in 0..<slotCount where levels[node] >= 0 {
            if deletedFlags[node] != 0 {
                levels[node] = -1
                deletedFlags[node] = 0
                layer0[node * stride0] = 0
                upperOffset[node] = -1
                dirtyRows.remove(node)
                removedRows.insert(node)
            } else if Int(levels[node]) > newMax {
                newMax = Int(levels[node])
                newEntry = node
            }
        }
        deletedCount = 0
        if entryPoint < 0 || levels[entryPoint] < 0 || Int(levels[entryPoint]) < newMax {
            entryPoint = newEntry
        }
        maxLevel = newMax
        while slotCount > 0 && levels[slotCount - 1] < 0 { slotCount -= 1 }
    }

    /// A fresh graph of the live rows, built with the same parameters (reclaims all freed space).
    ///
    /// - Complexity: live rows × the cost of one insertion.
    ///
    /// ```swift
    /// let fresh = try index.rebuilt(vectors: view)
    /// ```
    package func rebuilt(vectors: VectorView) throws -> HNSWIndex {
        let rows = (0..<slotCount).filter { levels[$0] >= 0 && deletedFlags[$0] == 0 }
        return try HNSWIndex.build(dimension: dimension, parameters: parameters, rows: rows, vectors: vectors)
    }

    /// Replaces `node`'s list on `level` with the heuristic's choice among `candidates`.
    func relink(_ node: Int, level: Int, candidates: [Int], vectors: VectorView) {
        var scored = candidates.filter { $0 != node }.map { (Int32($0), similarity(node, $0, vectors)) }
        scored.sort { $0.1 > $1.1 }
        let selected = selectNeighbours(
            ids: scored.map(\.0), scores: scored.map(\.1), m: maxDegree(level), vectors: vectors)
        setLinks(node, level, selected.ids[...])
        dirtyRows.insert(node)
    }
}
