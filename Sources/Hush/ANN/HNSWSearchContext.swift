import Foundation

/// Scratch state of one search or insertion: a visited set and two heaps, reused across calls so that
/// traversals do not allocate per visited node.
final class HNSWSearchContext {
    var visited = VisitedSet()
    var candidates = CandidateQueue()
    var results = TopK(capacity: 0)
    /// Buffers of the insertion path (moved out while in use, so no per-access exclusivity checks).
    var scratch = HNSWScratch()

    deinit { visited.deallocate() }

    /// Starts a traversal over `nodes` slots.
    func begin(nodes: Int, ef: Int) {
        visited.reset(nodes: nodes)
        candidates.removeAll()
        results.removeAll(capacity: ef)
    }
}

/// The nodes one traversal has reached: one bit per node (a million nodes take 128 KB, which stays in the
/// L2 cache, where a byte or word per node would not), cleared by remembering which words were set.
struct VisitedSet {
    private(set) var bits = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
    private var wordCount = 0
    private var touched = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)
    private var touchedCapacity = 0
    private var touchedCount = 0
    /// More words were set than `touched` holds: the next reset clears every word.
    private var overflowed = false

    init() { bits.initialize(to: 0) }

    func deallocate() {
        bits.deallocate()
        touched.deallocate()
    }

    /// Empties the set and makes room for nodes `0..<nodes`.
    mutating func reset(nodes: Int) {
        let needed = (nodes + 63) / 64
        if needed > wordCount {
            // Grown by half again at least, so a graph built one insertion at a time reallocates rarely.
            let words = max(needed, wordCount * 3 / 2)
            let fresh = UnsafeMutablePointer<UInt64>.allocate(capacity: words)
            fresh.initialize(repeating: 0, count: words)
            bits.deallocate()
            bits = fresh
            wordCount = words
            touched.deallocate()
            touchedCapacity = max(64, words / 8)
            touched = .allocate(capacity: touchedCapacity)
        } else if overflowed {
            bits.update(repeating: 0, count: wordCount)
        } else {
            for i in 0..<touchedCount { bits[Int(touched[i])] = 0 }
        }
        touchedCount = 0
        overflowed = false
    }

    @inline(__always) func contains(_ node: Int) -> Bool { bits[node &>> 6] & (1 &<< UInt64(node & 63)) != 0 }

    /// Adds `node`; returns false when it was already there.
    @inline(__always) mutating func insert(_ node: Int) -> Bool {
        let word = node &>> 6
        let mask: UInt64 = 1 &<< UInt64(node & 63)
        let old = bits[word]
        if old & mask != 0 { return false }
        bits[word] = old | mask
        if old == 0 {
            if touchedCount < touchedCapacity {
                touched[touchedCount] = UInt32(truncatingIfNeeded: word)
                touchedCount += 1
            } else {
                overflowed = true
            }
        }
        return true
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
    mutating func takeCandidates(from results: inout TopK) -> Int {
        clearCandidates()
        let found = results.count
        candIds.append(contentsOf: repeatElement(0, count: found))
        candScores.append(contentsOf: repeatElement(0, count: found))
        var slot = found - 1
        while let worst = results.pop() {
            candIds[slot] = Int32(truncatingIfNeeded: worst.id)
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
