import Foundation
import GRDB

/// The on-disk schema (see docs/store-schema.md), created and upgraded through a `DatabaseMigrator`.
enum StoreSchema {
    /// The newest schema version this code knows.
    static let version = 7
    /// The oldest schema version a read-only open can use as it is: version 3 only added the memory image,
    /// which a read-only store without it does without (it loads from the tables), version 4 only added
    /// `chunks.passage_start`, which a search does without (it finds the passage by comparison), and version 5
    /// only added the `documents_listing` index, without which opening reads the documents table itself;
    /// version 6 only gave a new file's keyword index prefix indexes, which prefix queries do without, and version 7
    /// only added `chunks.field`, without which a hit names no field.
    static let oldestReadable = 2

    /// Keys of the `meta` table.
    enum Key {
        static let schemaVersion = "schema_version"
        /// The manifest of a knowledge base `hush build` made (JSON).
        static let buildManifest = "build_manifest"
        static let embedderModel = "embedder_model"
        static let embedderWeights = "embedder_weights_sha256"
        static let embedderDimension = "embedder_dimension"
        static let embedderPooling = "embedder_pooling"
        static let embedderNormalized = "embedder_normalized"
        /// The query and passage prefixes; absent (no prefix) in files made before roles existed.
        static let embedderQueryPrefix = "embedder_query_prefix"
        static let embedderPassagePrefix = "embedder_passage_prefix"
        /// JSON identity of the embedder a running `reembed` is converting to.
        static let reembedTarget = "reembed_target"
        /// The highest chunk id already re-embedded by that run.
        static let reembedAfterChunk = "reembed_after_chunk"
        /// The preparation signature (the writer's: model, token limit, chunking) of the last upsert: what the
        /// stored text hashes were made with.
        static let preparation = "preparation_signature"
        /// JSON ``ChunkingConfiguration`` the stored chunks were cut with (absent in files made before models
        /// chose their chunk size: those were cut at ``ChunkSize/standard`` in the model's window).
        static let chunking = "chunking"
        /// JSON array of earlier preparation signatures whose chunks a finished `reembed` kept and re-embedded:
        /// a text hash made with one of them still names the document's stored text.
        static let reembeddedPreparations = "reembedded_preparations"
        /// ``keywordExtrasVersion`` once every document's first keyword row holds its extras as this code makes
        /// them ("1": tags, category, links and mentions; "2": and the metadata's values).
        static let keywordExtras = "keyword_extras"
        /// ``keywordTextVersion`` once every keyword row is written as ``KeywordText/segment(_:)`` writes it now.
        static let keywordText = "keyword_text"
        /// "1" while the keyword index may still hold words of deleted or replaced rows (FTS5 keeps a deleted
        /// row's entries in its older segments until they are merged): set in the transaction that removes them,
        /// cleared by ``StoreDatabase/purgeDeletedWords(upTo:)``.
        static let keywordPurge = "keyword_purge"
        /// Bumped by every write transaction (see `StoreDatabase.write`): which commit the file is at.
        static let commitCounter = "commit_counter"
        /// The commit the saved memory image was made at; the image is current only while they are equal.
        static let imageCommit = "image_commit"
        /// The highest document, chunk and vector ids when the image was made (a second check).
        static let imageFingerprint = "image_fingerprint"
    }

    /// The staging table of a running `reembed`: the new vectors, kept apart from `vectors` until every chunk
    /// has one, then swapped in with the new identity in one transaction. It exists only while a re-embed is
    /// unfinished, so searches never mix two models' vectors.
    static let reembedTable = "reembed_vectors"
    /// The staging table of a `reembed` that also re-chunks (the new model cuts documents differently): per
    /// document, its new chunks and their vectors, made from the text its `text_hash` names.
    static let rechunkTable = "reembed_documents"

