/// A map from SQLite ids (document rowids, chunk ids) to small integers (slots, rows), in 4 bytes per id
/// while the ids are dense, as SQLite hands them out (1, 2, 3, ...): an array indexed by id. When the ids
/// become sparse (the largest one more than four times the count, plus some slack) it switches to a
/// dictionary, so a store that deleted most of what it ever held does not keep an array sized by its history.
///
/// ```swift
/// var rows = IDMap()
/// rows[42] = 7
/// rows[42]  // 7
/// ```
struct IDMap: Sendable, Equatable {
    private var dense: [Int32] = []
    private var sparse: [Int64: Int32]?
    private(set) var count = 0

    subscript(id: Int64) -> Int32? {
        get {
            if let sparse { return sparse[id] }
            guard id >= 0, id < Int64(dense.count) else { return nil }
            let value = dense[Int(id)]
            return value >= 0 ? value : nil
        }
        set {
            if let newValue {
                updateValue(newValue, forKey: id)
            } else {
                removeValue(forKey: id)
            }
        }
    }

    /// Sets `value` (at least 0) for `id`; returns the value it replaced.
    @discardableResult
    mutating func updateValue(_ value: Int32, forKey id: Int64) -> Int32? {
        precondition(value >= 0, "IDMap holds non-negative values")
        if sparse == nil, id < 0 || id >= Int64(4 * (count + 1) + 1024) { makeSparse() }
        if sparse != nil {
            let old = sparse?.updateValue(value, forKey: id)
            if old == nil { count += 1 }
            return old
        }
        let index = Int(id)
        if index >= dense.count {
            dense.append(contentsOf: repeatElement(-1, count: max(index + 1, dense.count * 3 / 2) - dense.count))
        }
        let old = dense[index]
        dense[index] = value
        if old < 0 { count += 1 }
        return old >= 0 ? old : nil
    }

    /// Removes `id`; returns its value.
    @discardableResult
    mutating func removeValue(forKey id: Int64) -> Int32? {
        if sparse != nil {
            let old = sparse?.removeValue(forKey: id)
            if old != nil { count -= 1 }
            return old
        }
        guard id >= 0, id < Int64(dense.count), dense[Int(id)] >= 0 else { return nil }
        let old = dense[Int(id)]
        dense[Int(id)] = -1
        count -= 1
        return old
    }

    /// A map of many ids at once (values at least 0), dense or sparse by how the ids spread, whatever their
    /// order. `nil` when an id appears twice.
    init?(ids: [Int64], values: [Int32]) {
        let live = zip(ids, values).filter { $0.1 >= 0 && $0.0 >= 0 }
        let largest = live.map(\.0).max() ?? -1
        if largest >= Int64(4 * (live.count + 1) + 1024) { sparse = [:] }
        reserveCapacity(sparse == nil ? Int(largest) + 1 : live.count)
        for (id, value) in live where updateValue(value, forKey: id) != nil { return nil }
    }

    init() {}

    mutating func reserveCapacity(_ capacity: Int) {
        if sparse == nil { dense.reserveCapacity(capacity + 1) } else { sparse?.reserveCapacity(capacity) }
    }

    private mutating func makeSparse() {
        var map: [Int64: Int32] = [:]
        map.reserveCapacity(count + 1)
        for (id, value) in dense.enumerated() where value >= 0 { map[Int64(id)] = value }
        sparse = map
        dense = []
    }
}

/// Short lists per slot (a document's tags, its metadata pairs) in one shared pool instead of an array each:
/// a hundred thousand one-tag documents are two small arrays of offsets and one of values, not a hundred
/// thousand allocations. A replaced list leaves its old values behind until the pool is compacted (when they
/// outnumber the live ones).
struct PooledLists<Element: BitwiseCopyable & Sendable & Equatable>: Sendable {
    private var starts: [Int32] = []
    private var counts: [Int32] = []
    private var pool: [Element] = []
    private var live = 0

    init() {}

    /// Lists from their lengths and their values laid end to end; `nil` when they do not add up.
    init?(counts: [Int32], values: [Element]) {
        var start: Int32 = 0
        starts.reserveCapacity(counts.count)
        for count in counts {
            guard count >= 0 else { return nil }
            starts.append(start)
            start += count
        }
        guard Int(start) == values.count else { return nil }
        self.counts = counts
        pool = values
        live = values.count
    }

    var slotCount: Int { counts.count }

    subscript(slot: Int) -> ArraySlice<Element> {
        let start = Int(starts[slot])
        return pool[start..<(start + Int(counts[slot]))]
    }

    /// Adds an empty list at the end (a new slot).
    mutating func appendEmpty() {
        starts.append(Int32(pool.count))
        counts.append(0)
    }

    mutating func set(_ values: [Element], at slot: Int) {
        live += values.count - Int(counts[slot])
        if values.isEmpty {
            counts[slot] = 0
            return
        }
        starts[slot] = Int32(pool.count)
        counts[slot] = Int32(values.count)
        pool.append(contentsOf: values)
        if pool.count > 2 * live + 1024 { compact() }
    }

    /// The lengths and the values end to end (what ``init(counts:values:)`` takes back).
    var flattened: (counts: [Int32], values: [Element]) {
        var values: [Element] = []
        values.reserveCapacity(live)
        for slot in counts.indices { values.append(contentsOf: self[slot]) }
        return (counts, values)
    }

    private mutating func compact() {
        let (counts, values) = flattened
        if let fresh = PooledLists(counts: counts, values: values) { self = fresh }
    }
}
