import GRDB

/// The statements that write the keyword index's rows (`chunks_fts`, one per chunk: the chunk's keyword text,
/// `KeywordText.row(chunk:extras:)`), written once for every transaction that needs them (a write batch, the
/// catch-up of an old index at open), in GRDB's style: static, on the `Database` of whichever transaction runs
/// them.
enum KeywordIndexRows {
    /// `INSERT INTO chunks_fts (rowid, text)`: arguments, the chunk's id and its keyword text.
    static func insert(_ db: Database) throws -> Statement {
        try db.cachedStatement(sql: "INSERT INTO chunks_fts (rowid, text) VALUES (?, ?)")
    }

    /// `UPDATE chunks_fts`: arguments, the new keyword text and the chunk's id.
    static func update(_ db: Database) throws -> Statement {
        try db.cachedStatement(sql: "UPDATE chunks_fts SET text = ? WHERE rowid = ?")
    }
}
