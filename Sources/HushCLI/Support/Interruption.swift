import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C (SIGINT) and SIGTERM for the long commands (`index`, `import`, `reembed`, `build`, `prune`, `compact`,
/// `eval`): the first signal
/// cancels the command's work, which stops at its next checkpoint (between batches, inside the model's
/// layers) with every committed batch kept, and the command ends with ``CommandInterrupted``; a second signal
/// exits at once (SQLite's journal keeps the file whole either way).
///
/// ```swift
/// try await Interruption.cancellingOnSignal(stopped: { "kept \(done) documents" }) {
///     try await store.upsert(documents)
/// }
/// ```
enum Interruption {
    /// Runs `work` in a task of its own that the first SIGINT or SIGTERM cancels. When `work` then ends with
    /// `CancellationError`, throws ``CommandInterrupted`` with `stopped()` (what was kept) and `resume` (how to
    /// go on). `atExit` runs before a second signal ends the process.
    static func cancellingOnSignal<T: Sendable>(
        stopped: @escaping @Sendable () -> String,
        resume: String = "run the same command again to resume: what was kept is not embedded again",
        atExit: @escaping @Sendable () -> Void = {},
        _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        // The handlers are in place before the work starts: a signal that came between the two would be lost
        // (ignored, its source not resumed yet) and the work would run to its end.
        let running = CancellableTask<T>()
        let received = SignalLatch()
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                guard received.first(number) else {
                    atExit()
                    FileHandle.standardError.write(Data("\nstopped at once (second signal)\n".utf8))
                    _exit(128 + number)
                }
                FileHandle.standardError.write(
                    Data("\nstopping after the current step; press Ctrl-C again to quit at once\n".utf8))
                running.cancel()
            }
            source.resume()
            sources.append(source)
        }
        let task = running.start(work)
        defer {
            for source in sources { source.cancel() }
            signal(SIGINT, SIG_DFL)
            signal(SIGTERM, SIG_DFL)
        }
        do {
            return try await task.value
        } catch is CancellationError {
            guard let number = received.signal else { throw CancellationError() }
            throw CommandInterrupted(signal: number, kept: stopped(), resume: resume)
        }
    }
}

/// A long command stopped by a signal: what it kept, how to go on, and the exit status (128 + the signal).
struct CommandInterrupted: Error, CustomStringConvertible {
    var signal: Int32
    var kept: String
    var resume: String

    var exitStatus: Int32 { 128 + signal }
    var description: String {
        "\(signal == SIGINT ? "interrupted" : "terminated"): \(kept); \(resume)"
    }
}

/// The first signal received, once.
private final class SignalLatch: @unchecked Sendable {
    // Sendable: `received` is only touched under `lock`.
    private let lock = NSLock()
    private var received: Int32?

    /// Records `number`; true when it is the first signal.
    func first(_ number: Int32) -> Bool {
        lock.withLock {
            guard received == nil else { return false }
            received = number
            return true
        }
    }

    var signal: Int32? { lock.withLock { received } }
}

/// A task that may be cancelled before it exists: a cancel asked for first cancels it as it starts.
private final class CancellableTask<T: Sendable>: @unchecked Sendable {
    // Sendable: `task` and `cancelled` are only touched under `lock`.
    private let lock = NSLock()
    private var task: Task<T, any Error>?
    private var cancelled = false

    /// Starts `work` in a task of its own (cancelled at once when a cancel came first) and returns it.
    func start(_ work: @escaping @Sendable () async throws -> T) -> Task<T, any Error> {
        let task = Task { try await work() }
        let cancelNow = lock.withLock {
            self.task = task
            return cancelled
        }
        if cancelNow { task.cancel() }
        return task
    }

    func cancel() {
        let task = lock.withLock {
            cancelled = true
            return self.task
        }
        task?.cancel()
    }
}
