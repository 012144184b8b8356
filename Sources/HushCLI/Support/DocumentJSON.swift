import Foundation
import Hush
import HushToolSupport

/// A stored document as one JSON object of the keys `hush index` reads (`id`, `title`, `text`, `quoted`,
/// `fields`, `type`, `language`, `tags`, `category`, `metadata`, `created`, `updated`), absent parts left out:
/// `hush get --json`, `hush list --json` and the lines of `hush export`.
struct DocumentJSON: Encodable {
    /// What the object holds besides the document's own parts.
    enum Detail {
        /// The document alone, its dates to the fraction of a second, so that `hush index` reads back the same
        /// document (`hush export`).
        case record
        /// Plus the chunk count and the content hash (`hush get --json`).
        case stored
        /// The document's description without its text, quote and fields, plus the chunk count (`hush list`).
        case listing
    }

    var stored: StoredDocument
    var detail: Detail

    enum CodingKeys: String, CodingKey {
        case id, title, text, quoted, fields, type, language, tags, category, metadata, created, updated, chunks
        case contentHash = "content_hash"
    }

    struct Field: Encodable {
        var label: String
        var value: String
    }

    func encode(to encoder: any Encoder) throws {
        let d = stored.document
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(d.id, forKey: .id)
        try container.encodeIfPresent(d.title, forKey: .title)
        if detail != .listing {
            try container.encode(d.body, forKey: .text)
            try container.encodeIfPresent(d.quoted, forKey: .quoted)
            if !d.fields.isEmpty {
                try container.encode(d.fields.map { Field(label: $0.label, value: $0.value) }, forKey: .fields)
            }
        }
        try container.encodeIfPresent(d.sourceType, forKey: .type)
        try container.encode(stored.language, forKey: .language)
        try container.encode(d.tags, forKey: .tags)
        try container.encodeIfPresent(d.category, forKey: .category)
        try container.encode(d.metadata, forKey: .metadata)
        let date = detail == .record ? RecordDate.formatExact : RecordDate.format
        try container.encodeIfPresent(d.createdAt.map(date), forKey: .created)
        try container.encodeIfPresent(d.updatedAt.map(date), forKey: .updated)
        if detail != .record { try container.encode(stored.chunkCount, forKey: .chunks) }
        if detail == .stored { try container.encode(stored.contentHash, forKey: .contentHash) }
    }
}
