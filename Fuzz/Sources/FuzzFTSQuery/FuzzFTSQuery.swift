import Foundation
import GRDB

@testable import Hush

/// Any user text becomes a full-text expression SQLite accepts (never a syntax error), or none at all.
let database: DatabaseQueue? = {
    guard let queue = try? DatabaseQueue() else { return nil }
    try? queue.write { db in
        try db.execute(
            sql: """
                CREATE VIRTUAL TABLE t USING fts5(text, tokenize = 'porter unicode61 remove_diacritics 2');
                INSERT INTO t(text) VALUES ('sore knee after the long run'), ('東京 京大 大学 学');
                """)
    }
    return queue
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFTSQuery(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    guard let database else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = KeywordText.segment(text)
    for requireAll in [false, true] {
        guard let expression = FTSQuery.expression(for: text, requireAll: requireAll)?.text else { continue }
        do {
            _ = try database.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t WHERE t MATCH ?", arguments: [expression])
            }
        } catch {
            fatalError("FTS5 rejected \(expression.debugDescription) built from \(text.debugDescription): \(error)")
        }
    }
    return 0
}
