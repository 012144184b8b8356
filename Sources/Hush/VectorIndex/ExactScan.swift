import HushKernels

/// The one exact f32 scan: every allowed row's dot product with the query, through the vectorised kernel.
/// The store's semantic search for small stores (best chunk per document, ``StoreMemory/State/scoreDocuments(query:mask:)``),
/// the oracle of the approximate searches, and HNSW's answer to a very selective filter all run it.
///
/// ```swift
/// let hits = try vectors.withView { try ExactScan.search(query, k: 10, vectors: $0) }
/// ```
package enum ExactScan {
    /// Rows scored per kernel call.
    static let block = 1024
    /// Below this share of allowed rows, rows are scored one by one instead of in blocks.
    static let sparseFilterFraction = 0.05

    /// Calls `body(row, score)` for every row of `vectors` allowed by `filter` (all when `nil`), in row order.
    ///
    /// - Complexity: O(rows × dimension) in blocks of ``block`` rows per kernel call, or O(allowed rows ×
    ///   dimension) for a filter allowing fewer than ``sparseFilterFraction`` of the rows.
    static func forEachScore(
        _ query: UnsafePointer<Float>, vectors: VectorView, filter: Bitset?,
        _ body: (_ row: Int, _ score: Float) -> Void
    ) {
        let n = vectors.count
        let dimension = vectors.dimension
        if let filter, Double(filter.allowedCount) < sparseFilterFraction * Double(n) {
            filter.forEachAllowed { row in
                guard row < n else { return }
                body(row, hush_dot_f32(vectors.row(row), query, dimension))
            }
            return
        }
        withUnsafeTemporaryAllocation(of: Float.self, capacity: block) { scores in
            guard let out = scores.baseAddress else { return }
            var start = 0
            while start < n {
                let rows = min(block, n - start)
                hush_dot_f32_rows(vectors.row(start), rows, dimension, query, out)
                for i in 0..<rows where filter?.contains(start + i) ?? true { body(start + i, out[i]) }
                start += rows
            }
        }
    }

    /// The best `k` rows of `vectors` for `query` by dot product, restricted to `filter` when given.
    ///
    /// - Complexity: O(n × dimension), n = rows (or allowed rows for a sparse filter), plus O(n log k).
    ///
    /// ```swift
    /// let hits = try ExactScan.search(query, k: 10, vectors: view)
    /// ```
    package static func search(_ query: [Float], k: Int, filter: Bitset? = nil, vectors: VectorView) throws
        -> [ScoredRow]
    {
        guard query.count == vectors.dimension else {
            throw ANNError.dimensionMismatch(expected: vectors.dimension, actual: query.count)
        }
        return query.withUnsafeBufferPointer { q in
            guard let qp = q.baseAddress else { return [] }
            return search(qp, k: k, filter: filter, vectors: vectors)
        }
    }

    static func search(_ query: UnsafePointer<Float>, k: Int, filter: Bitset?, vectors: VectorView) -> [ScoredRow] {
        guard k > 0 else { return [] }
        var top = TopK(capacity: k)
        forEachScore(query, vectors: vectors, filter: filter) { row, score in top.offer(id: row, score: score) }
        return top.sortedRows()
    }
}
