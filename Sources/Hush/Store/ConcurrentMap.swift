import Foundation
import HushEmbedding

extension Array where Element: Sendable {
    /// `map` over up to `threads` threads (the elements handed out 16 at a time), results in order. Used
    /// for the pure per-document work of a batch (cleaning, language identification, chunking, hashing).
    ///
    /// ```swift
    /// let prepared = documents.concurrentMap(threads: 2) { preparer.prepare($0) }
    /// ```
    func concurrentMap<T: Sendable>(threads: Int, _ transform: @Sendable (Element) -> T) -> [T] {
        let workers = Swift.min(threads, (count + 15) / 16)
        guard workers > 1 else { return map(transform) }
        let results = ResultSlots<T>(count: count)
        let ranges = WorkRanges(indices)
        withoutActuallyEscaping(transform) { transform in
            let work = SendableWork(elements: self, transform: transform)
            DispatchQueue.concurrentPerform(iterations: workers) { _ in
                while let positions = ranges.next() {
                    for i in positions { results.set(i, work.transform(work.elements[i])) }
                }
            }
        }
        return results.values()
    }
}

/// The elements and the transform, handed to the workers.
private struct SendableWork<Element: Sendable, T>: Sendable {
    let elements: [Element]
    let transform: @Sendable (Element) -> T
}

/// One slot per result; each is written by exactly one worker before `values()` reads them all.
private final class ResultSlots<T>: @unchecked Sendable {
    // Sendable: distinct workers write distinct slots, and reading waits for `concurrentPerform` to return.
    private let slots: UnsafeMutableBufferPointer<T?>

    init(count: Int) { slots = .allocate(capacity: count); slots.initialize(repeating: nil) }

    deinit {
        slots.deinitialize()
        slots.deallocate()
    }

    func set(_ index: Int, _ value: T) { slots[index] = value }

    func values() -> [T] { slots.compactMap { $0 } }
}
