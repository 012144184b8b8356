import Foundation
import HushEmbedding
import HushKernels

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The HNSW graph, read top to bottom in the order it runs: the type and its storage; building (Algorithm 1
// per row, on one thread or several); search (Algorithms 2 and 5); deletion and compaction; checking a
// saved graph and repairing it; the structural invariants (checked after every change when
// HUSH_HNSW_CHECKS=1); the working memory of the walks. Persistence lives beside it, in
// Persistence/GraphTables.swift. Names follow Malkov & Yashunin (2018).

/// A Hierarchical Navigable Small World graph (Malkov & Yashunin) over the row ids of a vector store.
///
/// The index keeps only the graph: vectors are read from a `VectorView` lent to each call, never copied.
/// Row ids are the store's rows; similarity is the dot product (cosine for unit vectors).
/// Concurrency: searches may run concurrently with each other; inserts, deletes, `compact()` and `save`
/// must be serialised by the caller (the store's write lock) and not overlap searches.
///
/// ```swift
/// let index = try HNSWIndex(dimension: 384, parameters: HNSWParameters(M: 16, efConstruction: 200))
/// try vectors.withView { view in
///     try index.insert(rows: 0..<view.count, vectors: view)
///     let hits = try index.search(query, k: 10, vectors: view)
/// }
/// ```
package final class HNSWIndex: @unchecked Sendable {
    /// Vector length.
    package let dimension: Int
    /// Graph parameters.
    package private(set) var parameters: HNSWParameters
    /// The node every search starts from (-1 when empty): a node of the top level.
    package internal(set) var entryPoint = -1
    /// The highest level of any node (-1 when empty).
    package internal(set) var maxLevel = -1
    /// Nodes in the graph and not deleted.
    package internal(set) var liveCount = 0
    /// Tombstoned nodes (still routing, never returned) awaiting `compact()`.
    package internal(set) var deletedCount = 0
    /// Number of row slots (highest row id in the graph + 1).
    package internal(set) var slotCount = 0

    var capacity = 0
    /// Level per slot, -1 when the row is not in the graph.
    var levels: UnsafeMutablePointer<Int8>
    /// 1 for tombstoned rows.
    var deletedFlags: UnsafeMutablePointer<UInt8>
    /// Layer-0 lists, stride M0 + 1: [count, neighbour...].
    var layer0: UnsafeMutablePointer<UInt32>
    /// Offset of a node's first upper list in `upper` (-1 when level 0).
    var upperOffset: UnsafeMutablePointer<Int32>
    /// Upper-layer lists, stride M + 1 per level above 0.
    var upper: UnsafeMutablePointer<UInt32>
    var upperCapacity = 0
    var upperUsed = 0
    /// Rows changed since the last save (written by an incremental save).
    var dirtyRows = Bitset(count: 0)
    /// Rows dropped by `compact()` since the last save.
    var removedRows = Bitset(count: 0)
    /// Nodes inserted since the last save (what decides when a deferred save is due, see `saveIsDue`).
    var insertedSinceSave = 0
    let pool = HNSWContextPool()

    var stride0: Int { parameters.M0 + 1 }
    var strideUpper: Int { parameters.M + 1 }

    /// An empty graph.
    ///
    /// ```swift
    /// let index = try HNSWIndex(dimension: 384)
    /// ```
    package init(dimension: Int, parameters: HNSWParameters = HNSWParameters()) throws {
        try parameters.validate()
        guard dimension > 0 else {
            throw ANNError.invalidParameter(name: "dimension", value: "\(dimension)", allowed: "> 0")
        }
        self.dimension = dimension
        self.parameters = parameters
        levels = .allocate(capacity: 1)
        deletedFlags = .allocate(capacity: 1)
        layer0 = .allocate(capacity: 1)
        upperOffset = .allocate(capacity: 1)
        upper = .allocate(capacity: 1)
    }

    deinit {
        levels.deallocate()
        deletedFlags.deallocate()
        layer0.deallocate()
        upperOffset.deallocate()
        upper.deallocate()
    }

    /// Changes efSearch (the default ef of `search`).
    ///
    /// ```swift
    /// index.setEfSearch(128)
    /// ```
    package func setEfSearch(_ ef: Int) { parameters.efSearch = max(1, ef) }

    /// Whether `row` is in the graph (live or tombstoned).
    ///
    /// ```swift
    /// if index.contains(row: 5) { ... }
    /// ```
    package func contains(row: Int) -> Bool { row >= 0 && row < slotCount && levels[row] >= 0 }

    /// Whether `row` is tombstoned.
    ///
    /// ```swift
    /// let gone = index.isDeleted(row: 5)
    /// ```
    package func isDeleted(row: Int) -> Bool { contains(row: row) && deletedFlags[row] != 0 }

    /// The level of `row` (-1 when absent).
    ///
    /// ```swift
    /// let level = index.level(of: 5)
    /// ```
    package func level(of row: Int) -> Int { row >= 0 && row < slotCount ? Int(levels[row]) : -1 }

    /// The neighbours of `row` on `level` (empty when absent).
    ///
    /// ```swift
    /// let around = index.neighbours(of: 5, level: 0)
    /// ```
    package func neighbours(of row: Int, level: Int) -> [Int] {
        guard level >= 0, level <= self.level(of: row) else { return [] }
        let list = links(row, level)
        return (0..<Int(list[0])).map { Int(list[1 + $0]) }
    }

    /// Memory held by the graph in bytes (lists, levels, flags; vectors excluded).
    package var graphBytes: Int {
        capacity * (stride0 * 4 + 1 + 1 + 4) + upperCapacity * 4
    }

    // MARK: - Storage

    @inline(__always) func links(_ node: Int, _ level: Int) -> UnsafeMutablePointer<UInt32> {
        if level == 0 { return layer0 + node * stride0 }
        return upper + Int(upperOffset[node]) + (level - 1) * strideUpper
    }

    /// Starts loading `node`'s list on `level` into the cache (a hint; no effect on results).
    @inline(__always) func prefetchLinks(_ node: Int, _ level: Int) {
        let list = links(node, level)
        hush_prefetch(list, (level == 0 ? stride0 : strideUpper) * 4)
    }

    @inline(__always) func maxDegree(_ level: Int) -> Int { level == 0 ? parameters.M0 : parameters.M }

    /// Makes room for rows `0..<slots`.
    func reserveSlots(_ slots: Int) {
        if slots > capacity {
            let newCapacity = max(slots, capacity * 3 / 2, 1024)
            levels = grow(levels, from: capacity, to: newCapacity, fill: -1)
            deletedFlags = grow(deletedFlags, from: capacity, to: newCapacity, fill: 0)
            upperOffset = grow(upperOffset, from: capacity, to: newCapacity, fill: -1)
            let newLayer0 = UnsafeMutablePointer<UInt32>.allocate(capacity: newCapacity * stride0)
            newLayer0.update(from: layer0, count: capacity * stride0)
            (newLayer0 + capacity * stride0).initialize(repeating: 0, count: (newCapacity - capacity) * stride0)
            layer0.deallocate()
            layer0 = newLayer0
            capacity = newCapacity
        }
        if slots > slotCount { slotCount = slots }
    }

    private func grow<T>(_ old: UnsafeMutablePointer<T>, from: Int, to: Int, fill: T) -> UnsafeMutablePointer<T> {
        let fresh = UnsafeMutablePointer<T>.allocate(capacity: to)
        fresh.update(from: old, count: from)
        (fresh + from).initialize(repeating: fill, count: to - from)
        old.deallocate()
        return fresh
    }

    /// Places `row` in the graph at `level` with empty lists.
    func allocateNode(_ row: Int, level: Int) {
        reserveSlots(row + 1)
        levels[row] = Int8(level)
        deletedFlags[row] = 0
        layer0[row * stride0] = 0
        if level > 0 {
            let needed = level * strideUpper
            if upperUsed + needed > upperCapacity {
                reserveUpper(max(upperUsed + needed, upperCapacity * 3 / 2, 4096))
            }
            upperOffset[row] = Int32(upperUsed)
            for l in 0..<level { upper[upperUsed + l * strideUpper] = 0 }
            upperUsed += needed
        } else {
            upperOffset[row] = -1
        }
    }

    func setLinks(_ node: Int, _ level: Int, _ ids: ArraySlice<Int32>) {
        let list = links(node, level)
        list[0] = UInt32(ids.count)
        for (i, id) in ids.enumerated() { list[1 + i] = UInt32(id) }
    }

    @inline(__always) func similarity(_ a: Int, _ b: Int, _ vectors: VectorView) -> Float {
        hush_dot_f32(vectors.row(a), vectors.row(b), dimension)
    }

    func checkVectors(_ vectors: VectorView, covering row: Int) throws {
        guard vectors.dimension == dimension else {
            throw ANNError.dimensionMismatch(expected: dimension, actual: vectors.dimension)
        }
        guard row < vectors.count else { throw ANNError.rowOutOfRange(row: row, count: vectors.count) }
    }
}

// MARK: - Build

extension HNSWIndex {
    /// Builds a graph over `rows` (each once, in order). With one thread the rows are inserted one after the
    /// other (Algorithm 1). With more, `threads` workers insert concurrently, as hnswlib does: every neighbour
    /// list is read and written under its node's lock, and a node that raises the top level holds the
    /// entry-point lock for its whole insertion. Levels come from the seed, so the graph has the same shape of
    /// levels as a serial build; the lists differ with the interleaving.
    ///
    /// - Complexity: rows × the cost of one insertion, divided by about `threads`.
    ///
    /// ```swift
    /// let index = try set.withView { try HNSWIndex.build(dimension: 384, rows: 0..<$0.count, vectors: $0, threads: 2) }
    /// ```
    package static func build<Rows: Sequence<Int>>(
        dimension: Int, parameters: HNSWParameters = HNSWParameters(), rows: Rows, vectors: VectorView,
        threads: Int = 1
    ) throws -> HNSWIndex {
        let index = try HNSWIndex(dimension: dimension, parameters: parameters)
        try index.insert(rows: rows, vectors: vectors, threads: threads)
        return index
    }

    /// Inserts every row of `rows` not yet in the graph (each once, in order), with `threads` workers as
    /// `build` describes: every new node exists, with empty lists, before any worker starts (the first becomes
    /// the entry point of an empty graph). Rows whose lists changed are marked for the next save.
    ///
    /// - Complexity: rows × the cost of one insertion, divided by about `threads`.
    ///
    /// ```swift
    /// try index.insert(rows: 50_000..<60_000, vectors: view, threads: 2)
    /// ```
    package func insert<Rows: Sequence<Int>>(rows: Rows, vectors: VectorView, threads: Int) throws {
        var order: [Int] = []
        var seen = Bitset(count: 0)
        for row in rows where !contains(row: row) && !seen.contains(row) {
            seen.insert(growing: row)
            order.append(row)
        }
        guard threads > 1, order.count > 1, deletedCount == 0 else {
            try insert(rows: order, vectors: vectors)
            return
        }
        if let last = order.max() { try checkVectors(vectors, covering: last) }
        guard order.allSatisfy({ $0 >= 0 }) else {
            throw ANNError.rowOutOfRange(row: order.min() ?? -1, count: vectors.count)
        }
        for row in order {
            allocateNode(row, level: parameters.level(of: row))
            dirtyRows.insert(growing: row)
            removedRows.remove(row)
        }
        liveCount += order.count
        insertedSinceSave += order.count
        var pending = order[...]
        if entryPoint < 0 {
            entryPoint = order[0]
            maxLevel = Int(levels[order[0]])
            pending = order[1...]
        }
        for node in linkConcurrently(pending, vectors: vectors, threads: threads) {
            dirtyRows.insert(growing: Int(node))
        }
        try checkInvariantsWhenAsked()
    }

    /// Links the preallocated nodes of `order` into the graph with `threads` workers, each taking 16 rows at
    /// a time. Returns the existing nodes whose lists the insertions changed (each at least once).
    @discardableResult
    func linkConcurrently(_ order: ArraySlice<Int>, vectors: VectorView, threads: Int) -> [Int32] {
        let locks = NodeLocks()
        let entryLock = NSLock()
        let work = WorkRanges(order.indices)
        let touched = Locked<[Int32]>([])
        let box = UnsafeSendable(index: self, vectors: vectors, order: order)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            let context = box.index.pool.borrow()
            defer { box.index.pool.giveBack(context) }
            var mine: [Int32] = []
            while let positions = work.next() {
                for position in positions {
                    box.index.insertConcurrently(
                        box.order[position], vectors: box.vectors, context: context, locks: locks, entryLock: entryLock,
                        touched: &mine)
                }
            }
            touched.withLock { $0.append(contentsOf: mine) }
        }
        return touched.withLock { $0 }
    }

    /// One insertion of a preallocated node while other workers insert too.
    func insertConcurrently(
        _ row: Int, vectors: VectorView, context: HNSWSearchContext, locks: NodeLocks, entryLock: NSLock,
        touched: inout [Int32]
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
        let scorer = F32Scorer(vectors: vectors, query: q)
        let buffer = UnsafeMutablePointer<UInt32>.allocate(capacity: parameters.M0 + 1)
        defer { buffer.deallocate() }
        let lists = LockedLists(index: self, locks: locks, buffer: buffer)
        if top > level {
            for l in stride(from: top, to: level, by: -1) {
                greedy(scorer, lists: lists, from: &current, score: &currentScore, level: l)
            }
        }
        var scratch = context.scratch
        context.scratch = HNSWScratch()
        defer { context.scratch = scratch }
        for l in stride(from: min(level, top), through: 0, by: -1) {
            // No node is tombstoned during a build: every node found is returnable.
            searchLayer(
                scorer, lists: lists, entry: current, entryScore: currentScore, ef: parameters.efConstruction,
                level: l, context: context, filter: nil, returnDeleted: true)
            chooseLinks(
                for: row, context: context, scratch: &scratch, entry: &current, entryScore: &currentScore,
                vectors: vectors)
            locks.withLock(row) { setLinks(row, l, scratch.linkIds[...]) }
            for i in 0..<scratch.linkIds.count {
                let neighbour = Int(scratch.linkIds[i])
                touched.append(Int32(neighbour))
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
}

// MARK: - Insert (Algorithm 1) and neighbour selection (Algorithm 4)

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
        insertedSinceSave += 1
        dirtyRows.insert(growing: row)
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
                greedy(
                    F32Scorer(vectors: vectors, query: q), lists: InPlaceLists(index: self), from: &current,
                    score: &currentScore, level: l)
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
                F32Scorer(vectors: vectors, query: q), lists: InPlaceLists(index: self), entry: current,
                entryScore: currentScore, ef: parameters.efConstruction, level: l, context: context, filter: nil,
                returnDeleted: true)
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
        try checkInvariantsWhenAsked()
    }

    /// Adds `new` to `node`'s list on `level`, shrinking with the heuristic when it overflows, and marks
    /// `node` for the next incremental save.
    func connect(_ node: Int, to new: Int, score: Float, level: Int, vectors: VectorView, scratch: inout HNSWScratch) {
        dirtyRows.insert(growing: node)
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

// MARK: - Search (Algorithms 2 and 5)

extension HNSWIndex {
    /// The `k` live rows most similar to `query`, optionally restricted to `filter`.
    ///
    /// The filter is applied inside the traversal: excluded and tombstoned nodes still route but are not
    /// returned. When the allowed rows are fewer than `parameters.exactFilterFraction` of the live rows, or
    /// the traversal returns fewer than k of them, the allowed rows are scanned exactly instead, so the
    /// result is never short when k live rows are allowed.
    ///
    /// With `guide` (int8 or 4-bit codes of the same rows), the traversal scores nodes on the codes, a quarter
    /// or an eighth of the f32 vectors' bytes, and the `ef` rows it finds are rescored exactly on `vectors`: at a million
    /// vectors, where every visited node is a cache miss, this answers faster at the same ef. Binary codes are
    /// not used as a guide (too coarse to steer the walk).
    ///
    /// - Complexity: about O(ef × M0 × log n × dimension); O(allowed × dimension) for selective filters.
    ///
    /// ```swift
    /// let hits = try index.search(query, k: 10, ef: 64, vectors: view)
    /// let guided = try index.search(query, k: 10, ef: 64, vectors: view, guide: int8Codes)
    /// ```
    package func search(
        _ query: [Float], k: Int, ef: Int? = nil, filter: Bitset? = nil, vectors: VectorView,
        guide: QuantizedMatrix? = nil
    ) throws -> [ScoredRow] {
        guard query.count == dimension else {
            throw ANNError.dimensionMismatch(expected: dimension, actual: query.count)
        }
        guard vectors.dimension == dimension else {
            throw ANNError.dimensionMismatch(expected: dimension, actual: vectors.dimension)
        }
        guard slotCount <= vectors.count else {
            throw ANNError.rowOutOfRange(row: slotCount - 1, count: vectors.count)
        }
        if let guide {
            guard guide.dimension == dimension else {
                throw ANNError.dimensionMismatch(expected: dimension, actual: guide.dimension)
            }
            guard slotCount <= guide.count else {
                throw ANNError.rowOutOfRange(row: slotCount - 1, count: guide.count)
            }
        }
        guard k > 0, liveCount > 0, entryPoint >= 0 else { return [] }
        return query.withUnsafeBufferPointer { buffer -> [ScoredRow] in
            guard let q = buffer.baseAddress else { return [] }
            if let filter,
                Double(filter.allowedCount) < parameters.exactFilterFraction * Double(liveCount)
                    || filter.allowedCount <= k
            {
                return exactAllowed(q, k: k, filter: filter, vectors: vectors)
            }
            let context = pool.borrow()
            defer { pool.giveBack(context) }
            let width = max(ef ?? parameters.efSearch, k)
            /// The walk on the guide's codes, its rows rescored on the f32 vectors.
            struct GuidedWalk: ScorerTask {
                let index: HNSWIndex
                let query: UnsafePointer<Float>
                let k: Int
                let width: Int
                let context: HNSWSearchContext
                let filter: Bitset?
                let vectors: VectorView
                func run<Scorer: NodeScorer>(_ scorer: Scorer) -> [ScoredRow] {
                    index.walk(scorer, ef: width, context: context, filter: filter)
                    return index.rescored(query, k: k, context: context, vectors: vectors)
                }
            }
            let hits: [ScoredRow]
            if let guide,
                let guided = guide.withScorer(
                    for: query,
                    GuidedWalk(
                        index: self, query: q, k: k, width: width, context: context, filter: filter, vectors: vectors))
            {
                hits = guided
            } else {
                walk(F32Scorer(vectors: vectors, query: q), ef: width, context: context, filter: filter)
                while context.results.count > k { _ = context.results.pop() }
                hits = context.results.sortedRows()
            }
            if hits.count < k, let filter {
                let possible = allowedLiveCount(filter, limit: k)
                if hits.count < possible { return exactAllowed(q, k: k, filter: filter, vectors: vectors) }
            }
            return hits
        }
    }

    /// Greedy descent through the upper levels, then the layer-0 search, leaving the ef best returnable rows
    /// (by `scorer`) in `context.results`.
    @inline(__always)
    func walk<Scorer: NodeScorer>(_ scorer: Scorer, ef: Int, context: HNSWSearchContext, filter: Bitset?) {
        var current = entryPoint
        var currentScore = scorer.score(current)
        if maxLevel > 0 {
            for level in stride(from: maxLevel, to: 0, by: -1) {
                greedy(scorer, lists: InPlaceLists(index: self), from: &current, score: &currentScore, level: level)
            }
        }
        searchLayer(
            scorer, lists: InPlaceLists(index: self), entry: current, entryScore: currentScore, ef: ef, level: 0,
            context: context, filter: filter, returnDeleted: false)
    }

    /// The best `k` of the rows in `context.results`, rescored with the exact f32 dot product.
    func rescored(_ q: UnsafePointer<Float>, k: Int, context: HNSWSearchContext, vectors: VectorView) -> [ScoredRow] {
        var found = context.results
        context.results = TopK(capacity: 0)
        defer { context.results = found }
        var rows: [Int] = []
        rows.reserveCapacity(found.count)
        while let worst = found.pop() { rows.append(worst.id) }
        for row in rows { hush_prefetch(vectors.row(row), dimension * 4) }
        var top = TopK(capacity: k)
        for row in rows { top.offer(id: row, score: hush_dot_f32(vectors.row(row), q, dimension)) }
        return top.sortedRows()
    }

    /// Live rows of `filter`, counted up to `limit`.
    func allowedLiveCount(_ filter: Bitset, limit: Int) -> Int {
        var n = 0
        filter.forEachAllowed { row in
            if n < limit, row < slotCount, levels[row] >= 0, deletedFlags[row] == 0 { n += 1 }
        }
        return n
    }

    /// Exact scan of the allowed live rows.
    func exactAllowed(_ q: UnsafePointer<Float>, k: Int, filter: Bitset, vectors: VectorView) -> [ScoredRow] {
        var live = Bitset(count: min(slotCount, vectors.count))
        filter.forEachAllowed { row in
            if row < live.count, levels[row] >= 0, deletedFlags[row] == 0 { live.insert(row) }
        }
        return ExactScan.search(q, k: k, filter: live, vectors: vectors)
    }

    /// Greedy walk on one upper level (ef = 1).
    @inline(__always)
    func greedy<Scorer: NodeScorer, Lists: NeighbourLists>(
        _ scorer: Scorer, lists: Lists, from current: inout Int, score: inout Float, level: Int
    ) {
        var changed = true
        while changed {
            changed = false
            let (list, n) = lists.neighbours(current, level)
            for i in 0..<n {
                let node = Int(list[i])
                let s = scorer.score(node)
                if s > score {
                    score = s
                    current = node
                    changed = true
                }
            }
        }
    }

    /// Algorithm 2 (SEARCH-LAYER) from one entry point; leaves the ef best returnable nodes in
    /// `context.results`. Nodes that are tombstoned (unless `returnDeleted`) or outside `filter` route but are
    /// not returned.
    func searchLayer<Scorer: NodeScorer, Lists: NeighbourLists>(
        _ scorer: Scorer, lists: Lists, entry: Int, entryScore: Float, ef: Int, level: Int,
        context: HNSWSearchContext, filter: Bitset?, returnDeleted: Bool
    ) {
        context.begin(nodes: slotCount, ef: ef)
        let deleted = deletedFlags
        // Without tombstones every node is returnable: skip reading the flags (a cache miss per node at scale).
        let returnAll = returnDeleted || deletedCount == 0
        // The heaps and the visited set are moved into locals for the loop (no dynamic exclusivity checks on
        // class properties).
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
        if (returnAll || deleted[entry] == 0) && (filter?.contains(entry) ?? true) {
            results.offer(id: entry, score: entryScore)
        }
        while let candidate = candidates.pop() {
            if results.isFull && candidate.score < results.threshold { break }
            let (list, n) = lists.neighbours(candidate.id, level)
            // Start loading every unvisited neighbour before scoring the first one, so the memory latency of
            // the whole list overlaps (as hnswlib does).
            for i in 0..<n {
                let node = Int(list[i])
                if !visited.contains(node) { scorer.prefetch(node) }
            }
            for i in 0..<n {
                let node = Int(list[i])
                guard visited.insert(node) else { continue }
                let s = scorer.score(node)
                if !results.isFull || s > results.threshold {
                    candidates.offer(id: node, score: s)
                    // Its list will be read if it is expanded: start loading it now (hnswlib keeps lists
                    // beside vectors for the same reason).
                    prefetchLinks(node, level)
                    if (returnAll || deleted[node] == 0) && (filter?.contains(node) ?? true) {
                        results.offer(id: node, score: s)
                    }
                }
            }
        }
    }
}

/// How a walk reads a node's neighbour list on a level: in place, or copied under the node's lock while a
/// parallel build writes lists (specialised per type, like the scorers).
protocol NeighbourLists {
    /// The list's ids and their count; valid until the next call.
    func neighbours(_ node: Int, _ level: Int) -> (ids: UnsafePointer<UInt32>, count: Int)
}

/// Lists read where they lie (searches, and inserts serialised by the store).
struct InPlaceLists: NeighbourLists {
    let index: HNSWIndex

    @inline(__always) func neighbours(_ node: Int, _ level: Int) -> (ids: UnsafePointer<UInt32>, count: Int) {
        let list = index.links(node, level)
        return (UnsafePointer(list + 1), Int(list[0]))
    }
}

/// Lists copied into `buffer` under their node's lock (the parallel build).
struct LockedLists: NeighbourLists {
    let index: HNSWIndex
    let locks: NodeLocks
    let buffer: UnsafeMutablePointer<UInt32>

    @inline(__always) func neighbours(_ node: Int, _ level: Int) -> (ids: UnsafePointer<UInt32>, count: Int) {
        let count = locks.withLock(node) {
            let list = index.links(node, level)
            let n = Int(list[0])
            buffer.update(from: list + 1, count: n)
            return n
        }
        return (UnsafePointer(buffer), count)
    }
}

/// How a traversal scores a node against its query (specialised per type, so the calls inline).
protocol NodeScorer {
    /// Similarity of `node` to the query (higher is closer).
    func score(_ node: Int) -> Float
    /// Starts loading what `score` will read for `node`.
    func prefetch(_ node: Int)
}

/// Exact f32 dot products.
struct F32Scorer: NodeScorer {
    let vectors: VectorView
    let query: UnsafePointer<Float>

    @inline(__always) func score(_ node: Int) -> Float {
        hush_dot_f32(vectors.row(node), query, vectors.dimension)
    }

    @inline(__always) func prefetch(_ node: Int) { hush_prefetch(vectors.row(node), vectors.dimension * 4) }
}

/// Approximate dot products on int8 codes: the query's scale times the integer dot (times the row's scale for
/// per-vector codes).
struct Int8Scorer: NodeScorer {
    let codes: UnsafePointer<Int8>
    let rowScales: UnsafePointer<Float>?
    let query: UnsafePointer<Int8>
    let queryScale: Float
    let dimension: Int

    @inline(__always) func score(_ node: Int) -> Float {
        let dot = Float(hush_dot_i8(codes + node * dimension, query, dimension)) * queryScale
        guard let rowScales else { return dot }
        return dot * rowScales[node]
    }

    @inline(__always) func prefetch(_ node: Int) { hush_prefetch(codes + node * dimension, dimension) }
}

/// Approximate dot products on 4-bit codes (``Int4Quantizer``): `offset + scale × dot`.
struct Int4Scorer: NodeScorer {
    let codes: UnsafePointer<UInt8>
    let query: UnsafePointer<Int8>
    let scale: Float
    let offset: Float
    let blocks: Int

    @inline(__always) func score(_ node: Int) -> Float {
        offset + scale * Float(hush_dot_u4i8(codes + node * blocks * 32, query, blocks))
    }

    @inline(__always) func prefetch(_ node: Int) { hush_prefetch(codes + node * blocks * 32, blocks * 32) }
}

/// A computation over a guide's scorer, generic over the scorer's type (each encoding has its own, and the walk
/// is specialised for it): what ``QuantizedMatrix/withScorer(for:_:)`` runs.
protocol ScorerTask {
    associatedtype Result
    func run<Scorer: NodeScorer>(_ scorer: Scorer) -> Result
}

extension QuantizedMatrix {
    /// Runs `task` with a scorer of `query` against every row's codes, approximating dot products: int8 or 4-bit
    /// codes; `nil` for binary codes, too coarse to steer a graph walk.
    ///
    /// - Complexity: O(dimension) to encode the query, plus the task.
    func withScorer<Task: ScorerTask>(for query: [Float], _ task: Task) -> Task.Result? {
        switch encoding {
        case .int8(let quantizer):
            let (codes, scale) = quantizer.encodeQuery(query)
            return codes.withUnsafeBufferPointer { codeBuffer in
                int8Codes.withUnsafeBufferPointer { matrix in
                    rowScales.withUnsafeBufferPointer { scales in
                        guard let qc = codeBuffer.baseAddress, let base = matrix.baseAddress else { return nil }
                        return task.run(
                            Int8Scorer(
                                codes: base, rowScales: quantizer.calibration == .perVector ? scales.baseAddress : nil,
                                query: qc, queryScale: scale, dimension: dimension))
                    }
                }
            }
        case .int4(let quantizer):
            let encoded = quantizer.encodeQuery(query)
            return encoded.weights.withUnsafeBufferPointer { weights in
                nibbleCodes.withUnsafeBufferPointer { matrix in
                    guard let qw = weights.baseAddress, let base = matrix.baseAddress else { return nil }
                    return task.run(
                        Int4Scorer(
                            codes: base, query: qw, scale: encoded.scale, offset: encoded.offset,
                            blocks: quantizer.blocks))
                }
            }
        case .binary:
            return nil
        }
    }
}

// MARK: - Delete and compact

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
        dirtyRows.insert(growing: row)
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
                removedRows.insert(growing: node)
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
        try checkInvariantsWhenAsked()
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
        dirtyRows.insert(growing: node)
    }
}

