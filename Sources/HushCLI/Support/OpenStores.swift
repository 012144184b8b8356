import Foundation
import Hush
import HushToolSupport

/// The stores a command opened, closed before the process exits whatever way the command ends, so that every
/// command leaves its changes in the store file itself (a TRUNCATE checkpoint: no `-wal` holding them).
final class OpenStores: @unchecked Sendable {
    // Sendable: `stores` is only touched under `lock`.
    private let lock = NSLock()
    private var stores: [HushStore] = []

    static let shared = OpenStores()

    /// Records `store` to be closed at exit and returns it.
    func track(_ store: HushStore) -> HushStore {
        lock.withLock { stores.append(store) }
        return store
    }

    /// Closes every store opened so far. A close that could not move the log into the file (another process
    /// reads it) is said on standard error: nothing is lost, but a copy of the file alone would lack it.
    func closeAll() async {
        let open = lock.withLock {
            defer { stores.removeAll() }
            return stores
        }
        for store in open {
            do {
                try await store.close()
            } catch {
                Console.error("warning: \(error)")
            }
        }
    }
}
