import Foundation

/// One step of an upsert followed as a stream (``HushStore/upserting(_:)``): its progress, then what it did.
public enum UpsertUpdate: Sendable, Hashable {
    /// Documents prepared and embedded so far.
    case progress(StoreProgress)
    /// The write finished; the last element of the stream.
    case finished(UpsertSummary)
}

/// What a write changed, as ``HushStore/changes`` reports it once the write has committed.
public struct StoreChange: Sendable, Hashable {
    /// Which write it was.
    public enum Kind: Sendable, Hashable {
        /// Documents were added or updated (``HushStore/upsert(_:progress:)``, or with precomputed vectors).
        case upserted
        /// Documents were deleted by id.
        case deleted
        /// ``HushStore/prune(maxDocuments:olderThan:progress:)`` deleted documents.
        case pruned
        /// ``HushStore/compact()`` rewrote the file (no document changed).
        case compacted
        /// ``HushStore/reembed(batchSize:progress:)`` made every vector again.
        case reembedded
    }

    /// Which write it was.
    public var kind: Kind
    /// The ids the write was given (an upsert's documents, a delete's ids); empty for a prune, a compaction or a
    /// re-embed, which may touch any document.
    public var documentIDs: [String]
    /// How many documents were added, updated or deleted.
    public var count: Int
}

extension HushStore {
    /// ``upsert(_:progress:)`` as a stream: its progress as it goes, then ``UpsertUpdate/finished(_:)`` with its
    /// summary. An `@MainActor` model iterates it and updates its own state, with no closure to hop back to the
    /// main actor. The write runs at the priority of the task that iterates it, and ending the iteration (the
    /// task cancelled, or a `break`) cancels the write, which keeps the batches it committed.
    ///
    /// ```swift
    /// for try await update in store.upserting(entries) {
    ///     if case .progress(let step) = update { progress = Double(step.completed) / Double(step.total) }
    /// }
    /// ```
    public func upserting(_ documents: [Document]) -> AsyncThrowingStream<UpsertUpdate, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: UpsertUpdate.self)
        let write = Task {
            do {
                let summary = try await upsert(documents) { continuation.yield(.progress($0)) }
                continuation.yield(.finished(summary))
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in write.cancel() }
        return stream
    }

    /// Every write's change, from now on, once it has committed: for a list that refreshes when posts arrive or
    /// go, whichever task wrote them. Each call is a stream of its own; it ends when the iterating task ends it
    /// or the store is released.
    ///
    /// ```swift
    /// for await change in store.changes where change.kind != .compacted {
    ///     await reloadVisiblePosts()
    /// }
    /// ```
    public var changes: AsyncStream<StoreChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: StoreChange.self, bufferingPolicy: .bufferingNewest(64))
        let id = UUID()
        changeObservers.withLock { $0[id] = continuation }
        continuation.onTermination = { [changeObservers] _ in
            _ = changeObservers.withLock { $0.removeValue(forKey: id) }
        }
        return stream
    }

    /// Tells every ``changes`` stream of `change`.
    func announce(_ change: StoreChange) {
        for continuation in changeObservers.withLock({ Array($0.values) }) { continuation.yield(change) }
    }
}
