import Dispatch
import Foundation
import GRDB
import Hush
import HushEmbedding

// What FuzzStoreFile does with an input, shared with the test suite's replay of its corpus
// (`ReliabilityFuzzCorpusTests.storeFileCorpus`): each input damages a copy of a small valid store (its index
// image, graph rows, vector blobs, chunks and meta) and the copy is then opened, read, searched and written to.
// Any error is an answer; a crash, a hang or an allocation past libFuzzer's memory limit is a bug.
//
// The input is read as records of 12 bytes: what to damage (1 byte), which row or key (1 byte), where in it
// (2 bytes) and the value written (8 bytes, little-endian).

/// The two template stores: one on HNSW (a memory image with its graph and codes, and the graph tables) and
/// one on the exact scan (a documents image), as file contents; empty when they cannot be made.
package func makeTemplates() async -> [Data] {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-store-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var made: [Data] = []
    for strategy in [IndexStrategy.hnsw, .exact] {
        let path = folder.appendingPathComponent("\(strategy.rawValue).hush").path
        do {
            let store = try await HushStore.open(
                path: path, embedder: HashingEmbedder(),
                options: StoreOptions(
                    indexStrategy: strategy, hnswParameters: HNSWParameters(M: 4, efConstruction: 16, efSearch: 16)))
            try await store.upsert(
                (0..<120).map { number in
                    Document(
                        id: "note-\(number)", title: number % 3 == 0 ? "Note \(number)" : nil,
                        body:
                            "Entry \(number) about \(["sleep", "money", "the garden", "a trip to Lisbon"][number % 4])"
                            + " and \(["friends", "work", "rain"][number % 3]).",
                        tags: number % 5 == 0 ? ["rare"] : [], metadata: ["mood": number % 2 == 0 ? "calm" : "tired"])
                })
            try await store.close()
        } catch {
            continue
        }
        if let data = FileManager.default.contents(atPath: path) { made.append(data) }
    }
    return made
}

/// Runs `body` to its end from this (libFuzzer's, not a cooperative) thread; nil when it threw.
package func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) -> T? {
    let done = DispatchSemaphore(value: 0)
    let result = Locked<T>()
    Task {
        result.set(try? await body())
        done.signal()
    }
    done.wait()
    return result.get()
}

/// A value set once from a task and read after it.
final class Locked<T>: @unchecked Sendable {
    // Sendable: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value: T?
    func set(_ new: T?) { lock.withLock { value = new } }
    func get() -> T? { lock.withLock { value } }
}

/// The meta keys a damage may rewrite.
let metaKeys = [
    "embedder_dimension", "embedder_pooling", "embedder_weights_sha256", "commit_counter", "image_commit",
    "image_fingerprint", "schema_version", "chunking", "keyword_extras", "reembed_target", "reembed_after_chunk",
]

/// Writes `value`'s bytes over `blob` at `offset` (wrapped into it).
func overwrite(_ blob: Data, at offset: Int, with value: UInt64) -> Data {
    guard !blob.isEmpty else { return blob }
    var bytes = [UInt8](blob)
    let start = offset % bytes.count
    for index in 0..<min(8, bytes.count - start) {
        bytes[start + index] = UInt8(truncatingIfNeeded: value >> (8 * index))
    }
    return Data(bytes)
}

