/// The `k` best `(score, id)` pairs of a stream, kept in a min-heap: O(n log k), no full sort.
///
/// Ties break towards the smaller id, so results are deterministic.
struct TopK {
    struct Entry: Equatable {
        var score: Float
        var id: Int
    }

    let k: Int
    private(set) var heap: [Entry] = []

    init(_ k: Int) {
        self.k = max(0, k)
        heap.reserveCapacity(min(self.k, 4096))  // k may be far larger than what the stream holds
    }

    /// Whether `a` ranks below `b` (lower score, or equal score and larger id).
    @inline(__always)
    private static func worse(_ a: Entry, _ b: Entry) -> Bool {
        a.score < b.score || (a.score == b.score && a.id > b.id)
    }

    /// The score a new entry must beat once the heap is full.
    var threshold: Float { heap.count < k ? -Float.infinity : heap[0].score }

    mutating func insert(score: Float, id: Int) {
        guard k > 0, !score.isNaN else { return }
        let entry = Entry(score: score, id: id)
        if heap.count < k {
            heap.append(entry)
            siftUp(heap.count - 1)
        } else if Self.worse(heap[0], entry) {
            heap[0] = entry
            siftDown(0)
        }
    }

    /// The entries, best first.
    func sorted() -> [Entry] {
        heap.sorted { Self.worse($1, $0) }
    }

    private mutating func siftUp(_ index: Int) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.worse(heap[child], heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ index: Int) {
        var parent = index
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count && Self.worse(heap[left], heap[smallest]) { smallest = left }
            if right < heap.count && Self.worse(heap[right], heap[smallest]) { smallest = right }
            if smallest == parent { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
