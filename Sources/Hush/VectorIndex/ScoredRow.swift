/// One search hit: a row id of the vector store and its cosine similarity (dot product of unit vectors).
///
/// ```swift
/// let best: ScoredRow = hits[0]
/// print(best.row, best.score)
/// ```
package struct ScoredRow: Sendable, Equatable, Hashable {
    /// Row id in the vector store.
    package var row: Int
    /// Similarity to the query (higher is closer).
    package var score: Float

    /// A hit for `row` with `score`.
    ///
    /// ```swift
    /// let hit = ScoredRow(row: 3, score: 0.9)
    /// ```
    package init(row: Int, score: Float) {
        self.row = row
        self.score = score
    }
}
