import Foundation
import GRDB
import GRDBSQLite

/// The saved image of the in-memory index (documents, row map, 4-bit codes, graph) in the store's file: one
/// byte stream cut into blocks of at most ``blockBytes`` in `index_image(id, data)`, so that opening reads a
/// few large BLOBs in order instead of a row per document and per vector.
///
/// The image names the commit it was made at (`meta.commit_counter`, bumped by every write transaction, see
/// ``StoreDatabase/write(_:_:)``); it is used only while the counter still has that value, so a write that did
/// not refresh it can never be read back as current.
enum MemoryImageTable {
    /// Bytes per block: large enough that a million-vector image is a few hundred reads, small enough that a
    /// block never strains SQLite's BLOB limits or a phone's memory.
    static let blockBytes = 4 << 20

    /// The current commit counter (0 in a file that never counted).
    static func commitCounter(_ db: Database) throws -> Int64 {
        try StoreSchema.meta(db, StoreSchema.Key.commitCounter).flatMap { Int64($0) } ?? 0
    }

    /// Whether the file has the image table (schema version 3).
    static func exists(_ db: Database) throws -> Bool {
        try db.tableExists("index_image")
    }
}

/// Writes an image's byte stream into `index_image`, replacing what was there, one block at a time.
final class ImageBlockWriter: ImageOutput {
    private let db: Database
    private var buffer: [UInt8] = []
    private var block: Int64 = 0
    private let insert: Statement

    /// Empties the table; call inside the write transaction that records the image's commit.
    init(db: Database) throws {
        self.db = db
        try db.execute(sql: "DELETE FROM index_image")
        insert = try db.cachedStatement(sql: "INSERT INTO index_image(id, data) VALUES (?, ?)")
        buffer.reserveCapacity(MemoryImageTable.blockBytes)
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let take = min(bytes.count - offset, MemoryImageTable.blockBytes - buffer.count)
            buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + take)]))
            offset += take
            if buffer.count == MemoryImageTable.blockBytes { try flush() }
        }
    }

    /// Writes the last, partial block.
    func finish() throws {
        if !buffer.isEmpty { try flush() }
    }

    private func flush() throws {
        try buffer.withUnsafeBytes { raw in
            try insert.execute(arguments: [block, Data(raw)])
        }
        block += 1
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Reads an image's byte stream back from `index_image`, inside a read transaction, with SQLite's incremental
/// BLOB reads: bytes go from the file's pages straight into the caller's arrays (no intermediate buffer).
final class ImageBlockReader: ImageInput {
    private let connection: OpaquePointer?
    private var blob: OpaquePointer?
    private var length = 0
    private var position = 0
    private var next: Int64 = 0

    /// The bytes of every block not read yet (their lengths are read from the rows' headers, not the blocks).
    private var unopened = 0

    var remaining: Int { unopened + length - position }

    init(db: Database) throws {
        connection = db.sqliteConnection
        unopened = try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(LENGTH(data)), 0) FROM index_image") ?? 0
    }

    deinit {
        if let blob { sqlite3_blob_close(blob) }
    }

    func read(into target: UnsafeMutableRawBufferPointer) throws {
        var filled = 0
        while filled < target.count {
            if position == length { try openNext() }
            let take = min(target.count - filled, length - position)
            guard let base = target.baseAddress,
                sqlite3_blob_read(blob, base + filled, Int32(take), Int32(position)) == SQLITE_OK
            else { throw ImageError.truncated }
            filled += take
            position += take
        }
    }

    /// Opens the next block (read-only).
    private func openNext() throws {
        if let blob {
            sqlite3_blob_close(blob)
            self.blob = nil
        }
        var handle: OpaquePointer?
        guard sqlite3_blob_open(connection, "main", "index_image", "data", next, 0, &handle) == SQLITE_OK,
            let handle
        else {
            if let handle { sqlite3_blob_close(handle) }
            throw ImageError.truncated
        }
        blob = handle
        next += 1
        length = Int(sqlite3_blob_bytes(handle))
        position = 0
        if length == 0 || length > unopened { throw ImageError.truncated }
        unopened -= length
    }
}

extension StoreDatabase {
    /// Reads the saved image with `decode` when it is current (see ``isCurrentImage(_:)``) and returns true;
    /// false when there is none, it is stale, or it is damaged (`decode` throws an ``ImageError``): the caller
    /// then loads from the tables.
    func readImage(_ decode: (ImageInput) throws -> Void) throws -> Bool {
        try read("load the memory image") { db in
            guard try Self.isCurrentImage(db) else { return false }
            do {
                try decode(try ImageBlockReader(db: db))
                synced.value = try MemoryImageTable.commitCounter(db)
                imageProblem.value = nil
                return true
            } catch let error as ImageError {
                switch error {
                case .unused: break
                case .truncated: imageProblem.value = "it ends early"
                case .malformed(let what): imageProblem.value = what
                }
                return false
            }
        }
    }

