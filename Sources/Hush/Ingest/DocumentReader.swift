import Foundation

/// Reads documents from files and folders: plain text, Markdown, JSON Lines and CSV.
///
/// Folders are read recursively in sorted order, hidden files skipped. Bad input never stops the rest:
/// unreadable, binary, empty or non-UTF-8 files and malformed records are skipped and reported with their
/// line numbers. JSON Lines and CSV files are streamed, so large files are never held in memory at once.
///
/// | Extension | One document per | Title | Id |
/// |---|---|---|---|
/// | `.txt` | file | file name without extension | relative path |
/// | `.md`, `.markdown` | file | first `#` heading (or front matter `title:`) | relative path |
/// | `.jsonl` | line: `{"id","title","text","tags","category","metadata","date","language","type","quoted","fields"}` | `title` | `id`, else `path#line` |
/// | `.csv` | row, after a header row (`id,title,text,tags,category,date,language,…`) | `title` | `id`, else `path#line` |
///
/// ```swift
/// let skipped = try DocumentReader(sourceType: "note").read([notesFolder]) { batch in
///     try store.upsert(batch)
/// }
/// for skip in skipped { print(skip.path, skip.line ?? 0, skip.reason) }
/// ```
public struct DocumentReader: Sendable {
    /// The source type given to documents whose record does not name one (`type`); `nil` leaves it unset.
    public var sourceType: String?

    /// The file extensions read, lower-cased.
    public static let supportedExtensions: Set<String> = ["txt", "md", "markdown", "jsonl", "csv"]

    /// Creates a reader.
    ///
    /// ```swift
    /// let reader = DocumentReader(sourceType: "post")
    /// ```
    public init(sourceType: String? = nil) {
        self.sourceType = sourceType
    }

    /// Reads files and folders (recursively, sorted, hidden files skipped): .txt, .md, .markdown, .jsonl, .csv;
    /// calls `body` with batches of documents; returns what was skipped with reasons.
    ///
    /// Every path is checked before anything is read. An error thrown by `body` stops reading and is rethrown.
    ///
    /// ```swift
    /// var count = 0
    /// let skipped = try DocumentReader().read([URL(fileURLWithPath: "posts.jsonl")]) { count += $0.count }
    /// ```
    ///
    /// - Complexity: O(total input size); memory O(batchSize + longest record).
    /// - Throws: `IngestError.notFound` for a missing path, `IngestError.unreadable` for a folder that
    ///   cannot be listed, or whatever `body` throws.
    public func read(_ paths: [URL], batchSize: Int = 256, body: ([Document]) throws -> Void) throws
        -> [SkippedInput]
    {
        let size = max(1, batchSize)
        let files = try collectFiles(paths)
        var skipped: [SkippedInput] = files.skipped
        var batch: [Document] = []
        batch.reserveCapacity(min(size, 4096))
        for file in files.found {
            try readFile(
                file,
                skip: { skipped.append($0) },
                emit: { document in
                    batch.append(document)
                    if batch.count >= size {
                        try body(batch)
                        batch.removeAll(keepingCapacity: true)
                    }
                })
        }
        if !batch.isEmpty { try body(batch) }
        return skipped
    }

    // MARK: - Files

    /// A file to read and the id it gets (its path relative to the folder given, or its name).
    struct InputFile {
        var url: URL
        var relativePath: String
        var kind: String
    }

