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
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            let queue = try readOnlyQueue(path: path, busyTimeout: busyTimeout)
            return try queue.read { db in
                guard try db.tableExists("meta") else { return nil }
                return try StoreSchema.storedIdentity(db)
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
        {
            throw StoreError.busy(path: path)
        } catch {
            throw StoreError.notAStore(path: path, reason: String(describing: error))
        }
    }

    /// A read-only connection that waits for another process's lock instead of failing at once.
    static func readOnlyQueue(path: String, busyTimeout: TimeInterval = 10) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeout)
        return try DatabaseQueue(path: path, configuration: configuration)
    }
}
