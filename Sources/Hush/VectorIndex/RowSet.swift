/// A growable set of row ids as a bitmap: O(1) insert without hashing (the graph marks a node dirty on
/// every link change), ascending iteration for saving.
struct RowSet: Sendable, Equatable {
    private var words: [UInt64] = []
    private(set) var count = 0

    init() {}

    init<S: Sequence<Int>>(_ rows: S) {
        for row in rows { insert(row) }
    }

    var isEmpty: Bool { count == 0 }

    @inline(__always) func contains(_ row: Int) -> Bool {
        let word = row >> 6
        return row >= 0 && word < words.count && words[word] & (1 << UInt64(row & 63)) != 0
    }

    @inline(__always) mutating func insert(_ row: Int) {
        guard row >= 0 else { return }
        let word = row >> 6
        if word >= words.count { words.append(contentsOf: repeatElement(0, count: max(word + 1 - words.count, 64))) }
        let bit: UInt64 = 1 << UInt64(row & 63)
        if words[word] & bit == 0 {
            words[word] |= bit
            count += 1
        }
    }

    mutating func remove(_ row: Int) {
        guard contains(row) else { return }
        words[row >> 6] &= ~(1 << UInt64(row & 63))
        count -= 1
    }

    mutating func removeAll() {
        guard count > 0 else { return }
        for i in words.indices { words[i] = 0 }
        count = 0
    }

    /// The rows, ascending.
    func sorted() -> [Int] {
        var rows: [Int] = []
        rows.reserveCapacity(count)
        for (index, word) in words.enumerated() where word != 0 {
            var bits = word
            while bits != 0 {
                rows.append(index << 6 | bits.trailingZeroBitCount)
                bits &= bits - 1
            }
        }
        return rows
    }
}