    func collectFiles(_ paths: [URL]) throws -> (found: [InputFile], skipped: [SkippedInput]) {
        let manager = FileManager.default
        var found: [InputFile] = []
        var skipped: [SkippedInput] = []
        var isDirectory: ObjCBool = false
        for url in paths {
            guard manager.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                throw IngestError.notFound(path: url.path)
            }
        }
        for url in paths {
            _ = manager.fileExists(atPath: url.path, isDirectory: &isDirectory)
            if isDirectory.boolValue {
                let listed = try listFolder(url)
                found.append(contentsOf: listed.found)
                skipped.append(contentsOf: listed.skipped)
            } else {
                let kind = url.pathExtension.lowercased()
                if Self.supportedExtensions.contains(kind) {
                    found.append(InputFile(url: url, relativePath: url.lastPathComponent, kind: kind))
                } else {
                    skipped.append(SkippedInput(path: url.path, reason: Self.unsupportedReason(kind)))
                }
            }
        }
        return (found, skipped)
    }

    private static func unsupportedReason(_ kind: String) -> String {
        kind.isEmpty
            ? "unsupported file type (no extension; expected .txt, .md, .markdown, .jsonl or .csv)"
            : "unsupported file type .\(kind) (expected .txt, .md, .markdown, .jsonl or .csv)"
    }

    private func listFolder(_ folder: URL) throws -> (found: [InputFile], skipped: [SkippedInput]) {
        let manager = FileManager.default
        let root = folder.standardizedFileURL.path
        var relativePaths: [String] = []
        // Walk by hand so that hidden folders are never entered and unreadable folders are reported.
        var pending: [String] = [""]
        var skipped: [SkippedInput] = []
        while let relative = pending.popLast() {
            let absolute = relative.isEmpty ? root : root + "/" + relative
            let names: [String]
            do {
                names = try manager.contentsOfDirectory(atPath: absolute)
            } catch {
                if relative.isEmpty {
                    throw IngestError.unreadable(path: folder.path, reason: error.localizedDescription)
                }
                skipped.append(SkippedInput(path: absolute, reason: "folder cannot be listed"))
                continue
            }
            for name in names where !name.hasPrefix(".") {
                let child = relative.isEmpty ? name : relative + "/" + name
                var isDirectory: ObjCBool = false
                guard manager.fileExists(atPath: root + "/" + child, isDirectory: &isDirectory) else { continue }
                if isDirectory.boolValue {
                    pending.append(child)
                } else {
                    relativePaths.append(child)
                }
            }
        }
        var found: [InputFile] = []
        for relative in relativePaths.sorted() {
            let url = URL(fileURLWithPath: root + "/" + relative)
            let kind = url.pathExtension.lowercased()
            if Self.supportedExtensions.contains(kind) {
                found.append(InputFile(url: url, relativePath: relative, kind: kind))
            } else {
                skipped.append(SkippedInput(path: url.path, reason: Self.unsupportedReason(kind)))
            }
        }
        return (found, skipped)
    }

    private func readFile(
        _ file: InputFile, skip: (SkippedInput) -> Void, emit: (Document) throws -> Void
    ) throws {
        switch file.kind {
        case "jsonl": try readJSONLines(file, skip: skip, emit: emit)
        case "csv": try readCSV(file, skip: skip, emit: emit)
        default:
            switch loadTextFile(file.url) {
            case .failure(let reason):
                skip(SkippedInput(path: file.url.path, reason: reason.message))
            case .success(let text):
                let document =
                    file.kind == "txt"
                    ? plainTextDocument(text, file: file) : markdownDocument(text, file: file)
                if document.body.isEmpty && document.fields.isEmpty {
                    skip(SkippedInput(path: file.url.path, reason: "empty file"))
                } else {
                    try emit(document)
                }
            }
        }
    }

    struct SkipReason: Error {
        var message: String
    }

    /// The whole file as text, or why it cannot be used.
    func loadTextFile(_ url: URL) -> Result<String, SkipReason> {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            return .failure(SkipReason(message: "cannot be read: \(error.localizedDescription)"))
        }
        if data.isEmpty { return .failure(SkipReason(message: "empty file")) }
        if data.contains(0) { return .failure(SkipReason(message: "binary file (contains NUL bytes)")) }
        guard var text = String(data: data, encoding: .utf8) else {
            return .failure(SkipReason(message: "not valid UTF-8 text"))
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        if text.allSatisfy(\.isWhitespace) { return .failure(SkipReason(message: "empty file")) }
        return .success(text)
    }

    /// The modification date of a file, used as its creation and update date.
    func modificationDate(_ url: URL) -> Date? {
        FileStatus.modified(url.path)
    }
}
