import HushKernels

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
    var dirtyRows = RowSet()
    /// Rows dropped by `compact()` since the last save.
    var removedRows = RowSet()
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
                let newCapacity = max(upperUsed + needed, upperCapacity * 3 / 2, 4096)
                let fresh = UnsafeMutablePointer<UInt32>.allocate(capacity: newCapacity)
                fresh.update(from: upper, count: upperUsed)
                (fresh + upperUsed).initialize(repeating: 0, count: newCapacity - upperUsed)
                upper.deallocate()
                upper = fresh
                upperCapacity = newCapacity
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
