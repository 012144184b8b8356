import Foundation

/// A bounded least-recently-used cache of query vectors, safe to share between concurrent searches.
///
/// - Complexity: O(1) per lookup and insertion.
final class QueryEmbeddingCache: @unchecked Sendable {
    private struct Node {
        var key: String
        var value: [Float]
        var previous: Int
        var next: Int
    }

    let capacity: Int
    private let lock = NSLock()
    private var nodes: [Node] = []
    private var indexByKey: [String: Int] = [:]
    private var head = -1  // most recent
    private var tail = -1  // least recent
    private(set) var hits = 0
    private(set) var misses = 0

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    var count: Int { lock.withLock { indexByKey.count } }

    /// Hits, misses and entries, read together.
    var counters: (hits: Int, misses: Int, entries: Int) { lock.withLock { (hits, misses, indexByKey.count) } }

    func value(for key: String) -> [Float]? {
        lock.withLock {
            guard let index = indexByKey[key] else {
                misses += 1
                return nil
            }
            hits += 1
            moveToFront(index)
            return nodes[index].value
        }
    }

    func insert(_ value: [Float], for key: String) {
        guard capacity > 0 else { return }
        lock.withLock {
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
    }

    func removeAll() {
        lock.withLock {
            nodes.removeAll()
            indexByKey.removeAll()
            head = -1
            tail = -1
        }
    }

    private func unlink(_ index: Int) {
        let previous = nodes[index].previous
        let next = nodes[index].next
        if previous >= 0 { nodes[previous].next = next } else { head = next }
        if next >= 0 { nodes[next].previous = previous } else { tail = previous }
        nodes[index].previous = -1
        nodes[index].next = -1
    }

    private func pushFront(_ index: Int) {
        nodes[index].previous = -1
        nodes[index].next = head
        if head >= 0 { nodes[head].previous = index }
        head = index
        if tail < 0 { tail = index }
    }

    private func moveToFront(_ index: Int) {
        guard head != index else { return }
        unlink(index)
        pushFront(index)
    }
}
