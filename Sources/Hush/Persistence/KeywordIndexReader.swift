import GRDB

/// Reads of the full-text index (`chunks_fts`) inside one read transaction (see
/// `StoreDatabase.readKeywordIndex(_:)`): every call sees the same commit.
struct KeywordIndexReader {
    let db: Database

    /// The best-ranked chunks for an FTS5 `expression`, best first, at most `limit` of them (`nil`: all), each
    /// with its document's rowid; bm25 is negated so that larger is better. With `documents`, reading stops
    /// at the row that brings the number of distinct documents to it. `complete` is true when no further
    /// row matches.
    ///
    /// Uses FTS5's own `ORDER BY rank LIMIT` path (a bounded sort inside FTS5); the owner is read per returned
    /// row only.
    func rows(_ expression: String, limit: Int?, documents: Int? = nil) throws -> (rows: [KeywordRow], complete: Bool) {
        let statement = try db.cachedStatement(
            sql: """
                SELECT f.rowid, f.rank, (SELECT document_id FROM chunks WHERE id = f.rowid)
                FROM chunks_fts f WHERE chunks_fts MATCH ? ORDER BY rank LIMIT ?
                """)
        var rows: [KeywordRow] = []
        var owners = Set<Int64>()
        let cursor = try Row.fetchCursor(statement, arguments: [expression, limit ?? -1])
        while let row = try cursor.next() {
            let rank: Double = row[1]
            let owner: Int64? = row[2]
            rows.append(KeywordRow(chunkID: row[0], documentRowid: owner, score: Float(-rank)))
            if let documents, let owner, owners.insert(owner).inserted, owners.count >= documents {
                return (rows, false)
            }
        }
        return (rows, limit.map { rows.count < $0 } ?? true)
    }

    /// Whether any chunk matches `expression` (one index lookup for a single term).
    func matchesAny(_ expression: String) throws -> Bool {
        let statement = try db.cachedStatement(sql: "SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT 1")
        return try Int.fetchOne(statement, arguments: [expression]) != nil
    }

    /// The bm25 (negated: larger is better) of each of `chunks` that matches `expression`.
    func bm25(_ expression: String, chunks: [Int64]) throws -> [Int64: Float] {
        guard !chunks.isEmpty else { return [:] }
        let statement = try db.cachedStatement(
            sql: """
                SELECT rowid, rank FROM chunks_fts
                WHERE chunks_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))
                """)
        var scores: [Int64: Float] = [:]
        let rows = try Row.fetchCursor(statement, arguments: [expression, JSONCoding.encode(chunks)])
        while let row = try rows.next() {
            let rank: Double = row[1]
            scores[row[0]] = Float(-rank)
        }
        return scores
    }
}

/// A chunk that matched a keyword query: its id, its document's rowid (`nil` if the chunk is gone) and its
/// bm25, negated (larger is better).
struct KeywordRow: Sendable, Equatable {
    var chunkID: Int64
    var documentRowid: Int64?
    var score: Float
}
