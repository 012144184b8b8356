import Foundation
import GRDB
import GRDBSQLite
import HushEmbedding

extension Database {
    /// Runs `body` with SQLite polling `flag` every 1,000 virtual-machine steps (SQLite's progress handler):
    /// once the flag is raised, the statement running stops with `SQLITE_INTERRUPT`, SQLite rolls back what it
    /// had not committed, and the call throws `CancellationError`. For statements that run long on their own
    /// (`VACUUM`, `VACUUM INTO`, `ANALYZE`, the keyword index's `optimize`), which no check between batches
    /// can reach. Without a flag, runs `body` as it is.
    ///
    /// ```swift
    /// let flag = CancellationFlag.current
    /// try writer.writeWithoutTransaction { db in try db.interruptible(by: flag) { try db.execute(sql: "VACUUM") } }
    /// ```
    func interruptible<T>(by flag: CancellationFlag?, _ body: () throws -> T) throws -> T {
        guard let flag else { return try body() }
        try flag.check()
        let connection = sqliteConnection
        sqlite3_progress_handler(
            connection, 1_000,
            { context in
                guard let context else { return 0 }
                return Unmanaged<CancellationFlag>.fromOpaque(context).takeUnretainedValue().isCancelled ? 1 : 0
            }, Unmanaged.passUnretained(flag).toOpaque())
        defer { sqlite3_progress_handler(connection, 0, nil, nil) }
        do {
            return try withExtendedLifetime(flag) { try body() }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT && flag.isCancelled {
            throw CancellationError()
        }
    }
}
