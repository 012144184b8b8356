/// Which entry a ``ScoreHeap`` keeps on top.
protocol HeapOrder {
    /// Whether `(a, aID)` belongs above `(b, bID)`.
    static func above(_ a: Float, _ aID: Int32, _ b: Float, _ bID: Int32) -> Bool
}

/// The worst entry on top: a bounded heap of the k best (``TopK``). Of equal scores the larger id is worse,
/// so results are deterministic.
enum WorstOnTop: HeapOrder {
    @inline(__always)
    static func above(_ a: Float, _ aID: Int32, _ b: Float, _ bID: Int32) -> Bool {
        a < b || (a == b && aID > bID)
    }
}

/// The best entry on top: a queue that hands out the closest candidate first (the HNSW walk).
enum BestOnTop: HeapOrder {
    @inline(__always)
    static func above(_ a: Float, _ aID: Int32, _ b: Float, _ bID: Int32) -> Bool {
        a > b || (a == b && aID < bID)
    }
}

/// The one binary heap of Hush: `(score, id)` pairs in two parallel arrays, ordered by `Order`, with an
/// optional capacity. As ``TopK`` (worst on top, bounded) it selects the k best of a stream in O(n log k)
/// without a full sort: scans, the HNSW result list, related items, the per-document top of a query. As
/// ``CandidateQueue`` (best on top, unbounded) it is the HNSW walk's frontier. No allocation after the
/// first fill when reused through ``removeAll(capacity:)``.
///
/// ```swift
/// var top = TopK(capacity: 3)
/// for (row, score) in [(0, 0.2), (1, 0.9), (2, 0.5), (3, 0.7)] { top.offer(id: row, score: Float(score)) }
/// top.sorted().map(\.id)  // [1, 3, 2]
/// ```
struct ScoreHeap<Order: HeapOrder> {
    private(set) var scores: [Float] = []
    private(set) var ids: [Int32] = []
    /// The most entries kept; `Int.max` for a queue without a bound.
    private(set) var capacity: Int

    init(capacity: Int = .max) {
        self.capacity = max(0, capacity)
        // The capacity may be far larger than what will come: grow on demand past a few thousand.
        scores.reserveCapacity(min(self.capacity, 4096))
        ids.reserveCapacity(min(self.capacity, 4096))
    }

    var count: Int { scores.count }
    var isEmpty: Bool { scores.isEmpty }
    var isFull: Bool { scores.count >= capacity }
    /// The score a new entry must beat once the heap is full (`-infinity` before).
    var threshold: Float { isFull && !scores.isEmpty ? scores[0] : -.infinity }

    /// Empties the heap, keeping its storage; `capacity` sets a new bound.
    mutating func removeAll(capacity newCapacity: Int? = nil) {
        scores.removeAll(keepingCapacity: true)
        ids.removeAll(keepingCapacity: true)
        if let newCapacity { capacity = max(0, newCapacity) }
    }

    /// Adds an entry; when full, it replaces the top one if that belongs above it (for ``TopK``: the new
    /// entry beats the worst kept). NaN scores are ignored.
    ///
    /// - Complexity: O(log count).
    @inline(__always)
    mutating func offer(id: Int, score: Float) {
        guard !score.isNaN, capacity > 0 else { return }
        let id = Int32(truncatingIfNeeded: id)
        if scores.count < capacity {
            scores.append(score)
            ids.append(id)
            siftUp(scores.count - 1)
        } else if Order.above(scores[0], ids[0], score, id) {
            scores[0] = score
            ids[0] = id
            siftDown(0)
        }
    }

    /// Removes and returns the top entry (for ``TopK`` the worst kept, for ``CandidateQueue`` the best).
    ///
    /// - Complexity: O(log count).
    mutating func pop() -> (id: Int, score: Float)? {
        guard !scores.isEmpty else { return nil }
        let top = (Int(ids[0]), scores[0])
        let last = scores.count - 1
        scores.swapAt(0, last)
        ids.swapAt(0, last)
        scores.removeLast()
        ids.removeLast()
        if !scores.isEmpty { siftDown(0) }
        return top
    }

    /// The entries, best first (higher score; of equal scores the smaller id).
    func sorted() -> [(id: Int, score: Float)] {
        (0..<scores.count).map { (Int(ids[$0]), scores[$0]) }.sorted {
            BestOnTop.above($0.score, Int32(truncatingIfNeeded: $0.id), $1.score, Int32(truncatingIfNeeded: $1.id))
        }
    }

    /// The entries as row hits, best first.
    func sortedRows() -> [ScoredRow] {
        sorted().map { ScoredRow(row: $0.id, score: $0.score) }
    }

    @inline(__always)
    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard Order.above(scores[child], ids[child], scores[parent], ids[parent]) else { return }
            scores.swapAt(child, parent)
            ids.swapAt(child, parent)
            child = parent
        }
    }

    @inline(__always)
    private mutating func siftDown(_ start: Int) {
        var parent = start
        let n = scores.count
        while true {
            let left = 2 * parent + 1
            if left >= n { return }
            var next = left
            if left + 1 < n, Order.above(scores[left + 1], ids[left + 1], scores[left], ids[left]) { next = left + 1 }
            guard Order.above(scores[next], ids[next], scores[parent], ids[parent]) else { return }
            scores.swapAt(next, parent)
            ids.swapAt(next, parent)
            parent = next
        }
    }
}

/// The k best of a stream: worst on top, bounded.
typealias TopK = ScoreHeap<WorstOnTop>
/// The HNSW walk's frontier: the closest unexpanded candidate on top.
typealias CandidateQueue = ScoreHeap<BestOnTop>
