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
    /// - Throws: ``StoreError/notAStore(path:reason:)`` if the file is not a SQLite database.
    public static func storedIdentity(path: String) throws -> EmbedderIdentity? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            return try queue.read { db in
                guard try db.tableExists("meta") else { return nil }
                return try StoreSchema.storedIdentity(db)
            }
        } catch {
            throw StoreError.notAStore(path: path, reason: String(describing: error))
        }
    }
}
