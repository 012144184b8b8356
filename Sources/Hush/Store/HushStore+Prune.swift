import Foundation

/// The file's size before and after ``HushStore/compact()``.
///
/// ```swift
/// let report = try await store.compact()
/// print(report.bytesBefore, report.bytesAfter)
/// ```
public struct CompactionReport: Sendable, Hashable, Codable {
    /// Bytes of the database file plus its write-ahead log before compacting (pages × page size in memory).
    public var bytesBefore: Int64
    /// The same after compacting.
    public var bytesAfter: Int64
    /// Bytes the compaction left in the write-ahead log (counted in ``bytesAfter``): 0 unless another process
    /// was reading an older state of the file, which keeps the log from being moved into the file. The
    /// compaction itself is committed; the next write (or ``HushStore/close()``) moves the log in.
    public var walBytesLeft: Int64

    /// Creates a report.
    public init(bytesBefore: Int64, bytesAfter: Int64, walBytesLeft: Int64 = 0) {
        self.bytesBefore = bytesBefore
        self.bytesAfter = bytesAfter
        self.walBytesLeft = walBytesLeft
    }

    /// Bytes returned to the file system (0 when the file grew).
    public var reclaimedBytes: Int64 { max(0, bytesBefore - bytesAfter) }
}

extension HushStore {
    /// Deletes old documents: those created before `olderThan`, and all but the newest `maxDocuments` (by
    /// creation time, then insertion order). Chunks, vectors and full-text rows go with them, in transactions of
    /// 500 documents, and the in-memory index is updated under the same lock as ``delete(ids:)``. Returns how
    /// many documents were deleted. The file keeps its size until ``compact()``.
    ///
    /// A cancelled task stops the prune before its next transaction with `CancellationError`: what it deleted
    /// stays deleted, and the same call again deletes the rest. `progress` hears the documents deleted so far
    /// after each transaction.
    ///
    /// ```swift
    /// let removed = try await store.prune(maxDocuments: 5_000, olderThan: Date(timeIntervalSinceNow: -365 * 86_400))
    /// ```
    ///
    /// - Throws: ``StoreError/invalidOption(_:)`` for a negative `maxDocuments`, ``StoreError/database(_:)``,
    ///   `CancellationError`.
    /// - Complexity: O(documents log documents) to pick the victims, plus O(deleted chunks × log chunks).
    @discardableResult
    public func prune(
        maxDocuments: Int? = nil, olderThan: Date? = nil, progress: (@Sendable (StoreProgress) -> Void)? = nil
    ) async throws -> Int {
        let removed = try await queues.write { [writer] in
            try writer.prune(maxDocuments: maxDocuments, olderThan: olderThan, progress: progress)
        }
        if removed > 0 { announce(StoreChange(kind: .pruned, documentIDs: [], count: removed)) }
        return removed
    }

    /// The ids of the documents ``prune(maxDocuments:olderThan:progress:)`` would delete with these limits now,
    /// oldest first, without deleting anything: what to show before a prune.
    ///
    /// ```swift
    /// let doomed = try await store.pruneCandidates(maxDocuments: 5_000)
    /// print("\(doomed.count) entries would be deleted, the oldest \(doomed.first ?? "-")")
    /// ```
    ///
    /// - Throws: ``StoreError/invalidOption(_:)`` for a negative `maxDocuments`, ``StoreError/database(_:)``.
    /// - Complexity: O(documents log documents).
    public func pruneCandidates(maxDocuments: Int? = nil, olderThan: Date? = nil) async throws -> [String] {
        if let maxDocuments, maxDocuments < 0 {
            throw StoreError.invalidOption("maxDocuments must be at least 0 (got \(maxDocuments))")
        }
        guard maxDocuments != nil || olderThan != nil else { return [] }
        return try database.pruneCandidates(createdBefore: olderThan, keepingNewest: maxDocuments)
    }

    /// Returns the space of deleted rows to the file system: `VACUUM`, then a `TRUNCATE` checkpoint of the
    /// write-ahead log. Rewrites the whole file, so run it rarely (after a large prune), not after every delete.
    ///
    /// ```swift
    /// try await store.prune(maxDocuments: 1_000)
    /// let report = try await store.compact()
    /// ```
    ///
    /// When another process is reading the file, the compaction still commits and the report says how much
    /// stayed in the log (``CompactionReport/walBytesLeft``) instead of failing. A cancelled task stops the
    /// `VACUUM` where it is (SQLite rolls it back, the file is as before) and the call throws `CancellationError`.
    ///
    /// - Throws: ``StoreError/database(_:)`` (for example when the disk cannot hold the temporary copy),
    ///   ``StoreError/busy(path:)`` when another process kept writing for the whole busy timeout,
    ///   `CancellationError`.
    /// - Complexity: O(file size).
    public func compact() async throws -> CompactionReport {
        let report = try await queues.write { [writer] in try writer.compact() }
        announce(StoreChange(kind: .compacted, documentIDs: [], count: 0))
        return report
    }
}
