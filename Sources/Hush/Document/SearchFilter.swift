import Foundation

/// Which documents a search may return. Every non-empty constraint must hold (they combine with AND).
///
/// Language, source type, tag and category values compare case-insensitively; metadata values exactly. A
/// language matches by BCP-47 tag: `zh` lets documents in `zh-Hans` and `zh_CN` through, and `zh-Hans` lets
/// through documents whose language is only `zh` (Hush guesses primary codes) but not `zh-Hant`.
/// The filter is applied before ranking, so a search returns the exact top results of the matching set.
///
/// ```swift
/// let filter = SearchFilter(sourceTypes: ["meeting"], tagsAny: ["budget", "finance"],
///                           createdAfter: Date(timeIntervalSinceNow: -7 * 86_400))
/// let results = try await store.search("travel costs", filter: filter)
/// ```
public struct SearchFilter: Sendable, Hashable, Codable {
    /// Allowed languages (BCP-47 tags such as `en` or `zh-Hans`, matched as the type's summary says); empty for
    /// any.
    public var languages: [String]
    /// Allowed source types (`note`, `post`, …); empty for any.
    public var sourceTypes: [String]
    /// The document must carry at least one of these tags; empty for no constraint.
    public var tagsAny: [String]
    /// The document must carry all of these tags; empty for no constraint.
    public var tagsAll: [String]
    /// Allowed categories; empty for any.
    public var categories: [String]
    /// Only documents created at or after this instant.
    public var createdAfter: Date?
    /// Only documents created strictly before this instant.
    public var createdBefore: Date?
    /// Every `key = value` pair must be present in the document's metadata.
    public var metadata: [String: String]
    /// Documents never returned, by id (the one being read, those already shown).
    public var excludedIDs: Set<String>

    /// Creates a filter; the default filter lets every document through.
    public init(
        languages: [String] = [], sourceTypes: [String] = [], tagsAny: [String] = [], tagsAll: [String] = [],
        categories: [String] = [], createdAfter: Date? = nil, createdBefore: Date? = nil,
        metadata: [String: String] = [:], excludedIDs: Set<String> = []
    ) {
        self.languages = languages
        self.sourceTypes = sourceTypes
        self.tagsAny = tagsAny
        self.tagsAll = tagsAll
        self.categories = categories
        self.createdAfter = createdAfter
        self.createdBefore = createdBefore
        self.metadata = metadata
        self.excludedIDs = excludedIDs
    }

    private enum CodingKeys: String, CodingKey {
        case languages, sourceTypes, tagsAny, tagsAll, categories, createdAfter, createdBefore, metadata, excludedIDs
    }

    /// Decodes a filter; absent keys mean no constraint.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            languages: try container.decodeIfPresent([String].self, forKey: .languages) ?? [],
            sourceTypes: try container.decodeIfPresent([String].self, forKey: .sourceTypes) ?? [],
            tagsAny: try container.decodeIfPresent([String].self, forKey: .tagsAny) ?? [],
            tagsAll: try container.decodeIfPresent([String].self, forKey: .tagsAll) ?? [],
            categories: try container.decodeIfPresent([String].self, forKey: .categories) ?? [],
            createdAfter: try container.decodeIfPresent(Date.self, forKey: .createdAfter),
            createdBefore: try container.decodeIfPresent(Date.self, forKey: .createdBefore),
            metadata: try container.decodeIfPresent([String: String].self, forKey: .metadata) ?? [:],
            excludedIDs: try container.decodeIfPresent(Set<String>.self, forKey: .excludedIDs) ?? [])
    }

    /// Whether the filter lets every document through.
    public var isEmpty: Bool {
        languages.isEmpty && sourceTypes.isEmpty && tagsAny.isEmpty && tagsAll.isEmpty && categories.isEmpty
            && createdAfter == nil && createdBefore == nil && metadata.isEmpty && excludedIDs.isEmpty
    }
}
