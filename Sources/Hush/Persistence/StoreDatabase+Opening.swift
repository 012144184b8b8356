import Foundation
import GRDB

/// Opening a file: its schema version checked, a writable file migrated when it needs it, the embedder
/// identity read or stamped, and old keyword rows brought up to date.
extension StoreDatabase {
    /// Checks the file's schema version, migrates a writable file that needs it (a file already current is
    /// only read, so opening never waits for another process's write lock), and returns the stored embedder
    /// identity (stamping `current` into a new writable file) and any unfinished re-embed.
    func checkSchema(readOnly: Bool, stamping current: EmbedderIdentity?) throws
        -> (stored: EmbedderIdentity, reembed: UnfinishedReembed?)
    {
        let migrator = StoreSchema.migrator
        let (found, superseded, complete) = try read("open the file") { db in
            (
                try StoreSchema.recordedVersion(db), try migrator.hasBeenSuperseded(db),
                try migrator.hasCompletedMigrations(db)
            )
        }
        if let found, found > StoreSchema.version {
            throw StoreError.schemaTooNew(path: displayPath, found: found, supported: StoreSchema.version)
        }
        if superseded {
            throw StoreError.schemaTooNew(
                path: displayPath, found: found ?? StoreSchema.version + 1, supported: StoreSchema.version)
        }
        if !complete, readOnly, let found, found >= StoreSchema.oldestReadable {
            // An older file opened read-only: usable as it is (it has no index image; the tables are loaded).
        } else if !complete {
            guard !readOnly else {
                if found == nil {
                    throw StoreError.notAStore(path: displayPath, reason: "the file has no Hush tables")
                }
                throw StoreError.readOnly(
                    path: displayPath,
                    operation: "upgrade its schema from version \(found ?? 0) to \(StoreSchema.version)")
            }
            do {
                try StoreSchema.migrate(writer)
            } catch {
                throw StoreError.wrapping(error, path: path, operation: "open the file")
            }
        }
        let (stored, reembed) = try read("open the file") { db in
            (try StoreSchema.storedIdentity(db), try Self.unfinishedReembed(db))
        }
        if let stored { return (stored, reembed) }
        guard let current else {
            throw StoreError.invalidOption(
                "\(displayPath) holds no vectors yet and no embedder was given: open it with one")
        }
        guard !readOnly else { return (current, nil) }
        let stamped = try write("open the file") { transaction -> EmbedderIdentity in
            // Another process may have stamped it since the read above.
            if let stored = try StoreSchema.storedIdentity(transaction.db) { return stored }
            try StoreSchema.stamp(transaction.db, identity: current)
            return current
        }
        return (stamped, nil)
    }

    /// Brings the keyword rows of a file written before keyword extras existed up to date, once, in one
    /// transaction: `keywordText` gets each document and its first chunk's text and returns the row's new
    /// text (`nil`: leave it).
    ///
    /// - Complexity: O(documents) row reads and FTS5 updates, on the first writable open only.
    func upgradeKeywordRows(_ keywordText: (Document, _ firstChunk: String) -> String?) throws {
        let key = StoreSchema.Key.keywordExtras
        guard try read("index tags and handles by keyword", { try StoreSchema.meta($0, key) }) != "1" else { return }
        try write("index tags and handles by keyword") { transaction in
            let db = transaction.db
            guard try StoreSchema.meta(db, key) != "1" else { return }
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT d.title, d.body, d.quoted, d.fields, d.tags, d.category, c.id, c.text
                    FROM documents d JOIN chunks c ON c.document_id = d.id
                    WHERE c.ordinal = (SELECT MIN(ordinal) FROM chunks WHERE document_id = d.id)
                    """)
            var updates: [(String, Int64)] = []
            while let row = try rows.next() {
                let document = Document(
                    id: "", title: row[0], body: row[1], quoted: row[2], fields: JSONCoding.decodeFields(row[3]),
                    tags: JSONCoding.decodeTags(row[4]), category: row[5])
                if let text = keywordText(document, row[7]) { updates.append((text, row[6])) }
            }
            let update = try db.makeStatement(sql: "UPDATE chunks_fts SET text = ? WHERE rowid = ?")
            for (text, chunkID) in updates { try update.execute(arguments: [text, chunkID]) }
            try StoreSchema.setMeta(db, key, "1")
        }
    }

    /// The embedder identity stamped in the file, or `nil` (a new or empty file).
    func storedIdentity() throws -> EmbedderIdentity? {
        try read("open the file") { db in
            try db.tableExists("meta") ? try StoreSchema.storedIdentity(db) : nil
        }
    }
}
