import Foundation

extension DocumentReader {
    /// A `.txt` file: the whole file is the body, the file name (without extension) the title.
    func plainTextDocument(_ text: String, file: InputFile) -> Document {
        let date = modificationDate(file.url)
        return Document(
            id: file.relativePath, title: file.url.deletingPathExtension().lastPathComponent,
            body: text.trimmingCharacters(in: .whitespacesAndNewlines), sourceType: sourceType, createdAt: date,
            updatedAt: date)
    }

    /// A Markdown file: front matter (`title`, `tags`, `category`, `date`, `language`, `type`) is read, the
    /// first `#` heading becomes the title, and markup is reduced to its text (link text kept, URLs dropped).
    func markdownDocument(_ text: String, file: InputFile) -> Document {
        markdownDocumentAndTitle(text, file: file).document
    }

    /// The document of a Markdown file, and whether its title came from the file's text (a level-1 heading or
    /// a front-matter title) rather than from its name: a note holding only a heading is that heading.
    func markdownDocumentAndTitle(_ text: String, file: InputFile) -> (document: Document, ownTitle: Bool) {
        var lines = TextCleaner.lines(of: text).map(String.init)
        let frontMatter = Self.takeFrontMatter(&lines)
        var title = frontMatter["title"].flatMap { $0.isEmpty ? nil : $0 }
        var bodyLines: [String] = []
        var inFence = false
        for line in lines {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                inFence.toggle()
                continue
            }
            if inFence {
                bodyLines.append(line)
                continue
            }
            if let heading = Self.heading(trimmed) {
                if title == nil && heading.level == 1 {
                    title = heading.text
                    continue
                }
                bodyLines.append(Self.inlineText(heading.text))
                continue
            }
            bodyLines.append(Self.inlineText(line))
        }
        let date = modificationDate(file.url)
        let created = frontMatter["date"].flatMap(RecordDate.parse) ?? date
        let tags = frontMatter["tags"].map(Self.tagList) ?? []
        let document = Document(
            id: file.relativePath, title: title ?? file.url.deletingPathExtension().lastPathComponent,
            body: bodyLines.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines),
            sourceType: frontMatter["type"] ?? sourceType, language: frontMatter["language"], tags: tags,
            category: frontMatter["category"], createdAt: created, updatedAt: date)
        return (document, title != nil)
    }

    /// Removes a leading `---` … `---` block and returns its simple `key: value` pairs (keys lower-cased).
    static func takeFrontMatter(_ lines: inout [String]) -> [String: String] {
        guard lines.first?.trimmingCharacters(in: .whitespaces) == "---" else { return [:] }
        guard
            let close = lines.indices.dropFirst().first(where: {
                let line = lines[$0].trimmingCharacters(in: .whitespaces)
                return line == "---" || line == "..."
            })
        else { return [:] }
        var values: [String: String] = [:]
        for line in lines[1..<close] {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            var value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
            }
            if !key.isEmpty { values[key] = value }
        }
        lines.removeSubrange(0...close)
        return values
    }

    /// `# Title` → (1, "Title"); closing `#`s are dropped. `#hashtag` (no space) is not a heading.
    static func heading(_ line: String) -> (level: Int, text: String)? {
        let hashes = line.prefix(while: { $0 == "#" }).count
        guard (1...6).contains(hashes) else { return nil }
        let rest = line.dropFirst(hashes)
        guard rest.isEmpty || rest.first == " " || rest.first == "\t" else { return nil }
        var text = rest.trimmingCharacters(in: .whitespaces)
        while text.hasSuffix("#") { text.removeLast() }
        text = text.trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? nil : (hashes, text)
    }

    /// Reduces inline Markdown: `![alt](src)` → `alt`, `[text](url)` → `text`, emphasis markers removed.
    static func inlineText(_ line: String) -> String {
        var output = ""
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            let isImage =
                character == "!" && line.index(after: index) < line.endIndex
                && line[line.index(after: index)] == "["
            if character == "[" || isImage {
                let open = isImage ? line.index(after: index) : index
                if let link = linkSpan(in: line, openBracket: open) {
                    output += link.text
                    index = link.end
                    continue
                }
            }
            if character == "*" || character == "`" {
                index = line.index(after: index)
                continue
            }
            output.append(character)
            index = line.index(after: index)
        }
        return output
    }

    private static func linkSpan(in line: String, openBracket: String.Index) -> (text: String, end: String.Index)? {
        guard let close = line[openBracket...].firstIndex(of: "]") else { return nil }
        let afterClose = line.index(after: close)
        guard afterClose < line.endIndex, line[afterClose] == "(",
            let closeParen = line[afterClose...].firstIndex(of: ")")
        else { return nil }
        let text = String(line[line.index(after: openBracket)..<close])
        return (text, line.index(after: closeParen))
    }

    /// Tags from `a, b`, `[a, b]` or `"a"`.
    static func tagList(_ raw: String) -> [String] {
        raw.trimmingCharacters(in: CharacterSet(charactersIn: "[] "))
            .split(separator: ",")
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \"'")) }
            .filter { !$0.isEmpty }
    }
}
