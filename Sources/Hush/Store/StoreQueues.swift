import Dispatch
import Foundation
import HushEmbedding

/// Where a store's writes run: the concurrency model in one place.
///
/// Writes (upsert, import, delete, prune, compact, re-embed) run on one serial dispatch queue of the store's
/// own, so they apply one at a time, in call order, and their long work (embedding whole batches, SQLite
/// transactions) runs on that queue's thread, never on Swift's cooperative pool. Reads (search, related
/// items, ranking, summaries, lookups) run in the caller's task, concurrently with each other and with
/// writes: they are short (one query to embed, a scan, a few SQLite reads).
///
/// Inside, the store's memory sits behind a readers-writer lock (`StoreMemory`): a read holds its read side
/// only while it reads memory, never during SQL (see `Searcher`); a write holds the write side only while it
/// writes its batch's rows and applies them to memory, never while embedding. SQLite runs in WAL mode, so
/// reading the file never waits for another connection's writes.
///
/// A write runs at its caller's priority: an upsert from a `Task(priority: .utility)` embeds at `.utility`, so
/// indexing a feed in the background leaves the cores to what the person is doing.
final class StoreQueues: Sendable {
    private let writes = DispatchQueue(label: "hush.store.writes")
    /// Whether writes pause (``HushStore/suspend()``): a write counts as running while its body runs, but for its
    /// pauses.
    private let suspension: WriteSuspension

    init(suspension: WriteSuspension) {
        self.suspension = suspension
    }

    /// The dispatch class of a task's priority.
    static func qos(_ priority: TaskPriority) -> DispatchQoS {
        switch priority {
        case .high, .userInitiated: .userInitiated
        case .medium: .default
        case .low, .utility: .utility
        case .background: .background
        default: priority.rawValue >= TaskPriority.high.rawValue ? .userInitiated : .utility
        }
    }

    /// Runs `body` on the write queue, after every write submitted before it, at the calling task's priority,
    /// and returns its result.
    ///
    /// The calling task's cancellation reaches `body` through a ``CancellationFlag`` bound to the queue's thread
    /// while it runs: the writes check it between batches and embedding sub-batches (and the model twice a
    /// layer) and throw `CancellationError`, keeping what they committed. A write cancelled before its turn
    /// throws without starting.
    func write<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        let flag = CancellationFlag()
        let qos = Self.qos(Task.currentPriority)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                writes.async(qos: qos, flags: .enforceQoS) { [suspension] in
                    continuation.resume(
                        with: Result {
                            try flag.check()
                            return try suspension.running { try flag.bound(body) }
                        })
                }
            }
        } onCancel: {
            flag.cancel()
        }
    }
}
