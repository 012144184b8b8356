import Foundation

/// One JSON Lines record or CSV row on its way to becoming a `Document`.
///
/// Known keys (case-insensitive): `id`, `title`, `text` (or `body`, `content`), `tags`, `category`,
/// `metadata`, `date` (or `created_at`, `createdAt`, `created`), `updated_at`, `language` (or `lang`),
/// `type` (or `source_type`, `sourceType`), `quoted`, `fields`. Other keys with a value go to `metadata`.
struct RawRecord {
    var fallbackID: String
    var id: String?
    var title: String?
    var text: String?
    var tags: [String] = []
    var category: String?
    var metadata: [String: String] = [:]
    var extra: [String: String] = [:]
    var createdAt: Date?
    var updatedAt: Date?
    var language: String?
    var type: String?
    var quoted: String?
    var fields: [Document.Field] = []
    /// What makes this record unusable (the first date that could not be read), for the skip report.
    var problem: String?

    init(fallbackID: String) {
        self.fallbackID = fallbackID
    }

    enum Key {
        case id, title, text, tags, category, metadata, created, updated, language, type, quoted, fields
    }

    static func key(_ name: String) -> Key? {
        switch name.trimmingCharacters(in: .whitespaces).lowercased() {
        case "id", "_id", "uid": return .id
        case "title", "name", "subject": return .title
        case "text", "body", "content": return .text
        case "tags", "tag", "labels": return .tags
        case "category": return .category
        case "metadata", "meta": return .metadata
        case "date", "created", "created_at", "createdat": return .created
        case "updated", "updated_at", "updatedat": return .updated
        case "language", "lang": return .language
        case "type", "source_type", "sourcetype", "kind": return .type
        case "quoted", "quote": return .quoted
        case "fields": return .fields
        default: return nil
        }
    }

    /// Sets a CSV column (always text).
    mutating func set(key name: String, string value: String) {
        let key = Self.key(name)
        if key == .text || key == .quoted {
            // Trimmed once, when the document is made.
            if key == .text { text = value } else { quoted = value }
            return
        }
        let trimmed = value.trimmedWhitespace
        guard !trimmed.isEmpty else { return }
        switch key {
        case .id: id = trimmed
        case .title: title = trimmed
        case .text, .quoted: break  // handled above
        case .tags: tags = Self.tagList(trimmed)
        case .category: category = trimmed
        case .created: setDate(trimmed, name: name, into: \.createdAt)
        case .updated: setDate(trimmed, name: name, into: \.updatedAt)
        case .language: language = trimmed
        case .type: type = trimmed
        case .metadata, .fields, nil: extra[name.trimmingCharacters(in: .whitespaces)] = trimmed
        }
    }

    /// Sets a JSON member.
    mutating func set(key name: String, json value: Any) {
        if value is NSNull { return }
        switch Self.key(name) {
        case .id where value is String:
            // A JSON string id is kept exactly as written (only an all-blank one counts as missing).
            let text = Self.string(value)
            id = text.trimmedWhitespace.isEmpty ? nil : text
        case .metadata:
            if let object = value as? [String: Any] {
                for (key, member) in object where !(member is NSNull) {
                    metadata[key] = Self.string(member)
                }
            } else {
                extra[name] = Self.string(value)
            }
        case .tags:
            if let list = value as? [Any] {
                tags = list.map(Self.string).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            } else {
                tags = Self.tagList(Self.string(value))
            }
        case .fields:
            if let list = value as? [Any] {
                fields = list.compactMap(Self.field)
            } else if let object = value as? [String: Any] {
                fields = object.keys.sorted().compactMap { key in
                    object[key].map { Document.Field(label: key, value: Self.string($0)) }
                }
            }
        case .created, .updated:
            if let number = value as? NSNumber, !Self.isBoolean(number) {
                // Unix seconds, in the range every reader accepts (as a CSV cell's would be).
                guard let date = RecordDate.fromUnixSeconds(number.doubleValue) else {
                    if problem == nil {
                        problem =
                            "\(name.trimmingCharacters(in: .whitespaces)) \(number) is not a date in range: Unix "
                            + "seconds must give a date \(RecordDate.rangeText)"
                    }
                    return
                }
                if Self.key(name) == .created { createdAt = date } else { updatedAt = date }
            } else {
                set(key: name, string: Self.string(value))
            }
        default:
            set(key: name, string: Self.string(value))
        }
    }

    private mutating func setDate(_ raw: String, name: String, into keyPath: WritableKeyPath<RawRecord, Date?>) {
        if let date = RecordDate.parse(raw) {
            self[keyPath: keyPath] = date
        } else if problem == nil {
            problem =
                "\(name.trimmingCharacters(in: .whitespaces)) \"\(raw)\" is not a date: use yyyy-MM-dd, an ISO-8601 "
                + "date-time such as 2026-03-01T09:30:00Z, or Unix seconds, \(RecordDate.rangeText)"
        }
    }

    /// `{"label": "Attendees", "value": "Ana, Bo"}` or `["Attendees", "Ana, Bo"]`.
    private static func field(_ value: Any) -> Document.Field? {
        if let object = value as? [String: Any] {
            let label = object["label"] ?? object["name"] ?? object["key"]
            guard let rawValue = object["value"] else { return nil }
            return Document.Field(label: label.map(string) ?? "", value: string(rawValue))
        }
        if let pair = value as? [Any], pair.count == 2 {
            return Document.Field(label: string(pair[0]), value: string(pair[1]))
        }
        return nil
    }

    /// A JSON value as text: strings as they are, everything else JSON-encoded.
    static func string(_ value: Any) -> String {
        if let text = value as? String { return text }
        if let number = value as? NSNumber {
            if isBoolean(number) { return number.boolValue ? "true" : "false" }
            return number.stringValue
        }
        if let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]),
            let text = String(data: data, encoding: .utf8)
        {
            return text
        }
        return String(describing: value)
    }

    /// Whether a value from `JSONSerialization` is a boolean (`true`/`false` come back as `NSNumber` of
    /// Objective-C type `c` on every platform).
    static func isBoolean(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }

    static func tagList(_ raw: String) -> [String] {
        raw.split(whereSeparator: { $0 == "," || $0 == ";" })
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    /// The document, or why the record cannot become one.
    func document(defaultSourceType: String?) -> Result<Document, DocumentReader.SkipReason> {
        let body = text?.trimmedWhitespace ?? ""
        let quoted = quoted.map(\.trimmedWhitespace).flatMap { $0.isEmpty ? nil : $0 }
        if let problem { return .failure(DocumentReader.SkipReason(message: problem)) }
        // A title alone is a document, as the store takes it and as a Markdown note of only a heading is.
        guard !body.isEmpty || !fields.isEmpty || !(title ?? "").isEmpty else {
            return .failure(DocumentReader.SkipReason(message: "record has no text or title"))
        }
        var allMetadata = extra
        for (key, value) in metadata { allMetadata[key] = value }
        let document = Document(
            id: id ?? fallbackID, title: title, body: body, quoted: quoted, fields: fields,
            sourceType: type ?? defaultSourceType, language: language, tags: tags, category: category,
            metadata: allMetadata, createdAt: createdAt, updatedAt: updatedAt)
        if let field = document.fieldWithNUL {
            return .failure(
                DocumentReader.SkipReason(
                    message: "the \(field) contains a NUL character (\\u0000), which cannot be stored: remove it"))
        }
        return .success(document)
    }
}