// MARK: - Checking a saved graph and repairing it

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
    /// Grows the upper levels' list storage to hold `total` slots (new slots zeroed).
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
            fresh.removedRows = Bitset(count: slotCount) { contains(row: $0) && !fresh.contains(row: $0) }
            return fresh
        }
        for row in verification.extraRows { try delete(row: row, vectors: vectors) }
        try insert(rows: verification.missingRows, vectors: vectors)
        return self
    }
}

// MARK: - Invariants

extension HNSWIndex {
    /// Whether every bulk change (a build, a batch of inserts, a compaction, a repair) is followed by
    /// ``checkInvariants()``: `HUSH_HNSW_CHECKS=1` in the environment (`make test` sets it).
    static let checksInvariants = ProcessInfo.processInfo.environment["HUSH_HNSW_CHECKS"] == "1"

    /// Throws ``ANNError/corruptGraph(_:)`` naming the broken invariants, when ``checksInvariants`` is on.
    func checkInvariantsWhenAsked() throws {
        guard Self.checksInvariants else { return }
        let problems = checkInvariants()
        guard problems.isEmpty else {
            throw ANNError.corruptGraph("invariants broken: " + problems.prefix(5).joined(separator: "; "))
        }
    }

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

// MARK: - Working memory

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

/// Carries the index and the borrowed vectors into the workers (the build synchronises them itself).
private struct UnsafeSendable: @unchecked Sendable {
    let index: HNSWIndex
    let vectors: VectorView
    let order: ArraySlice<Int>
}
