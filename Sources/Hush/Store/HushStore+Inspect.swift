import Foundation
import GRDB

extension HushStore {
    /// The embedder identity stamped in a store file, read without opening the store (nil for a new or
    /// empty file). Lets a tool pick the embedder a file was built with.
    ///
    /// ```swift
    /// if let identity = try HushStore.storedIdentity(path: "notes.hush") { print(identity) }
    /// ```
    ///
    /// - Throws: ``StoreError/notAStore(path:reason:)`` if the file is not a SQLite database,
    ///   ``StoreError/busy(path:)`` if another process holds it locked past the busy timeout (a VACUUM).
    public static func storedIdentity(path: String, busyTimeout: TimeInterval = 10) throws -> EmbedderIdentity? {
        try readMeta(path: path, busyTimeout: busyTimeout) { db in try StoreSchema.storedIdentity(db) }
    }

    /// Reads from the `meta` table of the file at `path` through a read-only connection that waits for another
    /// process's lock, without opening the store: `nil` when there is no file or no `meta` table.
    ///
    /// - Throws: ``StoreError/busy(path:)`` past the busy timeout, ``StoreError/notAStore(path:reason:)`` for
    ///   anything else (not a database, damaged).
    static func readMeta<T>(path: String, busyTimeout: TimeInterval = 10, _ body: (Database) throws -> T?) throws
        -> T?
    {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(busyTimeout)
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in try db.tableExists("meta") ? body(db) : nil }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
        {
            throw StoreError.busy(path: path)
        } catch {
            throw StoreError.notAStore(path: path, reason: String(describing: error))
        }
    }
}
