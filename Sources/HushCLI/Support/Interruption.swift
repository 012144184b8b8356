import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C (SIGINT), SIGTERM and SIGHUP for the long commands (`index`, `import`, `reembed`, `build`, `prune`, `compact`,
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
        // The handler is installed (synchronously, by `signal`) before the work starts, and only writes the
        // signal's number to a pipe, which a dispatch source reads: a signal that comes before that source is
        // running waits in the pipe. (A dispatch signal source with the signal ignored, as before, lost a Ctrl-C
        // sent just after the work began on Linux, where the source is armed later, on another thread.)
        let running = CancellableTask<T>()
        let received = SignalLatch()
        let pipe = SignalPipe.shared
        pipe.drain()
        let source = DispatchSource.makeReadSource(fileDescriptor: pipe.readEnd, queue: .global())
        source.setEventHandler {
            for number in pipe.drain() {
                guard received.first(number) else {
                    atExit()
                    FileHandle.standardError.write(Data("\nstopped at once (second signal)\n".utf8))
                    _exit(128 + number)
                }
                FileHandle.standardError.write(
                    Data("\nstopping after the current step; press Ctrl-C again to quit at once\n".utf8))
                running.cancel()
            }
        }
        source.resume()
        // SIGHUP too: a terminal closed under a long command ends it as SIGTERM does, with its summary.
        for number in [SIGINT, SIGTERM, SIGHUP] { signal(number, forwardSignalToPipe) }
        let task = running.start(work)
        defer {
            signal(SIGINT, SIG_DFL)
            signal(SIGTERM, SIG_DFL)
            signal(SIGHUP, SIG_DFL)
            source.cancel()
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

/// The pipe a signal handler writes signal numbers to (one byte each; `write` is safe in a handler), read by
/// ``Interruption/cancellingOnSignal(stopped:resume:atExit:_:)``'s dispatch source. One for the process.
private final class SignalPipe: Sendable {
    static let shared = SignalPipe()

    let readEnd: Int32
    let writeEnd: Int32

    private init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        }
        readEnd = ends[0]
        writeEnd = ends[1]
        signalWriteEnd = ends[1]
    }

    /// Reads every signal number waiting in the pipe (none left from an earlier command, when called first).
    @discardableResult
    func drain() -> [Int32] {
        var numbers: [Int32] = []
        var buffer = [UInt8](repeating: 0, count: 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            guard count > 0 else { return numbers }
            numbers += buffer[..<count].map { Int32($0) }
        }
    }
}

/// The pipe's write end, for the signal handler (a C function cannot capture it).
nonisolated(unsafe) private var signalWriteEnd: Int32 = -1

/// The signal handler: writes the signal's number to the pipe and returns.
private func forwardSignalToPipe(_ number: Int32) {
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalWriteEnd, &byte, 1)
}
