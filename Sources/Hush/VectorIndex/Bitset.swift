/// The one filter of Hush: a set of allowed integers as a bitset. Over document slots it is what a
/// ``SearchFilter`` allows (`DocumentTable.mask(for:)`); over vector rows it is the filter hook of every
/// scan and of HNSW search.
///
/// Filters are applied before ranking: ids not in the set are never returned. It also keeps growing sets of
/// rows (``insert(growing:)``): the graph's nodes changed or removed since its last save.
///
/// ```swift
/// var allowed = Bitset(count: 1000)
/// allowed.insert(42)
/// let hits = try scan.search(query, k: 10, filter: allowed, vectors: view)
/// ```
package struct Bitset: Sendable, Equatable {
    /// 64 rows per word, row r at bit r % 64 of word r / 64.
    package private(set) var words: [UInt64]
    /// Number of rows the bitmap covers (rows at and above are not allowed until ``insert(growing:)`` adds them).
    package private(set) var count: Int
    /// Number of allowed rows.
    package private(set) var allowedCount: Int

    /// An empty bitmap (no row allowed), or a full one with `allowAll`.
    ///
    /// ```swift
    /// let none = Bitset(count: 100)
    /// ```
    package init(count: Int, allowAll: Bool = false) {
        self.count = count
        let wordCount = (count + 63) / 64
        if allowAll {
            var words = [UInt64](repeating: ~0, count: wordCount)
            if count % 64 != 0, let last = words.indices.last { words[last] = (1 << UInt64(count % 64)) - 1 }
            self.words = words
            self.allowedCount = count
        } else {
            self.words = [UInt64](repeating: 0, count: wordCount)
            self.allowedCount = 0
        }
    }

    /// A bitmap of the rows in `0..<count` for which `isAllowed` returns true.
    ///
    /// - Complexity: O(count) calls of the predicate.
    ///
    /// ```swift
    /// let even = Bitset(count: 100) { $0 % 2 == 0 }
    /// ```
    package init(count: Int, where isAllowed: (Int) -> Bool) {
        self.init(count: count)
        for row in 0..<count where isAllowed(row) { insert(row) }
    }

    /// Whether `row` is allowed.
    @inline(__always) package func contains(_ row: Int) -> Bool {
        guard row >= 0, row < count else { return false }
        return words[row >> 6] & (1 << UInt64(row & 63)) != 0
    }

    /// Allows `row` (ignored when outside `0..<count`).
    ///
    /// ```swift
    /// bitmap.insert(7)
    /// ```
    package mutating func insert(_ row: Int) {
        guard row >= 0, row < count else { return }
        let bit: UInt64 = 1 << UInt64(row & 63)
        if words[row >> 6] & bit == 0 {
            words[row >> 6] |= bit
            allowedCount += 1
        }
    }

    /// Disallows `row`.
    ///
    /// ```swift
    /// bitmap.remove(7)
    /// ```
    package mutating func remove(_ row: Int) {
        guard row >= 0, row < count else { return }
        let bit: UInt64 = 1 << UInt64(row & 63)
        if words[row >> 6] & bit != 0 {
            words[row >> 6] &= ~bit
            allowedCount -= 1
        }
    }

    /// Whether no row is allowed.
    package var isEmpty: Bool { allowedCount == 0 }

    /// Allows `row`, first covering every row up to it when it is beyond ``count`` (a growing set of rows: O(1)
    /// amortised, no hashing).
    ///
    /// ```swift
    /// var changed = Bitset(count: 0)
    /// changed.insert(growing: 1_000)
    /// ```
    @inline(__always) package mutating func insert(growing row: Int) {
        guard row >= 0 else { return }
        if row >= count {
            let needed = (row >> 6) + 1
            if needed > words.count {
                words.append(contentsOf: repeatElement(0, count: max(needed - words.count, 64)))
            }
            count = max(count, words.count << 6)
        }
        insert(row)
    }

    /// Disallows every row (the rows covered stay covered).
    package mutating func removeAll() {
        guard allowedCount > 0 else { return }
        for i in words.indices { words[i] = 0 }
        allowedCount = 0
    }

    /// The allowed rows, ascending.
    ///
    /// - Complexity: O(count / 64 + allowedCount).
    package func sorted() -> [Int] {
        var rows: [Int] = []
        rows.reserveCapacity(allowedCount)
        forEachAllowed { rows.append($0) }
        return rows
    }

    /// The rows allowed by both bitmaps (covering `count` rows).
    ///
    /// - Complexity: O(count / 64).
    ///
    /// ```swift
    /// let both = allowed.intersection(english)
    /// ```
    package func intersection(_ other: Bitset) -> Bitset {
        var result = Bitset(count: count)
        var allowed = 0
        for index in result.words.indices where index < other.words.count {
            let word = words[index] & other.words[index]
            result.words[index] = word
            allowed += word.nonzeroBitCount
        }
        result.allowedCount = allowed
        return result
    }

    /// Calls `body` with every allowed row, ascending.
    ///
    /// - Complexity: O(count / 64 + allowedCount).
    ///
    /// ```swift
    /// bitmap.forEachAllowed { print($0) }
    /// ```
    package func forEachAllowed(_ body: (Int) throws -> Void) rethrows {
        for (index, word) in words.enumerated() where word != 0 {
            var bits = word
            while bits != 0 {
                let bit = bits.trailingZeroBitCount
                try body(index << 6 | bit)
                bits &= bits - 1
            }
        }
    }
}
