import Foundation
import HushEmbedding

/// Whether a store's writes pause (``HushStore/suspend()``), and whether one is running: a write waits at its
/// pause points (before it starts, between its batches), holding no transaction, until the store resumes or the
/// write is cancelled.
///
/// ```swift
/// let suspension = WriteSuspension()
/// suspension.running { try suspension.waitWhileSuspended() }  // the write queue's side
/// ```
final class WriteSuspension: Sendable {
    private struct State {
        var suspended = false
        /// Writes running and not paused (at most one: the write queue is serial).
        var writing = 0
    }

    private let state = Locked(State())

    var isSuspended: Bool { state.value.suspended }
    /// Whether a write is running and not paused at one of its pause points.
    var isWriting: Bool { state.value.writing > 0 }

    func suspend() { state.withLock { $0.suspended = true } }
    func resume() { state.withLock { $0.suspended = false } }

    /// Runs a write's body, counted as writing except while it waits in ``waitWhileSuspended()``.
    func running<T>(_ body: () throws -> T) rethrows -> T {
        state.withLock { $0.writing += 1 }
        defer { state.withLock { $0.writing -= 1 } }
        return try body()
    }

    /// Returns at once unless the store is suspended; else waits (not counted as writing) until it resumes.
    ///
    /// - Throws: `CancellationError` when the current ``CancellationFlag`` is raised meanwhile.
    func waitWhileSuspended() throws {
        guard isSuspended else { return }
        state.withLock { $0.writing -= 1 }
        defer { state.withLock { $0.writing += 1 } }
        while isSuspended {
            try CancellationFlag.checkCurrent()
            usleep(5_000)
        }
    }
}

/// A store's observers of ``HushStore/suspendNotification`` and ``HushStore/resumeNotification``, removed with it.
final class SuspensionObservers: @unchecked Sendable {
    // Sendable: `tokens` is only touched under `lock`.
    private let lock = NSLock()
    private var tokens: [any NSObjectProtocol] = []

    /// Starts observing for the store `owner` (once it is made): a notification without an object is for every
    /// store, one whose object is a store for that store alone.
    func observe(for suspension: WriteSuspension, owner: ObjectIdentifier) {
        @Sendable func concerns(_ notification: Notification) -> Bool {
            guard let object = notification.object else { return true }
            return ObjectIdentifier(object as AnyObject) == owner
        }
        let center = NotificationCenter.default
        let made = [
            center.addObserver(forName: HushStore.suspendNotification, object: nil, queue: nil) { notification in
                if concerns(notification) { suspension.suspend() }
            },
            center.addObserver(forName: HushStore.resumeNotification, object: nil, queue: nil) { notification in
                if concerns(notification) { suspension.resume() }
            },
        ]
        lock.withLock { tokens += made }
    }

    deinit {
        for token in tokens { NotificationCenter.default.removeObserver(token) }
    }
}
