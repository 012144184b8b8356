import Foundation
import GRDB
import GRDBSQLite

/// `hush_bm25(chunks_fts, commit)`: FTS5's own bm25 ranking (k1 1.2, b 0.75, every column weighing 1) computed
/// as FTS5 computes it, operation for operation, so that it returns the same doubles, but with each row's length
/// in tokens remembered between rows and searches instead of read from `chunks_fts_docsize` for every matching
/// row, and called by ``KeywordIndexReader`` without FTS5's `ORDER BY rank` sorter.
///
/// Those two took most of a keyword search's time: for `"gnu" OR "c" OR "library" OR …`, 6,103 matching chunks
/// of 10,273, FTS5's `ORDER BY rank LIMIT 200` took 12-16 ms, the same rows with this function and the lengths
/// remembered 3-4 ms, and merely listing them 1.4-2 ms.
///
/// One instance per connection (``register(_:)`` runs when GRDB opens one), used by one thread at a time like
/// the connection. `commit` is the file's commit counter as the calling read transaction sees it: when it is
/// not the one the remembered lengths were read at, they are forgotten (a deleted chunk's rowid can be reused).
///
/// ```sql
/// SELECT rowid, hush_bm25(chunks_fts, ?) FROM chunks_fts WHERE chunks_fts MATCH ?
/// ```
final class KeywordRankFunction {
    static let name = "hush_bm25"

    /// The remembered length per rowid, as `generation << 24 | length`; an entry of another generation is not
    /// remembered. Rowids from ``maxRememberedRowid`` on, and lengths from 2²⁴ on, are read every time.
    private var lengths = UnsafeMutableBufferPointer<UInt32>(start: nil, count: 0)
    /// 1...255: bumped when the commit changes, and the table cleared when it wraps.
    private var generation: UInt32 = 1
    private var commit: Int64?
    /// Whether every row's length of this commit is remembered (read in one pass of `chunks_fts_docsize`).
    private var lengthsComplete = false
    /// The connection the function is registered on, for that pass.
    private let connection: OpaquePointer?
    /// 4 bytes a rowid: up to 64 MiB for a store whose chunks' rowids reach it.
    static let maxRememberedRowid: Int64 = 1 << 24
    /// The most rows read in one pass: past it, lengths are remembered row by row.
    static let maxBulkRows: Int64 = 1 << 20

    private init(connection: OpaquePointer?) { self.connection = connection }

    deinit { lengths.deallocate() }