    /// Applies the migrations a file lacks, safely when another process opens the same new file at the same
    /// moment: GRDB reads which migrations are applied before taking the write lock for each one, so two
    /// processes can both decide to run the same migration, and the later one fails on what the earlier one
    /// created. The loser reads the applied set again (now under the other's committed changes) and goes on
    /// with what is still missing; nothing is applied twice, since every migration is one transaction.
    static func migrate(_ writer: any DatabaseWriter) throws {
        let migrator = self.migrator
        var attempt = 0
        while true {
            do {
                try migrator.migrate(writer)
                return
            } catch {
                attempt += 1
                if try writer.read({ try migrator.hasCompletedMigrations($0) }) { return }
                if attempt >= 5 { throw error }
                usleep(UInt32(20_000 * attempt))
            }
        }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE meta (
                        key TEXT PRIMARY KEY NOT NULL,
                        value TEXT NOT NULL
                    ) WITHOUT ROWID;

                    CREATE TABLE documents (
                        id INTEGER PRIMARY KEY,
                        external_id TEXT NOT NULL UNIQUE,
                        title TEXT,
                        body TEXT NOT NULL,
                        quoted TEXT,
                        fields TEXT NOT NULL DEFAULT '[]',
                        source_type TEXT,
                        language TEXT NOT NULL,
                        tags TEXT NOT NULL DEFAULT '[]',
                        category TEXT,
                        metadata TEXT NOT NULL DEFAULT '{}',
                        created_at REAL NOT NULL,
                        updated_at REAL,
                        text_hash TEXT NOT NULL,
                        content_hash TEXT NOT NULL
                    );

                    CREATE TABLE chunks (
                        id INTEGER PRIMARY KEY,
                        document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
                        ordinal INTEGER NOT NULL,
                        text TEXT NOT NULL,
                        range_start INTEGER NOT NULL,
                        range_end INTEGER NOT NULL,
                        token_count INTEGER NOT NULL,
                        truncated INTEGER NOT NULL DEFAULT 0,
                        UNIQUE (document_id, ordinal)
                    );

                    CREATE TABLE vectors (
                        chunk_id INTEGER PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
                        vector BLOB NOT NULL
                    );

                    CREATE VIRTUAL TABLE chunks_fts USING fts5(
                        text,
                        tokenize = 'porter unicode61 remove_diacritics 2'
                    );

                    CREATE TRIGGER chunks_fts_delete AFTER DELETE ON chunks BEGIN
                        DELETE FROM chunks_fts WHERE rowid = old.id;
                    END;
                    """)
            try db.execute(
                sql: "INSERT INTO meta (key, value) VALUES (?, ?)", arguments: [Key.schemaVersion, "1"])
        }
        // v2: stable vector rows (the HNSW graph names its nodes by row) and the graph tables. Frozen: a
        // migration's DDL never changes once released (new columns or tables are a new migration).
        migrator.registerMigration("v2") { db in
            try db.execute(
                sql: """
                    ALTER TABLE vectors ADD COLUMN row INTEGER;
                    CREATE TABLE IF NOT EXISTS hnsw_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
                    CREATE TABLE IF NOT EXISTS hnsw_nodes(
                        row INTEGER PRIMARY KEY, level INTEGER NOT NULL, deleted INTEGER NOT NULL DEFAULT 0);
                    CREATE TABLE IF NOT EXISTS hnsw_edges(
                        row INTEGER NOT NULL, level INTEGER NOT NULL, neighbours BLOB NOT NULL,
                        PRIMARY KEY(row, level)) WITHOUT ROWID;
                    """)
            try setMeta(db, Key.schemaVersion, "2")
        }
        // v3: the saved image of the in-memory index (see `MemoryImageTable`), so that opening is a few large
        // reads. Frozen like the others.
        migrator.registerMigration("v3") { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS index_image(id INTEGER PRIMARY KEY, data BLOB NOT NULL)")
            try setMeta(db, Key.schemaVersion, "3")
        }
        // v4: where each chunk's passage starts in its text (after the title in a first chunk with one), so that
        // a search never cleans a body again to find it. NULL in the rows of earlier files. Frozen.
        migrator.registerMigration("v4") { db in
            try db.execute(sql: "ALTER TABLE chunks ADD COLUMN passage_start INTEGER")
            try setMeta(db, Key.schemaVersion, "4")
        }
        // v5: a covering index of the columns opening reads for every document (everything but its texts and
        // hashes), so that an open reads a few small pages instead of every document's title, body and fields:
        // 10,000 documents load in a third of the time. Frozen.
        migrator.registerMigration("v5") { db in
            try db.execute(
                sql: """
                    CREATE INDEX IF NOT EXISTS documents_listing
                    ON documents(id, external_id, language, source_type, tags, category, created_at, metadata)
                    """)
            try setMeta(db, Key.schemaVersion, "5")
        }
        // v6: the keyword index keeps prefix indexes of 1, 2 and 3 characters, so that a word being typed
        // (`"pr"*`) reads one list of rows instead of merging those of every word that starts so (`pr*` on
        // 10,000 Debian descriptions: 2.7 ms to 0.7 ms to list its 6,719 rows, 5.8 ms to 1.9 ms scored; the
        // index grows by about 1.7 times its size). A file that already holds chunks keeps its index as it is:
        // rebuilding it at an open would take about a minute per million chunks. Frozen.
        migrator.registerMigration("v6") { db in
            if try Row.fetchOne(db, sql: "SELECT 1 FROM chunks LIMIT 1") == nil {
                try db.execute(
                    sql: """
                        DROP TRIGGER chunks_fts_delete;
                        DROP TABLE chunks_fts;
                        CREATE VIRTUAL TABLE chunks_fts USING fts5(
                            text,
                            tokenize = 'porter unicode61 remove_diacritics 2',
                            prefix = '1 2 3'
                        );
                        CREATE TRIGGER chunks_fts_delete AFTER DELETE ON chunks BEGIN
                            DELETE FROM chunks_fts WHERE rowid = old.id;
                        END;
                        """)
            }
            try setMeta(db, Key.schemaVersion, "6")
        }
        // v7: the label of the field a chunk holds (each labelled field of a record is a chunk of its own), so
        // that a hit can show and cite the field that answers. NULL for body chunks and in earlier rows. Frozen.
        migrator.registerMigration("v7") { db in
            try db.execute(sql: "ALTER TABLE chunks ADD COLUMN field TEXT")
            try setMeta(db, Key.schemaVersion, "7")
        }
        return migrator
    }

    /// What `meta.keyword_extras` holds once every first keyword row has the extras this code writes
    /// (`KeywordText.extras`): the metadata's values were added in "2".
    static let keywordExtrasVersion = "2"

    /// What `meta.keyword_text` holds once every keyword row is written as this code writes it: "2", the
    /// dotless ı written i (absent: rows written before).
    static let keywordTextVersion = "2"

    /// The keyword index's tokenizer. `unicode61` counts only letters, digits and private-use characters as
    /// parts of a word unless told otherwise; the combining marks (`M*`) are added, since Devanagari, Bengali,
    /// Tamil, Thai and most other scripts of South and South-East Asia write vowels as marks: without them
    /// "खाना" was cut into "ख" and "न". Latin accents are still removed (`remove_diacritics 2` drops them from
    /// the words they are in). Symbols (`So`: emoji, `©`, `°`) are words too, each on its own (the rows put
    /// spaces around them, see `KeywordText.segment`). Files made before carry the tokenizer without these until
    /// their first writable open rebuilds the index (``StoreDatabase/upgradeKeywordIndex(extras:)``).
    static let keywordTokenizer = "porter unicode61 remove_diacritics 2 categories 'L* N* Co M* So'"

    /// Replaces the keyword index (and its delete trigger) with an empty one of the current definition:
    /// ``keywordTokenizer`` and prefix indexes of 1, 2 and 3 characters. The caller refills it in the same
    /// transaction.
    static func recreateKeywordIndex(_ db: Database) throws {
        let tokenizer = keywordTokenizer.replacingOccurrences(of: "'", with: "''")
        try db.execute(
            sql: """
                DROP TRIGGER IF EXISTS chunks_fts_delete;
                DROP TABLE IF EXISTS chunks_fts;
                \(keywordTables.dropFirst().map { "DROP TABLE IF EXISTS \($0);" }.joined(separator: "\n"))
                CREATE VIRTUAL TABLE chunks_fts USING fts5(text, tokenize = '\(tokenizer)', prefix = '1 2 3');
                CREATE TRIGGER chunks_fts_delete AFTER DELETE ON chunks BEGIN
                    DELETE FROM chunks_fts WHERE rowid = old.id;
                END;
                """)
    }

    /// The tables of the keyword index: the FTS5 table and its shadow tables, all needed to read it.
    static let keywordTables = [
        "chunks_fts", "chunks_fts_data", "chunks_fts_idx", "chunks_fts_docsize",
        "chunks_fts_config", "chunks_fts_content",
    ]

    /// Whether every table of the keyword index is in the file (a damaged or hand-edited file may lack them).
    static func keywordIndexIsPresent(_ db: Database) throws -> Bool {
        let names = keywordTables.map { "'\($0)'" }.joined(separator: ", ")
        let found = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE name IN (\(names))") ?? 0
        return found == keywordTables.count
    }

    /// Whether the file's keyword index has the current tokenizer (``keywordTokenizer``).
    static func keywordIndexIsCurrent(_ db: Database) throws -> Bool {
        let definition = try String.fetchOne(
            db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'chunks_fts'")
        return try definition?.contains(keywordTokenizer.replacingOccurrences(of: "'", with: "''")) == true
            && keywordIndexIsPresent(db)
    }

    /// The schema version recorded in the file, or `nil` for a new file.
    static func recordedVersion(_ db: Database) throws -> Int? {
        guard try db.tableExists("meta") else { return nil }
        let value = try String.fetchOne(
            db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [Key.schemaVersion])
        return value.flatMap { Int($0) }
    }

    static func meta(_ db: Database, _ key: String) throws -> String? {
        try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key])
    }

    static func setMeta(_ db: Database, _ key: String, _ value: String?) throws {
        if let value {
            try db.execute(
                sql:
                    "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                arguments: [key, value])
        } else {
            try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [key])
        }
    }

    /// The largest vector dimension a stored identity may name (the models Hush runs have 384): a damaged
    /// dimension beyond it would size every allocation of the matrix.
    static let maximumDimension = 16_384

    /// What the file records of the model that made its vectors.
    enum IdentityRecord: Equatable {
        /// Nothing, in a file that holds no vectors: the first open that embeds stamps its model.
        case none
        case identity(EmbedderIdentity)
        /// Missing or damaged while vectors are stored (`reason` names the part): nothing may be stamped over
        /// vectors no model can be told to match.
        case unreadable(String)
    }

    /// The identity record, checked: every field present and well formed, the dimension within
    /// ``maximumDimension`` and equal to a stored vector's length.
    static func identityRecord(_ db: Database) throws -> IdentityRecord {
        let keys = identityKeys
        let values = try identityValues(db)
        let vectorBytes =
            try db.tableExists("vectors")
            ? try Int.fetchOne(db, sql: "SELECT LENGTH(vector) FROM vectors LIMIT 1") : nil
        if values.allSatisfy({ $0 == nil }) {
            return vectorBytes == nil ? .none : .unreadable("meta has no embedder_* rows")
        }
        if let missing = zip(keys, values).first(where: { $0.1 == nil }) {
            return .unreadable("meta has no \(missing.0)")
        }
        guard let text = values[2], let dimension = Int(text), dimension > 0, dimension <= maximumDimension else {
            return .unreadable("embedder_dimension is \"\(values[2] ?? "")\"")
        }
        if let vectorBytes, vectorBytes != dimension * 4 {
            return .unreadable("embedder_dimension is \(dimension) but a vector holds \(vectorBytes) bytes")
        }
        guard let identity = try identity(values, db) else {
            return .unreadable("embedder_pooling is \"\(values[3] ?? "")\"")
        }
        return .identity(identity)
    }

    /// The embedder identity stamped in the file, or `nil` before the first stamp (or when it cannot be read:
    /// ``identityRecord(_:)`` tells the two apart).
    static func storedIdentity(_ db: Database) throws -> EmbedderIdentity? {
        try identity(try identityValues(db), db)
    }

    /// The keys of a stamped identity that must all be there (the prefixes are only when non-empty).
    private static let identityKeys = [
        Key.embedderModel, Key.embedderWeights, Key.embedderDimension, Key.embedderPooling, Key.embedderNormalized,
    ]

    /// The values of ``identityKeys``, in their order.
    private static func identityValues(_ db: Database) throws -> [String?] {
        try identityKeys.map { try meta(db, $0) }
    }

    /// The identity the values of ``identityKeys`` (and the prefixes) make, or `nil` when one is missing or
    /// not well formed.
    private static func identity(_ values: [String?], _ db: Database) throws -> EmbedderIdentity? {
        guard let model = values[0], let weights = values[1],
            let dimension = values[2].flatMap({ Int($0) }), dimension > 0, dimension <= maximumDimension,
            let pooling = values[3].flatMap({ Pooling(rawValue: $0) }), let normalized = values[4]
        else { return nil }
        return EmbedderIdentity(
            model: model, weightsSHA256: weights, dimension: dimension, pooling: pooling,
            normalized: normalized == "1", queryPrefix: try meta(db, Key.embedderQueryPrefix) ?? "",
            passagePrefix: try meta(db, Key.embedderPassagePrefix) ?? "")
    }

    static func stamp(_ db: Database, identity: EmbedderIdentity) throws {
        try setMeta(db, Key.embedderModel, identity.model)
        try setMeta(db, Key.embedderWeights, identity.weightsSHA256)
        try setMeta(db, Key.embedderDimension, String(identity.dimension))
        try setMeta(db, Key.embedderPooling, identity.pooling.rawValue)
        try setMeta(db, Key.embedderNormalized, identity.normalized ? "1" : "0")
        try setMeta(db, Key.embedderQueryPrefix, identity.queryPrefix.isEmpty ? nil : identity.queryPrefix)
        try setMeta(db, Key.embedderPassagePrefix, identity.passagePrefix.isEmpty ? nil : identity.passagePrefix)
    }
}
