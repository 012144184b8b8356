import Foundation

/// Importing a Python-built knowledge base into a store: its rows read (Persistence/PythonKnowledgeBase.swift),
/// then stored with their own vectors.
extension PythonKnowledgeBase {
    /// Reads every row as ``records(dimension:sourceType:)`` does, and sets apart the rows that cannot be
    /// imported as they are, each with its id and what to fix: metadata that is not a JSON object, a
    /// metadata value that is `null`, a date that is not a date (or outside the years 0001-9999), a vector
    /// holding NaN or infinity. Nothing is dropped silently.
    ///
    /// ```swift
    /// let (records, rejected) = try source.rows(dimension: 384)
    /// for row in rejected { print(row.id, row.reason) }
    /// ```
    ///
    /// - Throws: ``BuildError/importLayout(path:reason:)``, ``BuildError/importDimension(path:found:expected:)``.
    /// - Complexity: O(rows × dimension).
    public func rows(dimension: Int, sourceType: String? = nil) throws -> (
        records: [Record], rejected: [UpsertSummary.DocumentError]
    ) {
        let (records, rejected) = try readRows(dimension: dimension, sourceType: sourceType)
        return (records, rejected.map { UpsertSummary.DocumentError(id: $0.id, reason: $0.reason) })
    }

    /// Stores every row in `store` with its own vector (nothing is embedded); `progress` is called after
    /// each transaction.
    ///
    /// ```swift
    /// let summary = try await source.import(into: store) { print("\($0.completed)/\($0.total)") }
    /// ```
    ///
    /// - Throws: as ``records(dimension:sourceType:)`` and ``HushStore/upsert(_:precomputed:progress:)``.
    /// - Complexity: O(rows × dimension) plus one insert per row.
    public func `import`(
        into store: HushStore, sourceType: String? = nil, progress: (@Sendable (StoreProgress) -> Void)? = nil
    ) async throws -> UpsertSummary {
        let (records, rejected) = try rows(dimension: store.embedder.identity.dimension, sourceType: sourceType)
        var summary = try await store.upsert(
            records.map(\.document), precomputed: records.map(\.vector), progress: progress)
        summary.errors = rejected + summary.errors
        return summary
    }
}
