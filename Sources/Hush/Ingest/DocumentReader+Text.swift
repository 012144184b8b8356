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

    /// The document of a Markdown file, and whether its title came from the file's text (a level-1 heading or
    /// a front-matter title) rather than from its name: a note holding only a heading is that heading.
    ///
    /// Its front matter (``FrontMatter``) is read as a JSON Lines record's members are (`title`, `tags`,
    /// `category`, `date` or `created`, `updated`, `language`, `type`; any other key becomes metadata), the
    /// first `#` heading becomes the title, and markup is reduced to its text (``MarkdownText``).
    ///
    /// - Throws: a date in the front matter that cannot be read, as a JSON Lines record's would be.
    func markdownDocumentAndTitle(_ text: String, file: InputFile) throws(SkipReason) -> (
        document: Document, ownTitle: Bool
    ) {
        var lines = TextCleaner.lines(of: text).map(String.init)
        var record = RawRecord(fallbackID: file.relativePath)
        FrontMatter.take(&lines)?.apply(to: &record)
        if let problem = record.problem { throw SkipReason(message: "front matter: \(problem)") }
        let frontMatterTitle = record.title
        var title = frontMatterTitle
        var bodyLines: [String] = []
        var blankLines = 0  // how many of bodyLines, from the first, are known to be blank
        var inFence = false
        var afterText = false
        for line in lines {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            defer { afterText = !trimmed.isEmpty }
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
                    title = MarkdownText.inline(heading.text)
                    continue
                }
                // The front matter's title written again as the note's heading: said once. The body's blank start
                // is measured once as it grows (a note of blank lines and headings read it all again per heading).
                while blankLines < bodyLines.count, bodyLines[blankLines].allSatisfy(\.isWhitespace) { blankLines += 1 }
                if heading.level == 1, blankLines == bodyLines.count, let frontMatterTitle,
                    MarkdownText.inline(heading.text) == frontMatterTitle
                {
                    continue
                }
                bodyLines.append(MarkdownText.inline(heading.text))
                continue
            }
            if let reduced = MarkdownText.line(line, afterText: afterText) { bodyLines.append(reduced) }
        }
        let date = modificationDate(file.url)
        let document = Document(
            id: file.relativePath, title: title ?? file.url.deletingPathExtension().lastPathComponent,
            body: bodyLines.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines),
            sourceType: record.type ?? sourceType, language: record.language, tags: record.tags,
            category: record.category, metadata: record.extra, createdAt: record.createdAt ?? date,
            updatedAt: record.updatedAt ?? date)
        return (document, title != nil)
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
}
