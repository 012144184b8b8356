import Foundation

/// The models loaded in this process, one per model file, identity and thread count: every
/// ``LazyEmbedder`` made by ``ModelChoice`` loads through it, so two stores opened by the same model share its
/// weights (a second store costs its own vectors, not a second copy of the model), and the model's memory goes
/// back when the last store holding it releases it (``LazyEmbedder/release()``, or the store's close).
///
/// Held weakly: the registry keeps no model alive on its own.
///
/// ```swift
/// let a = try ModelChoice.e5Small.lazy()
/// let b = try ModelChoice.e5Small.lazy()
/// try a.load() === b.load() as AnyObject  // true: one model in memory
/// ```
final class SharedModels: @unchecked Sendable {
    // Sendable: `slots` is only touched under `lock`; a slot's `model` only under its `loading` lock.
    static let shared = SharedModels()

    /// What makes two loads the same model: the file, the vectors it makes and its thread count.
    struct Key: Hashable, Sendable {
        let source: String
        let identity: EmbedderIdentity
        let threads: Int
    }

    private final class Slot: @unchecked Sendable {
        let loading = NSLock()
        weak var model: AnyObject?
    }

    private let lock = NSLock()
    private var slots: [Key: Slot] = [:]

    /// The model of `key`, loaded with `load` unless a store in this process holds it already. Concurrent
    /// first loads of one key load once; loads of other keys do not wait for it.
    func model(_ key: Key, load: () throws -> any Embedder) throws -> any Embedder {
        let slot = lock.withLock {
            if let slot = slots[key] { return slot }
            let slot = Slot()
            slots[key] = slot
            return slot
        }
        return try slot.loading.withLock {
            if let model = slot.model as? any Embedder { return model }
            let model = try load()
            // A value type cannot be held weakly: it is simply not shared.
            if type(of: model) is AnyClass { slot.model = model as AnyObject }
            return model
        }
    }

    /// The key of a model file or folder (its path with symbolic links resolved).
    static func key(source: URL, identity: EmbedderIdentity, threads: Int) -> Key {
        Key(source: source.resolvingSymlinksInPath().path, identity: identity, threads: threads)
    }
}
