extension HNSWIndex {
    /// Structural checks (tests and debug builds): degree bounds (≤ M above layer 0, ≤ M0 on it), entry point
    /// on the top level, every neighbour a node of that level, no self loops, no duplicates, counters right.
    /// Returns the problems found (empty when the graph is sound).
    ///
    /// - Complexity: O(n × M0).
    ///
    /// ```swift
    /// assert(index.checkInvariants().isEmpty)
    /// ```
    package func checkInvariants() -> [String] {
        var problems: [String] = []
        var live = 0
        var deleted = 0
        var top = -1
        for node in 0..<slotCount where levels[node] >= 0 {
            let level = Int(levels[node])
            top = max(top, level)
            if deletedFlags[node] != 0 { deleted += 1 } else { live += 1 }
            for l in 0...level {
                let list = neighbours(of: node, level: l)
                if list.count > maxDegree(l) {
                    problems.append("row \(node) has \(list.count) neighbours on level \(l) (max \(maxDegree(l)))")
                }
                if list.contains(node) { problems.append("row \(node) links to itself on level \(l)") }
                if Set(list).count != list.count {
                    problems.append("row \(node) lists a neighbour twice on level \(l)")
                }
                for other in list where other >= slotCount || levels[other] < l {
                    problems.append("row \(node) links to \(other), which is not on level \(l)")
                }
            }
            if problems.count > 50 { break }
        }
        if live != liveCount { problems.append("liveCount \(liveCount) but \(live) live nodes") }
        if deleted != deletedCount { problems.append("deletedCount \(deletedCount) but \(deleted) tombstones") }
        if top != maxLevel { problems.append("maxLevel \(maxLevel) but the highest node level is \(top)") }
        if top >= 0 {
            if entryPoint < 0 || entryPoint >= slotCount || levels[entryPoint] < 0 {
                problems.append("entry point \(entryPoint) is not a node")
            } else if Int(levels[entryPoint]) != maxLevel {
                problems.append("entry point \(entryPoint) is on level \(levels[entryPoint]), not the top \(maxLevel)")
            }
        } else if entryPoint != -1 {
            problems.append("empty graph with entry point \(entryPoint)")
        }
        return problems
    }
}
