import Foundation
import GRDB
import GRDBSQLite

/// Reads of the full-text index (`chunks_fts`) inside one read transaction (see
/// `StoreDatabase.readKeywordIndex(_:)`): every call sees the same commit.
struct KeywordIndexReader {
    let db: Database
    /// The answers of ``isUninformative(_:)`` already counted, shared by the reads of one store.
    var commonTokens = Locked(CommonTokens())

    /// Each token's rows and bm25 terms (see ``rows(orOf:limit:documents:)``), shared by the reads of one store.
    var tokenTerms = Locked(TokenTerms())

    /// Tokens counted at one commit of the file, and whether each matched half the index or more.
    struct CommonTokens: Sendable {
        var commit: Int64 = -1
        var uninformative: [String: Bool] = [:]
    }

    /// Tokens read at one commit of the file: the rows each matches, ascending, and its bm25 term in each (what
    /// the token adds to the row's bm25 in any `OR` expression). At most ``maxEntries`` rows in all (16 bytes
    /// each): past it, the tokens kept are forgotten.
    struct TokenTerms: Sendable {
        var commit: Int64 = -1
        var tokens: [String: Terms] = [:]
        var entries = 0
        static let maxEntries = 1 << 18

        /// One token's rows, ascending, and its term in each.
        struct Terms: Sendable {
            var rowids: [Int64] = []
            var terms: [Double] = []
        }
    }

    /// The best-ranked chunks for an FTS5 `expression`, best first, at most `limit` of them (`nil`: all), each
    /// with its document's rowid; bm25 is negated so that larger is better, and equal scores go by rowid. With
    /// `documents`, reading stops at the row that brings the number of distinct documents to it. `complete` is
    /// true when no further row matches.
    ///
    /// Every matching row is scored by ``KeywordRankFunction`` (FTS5's bm25, the same doubles, with the row
    /// lengths remembered) while SQLite's statement is stepped directly, the best `limit` kept in a heap; the
    /// owner is read per returned row only. FTS5's own `ORDER BY rank LIMIT` took three to four times as long
    /// (its sorter, and a `chunks_fts_docsize` read per row).
    ///
    /// - Complexity: O(m log limit) for m matching rows, plus the rows' instances.
    func rows(_ expression: String, limit: Int?, documents: Int? = nil) throws -> (rows: [KeywordRow], complete: Bool) {
        var best = RankedRows(capacity: limit)
        var matched = 0
        try scoredRows(expression) { rowid, score in
            matched += 1
            best.offer(rowid: rowid, score: score)
        }
        return try owned(best, matched: matched, limit: limit, documents: documents)
    }