    /// Deletes a saved image that is no longer current: it may name documents deleted since (their ids, tags
    /// and metadata), and the next open would not read it anyway (it loads from the tables and saves a new one).
    static func dropIfStale(_ db: Database) throws {
        guard try MemoryImageTable.exists(db), try !isCurrentImage(db) else { return }
        try db.execute(sql: "DELETE FROM index_image")
        try StoreSchema.setMeta(db, StoreSchema.Key.imageCommit, nil)
        try StoreSchema.setMeta(db, StoreSchema.Key.imageFingerprint, nil)
    }

    /// Whether the file has an image made at its current commit, from the tables as they are (same highest
    /// document, chunk and vector ids).
    private static func isCurrentImage(_ db: Database) throws -> Bool {
        guard try MemoryImageTable.exists(db) else { return false }
        return try StoreSchema.meta(db, StoreSchema.Key.imageCommit).flatMap({ Int64($0) })
            == (try MemoryImageTable.commitCounter(db))
            && StoreSchema.meta(db, StoreSchema.Key.imageFingerprint) == (try fingerprint(db))
    }

    /// Writes the image produced by `encode` in one transaction and stamps it with the commit the file is at
    /// (the image's own transaction does not count as one: it changes no document). Does nothing in a file
    /// without the image table, or when memory is behind the file (another process committed since it was
    /// loaded: an image of it would be stamped current without that commit); returns whether it wrote.
    ///
    /// With `emptyingLog` (a large image) the write-ahead log is then moved into the file and emptied; without,
    /// only moved (a passive checkpoint): a log left empty makes the next writable open of the file write to
    /// recreate it, which waits for another process's write.
    @discardableResult
    func writeImage(emptyingLog: Bool = true, _ encode: (ImageBlockWriter) throws -> Void) throws -> Bool {
        do {
            let written = try writer.write { db -> Bool in
                guard try MemoryImageTable.exists(db) else { return false }
                if let synced = synced.value, synced != (try MemoryImageTable.commitCounter(db)) { return false }
                let writer = try ImageBlockWriter(db: db)
                try encode(writer)
                try writer.finish()
                try StoreSchema.setMeta(
                    db, StoreSchema.Key.imageCommit, String(try MemoryImageTable.commitCounter(db)))
                try StoreSchema.setMeta(db, StoreSchema.Key.imageFingerprint, try Self.fingerprint(db))
                return true
            }
            guard written else { return false }
            // Move the image from the write-ahead log into the file and empty the log. A log left holding it
            // is read back a lookup per page, and each new process that opens the file first rebuilds the
            // log's index by scanning all of it (the 100k-document store opened in 79 ms with its image's 59 MB
            // left in the log, 53 ms with the log empty). Emptying it needs every reader to step aside: while
            // one is reading, a passive checkpoint copies what it can without waiting for, or blocking, anyone.
            try writer.writeWithoutTransaction { db in
                do {
                    _ = try db.checkpoint(emptyingLog ? .truncate : .passive)
                } catch let error as DatabaseError
                    where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
                {
                    _ = try db.checkpoint(.passive)
                }
            }
            return true
        } catch  where error is DatabaseError {
            throw StoreError.wrapping(error, path: path, operation: "save the memory image")
        }
    }

    /// Whether the saved image is current and of this version (it starts with `header`), so that the next open
    /// reads it. An image of another version (made by another release of Hush) is not.
    func imageIsCurrent(header: (magic: UInt64, version: UInt32)) throws -> Bool {
        try read { db in
            guard try Self.isCurrentImage(db) else { return false }
            let input = try ImageBlockReader(db: db)
            do {
                return try input.read(UInt64.self) == header.magic && input.read(UInt32.self) == header.version
            } catch is ImageError {
                return false
            }
        }
    }

    /// The bytes of the saved image (0 without one).
    func imageBytes() -> Int64 {
        (try? read { db -> Int64 in
            guard try MemoryImageTable.exists(db) else { return 0 }
            return try Int64.fetchOne(db, sql: "SELECT COALESCE(SUM(LENGTH(data)), 0) FROM index_image") ?? 0
        }) ?? 0
    }

    /// The highest document and chunk ids: a second check, beside the commit counter, that the tables are
    /// the ones the image was made from. O(log n).
    private static func fingerprint(_ db: Database) throws -> String {
        let documents = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM documents") ?? 0
        let chunks = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM chunks") ?? 0
        let vectors = try Int64.fetchOne(db, sql: "SELECT MAX(chunk_id) FROM vectors") ?? 0
        return "\(documents):\(chunks):\(vectors)"
    }
}
