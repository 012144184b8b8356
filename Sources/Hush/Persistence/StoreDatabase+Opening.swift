import Foundation
import GRDB

/// Opening a file: its schema version checked, a writable file migrated when it needs it, the embedder
/// identity read or stamped, and an old keyword index brought up to date.
extension StoreDatabase {
    /// Checks the file's schema version, migrates a writable file that needs it (a file already current is
    /// only read, so opening never waits for another process's write lock), and returns the stored embedder
    /// identity (stamping `current` into a new writable file) and any unfinished re-embed. A file whose vectors'
    /// identity cannot be read returns a stand-in identity and the reason (`unreadable`), and is never stamped.
    func checkSchema(readOnly: Bool, stamping current: EmbedderIdentity?) throws
        -> (stored: EmbedderIdentity, reembed: UnfinishedReembed?, unreadable: String?)
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
                path: displayPath, found: found ?? StoreSchema.version, supported: StoreSchema.version)
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
        let (record, reembed) = try read("open the file") { db in
            (try StoreSchema.identityRecord(db), try Self.unfinishedReembed(db))
        }
        switch record {
        case .identity(let stored):
            return (stored, reembed, nil)
        case .unreadable(let reason):
            return (Self.unreadableIdentity, reembed, reason)
        case .none:
            break
        }
        guard let current else {
            throw StoreError.invalidOption(
                "\(displayPath) holds no vectors yet and no embedder was given: open it with one")
        }
        guard !readOnly else { return (current, nil, nil) }
        let stamped = try write("open the file") { transaction -> StoreSchema.IdentityRecord in
            // Another process may have stamped it (or written vectors) since the read above.
            let record = try StoreSchema.identityRecord(transaction.db)
            guard record == .none else { return record }
            try StoreSchema.stamp(transaction.db, identity: current)
            return .identity(current)
        }
        switch stamped {
        case .identity(let stored): return (stored, nil, nil)
        case .unreadable(let reason): return (Self.unreadableIdentity, nil, reason)
        case .none: return (current, nil, nil)
        }
    }

    /// What a store whose identity cannot be read stands on: no model matches it, and its vectors are never
    /// loaded.
    static let unreadableIdentity = EmbedderIdentity(
        model: "(unreadable)", weightsSHA256: "", dimension: 1, pooling: .mean, normalized: true)

    /// Brings an older file's keyword index up to date, once, in one transaction, at a writable open:
    ///
    /// - an index made with the tokenizer that cut words at their vowel signs (before
    ///   ``StoreSchema/keywordTokenizer`` counted marks as letters) is made again from the chunks, each row as
    ///   the write path makes it now (``KeywordText/row(chunk:extras:)``);
    /// - otherwise, in a file whose rows hold no extras or older ones (``StoreSchema/keywordExtrasVersion``),
    ///   each document's first row gets them;
    /// - and rows written before the dotless ı was written i (``StoreSchema/keywordTextVersion``) are
    ///   written again with it (only the rows holding one).
    ///
    /// `extras` gives a document's extras (its tags, category, metadata values, links and mentions; empty for
    /// none).
    ///
    /// - Complexity: O(chunks) row reads and FTS5 inserts when the index is made again (7,656 chunks of Debian
    ///   descriptions: 1.0 s on a Zen 3 core), O(documents) for the extras; nothing once the file is current.
    func upgradeKeywordIndex(extras: (Document) -> String) throws {
        let key = StoreSchema.Key.keywordExtras
        let textKey = StoreSchema.Key.keywordText
        let current = try read("update the keyword index") { db in
            let extrasDone = try StoreSchema.meta(db, key) == StoreSchema.keywordExtrasVersion
            let textDone = try StoreSchema.meta(db, textKey) == StoreSchema.keywordTextVersion
            return try StoreSchema.keywordIndexIsCurrent(db) && extrasDone && textDone
        }
        guard !current else { return }
        try write("update the keyword index") { transaction in
            let db = transaction.db
            // Another process may have brought it up to date since the read above.
            let tokenizerIsCurrent = try StoreSchema.keywordIndexIsCurrent(db)
            let extrasDone = try StoreSchema.meta(db, key) == StoreSchema.keywordExtrasVersion
            let textDone = try StoreSchema.meta(db, textKey) == StoreSchema.keywordTextVersion
            guard !tokenizerIsCurrent || !extrasDone || !textDone else { return }
            if tokenizerIsCurrent {
                // Rows kept: those holding a dotless ı are written again with i (FTS5 reads the new text).
                try db.execute(
                    sql: "UPDATE chunks_fts SET text = replace(text, '\u{131}', 'i') WHERE instr(text, '\u{131}') > 0")
            }
            try StoreSchema.setMeta(db, textKey, StoreSchema.keywordTextVersion)
            guard !tokenizerIsCurrent || !extrasDone else { return }
            // Each document's first chunk and its extras: the row it gets now (an index kept as it is), or the
            // extras to add to that chunk's row (an index made again, below).
            var updates: [(text: String, chunkID: Int64)] = []
            var extrasOfFirst: [Int64: String] = [:]
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT d.title, d.body, d.quoted, d.fields, d.tags, d.category, c.id, d.metadata, c.text
                    FROM documents d JOIN chunks c ON c.document_id = d.id
                    WHERE c.ordinal = (SELECT MIN(ordinal) FROM chunks WHERE document_id = d.id)
                    """)
            while let row = try rows.next() {
                let document = Document(
                    id: "", title: row[0], body: row[1], quoted: row[2], fields: JSONCoding.decodeFields(row[3]),
                    tags: JSONCoding.decodeTags(row[4]), category: row[5], metadata: JSONCoding.decodeMetadata(row[7]))
                let found = extras(document)
                guard !found.isEmpty else { continue }
                if tokenizerIsCurrent {
                    updates.append((KeywordText.row(chunk: row[8], extras: found), row[6]))
                } else {
                    extrasOfFirst[row[6]] = found
                }
            }
            if tokenizerIsCurrent {
                let update = try db.makeStatement(sql: "UPDATE chunks_fts SET text = ? WHERE rowid = ?")
                for (text, chunkID) in updates { try update.execute(arguments: [text, chunkID]) }
            } else {
                try StoreSchema.recreateKeywordIndex(db)
                let insert = try db.makeStatement(sql: "INSERT INTO chunks_fts (rowid, text) VALUES (?, ?)")
                let chunks = try Row.fetchCursor(db, sql: "SELECT id, text FROM chunks ORDER BY id")
                while let chunk = try chunks.next() {
                    let chunkID: Int64 = chunk[0]
                    let text: String = chunk[1]
                    try insert.execute(arguments: [
                        chunkID, KeywordText.row(chunk: text, extras: extrasOfFirst[chunkID] ?? ""),
                    ])
                }
            }
            try StoreSchema.setMeta(db, key, StoreSchema.keywordExtrasVersion)
        }
    }

    /// What the file records of the model that made its vectors (``StoreSchema/IdentityRecord/none`` for a new or
    /// empty file).
    func identityRecord() throws -> StoreSchema.IdentityRecord {
        try read("open the file") { db in
            try db.tableExists("meta") ? try StoreSchema.identityRecord(db) : .none
        }
    }
}