    /// Registers a new instance of the function on `db`.
    ///
    /// - Throws: `DatabaseError` when this SQLite has no FTS5 or refuses the function.
    static func register(_ db: Database) throws {
        let api = try fts5API(db)
        guard let create = api.pointee.xCreateFunction else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "FTS5 offers no xCreateFunction")
        }
        let owner = Unmanaged.passRetained(KeywordRankFunction(connection: db.sqliteConnection)).toOpaque()
        let code = create(
            UnsafeMutablePointer(mutating: api), name, owner, rank,
            { pointer in
                if let pointer { Unmanaged<KeywordRankFunction>.fromOpaque(pointer).release() }
            })
        guard code == SQLITE_OK else {
            Unmanaged<KeywordRankFunction>.fromOpaque(owner).release()
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot register \(name)")
        }
    }

    /// The connection's `fts5_api` (SQLite's documented `SELECT fts5(?1)` handshake).
    private static func fts5API(_ db: Database) throws -> UnsafePointer<fts5_api> {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(db.sqliteConnection, "SELECT fts5(?1)", -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "this SQLite has no FTS5")
        }
        // SQLite keeps both pointers until the step: the type name is static, and the step writes the API's
        // address through the other while it is still in scope.
        let type: StaticString = "fts5_api_ptr"
        let typeName = UnsafeRawPointer(type.utf8Start).assumingMemoryBound(to: CChar.self)
        var api: UnsafePointer<fts5_api>?
        withUnsafeMutablePointer(to: &api) { slot in
            _ = sqlite3_bind_pointer(statement, 1, slot, typeName, nil)
            sqlite3_step(statement)
        }
        guard let api else { throw DatabaseError(resultCode: .SQLITE_ERROR, message: "this SQLite has no FTS5") }
        return api
    }

    /// An SQLite result code from one of FTS5's calls, handed back to SQLite as the function's error.
    struct Failure: Error {
        var code: Int32
    }

    /// What one query's rows share: each phrase's idf and the average row length (FTS5's `Fts5Bm25Data`), and
    /// a buffer for the phrase frequencies of the current row.
    private final class QueryData {
        let idf: UnsafeMutableBufferPointer<Double>
        let averageLength: Double
        /// The rows of the table, and how many match some phrase counted once per phrase (at least the rows
        /// the query matches).
        let rows: Int64
        let phraseHits: Int64
        let frequencies: UnsafeMutableBufferPointer<Double>

        init(idf: [Double], averageLength: Double, rows: Int64, phraseHits: Int64) {
            self.rows = rows
            self.phraseHits = phraseHits
            self.idf = .allocate(capacity: idf.count)
            _ = self.idf.initialize(from: idf)
            self.averageLength = averageLength
            frequencies = .allocate(capacity: idf.count)
            frequencies.initialize(repeating: 0)
        }

        deinit {
            idf.deallocate()
            frequencies.deallocate()
        }
    }

    private static let rank: fts5_extension_function = { api, fts, context, count, values in
        guard let api, let fts, let context, let user = api.pointee.xUserData?(fts) else { return }
        let commit = count > 0 ? values.map { sqlite3_value_int64($0[0]) } ?? 0 : 0
        // The connection holds the instance for as long as the function is registered.
        let result = Unmanaged<KeywordRankFunction>.fromOpaque(user)._withUnsafeGuaranteedRef {
            $0.score(api, fts, commit: commit)
        }
        switch result {
        case .success(let score): sqlite3_result_double(context, score)
        case .failure(let failure): sqlite3_result_error_code(context, failure.code)
        }
    }

    /// The current row's bm25, negated as FTS5's (smaller is better), or the SQLite error code of a failed call.
    private func score(_ api: UnsafePointer<Fts5ExtensionApi>, _ fts: OpaquePointer, commit: Int64)
        -> Result<Double, Failure>
    {
        let functions = api.pointee
        guard let instanceCount = functions.xInstCount, let instance = functions.xInst,
            let rowidOf = functions.xRowid, let getData = functions.xGetAuxdata
        else { return .failure(Failure(code: SQLITE_ERROR)) }
        var stored = getData(fts, 0)
        if stored == nil {
            switch Self.queryData(api, fts) {
            case .success(let made): stored = made
            case .failure(let failure): return .failure(failure)
            }
        }
        guard let stored else { return .failure(Failure(code: SQLITE_ERROR)) }
        if commit != self.commit { forgetLengths(commit: commit) }
        // FTS5 holds the query's data until the query ends.
        return Unmanaged<QueryData>.fromOpaque(stored)._withUnsafeGuaranteedRef { data in
            // A query that matches an eighth of the table or more: one pass over every row's length costs less
            // than reading them row by row (10,000 rows: about 2 ms against 1 µs a row).
            if !lengthsComplete, data.phraseHits >= data.rows / 8, data.rows <= Self.maxBulkRows {
                readAllLengths()
            }
            return rowScore(data, api, fts, instanceCount: instanceCount, instance: instance, rowid: rowidOf(fts))
        }
    }

    /// The score of the row `rowid` for the query of `data`.
    private func rowScore(
        _ data: QueryData, _ api: UnsafePointer<Fts5ExtensionApi>, _ fts: OpaquePointer,
        instanceCount: @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int32>?) -> Int32,
        instance:
            @convention(c) (
                OpaquePointer?, Int32, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?,
                UnsafeMutablePointer<Int32>?
            ) -> Int32,
        rowid: Int64
    ) -> Result<Double, Failure> {
        // The phrase frequencies: every instance of phrase i in the row adds the weight of its column (1).
        data.frequencies.update(repeating: 0)
        var instances: Int32 = 0
        var code = instanceCount(fts, &instances)
        var index: Int32 = 0
        while code == SQLITE_OK && index < instances {
            var phrase: Int32 = 0
            var column: Int32 = 0
            var offset: Int32 = 0
            code = instance(fts, index, &phrase, &column, &offset)
            if code == SQLITE_OK, phrase >= 0, Int(phrase) < data.frequencies.count {
                data.frequencies[Int(phrase)] += 1.0
            }
            index += 1
        }
        guard code == SQLITE_OK else { return .failure(Failure(code: code)) }
        let tokens: Int32
        switch length(of: rowid, api, fts) {
        case .success(let length): tokens = length
        case .failure(let failure): return .failure(failure)
        }

        // FTS5's expression, in its order: the same doubles.
        let k1 = 1.2
        let b = 0.75
        let d = Double(tokens)
        var score = 0.0
        for phrase in data.idf.indices {
            let frequency = data.frequencies[phrase]
            score +=
                data.idf[phrase] * ((frequency * (k1 + 1.0)) / (frequency + k1 * (1 - b + b * d / data.averageLength)))
        }
        return .success(-1.0 * score)
    }

    /// The row's length in tokens (all columns), remembered or read through `xColumnSize`.
    private func length(of rowid: Int64, _ api: UnsafePointer<Fts5ExtensionApi>, _ fts: OpaquePointer)
        -> Result<Int32, Failure>
    {
        let remembered = rowid >= 0 && rowid < Self.maxRememberedRowid
        if remembered, rowid < lengths.count {
            let entry = lengths[Int(rowid)]
            if entry >> 24 == generation { return .success(Int32(entry & 0xFF_FFFF)) }
        }
        guard let columnSize = api.pointee.xColumnSize else { return .failure(Failure(code: SQLITE_ERROR)) }
        var tokens: Int32 = 0
        let code = columnSize(fts, -1, &tokens)
        guard code == SQLITE_OK else { return .failure(Failure(code: code)) }
        if remembered, tokens >= 0, tokens < 1 << 24 {
            if rowid >= lengths.count { grow(toHold: Int(rowid)) }
            lengths[Int(rowid)] = generation << 24 | UInt32(tokens)
        }
        return .success(tokens)
    }

    /// Makes room for `rowid` and half as much again (the new entries remember nothing).
    private func grow(toHold rowid: Int) {
        let count = Swift.min(Int(Self.maxRememberedRowid), Swift.max(rowid + 1, rowid + rowid / 2, 1024))
        let grown = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: count)
        grown.initialize(repeating: 0)
        if let old = lengths.baseAddress { grown.baseAddress?.update(from: old, count: lengths.count) }
        lengths.deallocate()
        lengths = grown
    }

    /// Remembers every row's length from `chunks_fts_docsize` (one varint per row: the table has one column),
    /// read on the function's own connection, in the caller's transaction. A failed read leaves the lengths to
    /// be read row by row.
    private func readAllLengths() {
        lengthsComplete = true
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(connection, "SELECT id, sz FROM chunks_fts_docsize", -1, &statement, nil) == SQLITE_OK
        else { return }
        defer { sqlite3_finalize(statement) }
        while sqlite3_step(statement) == SQLITE_ROW {
            let rowid = sqlite3_column_int64(statement, 0)
            guard rowid >= 0, rowid < Self.maxRememberedRowid, let blob = sqlite3_column_blob(statement, 1) else {
                continue
            }
            let bytes = UnsafeBufferPointer(
                start: blob.assumingMemoryBound(to: UInt8.self), count: Int(sqlite3_column_bytes(statement, 1)))
            let (value, ended) = KeywordIndexReader.varint(bytes)
            guard ended, value < 1 << 24 else { continue }
            let length = UInt32(value)
            if rowid >= lengths.count { grow(toHold: Int(rowid)) }
            lengths[Int(rowid)] = generation << 24 | length
        }
    }

    private func forgetLengths(commit: Int64) {
        lengthsComplete = false
        self.commit = commit
        generation += 1
        if generation > 255 {
            generation = 1
            lengths.update(repeating: 0)
        }
    }

    /// Each phrase's idf over the whole table and the average row length, as FTS5's bm25 works them out on its
    /// first row, kept with the query (`xSetAuxdata`) for its other rows.
    private static func queryData(_ api: UnsafePointer<Fts5ExtensionApi>, _ fts: OpaquePointer)
        -> Result<UnsafeMutableRawPointer, Failure>
    {
        let functions = api.pointee
        guard let phraseCount = functions.xPhraseCount, let rowCount = functions.xRowCount,
            let totalSize = functions.xColumnTotalSize, let queryPhrase = functions.xQueryPhrase,
            let setData = functions.xSetAuxdata
        else { return .failure(Failure(code: SQLITE_ERROR)) }
        var rows: Int64 = 0
        var tokens: Int64 = 0
        var code = rowCount(fts, &rows)
        if code == SQLITE_OK { code = totalSize(fts, -1, &tokens) }
        guard code == SQLITE_OK else { return .failure(Failure(code: code)) }
        let averageLength = Double(tokens) / Double(rows)
        var idf: [Double] = []
        var phraseHits: Int64 = 0
        for phrase in 0..<phraseCount(fts) {
            var hits: Int64 = 0
            code = queryPhrase(fts, phrase, &hits) { _, _, counter in
                counter?.assumingMemoryBound(to: Int64.self).pointee += 1
                return SQLITE_OK
            }
            guard code == SQLITE_OK else { return .failure(Failure(code: code)) }
            phraseHits += hits
            var value = log((Double(rows - hits) + 0.5) / (Double(hits) + 0.5))
            if value <= 0.0 { value = 1e-6 }
            idf.append(value)
        }
        let data = Unmanaged.passRetained(
            QueryData(idf: idf, averageLength: averageLength, rows: rows, phraseHits: phraseHits)
        ).toOpaque()
        // FTS5 calls the destructor itself when it cannot keep the data.
        code = setData(fts, data) { pointer in
            if let pointer { Unmanaged<QueryData>.fromOpaque(pointer).release() }
        }
        guard code == SQLITE_OK else { return .failure(Failure(code: code)) }
        return .success(data)
    }
}
