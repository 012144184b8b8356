/// One search hit: a row id of the vector store and its cosine similarity (dot product of unit vectors).
///
/// ```swift
/// let best: ScoredRow = hits[0]
/// print(best.row, best.score)
/// ```
package struct ScoredRow: Sendable, Equatable, Hashable {
    /// Row id in the vector store.
    package var row: Int
    /// Similarity to the query (higher is closer).
    package var score: Float

    /// A hit for `row` with `score`.
    ///
    /// ```swift
    /// let hit = ScoredRow(row: 3, score: 0.9)
    /// ```
    package init(row: Int, score: Float) {
        self.row = row
        self.score = score
    }
}

/// Bounded selection of the k best (highest score) rows: a min-heap of size k, no allocation after init.
struct RowTopK {
    private(set) var scores: [Float]
    private(set) var rows: [Int32]
    private(set) var capacity: Int

    init(capacity: Int) {
        self.capacity = max(0, capacity)
        scores = []
        rows = []
        // The capacity may be far larger than the rows that will come: grow on demand past a few thousand.
        scores.reserveCapacity(min(self.capacity, 4096))
        rows.reserveCapacity(min(self.capacity, 4096))
    }

    var count: Int { scores.count }
    var isFull: Bool { scores.count >= capacity }
    /// The worst kept score (only meaningful when full).
    var threshold: Float { scores.isEmpty ? -.infinity : scores[0] }

    mutating func removeAll(capacity newCapacity: Int? = nil) {
        scores.removeAll(keepingCapacity: true)
        rows.removeAll(keepingCapacity: true)
        if let newCapacity { capacity = max(0, newCapacity) }
    }

    /// Removes and returns the worst kept entry.
    mutating func popWorst() -> (row: Int, score: Float)? {
        guard !scores.isEmpty else { return nil }
        let worst = (Int(rows[0]), scores[0])
        let last = scores.count - 1
        scores.swapAt(0, last)
        rows.swapAt(0, last)
        scores.removeLast()
        rows.removeLast()
        if !scores.isEmpty { siftDown(0) }
        return worst
    }

    @inline(__always) mutating func offer(row: Int, score: Float) {
        if scores.count < capacity {
            scores.append(score)
            rows.append(Int32(truncatingIfNeeded: row))
            siftUp(scores.count - 1)
        } else if capacity > 0, score > scores[0] {
            scores[0] = score
            rows[0] = Int32(truncatingIfNeeded: row)
            siftDown(0)
        }
    }

    /// Kept rows, best first.
    func sorted() -> [ScoredRow] {
        var out = (0..<scores.count).map { ScoredRow(row: Int(rows[$0]), score: scores[$0]) }
        out.sort { $0.score != $1.score ? $0.score > $1.score : $0.row < $1.row }
        return out
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            if scores[child] < scores[parent] {
                scores.swapAt(child, parent)
                rows.swapAt(child, parent)
                child = parent
            } else {
                return
            }
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        let n = scores.count
        while true {
            let left = 2 * parent + 1
            if left >= n { return }
            var smallest = left
            if left + 1 < n, scores[left + 1] < scores[left] { smallest = left + 1 }
            if scores[smallest] < scores[parent] {
                scores.swapAt(smallest, parent)
                rows.swapAt(smallest, parent)
                parent = smallest
            } else {
                return
            }
        }
    }
}
