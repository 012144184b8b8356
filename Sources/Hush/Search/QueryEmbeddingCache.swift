import Foundation

/// A bounded least-recently-used cache of query vectors, safe to share between concurrent searches.
///
/// - Complexity: O(1) per lookup and insertion.
final class QueryEmbeddingCache: Sendable {
    let capacity: Int
    private let entries: Locked<Entries>

    init(capacity: Int) {
        self.capacity = max(0, capacity)
        entries = Locked(Entries())
    }

    var count: Int { entries.withLock { $0.indexByKey.count } }

    /// Hits, misses and entries, read together.
    var counters: (hits: Int, misses: Int, entries: Int) {
        entries.withLock { ($0.hits, $0.misses, $0.indexByKey.count) }
    }

    func value(for key: String) -> [Float]? {
        entries.withLock { $0.value(for: key) }
    }

    func insert(_ value: [Float], for key: String) {
        guard capacity > 0 else { return }
        entries.withLock { $0.insert(value, for: key, capacity: capacity) }
    }

    func removeAll() {
        entries.withLock { $0 = Entries(hits: $0.hits, misses: $0.misses) }
    }

    /// The entries in a doubly linked list over an array, most recent first.
    private struct Entries: Sendable {
        struct Node: Sendable {
            var key: String
            var value: [Float]
            var previous: Int
            var next: Int
        }

        var nodes: [Node] = []
        var indexByKey: [String: Int] = [:]
        var head = -1  // most recent
        var tail = -1  // least recent
        var hits = 0
        var misses = 0

        mutating func value(for key: String) -> [Float]? {
            guard let index = indexByKey[key] else {
                misses += 1
                return nil
            }
            hits += 1
            moveToFront(index)
            return nodes[index].value
        }

        mutating func insert(_ value: [Float], for key: String, capacity: Int) {
            if let index = indexByKey[key] {
                nodes[index].value = value
                moveToFront(index)
                return
            }
            let index: Int
            if nodes.count < capacity {
                index = nodes.count
                nodes.append(Node(key: key, value: value, previous: -1, next: -1))
            } else {
                index = tail
                unlink(index)
                indexByKey[nodes[index].key] = nil
                nodes[index] = Node(key: key, value: value, previous: -1, next: -1)
            }
            indexByKey[key] = index
            pushFront(index)
        }

        private mutating func unlink(_ index: Int) {
            let previous = nodes[index].previous
            let next = nodes[index].next
            if previous >= 0 { nodes[previous].next = next } else { head = next }
            if next >= 0 { nodes[next].previous = previous } else { tail = previous }
            nodes[index].previous = -1
            nodes[index].next = -1
        }

        private mutating func pushFront(_ index: Int) {
            nodes[index].previous = -1
            nodes[index].next = head
            if head >= 0 { nodes[head].previous = index }
            head = index
            if tail < 0 { tail = index }
        }

        private mutating func moveToFront(_ index: Int) {
            guard head != index else { return }
            unlink(index)
            pushFront(index)
        }
    }
}
