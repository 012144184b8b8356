import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A cancellation request that reaches work running on threads of its own, where Swift's `Task.isCancelled`
/// cannot be read: a store's write queue, a model's worker threads.
///
/// The code that starts such work makes a flag, raises it from the task's cancellation handler, and runs the
/// work with the flag bound to its thread (``bound(_:)``). Code on that thread asks
/// ``checkCurrent()`` at its checkpoints (between batches, between a model's layers) and throws
/// `CancellationError` once the flag is raised or, in a task's own thread, once the task is cancelled.
///
/// ```swift
/// let flag = CancellationFlag()
/// let vectors = try await withTaskCancellationHandler {
///     try await Task.detached { try flag.bound { try embedder.embed(texts, role: .passage) } }.value
/// } onCancel: {
///     flag.cancel()
/// }
/// ```
public final class CancellationFlag: @unchecked Sendable {
    // Sendable: `raised` is only touched under `lock`.
    private let lock = NSLock()
    private var raised = false

    /// Creates a flag that is not raised.
    public init() {}

    /// Raises the flag: every checkpoint of the work bound to it throws from now on.
    public func cancel() {
        lock.lock()
        raised = true
        lock.unlock()
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return raised
    }

    /// Throws `CancellationError` when the flag is raised.
    public func check() throws {
        if isCancelled { throw CancellationError() }
    }

    /// Runs `body` with this flag as the current thread's (``current``), and restores the one before.
    ///
    /// ```swift
    /// try flag.bound { try store.writeBatch(batch) }
    /// ```
    public func bound<T>(_ body: () throws -> T) rethrows -> T {
        let previous = Self.current
        Self.setCurrent(self)
        defer { Self.setCurrent(previous) }
        return try body()
    }

    /// The flag bound to the current thread by ``bound(_:)``, if any.
    public static var current: CancellationFlag? {
        guard let pointer = pthread_getspecific(threadKey) else { return nil }
        return Unmanaged<CancellationFlag>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Whether the work on this thread should stop: the current flag is raised, or the current task (when this
    /// thread runs one) is cancelled.
    public static var isCurrentCancelled: Bool {
        current?.isCancelled == true || Task.isCancelled
    }

    /// Throws `CancellationError` when the work on this thread should stop (see ``isCurrentCancelled``).
    ///
    /// ```swift
    /// for batch in batches {
    ///     try CancellationFlag.checkCurrent()
    ///     try write(batch)
    /// }
    /// ```
    public static func checkCurrent() throws {
        if isCurrentCancelled { throw CancellationError() }
    }

    private static func setCurrent(_ flag: CancellationFlag?) {
        // Unretained: `bound` keeps the flag alive for as long as it is current.
        pthread_setspecific(threadKey, flag.map { Unmanaged.passUnretained($0).toOpaque() })
    }
}

/// The thread-specific slot of ``CancellationFlag/current``.
private let threadKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()
