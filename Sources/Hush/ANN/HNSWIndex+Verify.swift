import Foundation

/// The outcome of `HNSWIndex.verify(against:liveRows:)`: what a store must fix after opening a saved graph.
///
/// ```swift
/// let check = index.verify(against: vectorCount)
/// if !check.isConsistent { index = try index.repaired(check, vectors: view) }
/// ```
package struct HNSWVerification: Sendable, Equatable {
    /// Human-readable problems (empty when consistent).
    package var problems: [String] = []
    /// Rows that have vectors but no node (written after the last graph save): insert them.
    package var missingRows: [Int] = []
    /// Nodes that must go (no vector any more, or not live in the store).
    package var extraRows: [Int] = []
    /// The graph cannot be patched (dangling neighbours, bad entry point): rebuild from the vectors.
    package var needsRebuild = false
    /// True when nothing needs fixing.
    package var isConsistent: Bool { problems.isEmpty }
}

extension HNSWIndex {
    func reserveUpper(_ total: Int) {
        guard total > upperCapacity else { return }
        let fresh = UnsafeMutablePointer<UInt32>.allocate(capacity: total)
        fresh.update(from: upper, count: upperUsed)
        (fresh + upperUsed).initialize(repeating: 0, count: total - upperUsed)
        upper.deallocate()
        upper = fresh
        upperCapacity = total
    }

    /// Checks a loaded graph against the vector store: nodes vs vector rows (`liveRows`, when given, are the
    /// rows that should be in the graph; otherwise all of `0..<vectorCount`), entry point valid and on the
    /// top level, no neighbour id out of range or naming a missing node.
    ///
    /// - Complexity: O(n × M0).
    ///
    /// ```swift
    /// let check = index.verify(against: store.vectorCount)
    /// ```
    package func verify(against vectorCount: Int, liveRows: Bitset? = nil) -> HNSWVerification {
        var result = HNSWVerification()
        for row in 0..<vectorCount {
            let wanted = liveRows?.contains(row) ?? true
            let present = contains(row: row) && deletedFlags[row] == 0
            if wanted && !present && !contains(row: row) { result.missingRows.append(row) }
            if !wanted && present { result.extraRows.append(row) }
        }
        for row in vectorCount..<max(vectorCount, slotCount) where contains(row: row) { result.extraRows.append(row) }
        if !result.missingRows.isEmpty {
            result.problems.append("\(result.missingRows.count) vector rows have no graph node")
        }
        if !result.extraRows.isEmpty {
            result.problems.append("\(result.extraRows.count) graph nodes have no live vector row")
        }
        var dangling = 0
        for node in 0..<slotCount where levels[node] >= 0 {
            for l in 0...Int(levels[node]) {
                let list = links(node, l)
                for i in 0..<Int(list[0]) {
                    let other = Int(list[1 + i])
                    if other >= vectorCount || other >= slotCount || Int(levels[other]) < l || other == node {
                        dangling += 1
                    }
                }
            }
        }
        if dangling > 0 {
            result.problems.append("\(dangling) neighbour ids are out of range or name no node")
            result.needsRebuild = true
        }
        if liveCount + deletedCount > 0 {
            if entryPoint < 0 || entryPoint >= slotCount || levels[entryPoint] < 0
                || Int(levels[entryPoint]) != maxLevel || entryPoint >= vectorCount
            {
                result.problems.append("entry point \(entryPoint) is not a node of the top level")
                result.needsRebuild = true
            }
        }
        if result.extraRows.contains(where: { $0 >= vectorCount }) { result.needsRebuild = true }
        return result
    }

    /// Fixes what `verify` found: rebuilds from the vectors when needed, otherwise deletes extra nodes and
    /// inserts missing rows. Returns the index to use (self, or a rebuilt one).
    ///
    /// - Complexity: missing rows × one insertion, or a full build.
    ///
    /// ```swift
    /// index = try index.repaired(check, vectors: view)
    /// ```
    package func repaired(_ verification: HNSWVerification, vectors: VectorView, liveRows: Bitset? = nil) throws
        -> HNSWIndex
    {
        guard !verification.isConsistent else { return self }
        if verification.needsRebuild {
            let rows = (0..<vectors.count).filter { liveRows?.contains($0) ?? true }
            let fresh = try HNSWIndex.build(
                dimension: dimension, parameters: parameters, rows: rows, vectors: vectors)
            fresh.removedRows = RowSet((0..<slotCount).filter { contains(row: $0) && !fresh.contains(row: $0) })
            return fresh
        }
        for row in verification.extraRows { try delete(row: row, vectors: vectors) }
        try insert(rows: verification.missingRows, vectors: vectors)
        return self
    }
}
