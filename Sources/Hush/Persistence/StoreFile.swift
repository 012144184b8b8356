import Foundation
import GRDB
import HushEmbedding

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// File-level helpers for building: reading `meta` without opening a store, the content digest, packing the
/// finished file, fsync.
enum StoreFile {
    /// A `meta` value read through a read-only connection, or `nil` (no file, no table, no key).
    static func meta(path: String, key: String) throws -> String? {
        try StoreDatabase.readMeta(path: path, key: key)
    }

    /// Writes the manifest, runs ANALYZE and the FTS5 'optimize', checkpoints the WAL, packs the database
    /// with `VACUUM INTO` (a fresh, compact file written in a deterministic order) and sets the packed
    /// file's journal mode to DELETE so that it is one self-contained file. The schema cookie is then set to a
    /// fixed value so that the same content gives the same bytes. A cancelled call (``CancellationFlag/current``)
    /// stops inside the statement running and throws `CancellationError`; the working file is as it was, or has
    /// the manifest (which the next build writes again).
    static func pack(working: String, packed: String, manifest: String) throws {
        let queue = try DatabaseQueue(path: working)
        let flag = CancellationFlag.current
        try queue.writeWithoutTransaction { db in
            try db.interruptible(by: flag) {
                try db.inTransaction {
                    try StoreSchema.setMeta(db, StoreSchema.Key.buildManifest, manifest)
                    return .commit
                }
                // Statistics in a fixed row order (ANALYZE visits tables in the order of the in-memory schema).
                try db.execute(sql: "ANALYZE")
                try db.execute(
                    sql: """
                        CREATE TEMP TABLE hush_stat1 AS SELECT tbl, idx, stat FROM sqlite_stat1;
                        DELETE FROM sqlite_stat1;
                        INSERT INTO sqlite_stat1 (tbl, idx, stat) SELECT tbl, idx, stat FROM hush_stat1 ORDER BY tbl, idx;
                        DROP TABLE hush_stat1;
                        """)
                try db.execute(sql: "INSERT INTO chunks_fts(chunks_fts) VALUES ('optimize')")
                try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
                // VACUUM INTO writes into an empty file that exists, keeping its owner-only mode (it would create
                // a missing one by the umask).
                try StoreDatabase.createPrivateFile(packed)
                try db.execute(sql: "VACUUM INTO ?", arguments: [packed])
            }
        }
        try queue.close()
        let result = try DatabaseQueue(path: packed)
        try result.writeWithoutTransaction { db in
            let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")
            guard mode?.lowercased() == "delete" else {
                throw BuildError.finishing(path: packed, reason: "journal mode stayed \(mode ?? "unknown")")
            }
            // VACUUM INTO carries the schema cookie over plus one, so every generation would differ in that
            // header field alone; a fixed cookie (no other connection is open) makes equal content equal bytes.
            try db.execute(sql: "PRAGMA schema_version = 100")
        }
        try result.close()
    }

    /// sha256 over the stored content, in a fixed order. Per document, ordered by external id (bytewise):
    /// `D`, external id, title, body, quoted, fields, source type, language, tags, category, metadata (the
    /// JSON columns as stored, keys sorted); then per chunk, ordered by ordinal: `C`, ordinal, text, range
    /// start and end, and the vector's bytes (f32 little-endian). Every value is length-prefixed (NULL has
    /// its own marker). Timestamps and internal row ids are left out: undated records get the time they were
    /// first stored, and row ids depend on history, not content.
    static func contentDigest(_ db: Database) throws -> String {
        var hasher = SHA256()
        func add(_ text: String?) {
            guard let text else {
                hasher.update([UInt8(0xFF)])
                return
            }
            let bytes = Array(text.utf8)
            add(length: bytes.count)
            hasher.update(bytes)
        }
        func add(length: Int) {
            var value = UInt64(length).littleEndian
            withUnsafeBytes(of: &value) { hasher.update($0) }
        }
        let documents = try Row.fetchCursor(
            db,
            sql: """
                SELECT id, external_id, title, body, quoted, fields, source_type, language, tags, category, metadata
                FROM documents ORDER BY external_id COLLATE BINARY
                """)
        let chunks = try db.makeStatement(
            sql: """
                SELECT c.ordinal, c.text, c.range_start, c.range_end, v.vector
                FROM chunks c LEFT JOIN vectors v ON v.chunk_id = c.id
                WHERE c.document_id = ? ORDER BY c.ordinal
                """)
        while let row = try documents.next() {
            let rowid: Int64 = row[0]
            hasher.update([UInt8(ascii: "D")])
            for column in 1...10 { add(row[column] as String?) }
            let rows = try Row.fetchCursor(chunks, arguments: [rowid])
            while let chunk = try rows.next() {
                hasher.update([UInt8(ascii: "C")])
                add(String(chunk[0] as Int64))
                add(chunk[1] as String)
                add(String(chunk[2] as Int64))
                add(String(chunk[3] as Int64))
                if let vector = chunk[4] as Data? {
                    add(length: vector.count)
                    hasher.update(vector)
                } else {
                    hasher.update([UInt8(0xFF)])
                }
            }
        }
        return hex(hasher.finalize())
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// Flushes a file (or folder) to stable storage.
    static func sync(_ path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw CocoaError(.fileReadNoPermission) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    /// Makes a file readable and writable by its owner only (0600). `Data.write` replaces a file atomically
    /// with one created by the umask, so the mode is set again after writing.
    static func setPrivateMode(_ path: String) throws {
        guard chmod(path, 0o600) == 0 else { throw CocoaError(.fileWriteNoPermission) }
    }
}