/// Applies one record of damage inside a write transaction.
func damage(_ db: Database, kind: UInt8, which: Int, offset: Int, value: UInt64) throws {
    let signed = Int64(bitPattern: value)
    func nth(_ table: String, _ key: String) throws -> Int64? {
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0
        guard count > 0 else { return nil }
        return try Int64.fetchOne(
            db, sql: "SELECT \(key) FROM \(table) ORDER BY \(key) LIMIT 1 OFFSET \(which % count)")
    }
    switch kind % 9 {
    case 0:  // a byte range of the memory image
        guard let id = try nth("index_image", "id"),
            let blob = try Data.fetchOne(db, sql: "SELECT data FROM index_image WHERE id = ?", arguments: [id])
        else { return }
        try db.execute(
            sql: "UPDATE index_image SET data = ? WHERE id = ?",
            arguments: [overwrite(blob, at: offset, with: value), id])
    case 1:  // a graph node's level or row
        guard let row = try nth("hnsw_nodes", "row") else { return }
        let column = offset % 2 == 0 ? "level" : "row"
        try db.execute(sql: "UPDATE OR IGNORE hnsw_nodes SET \(column) = ? WHERE row = ?", arguments: [signed, row])
    case 2:  // a neighbour list's bytes, or its length
        guard let row = try nth("hnsw_edges", "row"),
            let blob = try Data.fetchOne(
                db, sql: "SELECT neighbours FROM hnsw_edges WHERE row = ? LIMIT 1", arguments: [row])
        else { return }
        let changed = offset % 3 == 0 ? Data(blob.prefix(Int(value % 64))) : overwrite(blob, at: offset, with: value)
        try db.execute(sql: "UPDATE hnsw_edges SET neighbours = ? WHERE row = ?", arguments: [changed, row])
    case 3:  // a vector's stored row, bytes or length
        guard let chunk = try nth("vectors", "chunk_id") else { return }
        switch offset % 3 {
        case 0:
            try db.execute(sql: "UPDATE vectors SET row = ? WHERE chunk_id = ?", arguments: [signed, chunk])
        case 1:
            try db.execute(
                sql: "UPDATE vectors SET vector = substr(vector, 1, ?) WHERE chunk_id = ?",
                arguments: [Int(value % 2048), chunk])
        default:
            guard
                let blob = try Data.fetchOne(
                    db, sql: "SELECT vector FROM vectors WHERE chunk_id = ?", arguments: [chunk])
            else { return }
            try db.execute(
                sql: "UPDATE vectors SET vector = ? WHERE chunk_id = ?",
                arguments: [overwrite(blob, at: offset, with: value), chunk])
        }
    case 4:  // a meta value: a number, a short text, or gone
        let key = metaKeys[which % metaKeys.count]
        switch offset % 3 {
        case 0: try db.execute(sql: "UPDATE meta SET value = ? WHERE key = ?", arguments: [String(signed), key])
        case 1:
            try db.execute(
                sql: "UPDATE meta SET value = ? WHERE key = ?", arguments: [String(value % 1000) + "x", key])
        default: try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [key])
        }
    case 5:  // a graph parameter
        let keys = ["M", "M0", "efConstruction", "efSearch", "dimension", "entryPoint", "maxLevel", "version"]
        try db.execute(
            sql: "UPDATE hnsw_meta SET value = ? WHERE key = ?", arguments: [String(signed), keys[which % keys.count]])
    case 6:  // a chunk's document, ordinal or text
        guard let chunk = try nth("chunks", "id") else { return }
        let column = ["document_id", "ordinal", "text"][offset % 3]
        try db.execute(
            sql: "UPDATE OR IGNORE chunks SET \(column) = ? WHERE id = ?",
            arguments: [column == "text" ? String(repeating: "[", count: Int(value % 4096)) : String(signed), chunk])
    case 7:  // a document's tags, metadata or date
        guard let document = try nth("documents", "id") else { return }
        let column = ["tags", "metadata", "created_at"][offset % 3]
        let garbage = ["[", "{\"a\":", "[1,2]", "{\"k\":[{}]}", String(signed)][Int(value % 5)]
        try db.execute(sql: "UPDATE documents SET \(column) = ? WHERE id = ?", arguments: [garbage, document])
    default:  // a whole table emptied or dropped
        let statements = [
            "DELETE FROM index_image", "DELETE FROM hnsw_edges", "DELETE FROM hnsw_nodes", "DROP TABLE chunks_fts",
            "DELETE FROM documents WHERE id % 2 = 0", "DELETE FROM chunks WHERE id % 3 = 0",
        ]
        try db.execute(sql: statements[which % statements.count])
    }
}

/// Writes a copy of one of the `templates` (``makeTemplates()``) into `folder`, damaged as `input` says; `nil` for an input too short or a
/// copy that cannot be written.
package func damagedCopy(_ input: UnsafeBufferPointer<UInt8>, of templates: [Data], in folder: URL) -> String? {
    guard input.count >= 1, !templates.isEmpty else { return nil }
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("damaged.hush").path
    try? FileManager.default.removeItem(atPath: path)
    guard FileManager.default.createFile(atPath: path, contents: templates[Int(input[0]) % templates.count]) else {
        return nil
    }
    do {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            var position = 1
            while position + 12 <= input.count {
                var value: UInt64 = 0
                for index in 0..<8 { value |= UInt64(input[position + 4 + index]) << (8 * index) }
                let offset = Int(input[position + 2]) | Int(input[position + 3]) << 8
                try? damage(db, kind: input[position], which: Int(input[position + 1]), offset: offset, value: value)
                position += 12
            }
        }
        try queue.close()
    } catch {
        return nil
    }
    return path
}

/// Opens the store at `path` read-only and writable, reads it, searches it in three modes, ranks, finds related
/// items, writes and deletes. Every error is an answer; returns how many of the two opens succeeded.
@discardableResult
package func exerciseStore(at path: String) async -> Int {
    var opened = 0
    for readOnly in [true, false] {
        guard
            let store = try? await HushStore.open(
                path: path, embedder: HashingEmbedder(), readOnly: readOnly,
                options: StoreOptions(allowEmbedderMismatch: true))
        else { continue }
        opened += 1
        _ = try? await store.stats()
        _ = try? await store.document(id: "note-7")
        for mode in [SearchMode.keyword, .semantic, .hybrid] {
            _ = try? await store.search("sleep and money", mode: mode, limit: 5)
        }
        _ = try? await store.search("trip", filter: SearchFilter(tagsAny: ["rare"]), limit: 5)
        _ = try? await store.related(to: "note-3", limit: 5)
        _ = try? await store.rank(liked: ["note-1", "note-2"], limit: 5)
        if !readOnly {
            _ = try? await store.upsert([Document(id: "fresh", body: "A fresh entry about sleep and the garden.")])
            _ = try? await store.delete(ids: ["note-5"])
            _ = try? await store.search("fresh garden", limit: 3)
        }
        try? await store.close()
    }
    return opened
}
