import Foundation
import GRDB

/// A knowledge base made the common Python way: a SQLite file with a table
/// `documents(id INTEGER PRIMARY KEY, title TEXT, content TEXT, metadata TEXT, embedding BLOB)` holding
/// float32 sentence-transformers vectors (optionally with an FTS5 table beside it, which is not needed).
///
/// Importing keeps the vectors as they are (no re-embedding): each row becomes one document with one chunk,
/// its title prefixed to its content as the chunker would, carrying the row's vector. `metadata` (a JSON
/// object) gives `tags` (array), `category`, `language`, `date`/`created_at`, and every other key becomes
/// metadata.
///
/// ```swift
/// let source = try PythonKnowledgeBase(path: "python.sqlite")
/// let summary = try await source.import(into: store)  // a store opened with the model that made the vectors
/// ```
public struct PythonKnowledgeBase: Sendable {
    /// One row: the document and its stored vector.
    public struct Record: Sendable, Hashable {
        /// The document (id = the row id as text).
        public var document: Document
        /// The stored vector.
        public var vector: [Float]
    }

    /// The file.
    public var path: String
    /// The table holding the documents.
    public var table: String

    /// Opens nothing yet; checks that the file exists.
    ///
    /// ```swift
    /// let source = try PythonKnowledgeBase(path: "python.sqlite", table: "documents")
    /// ```
    ///
    /// - Throws: ``BuildError/importLayout(path:reason:)`` when the file is missing.
    public init(path: String, table: String = "documents") throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw BuildError.importLayout(path: path, reason: "no such file")
        }
        self.path = path
        self.table = table
    }

    /// Reads every row, checking that each vector has `dimension` float32 values.
    ///
    /// ```swift
    /// let records = try source.records(dimension: 384)
    /// ```
    ///
    /// - Throws: ``BuildError/importLayout(path:reason:)``, ``BuildError/importDimension(path:found:expected:)``.
    /// - Complexity: O(rows × dimension).
    public func records(dimension: Int, sourceType: String? = nil) throws -> [Record] {
        try readRows(dimension: dimension, sourceType: sourceType).records
    }

    /// Reads every row, setting apart those that cannot be imported as they are (see `rows(dimension:sourceType:)`)
    /// with their id and what to fix.
    func readRows(dimension: Int, sourceType: String? = nil) throws -> (
        records: [Record], rejected: [(id: String, reason: String)]
    ) {
        var configuration = Configuration()
        configuration.readonly = true
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            throw BuildError.importLayout(path: path, reason: "not a SQLite database: \(DatabaseMessage.text(error))")
        }
        defer { try? queue.close() }
        do {
            return try queue.read { db in
                guard try db.tableExists(table) else {
                    throw BuildError.importLayout(path: path, reason: "no table \(table)")
                }
                let columns = Set(try db.columns(in: table).map { $0.name.lowercased() })
                for required in ["id", "content", "embedding"] where !columns.contains(required) {
                    throw BuildError.importLayout(path: path, reason: "table \(table) has no column \(required)")
                }
                let title = columns.contains("title") ? "title" : "NULL"
                let metadata = columns.contains("metadata") ? "metadata" : "NULL"
                let rows = try Row.fetchCursor(
                    db,
                    sql:
                        "SELECT id, \(title), content, \(metadata), embedding FROM \(table.quotedDatabaseIdentifier) ORDER BY id"
                )
                var records: [Record] = []
                var rejected: [(id: String, reason: String)] = []
                while let row = try rows.next() {
                    let id = Self.text(of: row[0])
                    guard let blob = row[4] as Data?, blob.count % 4 == 0, let vector = VectorBlob.decode(blob) else {
                        throw BuildError.importLayout(
                            path: path, reason: "row \(id): embedding is not a BLOB of float32 values")
                    }
                    guard vector.count == dimension else {
                        throw BuildError.importDimension(path: path, found: vector.count, expected: dimension)
                    }
                    var document = Document(id: id, title: row[1], body: row[2] ?? "", sourceType: sourceType)
                    if let problem = Self.apply(metadata: row[3], to: &document) {
                        rejected.append((id, "row \(id): \(problem)"))
                        continue
                    }
                    if let problem = VectorBlob.problem(vector, dimension: dimension) {
                        rejected.append((id, "row \(id): its embedding \(problem): re-embed that row"))
                        continue
                    }
                    records.append(Record(document: document, vector: vector))
                }
                return (records, rejected)
            }
        } catch let error as BuildError {
            throw error
        } catch {
            throw BuildError.importLayout(path: path, reason: DatabaseMessage.text(error))
        }
    }

    /// A row's id as text, by the value's own storage class: an integer id `7` is "7", a text id stays as
    /// written ("d0" is not the integer 0), an integral real is written without its ".0".
    static func text(of id: DatabaseValue) -> String {
        switch id.storage {
        case .int64(let value): String(value)
        case .double(let value) where value.rounded() == value && abs(value) < 1e15: String(Int64(value))
        case .double(let value): String(value)
        case .string(let value): value
        case .blob(let data): String(decoding: data, as: UTF8.self)
        case .null: ""
        }
    }

    /// Maps the metadata JSON object onto the document; returns what keeps it from being imported as it is
    /// (`nil`: nothing).
    static func apply(metadata text: String?, to document: inout Document) -> String? {
        guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        guard let data = text.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return "its metadata is not a JSON object (\(text.prefix(40))): fix or empty it" }
        for key in object.keys.sorted() {
            guard let value = object[key] else { continue }
            switch (key, value) {
            case (_, is NSNull):
                return "its metadata key \"\(key)\" is null: give it a value or leave the key out"
            case ("date", let date as String), ("created_at", let date as String):
                guard let parsed = RecordDate.parse(date) else {
                    return "its metadata \(key) \"\(date)\" is not a date: use yyyy-MM-dd or an ISO-8601 date-time, "
                        + RecordDate.rangeText
                }
                document.createdAt = parsed
            case ("date", let seconds as NSNumber), ("created_at", let seconds as NSNumber):
                guard let parsed = RecordDate.fromUnixSeconds(seconds.doubleValue) else {
                    return "its metadata \(key) \(seconds) is not a date \(RecordDate.rangeText)"
                }
                document.createdAt = parsed
            case ("tags", let tags as [Any]):
                document.tags = tags.map { "\($0)" }
            case ("category", let category as String):
                document.category = category
            case ("language", let language as String):
                document.language = language
            case (_, let string as String):
                document.metadata[key] = string
            case (_, let number as NSNumber):
                document.metadata[key] = number.stringValue
            default:
                if JSONSerialization.isValidJSONObject(value),
                    let nested = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])
                {
                    document.metadata[key] = String(decoding: nested, as: UTF8.self)
                }
            }
        }
        return nil
    }
}
