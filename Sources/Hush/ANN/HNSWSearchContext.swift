import Foundation

/// Scratch state of one search or insertion: a visited-generation array and two heaps, reused across calls
/// so that traversals do not allocate per visited node.
final class HNSWSearchContext {
    var visited: [UInt32] = []
    var generation: UInt32 = 0
    var candidates = CandidateHeap()
    var results = RowTopK(capacity: 0)
    /// Buffers of the insertion path (moved out while in use, so no per-access exclusivity checks).
    var scratch = HNSWScratch()

    /// Starts a traversal over `nodes` slots.
    func begin(nodes: Int, ef: Int) {
        if visited.count < nodes { visited.append(contentsOf: repeatElement(0, count: nodes - visited.count + 1024)) }
        generation &+= 1
        if generation == 0 {
            for i in visited.indices { visited[i] = 0 }
            generation = 1
        }
        candidates.removeAll()
        results.removeAll(capacity: ef)
    }
}

/// Reused buffers of one insertion: candidates sorted best first, the heuristic's kept and pruned lists, and
/// the new node's links.
struct HNSWScratch {
    var candIds: [Int32] = []
    var candScores: [Float] = []
    var keptIds: [Int32] = []
    var keptScores: [Float] = []
    var prunedIds: [Int32] = []
    var prunedScores: [Float] = []
    var linkIds: [Int32] = []
    var linkScores: [Float] = []

    mutating func clearCandidates() {
        candIds.removeAll(keepingCapacity: true)
        candScores.removeAll(keepingCapacity: true)
    }

    /// Replaces the candidate list with the heap's rows, best first, emptying the heap without allocating.
    /// Returns how many there were.
    mutating func takeCandidates(from results: inout RowTopK) -> Int {
        clearCandidates()
        let found = results.count
        candIds.append(contentsOf: repeatElement(0, count: found))
        candScores.append(contentsOf: repeatElement(0, count: found))
        var slot = found - 1
        while let worst = results.popWorst() {
            candIds[slot] = Int32(truncatingIfNeeded: worst.row)
            candScores[slot] = worst.score
            slot -= 1
        }
        return found
    }

    /// Inserts a candidate keeping `cand*` sorted by score, best first (lists are at most M0 + 1 long).
    @inline(__always) mutating func insertCandidate(_ id: Int32, _ score: Float) {
        candIds.append(id)
        candScores.append(score)
        var i = candIds.count - 1
        while i > 0 && candScores[i - 1] < score {
            candIds[i] = candIds[i - 1]
            candScores[i] = candScores[i - 1]
            i -= 1
        }
        candIds[i] = id
        candScores[i] = score
    }
}

/// Max-heap of (score, node): the closest unexpanded candidate on top.
struct CandidateHeap {
    private var scores: [Float] = []
    private var nodes: [Int32] = []

    var isEmpty: Bool { scores.isEmpty }

    mutating func removeAll() {
        scores.removeAll(keepingCapacity: true)
        nodes.removeAll(keepingCapacity: true)
    }

    mutating func push(_ node: Int, _ score: Float) {
        scores.append(score)
        nodes.append(Int32(truncatingIfNeeded: node))
        var child = scores.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard scores[child] > scores[parent] else { break }
            scores.swapAt(child, parent)
            nodes.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> (node: Int, score: Float)? {
        guard !scores.isEmpty else { return nil }
        let top = (Int(nodes[0]), scores[0])
        let last = scores.count - 1
        scores.swapAt(0, last)
        nodes.swapAt(0, last)
        scores.removeLast()
        nodes.removeLast()
        var parent = 0
        let n = scores.count
        while true {
            let left = 2 * parent + 1
            if left >= n { break }
            var largest = left
            if left + 1 < n, scores[left + 1] > scores[left] { largest = left + 1 }
            guard scores[largest] > scores[parent] else { break }
            scores.swapAt(largest, parent)
            nodes.swapAt(largest, parent)
            parent = largest
        }
        return top
    }
}

/// A lock-protected pool of contexts so concurrent searches each get their own scratch space.
final class HNSWContextPool: @unchecked Sendable {
    private let lock = NSLock()
    private var free: [HNSWSearchContext] = []

    func borrow() -> HNSWSearchContext {
        lock.lock()
        defer { lock.unlock() }
        return free.popLast() ?? HNSWSearchContext()
    }

    func giveBack(_ context: HNSWSearchContext) {
        lock.lock()
        defer { lock.unlock() }
        if free.count < 8 { free.append(context) }
    }
}
