import Foundation

/// The YAML front matter of a Markdown note (a `---` … `---` block at its top), in the subset note apps
/// write: `key: value` pairs, quoted values, flow lists (`tags: [a, b]`), block lists (`tags:` then `- a`
/// lines), block text (`summary: |` or `>` then indented lines) and `#` comment lines. What it does not read
/// as such (a nested map, a list of maps) is kept as its text, so that nothing a note says is lost.
///
/// ```swift
/// var lines = ["---", "tags:", "  - cooking", "mood: calm", "---", "Lentil soup."]
/// let frontMatter = FrontMatter.take(&lines)  // lines == ["Lentil soup."]
/// // frontMatter?.entries: tags = ["cooking"], mood = "calm"
/// ```
struct FrontMatter {
    /// One top-level key, as written (not lower-cased), with its text and, for a list, its items.
    struct Entry: Equatable {
        var key: String
        var value: String
        var list: [String]?
    }

    var entries: [Entry]

    /// Removes a leading front-matter block from `lines` and returns what it holds; `nil` (and `lines`
    /// untouched) when the note does not start with `---` or the block never closes.
    static func take(_ lines: inout [String]) -> FrontMatter? {
        guard lines.first?.trimmingCharacters(in: .whitespaces) == "---" else { return nil }
        guard
            let close = lines.indices.dropFirst().first(where: {
                let line = lines[$0].trimmingCharacters(in: .whitespaces)
                return line == "---" || line == "..."
            })
        else { return nil }
        let block = Array(lines[1..<close])
        lines.removeSubrange(0...close)
        return FrontMatter(entries: parse(block))
    }

    private static func parse(_ block: [String]) -> [Entry] {
        var entries: [Entry] = []
        var index = 0
        while index < block.count {
            let line = block[index]
            index += 1
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            // Top-level keys start at the margin; a comment or blank line belongs to no key.
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#"), line.first?.isWhitespace == false,
                let colon = line.firstIndex(of: ":")
            else { continue }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty else { continue }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            // The lines that continue this key: indented ones, and `- item` lines (YAML lets a list under a
            // key start at the key's own margin).
            var nested: [String] = []
            while index < block.count {
                let next = block[index]
                let nextTrimmed = next.trimmingCharacters(in: .whitespaces)
                guard
                    next.first?.isWhitespace == true || nextTrimmed.hasPrefix("- ") || nextTrimmed == "-"
                        || nextTrimmed.isEmpty
                else { break }
                nested.append(next)
                index += 1
            }
            while nested.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { nested.removeLast() }
            entries.append(entry(key: key, value: value, nested: nested))
        }
        return entries
    }

    private static func entry(key: String, value: String, nested: [String]) -> Entry {
        let items = nested.map { $0.trimmingCharacters(in: .whitespaces) }
        if value.isEmpty, !items.isEmpty, items.allSatisfy({ $0.hasPrefix("- ") || $0 == "-" }) {
            let list = items.map { unquoted($0.dropFirst().trimmingCharacters(in: .whitespaces)) }.filter {
                !$0.isEmpty
            }
            return Entry(key: key, value: list.joined(separator: ", "), list: list)
        }
        if value.hasPrefix("|") || value.hasPrefix(">") {
            // Block text: `|` keeps the lines, `>` folds them into one.
            let text = items.joined(separator: value.hasPrefix("|") ? "\n" : " ")
            return Entry(key: key, value: text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        if value.hasPrefix("["), value.hasSuffix("]") {
            let list = value.dropFirst().dropLast().split(separator: ",").map {
                unquoted($0.trimmingCharacters(in: .whitespaces))
            }.filter { !$0.isEmpty }
            return Entry(key: key, value: list.joined(separator: ", "), list: list)
        }
        // A value that goes on over indented lines (a plain scalar wrapped, or a nested map kept as text).
        let text = ([unquoted(value)] + items).filter { !$0.isEmpty }.joined(separator: value.isEmpty ? "\n" : " ")
        return Entry(key: key, value: text)
    }

    /// `"a"` or `'a'` → `a`; anything else as it is.
    private static func unquoted(_ value: String) -> String {
        guard value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first else {
            return value
        }
        return String(value.dropFirst().dropLast())
    }

    /// Sets `record`'s fields from the entries, as a JSON Lines record's members of the same names would
    /// (``RawRecord/key(_:)``: `title`, `tags`, `category`, `date` or `created`, `updated`, `language`,
    /// `type`); every other key, including `id` and `text` (a note's id is its path and its text the note),
    /// goes to the metadata. A date that cannot be read is the record's `problem`.
    func apply(to record: inout RawRecord) {
        for entry in entries {
            switch RawRecord.key(entry.key) {
            case .tags:
                record.tags = entry.list ?? RawRecord.tagList(entry.value)
            case .title, .category, .created, .updated, .language, .type:
                record.set(key: entry.key, string: entry.value)
            case .id, .text, .quoted, .fields, .metadata, nil:
                if !entry.value.isEmpty { record.extra[entry.key] = entry.value }
            }
        }
    }
}
