import Foundation

/// Hands out a range of positions to concurrent workers, `chunk` positions at a time, each position once: the
/// one work dispenser of the package (the encoder's batches, the graph's inserts, concurrent maps).
///
/// ```swift
/// let work = WorkRanges(0..<rows.count)
/// DispatchQueue.concurrentPerform(iterations: 2) { _ in
///     while let positions = work.next() { for i in positions { process(rows[i]) } }
/// }
/// ```
package final class WorkRanges: @unchecked Sendable {
    // Sendable: `start` is only touched under `lock`.
    private let all: Range<Int>
    private let chunk: Int
    private let lock = NSLock()
    private var start: Int

    /// Positions `all`, handed out `chunk` (at least 1) at a time.
    package init(_ all: Range<Int>, chunk: Int = 16) {
        self.all = all
        self.chunk = max(1, chunk)
        start = all.lowerBound
    }

    /// The next positions to work on, or nil when every position was handed out.
    package func next() -> Range<Int>? {
        let lower = lock.withLock {
            defer { start += chunk }
            return start
        }
        return lower < all.upperBound ? lower..<min(lower + chunk, all.upperBound) : nil
    }
}
