import Foundation
import Hush

/// A store file a command may create (`hush index`, `hush import`): when the command made it and nothing went
/// in, it is removed again, so that no empty file is left stamped with a model nobody chose to keep (the next
/// command, with another model, would be refused by it).
struct NewStoreFile {
    /// The database's path.
    var path: String
    /// Whether the file existed before the command.
    var existed: Bool

    /// Notes whether `path` exists, before the command opens it.
    init(path: String) {
        self.path = path
        self.existed = FileManager.default.fileExists(atPath: path)
    }

    /// Closes `store` and removes its files when this command created it and it holds no document; returns
    /// whether it did.
    @discardableResult
    func discardIfEmpty(_ store: HushStore) async -> Bool {
        guard !existed, (try? await store.stats().documents) == 0 else { return false }
        try? await store.close()
        for file in [path, path + "-wal", path + "-shm"] { try? FileManager.default.removeItem(atPath: file) }
        return true
    }
}
