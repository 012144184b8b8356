import Foundation

/// Failure injection for tests.
struct StoreTestHooks: Sendable {
    /// Called inside the write transaction after each document of a batch is written.
    var afterDocumentWritten: (@Sendable (_ id: String) throws -> Void)?
    /// Called after each committed re-embed batch.
    var afterReembedBatch: (@Sendable (_ batch: Int) throws -> Void)?
    /// Called by a search between its read of the keyword index and its second hold of the index lock.
    var afterKeywordRead: (@Sendable () throws -> Void)?
}
