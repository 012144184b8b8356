import Foundation
import GRDB

extension HushStore {
    /// The `meta` key set once every document's first keyword row holds its tags, category and the links and
    /// mentions cleaning replaced (files written before this have the cleaned text only).
    static let keywordExtrasKey = "keyword_extras"

    /// Brings the keyword rows of a writable file written before extras existed up to date, once, in one
    /// transaction: each document's first chunk gets its extras (see ``keywordExtras(_:cleaner:)``). A file
    /// opened read-only is left as it is (its tags and handles stay unsearchable by keyword until it is
    /// opened writable).
    ///
    /// - Complexity: O(documents) row reads and FTS5 updates, on the first writable open only.
    static func upgradeKeywordExtras(_ writer: any DatabaseWriter, cleaner: TextCleaner) throws {
        let done = try writer.read { try StoreSchema.meta($0, keywordExtrasKey) } == "1"
        guard !done else { return }
        try writer.write { db in
            guard try StoreSchema.meta(db, keywordExtrasKey) != "1" else { return }
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT d.title, d.body, d.quoted, d.fields, d.tags, d.category, c.id, c.text
                    FROM documents d JOIN chunks c ON c.document_id = d.id
                    WHERE c.ordinal = (SELECT MIN(ordinal) FROM chunks WHERE document_id = d.id)
                    """)
            let update = try db.makeStatement(sql: "UPDATE chunks_fts SET text = ? WHERE rowid = ?")
            var updates: [(String, Int64)] = []
            while let row = try rows.next() {
                let document = Document(
                    id: "", title: row[0], body: row[1], quoted: row[2], fields: JSONCoding.decodeFields(row[3]),
                    tags: JSONCoding.decodeTags(row[4]), category: row[5])
                let extras = keywordExtras(document, cleaner: cleaner)
                if !extras.isEmpty { updates.append((keywordText(chunk: row[7], extras: extras), row[6])) }
            }
            for (text, chunkID) in updates { try update.execute(arguments: [text, chunkID]) }
            try StoreSchema.setMeta(db, keywordExtrasKey, "1")
        }
    }
}