    /// Hands every row matching `expression` to `visit` with its bm25, negated (larger is better), in the order
    /// FTS5 lists them (ascending rowid).
    private func scoredRows(_ expression: String, _ visit: (Int64, Double) -> Void) throws {
        let select = try db.cachedStatement(
            sql: "SELECT rowid, \(KeywordRankFunction.name)(chunks_fts, ?) FROM chunks_fts WHERE chunks_fts MATCH ?")
        select.arguments = [try MemoryImageTable.commitCounter(db), expression]
        let statement = select.sqliteStatement
        defer { sqlite3_reset(statement) }
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW:
                visit(sqlite3_column_int64(statement, 0), -sqlite3_column_double(statement, 1))
            case SQLITE_DONE:
                return
            case let code:
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: code),
                    message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: select.sql)
            }
        }
    }

    /// The rowids of the documents with a chunk that matches `expression` (what a search leaves out for a minus),
    /// unranked.
    ///
    /// - Complexity: one indexed lookup per matching chunk.
    func documents(matching expression: String) throws -> [Int64] {
        try Int64.fetchAll(
            db,
            sql: """
                SELECT DISTINCT chunks.document_id FROM chunks_fts JOIN chunks ON chunks.id = chunks_fts.rowid
                WHERE chunks_fts MATCH ?
                """, arguments: [expression])
    }

    /// The rows kept, best first, each with its document, up to the one that brings the distinct documents to
    /// `documents`; and whether no further row matches.
    private func owned(_ best: RankedRows, matched: Int, limit: Int?, documents: Int?) throws -> (
        rows: [KeywordRow], complete: Bool
    ) {
        let owner = try db.cachedStatement(sql: "SELECT document_id FROM chunks WHERE id = ?")
        var rows: [KeywordRow] = []
        var owners = Set<Int64>()
        for (rowid, score) in best.bestFirst() {
            let documentRowid = try Int64.fetchOne(owner, arguments: [rowid])
            rows.append(KeywordRow(chunkID: rowid, documentRowid: documentRowid, score: Float(score)))
            if let documents, let documentRowid, owners.insert(documentRowid).inserted, owners.count >= documents {
                return (rows, rows.count == matched)
            }
        }
        return (rows, limit.map { matched <= $0 } ?? true)
    }

    /// The best-ranked chunks for `tokens` joined by `OR`, exactly as ``rows(_:limit:documents:)-(String,_,_)``
    /// reads them for that expression (the same rows, the same scores to the bit, the same order), from each
    /// token's rows and terms, read once per commit and kept (``TokenTerms``).
    ///
    /// FTS5's bm25 of a row is a sum over the expression's phrases, in their order, of a term that depends on
    /// that phrase alone (its idf, its frequency in the row, the row's length); a phrase the row does not hold
    /// adds exactly 0. So a token read alone gives its term in every row, and adding the tokens' terms row by row
    /// in the expression's order gives the expression's bm25 bit for bit. A search as you type repeats the words
    /// typed before on every keystroke: only the word being typed is read again ("GNU C Library: Development
    /// Libraries and Header Files (for cross-compili" re-read every row of every word at each keystroke).
    ///
    /// - Complexity: O(rows of the tokens not kept) to read them, plus O(r × t) to add up r rows over t tokens.
    func rows(orOf tokens: [String], limit: Int?, documents: Int? = nil) throws -> (
        rows: [KeywordRow], complete: Bool
    ) {
        let commit = try MemoryImageTable.commitCounter(db)
        let lists = try tokens.map { try terms(of: $0, commit: commit) }
        var best = RankedRows(capacity: limit)
        var matched = 0
        var positions = [Int](repeating: 0, count: lists.count)
        while true {
            var next = Int64.max
            for (index, list) in lists.enumerated() where positions[index] < list.rowids.count {
                next = min(next, list.rowids[positions[index]])
            }
            guard next != .max else { break }
            // In the expression's order, as FTS5 adds them.
            var score = 0.0
            for (index, list) in lists.enumerated()
            where positions[index] < list.rowids.count && list.rowids[positions[index]] == next {
                score += list.terms[positions[index]]
                positions[index] += 1
            }
            matched += 1
            best.offer(rowid: next, score: score)
        }
        return try owned(best, matched: matched, limit: limit, documents: documents)
    }

    /// `token`'s rows, ascending, and its bm25 term in each, kept for the reads of the same commit.
    private func terms(of token: String, commit: Int64) throws -> TokenTerms.Terms {
        if let kept = tokenTerms.withLock({ $0.commit == commit ? $0.tokens[token] : nil }) { return kept }
        var read = TokenTerms.Terms()
        // Read alone, a token's bm25 is its term: 0 plus the term, negated twice.
        try scoredRows(token) { rowid, score in
            read.rowids.append(rowid)
            read.terms.append(score)
        }
        if zip(read.rowids, read.rowids.dropFirst()).contains(where: { $0 >= $1 }) {
            let order = read.rowids.indices.sorted { read.rowids[$0] < read.rowids[$1] }
            read = TokenTerms.Terms(rowids: order.map { read.rowids[$0] }, terms: order.map { read.terms[$0] })
        }
        tokenTerms.withLock { kept in
            if kept.commit != commit || kept.entries + read.rowids.count > TokenTerms.maxEntries {
                kept = TokenTerms(commit: commit)
            }
            kept.tokens[token] = read
            kept.entries += read.rowids.count
        }
        return read
    }

    /// The best-ranked chunks for `expression`, as ``rows(_:limit:documents:)-(String,_,_)`` reads them, without
    /// reading the rows of a token that matches at least half of the index when other tokens remain.
    ///
    /// FTS5's bm25 gives such a token an idf of 10⁻⁶ (`log((N - n + 0.5) / (n + 0.5))` is not positive), so it
    /// adds nothing to any row's rank, but `ORDER BY rank` still scores every row it matches: "library for
    /// parsing" scored 8,079 of 10,273 chunks for the sake of "for", 13.7 ms instead of 6.2. The rows that match
    /// only such tokens rank after all the others; they are read (the whole expression) only when the others run
    /// out before `limit` or `documents`.
    func rows(_ expression: FTSExpression, limit: Int?, documents: Int? = nil) throws -> (
        rows: [KeywordRow], complete: Bool
    ) {
        let apart = expression.readsTokensApart && (expression.orTokens?.count ?? 0) > 1
        if let limit, let tokens = expression.orTokens, tokens.count > 1 {
            let informative = try tokens.filter { try !isUninformative($0) }
            if !informative.isEmpty, informative.count < tokens.count {
                let read =
                    try apart
                    ? rows(orOf: informative, limit: limit, documents: documents)
                    : rows(informative.joined(separator: " OR "), limit: limit, documents: documents)
                if !read.complete { return read }
            }
        }
        if apart, let tokens = expression.orTokens { return try rows(orOf: tokens, limit: limit, documents: documents) }
        return try rows(expression.text, limit: limit, documents: documents)
    }

    /// Whether `token` matches at least half of the indexed rows (FTS5's bm25 then gives it no weight). Counts at
    /// most that many matches.
    func isUninformative(_ token: String) throws -> Bool {
        let commit = try MemoryImageTable.commitCounter(db)
        if let known = commonTokens.withLock({ $0.commit == commit ? $0.uninformative[token] : nil }) { return known }
        let answer = try countsAsUninformative(token)
        commonTokens.withLock { cache in
            if cache.commit != commit || cache.uninformative.count >= 4096 { cache = CommonTokens(commit: commit) }
            cache.uninformative[token] = answer
        }
        return answer
    }

    private func countsAsUninformative(_ token: String) throws -> Bool {
        let total = try indexedRows()
        guard total > 0 else { return false }
        let half = (total + 1) / 2
        let statement = try db.cachedStatement(
            sql: "SELECT count(*) FROM (SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT ?)")
        return try Int.fetchOne(statement, arguments: [token, half]) ?? 0 >= half
    }

    /// The number of rows FTS5 counts for bm25 (the first varint of its averages record, `chunks_fts_data`
    /// row 1), 0 when it has none.
    func indexedRows() throws -> Int {
        let statement = try db.cachedStatement(sql: "SELECT block FROM chunks_fts_data WHERE id = 1")
        guard let block = try Data.fetchOne(statement) else { return 0 }
        return Int(clamping: Self.varint(block).value)
    }

    /// The SQLite varint at the start of `bytes` (7 bits a byte, high bit set on all but the last, a ninth byte
    /// whole), as FTS5 writes its records; `ended` is false when `bytes` ran out before its last byte.
    static func varint(_ bytes: some Collection<UInt8>) -> (value: UInt64, ended: Bool) {
        var value: UInt64 = 0
        for (index, byte) in bytes.prefix(9).enumerated() {
            if index == 8 { return (value << 8 | UInt64(byte), true) }
            value = value << 7 | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 { return (value, true) }
        }
        return (value, false)
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

/// The best `capacity` of a stream of scored rows (all of them when `nil`): larger scores first, equal scores by
/// smaller rowid. A heap whose top is the worst kept row.
struct RankedRows {
    private var heap: [(rowid: Int64, score: Double)] = []
    private let capacity: Int?

    init(capacity: Int?) { self.capacity = capacity.map { Swift.max(0, $0) } }

    /// Whether `a` ranks before `b`.
    private static func before(_ a: (rowid: Int64, score: Double), _ b: (rowid: Int64, score: Double)) -> Bool {
        a.score > b.score || (a.score == b.score && a.rowid < b.rowid)
    }

    mutating func offer(rowid: Int64, score: Double) {
        let row = (rowid: rowid, score: score)
        guard let capacity else {
            heap.append(row)
            return
        }
        if heap.count < capacity {
            heap.append(row)
            siftUp(heap.count - 1)
        } else if capacity > 0, Self.before(row, heap[0]) {
            heap[0] = row
            siftDown(0)
        }
    }

    /// The rows kept, best first.
    func bestFirst() -> [(rowid: Int64, score: Double)] { heap.sorted(by: Self.before) }

    /// Moves the row at `index` up while it ranks after its parent (the worst kept row is at the top).
    private mutating func siftUp(_ index: Int) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.before(heap[parent], heap[child]) else { return }
            heap.swapAt(parent, child)
            child = parent
        }
    }

    private mutating func siftDown(_ index: Int) {
        var parent = index
        while true {
            let left = 2 * parent + 1
            var worst = parent
            if left < heap.count, Self.before(heap[worst], heap[left]) { worst = left }
            if left + 1 < heap.count, Self.before(heap[worst], heap[left + 1]) { worst = left + 1 }
            guard worst != parent else { return }
            heap.swapAt(parent, worst)
            parent = worst
        }
    }
}
