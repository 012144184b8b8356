import Foundation

/// A value behind a mutex: the one way the engine shares small mutable state between threads (counters,
/// the query cache, test hooks). The index's matrix and graph use ``ReadWriteLock`` instead.
///
/// ```swift
/// let counter = Locked(0)
/// counter.withLock { $0 += 1 }
/// ```
final class Locked<Value: Sendable>: @unchecked Sendable {
    // Sendable: `stored` is only touched under `lock`.
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    /// Runs `body` on the value, holding the lock.
    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try lock.withLock { try body(&stored) }
    }
}

/// Work started on a global queue now, whose result is taken later (once or more).
///
/// ```swift
/// let next = FutureValue { prepare(batch) }
/// write(current)
/// let prepared = next.value()
/// ```
final class FutureValue<Value: Sendable>: Sendable {
    private let result = Locked<Value?>(nil)
    private let done = DispatchSemaphore(value: 0)

    /// A value already there: ``value()`` returns it at once.
    init(ready value: Value) {
        result.value = value
        done.signal()
    }

    init(_ work: @escaping @Sendable () -> Value) {
        DispatchQueue.global().async { [result, done] in
            result.value = work()
            done.signal()
        }
    }

    /// Waits until the work has returned, and returns what it returned.
    func value() -> Value {
        done.wait()
        done.signal()  // a later call returns at once
        guard let value = result.value else { preconditionFailure("the work signalled before storing its result") }
        return value
    }
}
