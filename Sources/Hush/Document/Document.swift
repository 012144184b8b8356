import Foundation

/// A piece of an app's content that Hush stores and searches: a note, a post, a meeting record, a snippet.
///
/// Only `id` and `body` are required. Everything else is optional metadata used by filters and boosts.
///
/// ```swift
/// let note = Document(
///     id: "note-42", title: "Budget review", body: "We agreed to cut travel costs by 10 %.",
///     sourceType: "note", tags: ["finance"], category: "work")
/// ```
public struct Document: Sendable, Hashable, Codable, Identifiable {
    /// A labelled field of a structured record ("Attendees: Ana, Bo"); chunked as a labelled line.
    public struct Field: Sendable, Hashable, Codable {
        /// The label, for example `Attendees`.
        public var label: String
        /// The value, for example `Ana, Bo`.
        public var value: String

        /// Creates a labelled field.
        public init(label: String, value: String) {
            self.label = label
            self.value = value
        }
    }

    /// The app's own identifier, unique within a store.
    public var id: String
    /// An optional title; prefixed to the first chunk.
    public var title: String?
    /// The main text.
    public var body: String
    /// Text this document quotes (a quoted post); appended to the body when it is cleaned.
    public var quoted: String?
    /// Labelled fields of a structured record, chunked after the body.
    public var fields: [Field]
    /// What kind of content this is (`note`, `post`, `meeting`, …), for filters.
    public var sourceType: String?
    /// A BCP-47 language code; `nil` to detect it from the text.
    public var language: String?
    /// Free tags, for filters and boosts.
    public var tags: [String]
    /// One category, for filters and boosts.
    public var category: String?
    /// Extra key/value pairs, filterable with `key = value`.
    public var metadata: [String: String]
    /// When the content was created (defaults to the time it is first stored).
    public var createdAt: Date?
    /// When the content was last changed.
    public var updatedAt: Date?

    /// Creates a document.
    public init(
        id: String, title: String? = nil, body: String, quoted: String? = nil, fields: [Field] = [],
        sourceType: String? = nil, language: String? = nil, tags: [String] = [], category: String? = nil,
        metadata: [String: String] = [:], createdAt: Date? = nil, updatedAt: Date? = nil
    ) {
        self.id = id
        self.title = title
        self.body = body
        self.quoted = quoted
        self.fields = fields
        self.sourceType = sourceType
        self.language = language
        self.tags = tags
        self.category = category
        self.metadata = metadata
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

extension Document {
    /// The name of the first field holding a NUL character (U+0000), or `nil`. SQLite text ends at a NUL, so
    /// such a value would be stored cut short (and two ids that differ after it would collide): documents
    /// with one are rejected instead.
    var fieldWithNUL: String? {
        func hasNUL(_ text: String?) -> Bool { text?.utf8.contains(0) ?? false }
        if hasNUL(id) { return "id" }
        if hasNUL(title) { return "title" }
        if hasNUL(body) { return "text" }
        if hasNUL(quoted) { return "quoted text" }
        if hasNUL(sourceType) { return "type" }
        if hasNUL(language) { return "language" }
        if hasNUL(category) { return "category" }
        if tags.contains(where: hasNUL) { return "tags" }
        if fields.contains(where: { hasNUL($0.label) || hasNUL($0.value) }) { return "fields" }
        if metadata.contains(where: { hasNUL($0.key) || hasNUL($0.value) }) { return "metadata" }
        return nil
    }
}

/// The one rule for document ids: Unicode canonical composition (NFC). Swift's `String` already compares
/// canonically equivalent ids as equal (an NFC `café` equals an NFD `café`), SQLite compares bytes; so every
/// id that enters a store (any reader, `upsert`, import) is stored in NFC, and every id looked up (`get`,
/// `delete`, vectors, filters) is looked up in NFC, as the person typed it or as a file system spelled it.
///
/// ```swift
/// DocumentID.normalized("cafe\u{301}") == "caf\u{E9}"  // true, and so are the bytes
/// ```
enum DocumentID {
    /// `id` in NFC.
    static func normalized(_ id: String) -> String {
        id.precomposedStringWithCanonicalMapping
    }

    /// The spellings to look `id` up by: NFC first, then `id` as given when it differs (a store written before
    /// this rule may hold another normal form).
    static func lookups(_ id: String) -> [String] {
        let normal = normalized(id)
        return Array(normal.utf8) == Array(id.utf8) ? [normal] : [normal, id]
    }
}
