import Foundation
import HushKernels

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Striped mutexes guarding neighbour lists during a parallel build (node → lock `node % count`).
final class NodeLocks: @unchecked Sendable {
    let count = 4096
    private let locks: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        locks = .allocate(capacity: count)
        for i in 0..<count { pthread_mutex_init(locks + i, nil) }
    }

    deinit {
        for i in 0..<count { pthread_mutex_destroy(locks + i) }
        locks.deallocate()
    }

    @inline(__always) func withLock<T>(_ node: Int, _ body: () throws -> T) rethrows -> T {
        let lock = locks + (node & (count - 1))
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return try body()
    }
}

extension HNSWIndex {
    /// Builds a graph over `rows` with `threads` workers inserting concurrently, as hnswlib does: every
    /// neighbour list is read and written under its node's lock, and a node that raises the top level holds
    /// the entry-point lock for its whole insertion. Levels come from the seed, so the graph has the same
    /// shape of levels as a serial build; the lists differ with the interleaving.
    ///
    /// - Complexity: rows × the cost of one insertion, divided by about `threads`.
    ///
    /// ```swift
    /// let index = try set.withView { try HNSWIndex.build(dimension: 384, rows: 0..<$0.count, vectors: $0, threads: 2) }
    /// ```
    package static func build<Rows: Sequence<Int>>(
        dimension: Int, parameters: HNSWParameters = HNSWParameters(), rows: Rows, vectors: VectorView,
        threads: Int
    ) throws -> HNSWIndex {
        let index = try HNSWIndex(dimension: dimension, parameters: parameters)
        var order: [Int] = []
        var seen = RowSet()
        for row in rows where !seen.contains(row) {
            seen.insert(row)
            order.append(row)
        }
        guard threads > 1, order.count > 1 else {
            try index.insert(rows: order, vectors: vectors)
            return index
        }
        if let last = order.max() { try index.checkVectors(vectors, covering: last) }
        guard order.allSatisfy({ $0 >= 0 }) else {
            throw ANNError.rowOutOfRange(row: order.min() ?? -1, count: vectors.count)
        }
        // Every node exists (with empty lists) before any worker starts; the first one is the entry point.
        for row in order { index.allocateNode(row, level: parameters.level(of: row)) }
        index.entryPoint = order[0]
        index.maxLevel = Int(index.levels[order[0]])
        let locks = NodeLocks()
        let entryLock = NSLock()
        let counter = WorkCounter(start: 1)
        let batch = 16
        let box = UnsafeSendable(index: index, vectors: vectors, order: order)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            let context = box.index.pool.borrow()
            defer { box.index.pool.giveBack(context) }
            while true {
                let start = counter.take(batch)
                if start >= box.order.count { return }
                for position in start..<min(start + batch, box.order.count) {
                    box.index.insertConcurrently(
                        box.order[position], vectors: box.vectors, context: context, locks: locks, entryLock: entryLock)
                }
            }
        }
        index.liveCount = order.count
        for row in order { index.dirtyRows.insert(row) }
        return index
    }

    /// One insertion of a preallocated node while other workers insert too.
    func insertConcurrently(
        _ row: Int, vectors: VectorView, context: HNSWSearchContext, locks: NodeLocks, entryLock: NSLock
    ) {
        let level = Int(levels[row])
        entryLock.lock()
        var current = entryPoint
        let top = maxLevel
        let raisesTop = level > top
        if !raisesTop { entryLock.unlock() }
        defer { if raisesTop { entryLock.unlock() } }
        let q = vectors.row(row)
        var currentScore = hush_dot_f32(vectors.row(current), q, dimension)
        var buffer = [UInt32](repeating: 0, count: parameters.M0 + 1)
        if top > level {
            for l in stride(from: top, to: level, by: -1) {
                var changed = true
                while changed {
                    changed = false
                    let n = copyLinks(current, l, into: &buffer, locks: locks)
                    for i in 0..<n {
                        let node = Int(buffer[i])
                        let s = hush_dot_f32(vectors.row(node), q, dimension)
                        if s > currentScore {
                            currentScore = s
                            current = node
                            changed = true
                        }
                    }
                }
            }
        }
        var scratch = context.scratch
        context.scratch = HNSWScratch()
        defer { context.scratch = scratch }
        for l in stride(from: min(level, top), through: 0, by: -1) {
            searchLayerLocked(
                q, entry: current, entryScore: currentScore, level: l, vectors: vectors, context: context,
                locks: locks, buffer: &buffer)
            // No node is tombstoned during a build, so the shared choice's tombstone check never drops one.
            chooseLinks(
                for: row, context: context, scratch: &scratch, entry: &current, entryScore: &currentScore,
                vectors: vectors)
            locks.withLock(row) { setLinks(row, l, scratch.linkIds[...]) }
            for i in 0..<scratch.linkIds.count {
                let neighbour = Int(scratch.linkIds[i])
                locks.withLock(neighbour) {
                    connectUnmarked(
                        neighbour, to: row, score: scratch.linkScores[i], level: l, vectors: vectors,
                        scratch: &scratch)
                }
            }
        }
        if raisesTop {
            maxLevel = level
            entryPoint = row
        }
    }

    /// Copies `node`'s list on `level` under its lock; returns the count.
    @inline(__always)
    func copyLinks(_ node: Int, _ level: Int, into buffer: inout [UInt32], locks: NodeLocks) -> Int {
        locks.withLock(node) {
            let list = links(node, level)
            let n = Int(list[0])
            for i in 0..<n { buffer[i] = list[1 + i] }
            return n
        }
    }

    /// `searchLayer` (construction ef, no filter) reading every list under its node's lock.
    func searchLayerLocked(
        _ q: UnsafePointer<Float>, entry: Int, entryScore: Float, level: Int, vectors: VectorView,
        context: HNSWSearchContext, locks: NodeLocks, buffer: inout [UInt32]
    ) {
        context.begin(nodes: slotCount, ef: parameters.efConstruction)
        let dim = dimension
        var candidates = context.candidates
        var results = context.results
        var visited = context.visited
        context.candidates = CandidateQueue()
        context.results = TopK(capacity: 0)
        defer {
            context.candidates = candidates
            context.results = results
            context.visited = visited
        }
        _ = visited.insert(entry)
        candidates.offer(id: entry, score: entryScore)
        results.offer(id: entry, score: entryScore)
        while let candidate = candidates.pop() {
            if results.isFull && candidate.score < results.threshold { break }
            let n = copyLinks(candidate.id, level, into: &buffer, locks: locks)
            for i in 0..<n {
                let node = Int(buffer[i])
                if !visited.contains(node) { hush_prefetch(vectors.row(node), dim * 4) }
            }
            for i in 0..<n {
                let node = Int(buffer[i])
                guard visited.insert(node) else { continue }
                let s = hush_dot_f32(vectors.row(node), q, dim)
                if !results.isFull || s > results.threshold {
                    candidates.offer(id: node, score: s)
                    prefetchLinks(node, level)
                    results.offer(id: node, score: s)
                }
            }
        }
    }
}

/// Hands out positions to the workers.
private final class WorkCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var next: Int

    init(start: Int) { next = start }

    func take(_ count: Int) -> Int {
        lock.lock()
        defer { lock.unlock() }
        let start = next
        next += count
        return start
    }
}

/// Carries the index and the borrowed vectors into the workers (the build synchronises them itself).
private struct UnsafeSendable: @unchecked Sendable {
    let index: HNSWIndex
    let vectors: VectorView
    let order: [Int]
}
