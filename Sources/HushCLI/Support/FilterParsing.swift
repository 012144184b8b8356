import ArgumentParser
import Foundation
import Hush

/// Turns `--filter key=value` arguments into a ``SearchFilter``.
///
/// Keys: `language`, `type`, `tag` (any of), `tags` (all of, comma-separated), `category`, `after` / `before`
/// (ISO-8601 date or yyyy-MM-dd) and `meta.KEY` (metadata); any other key is an error that lists these.
/// Repeating a key allows any of its values (for language, type, tag and category).
enum FilterParsing {
    static let knownKeys = "language, type, tag, tags, category, after, before"

    static func filter(from arguments: [String]) throws -> SearchFilter {
        var filter = SearchFilter()
        for argument in arguments {
            guard let equals = argument.firstIndex(of: "=") else {
                throw ValidationError(
                    "--filter takes key=value (got \"\(argument)\"); keys: \(knownKeys), meta.KEY")
            }
            let key = argument[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            let value = String(argument[argument.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty, !value.isEmpty else {
                throw ValidationError("--filter \"\(argument)\": both the key and the value must be non-empty")
            }
            switch key {
            case "language", "lang": filter.languages.append(value)
            case "type", "source", "source_type": filter.sourceTypes.append(value)
            case "tag": filter.tagsAny.append(value)
            case "tags":
                let tags = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                guard !tags.isEmpty, !tags.contains(where: \.isEmpty) else {
                    throw ValidationError(
                        "--filter \"\(argument)\": tags takes a comma-separated list of tags, none of them empty")
                }
                filter.tagsAll += tags
            case "category": filter.categories.append(value)
            case "after": filter.createdAfter = try date(value, key: key)
            case "before": filter.createdBefore = try date(value, key: key)
            default:
                guard key.hasPrefix("meta.") else {
                    throw ValidationError(
                        "--filter \"\(argument)\": unknown key \"\(argument[..<equals])\"; the keys are \(knownKeys), "
                            + "and meta.KEY for a metadata value (for example meta.author=ana)")
                }
                let metadataKey = String(argument[..<equals].trimmingCharacters(in: .whitespaces).dropFirst(5))
                guard !metadataKey.isEmpty else {
                    throw ValidationError(
                        "--filter \"\(argument)\": name the metadata key after meta. (meta.KEY=value)")
                }
                filter.metadata[metadataKey] = value
            }
        }
        return filter
    }

    /// A filter's date, read exactly as the indexer reads a record's (proleptic Gregorian, UTC, the same
    /// range), so that a record dated 1500-01-01 is inside `after=1500-01-01 before=1500-01-02`.
    static func date(_ text: String, key: String) throws -> Date {
        if let date = RecordDate.parse(text) { return date }
        throw ValidationError(
            "--filter \(key)=\(text): use an ISO-8601 date such as 2026-03-01 or 2026-03-01T09:30:00Z, "
                + RecordDate.rangeText)
    }

    /// A note for standard error when `filter` lets no stored document through, so that "no results" is not
    /// taken for the query's fault (`tag=helth`); `nil` when the filter is empty or lets some through.
    static func noMatchNote(_ filter: SearchFilter, arguments: [String], in hush: HushStore) async -> String? {
        guard !filter.isEmpty, (try? await hush.documentIDs(matching: filter).isEmpty) == true else { return nil }
        return noMatchNote(arguments: arguments)
    }

    /// The note itself, for a caller that already knows the filter let nothing through.
    static func noMatchNote(arguments: [String]) -> String {
        "note: no stored document matches the filter \(arguments.joined(separator: " ")) "
            + "(`hush list` shows what the file holds)"
    }
}
