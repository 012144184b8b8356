import Foundation

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
        try StoreDatabase.storedIdentity(path: path, busyTimeout: busyTimeout)
    }
}
