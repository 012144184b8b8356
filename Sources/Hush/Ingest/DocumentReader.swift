import Foundation

/// Reads documents from files and folders: plain text, Markdown, JSON Lines and CSV.
///
/// Folders are read recursively in sorted order, hidden files skipped; only regular files are read, each
/// real file and folder once (links are followed, cycles end). Bad input never stops the rest:
/// unreadable, binary, empty or non-UTF-8 files and malformed records are skipped and reported with their
/// line numbers. JSON Lines and CSV files are streamed, so large files are never held in memory at once.
///
/// | Extension | One document per | Title | Id |
/// |---|---|---|---|
/// | `.txt` | file | file name without extension | path from the folder given, starting with its name (`notes/a.txt`); a file given directly: its name |
/// | `.md`, `.markdown` | file; its YAML front matter read as a `.jsonl` record's members (other keys: metadata) | first `#` heading (or front matter `title:`) | as for `.txt` |
/// | `.jsonl` | line: `{"id","title","text","tags","category","metadata","date","language","type","quoted","fields"}` | `title` | `id`, else `path#line` |
/// | `.csv`, `.tsv` | row, after a header row (`id,title,text,tags,category,date,language,…`; columns separated by commas, semicolons or tabs, as the header shows) | `title` | `id`, else `path#line` |
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
    public static let supportedExtensions: Set<String> = ["txt", "md", "markdown", "jsonl", "csv", "tsv"]

    /// The extensions of files that hold one document per line or row (the others hold one per file): their
    /// documents without an id are named `path#line`.
    public static let recordFileExtensions: Set<String> = ["jsonl", "csv", "tsv"]

    /// Creates a reader.
    ///
    /// ```swift
    /// let reader = DocumentReader(sourceType: "post")
    /// ```
    public init(sourceType: String? = nil) {
        self.sourceType = sourceType
    }

    /// Reads files and folders (recursively, sorted, hidden files skipped): .txt, .md, .markdown, .jsonl, .csv,
    /// .tsv;
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

    /// What the ids of a folder's files start with: its name and `/` (`notes/`), or `nil` for the root, whose
    /// files' ids are their paths from it.
    package static func idPrefix(ofFolder folder: URL) -> String? {
        let name = folder.standardizedFileURL.lastPathComponent
        return name == "/" || name.isEmpty ? nil : name + "/"
    }

    /// The largest input file read: JSON Lines and CSV are streamed, but a file this large is almost surely
    /// not what was meant (a disk image, a log), and reading it would take minutes.
    public static let maxFileBytes: Int64 = 1 << 30
    /// The largest text or Markdown file read (it is one document, held in memory whole).
    public static let maxTextFileBytes: Int64 = 64 << 20

    /// A file to read and the id it gets: its path below the folder given, starting with that folder's own
    /// name (`notes/a.txt` for `notes/a.txt` under the argument `notes`), or its name for a file given directly.
    struct InputFile {
        var url: URL
        var relativePath: String
        var kind: String
    }

    /// What `stat` says a path is, following symbolic links.
    private enum Entry {
        case folder(FileIdentity)
        case file(FileIdentity, size: Int64)
        case other(String)
        case missing
    }

    /// A file's device and inode: the same file or folder reached by two paths has the same identity.
    private struct FileIdentity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// What `path` is, following a symbolic link, and whether it is one: one `lstat`, plus a `stat` for links.
    private static func examine(_ path: String) -> (entry: Entry, isLink: Bool) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return (.missing, false) }
        guard info.st_mode & S_IFMT == S_IFLNK else { return (entry(info), false) }
        guard stat(path, &info) == 0 else { return (.missing, true) }
        return (entry(info), true)
    }

    private static func entry(_ info: stat) -> Entry {
        let identity = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .folder(identity)
        case S_IFREG: return .file(identity, size: Int64(info.st_size))
        case S_IFIFO: return .other("a named pipe (FIFO), not a regular file")
        case S_IFCHR, S_IFBLK: return .other("a device, not a regular file")
        case S_IFSOCK: return .other("a socket, not a regular file")
        default: return .other("not a regular file")
        }
    }

    /// Every file to read, in order, and what was passed over with the reason. Only regular files are read
    /// (a link to a device, a FIFO or a socket is reported, never opened); every real folder and file is read
    /// once, however many links lead to it (so a link cycle ends); broken links are reported.
    ///
    /// - Throws: `IngestError.notFound` for a missing argument, `IngestError.unreadable` for a folder argument
    ///   that cannot be listed, `IngestError.idCollision` when two different files would get the same id.
    func collectFiles(_ paths: [URL]) throws -> (found: [InputFile], skipped: [SkippedInput]) {
        var walk = Walk()
        let examined = paths.map { Self.examine($0.path) }
        for (url, found) in zip(paths, examined) {
            if case .missing = found.entry {
                if found.isLink { throw IngestError.unreadable(path: url.path, reason: "it is a broken symbolic link") }
                throw IngestError.notFound(path: url.path)
            }
        }
        for (url, found) in zip(paths, examined) {
            switch found.entry {
            case .folder(let identity):
                guard walk.folders.insert(identity).inserted else {
                    walk.skipped.append(SkippedInput(path: url.path, reason: "folder already read"))
                    continue
                }
                try listFolder(url, idPrefix: Self.idPrefix(ofFolder: url) ?? "", into: &walk)
            case .file(let identity, let size):
                walk.add(url: url, id: url.lastPathComponent, identity: identity, size: size)
            case .other(let reason):
                walk.skipped.append(SkippedInput(path: url.path, reason: reason))
            case .missing:
                throw IngestError.notFound(path: url.path)
            }
        }
        // Keys compare as Swift strings, that is up to Unicode canonical equivalence, as stored ids do (NFC).
        var firstByID: [String: InputFile] = [:]
        var found: [InputFile] = []
        for file in walk.found {
            if let first = firstByID[file.relativePath] {
                // Two names that differ only in their Unicode normal form (café.txt typed on two systems) cost
                // the second file only; two folders of the same name given together are an error of the call.
                guard first.relativePath.utf8.elementsEqual(file.relativePath.utf8) else {
                    walk.skipped.append(
                        SkippedInput(
                            path: file.url.path,
                            reason: "its name differs from \(first.url.path) only in Unicode normal form, so both "
                                + "would be the document \"\(first.relativePath)\": rename one to index it"))
                    continue
                }
                throw IngestError.idCollision(id: file.relativePath, first: first.url.path, second: file.url.path)
            }
            firstByID[file.relativePath] = file
            found.append(file)
        }
        return (found, walk.skipped)
    }

    /// The state of one collection: files found, what was skipped, and the folders and files already seen.
    private struct Walk {
        var found: [InputFile] = []
        var skipped: [SkippedInput] = []
        var folders = Set<FileIdentity>()
        var files: [FileIdentity: String] = [:]

        mutating func add(url: URL, id: String, identity: FileIdentity, size: Int64) {
            let kind = url.pathExtension.lowercased()
            guard DocumentReader.supportedExtensions.contains(kind) else {
                skipped.append(SkippedInput(path: url.path, reason: DocumentReader.unsupportedReason(kind)))
                return
            }
            if let first = files[identity] {
                skipped.append(SkippedInput(path: url.path, reason: "the same file as \(first), already read"))
                return
            }
            let limit =
                DocumentReader.recordFileExtensions.contains(kind)
                ? DocumentReader.maxFileBytes : DocumentReader.maxTextFileBytes
            guard size <= limit else {
                skipped.append(
                    SkippedInput(
                        path: url.path,
                        reason: "too large (\(size >> 20) MiB; the limit for .\(kind) files is \(limit >> 20) MiB): "
                            + "split it into smaller files"))
                return
            }
            files[identity] = url.path
            found.append(InputFile(url: url, relativePath: id, kind: kind))
        }
    }

    /// Why a file with extension `kind` (lower-cased, empty for none) is skipped: the types Hush reads.
    package static func unsupportedReason(_ kind: String) -> String {
        kind.isEmpty
            ? "unsupported file type (no extension; expected .txt, .md, .markdown, .jsonl, .csv or .tsv)"
            : "unsupported file type .\(kind) (expected .txt, .md, .markdown, .jsonl, .csv or .tsv)"
    }

    /// Walks `folder` (hidden entries skipped), sorted by path, adding its files with ids `idPrefix + path`.
    private func listFolder(_ folder: URL, idPrefix: String, into walk: inout Walk) throws {
        let manager = FileManager.default
        let root = folder.standardizedFileURL.path
        var entries: [(relative: String, identity: FileIdentity, size: Int64, isLink: Bool)] = []
        // Walk by hand so that hidden folders are never entered and unreadable folders are reported.
        var pending: [String] = [""]
        while let relative = pending.popLast() {
            let absolute = relative.isEmpty ? root : root + "/" + relative
            let names: [String]
            do {
                names = try manager.contentsOfDirectory(atPath: absolute)
            } catch {
                if relative.isEmpty {
                    throw IngestError.unreadable(path: folder.path, reason: error.localizedDescription)
                }
                walk.skipped.append(SkippedInput(path: absolute, reason: "folder cannot be listed"))
                continue
            }
            for name in names.sorted() where !name.hasPrefix(".") {
                let child = relative.isEmpty ? name : relative + "/" + name
                let path = root + "/" + child
                let (entry, isLink) = Self.examine(path)
                switch entry {
                case .folder(let identity):
                    if walk.folders.insert(identity).inserted {
                        pending.append(child)
                    } else {
                        walk.skipped.append(
                            SkippedInput(path: path, reason: "a link to a folder already read (followed once)"))
                    }
                case .file(let identity, let size):
                    entries.append((child, identity, size, isLink))
                case .other(let reason):
                    walk.skipped.append(SkippedInput(path: path, reason: reason))
                case .missing:
                    let reason = isLink ? "a broken symbolic link" : "vanished or cannot be examined"
                    walk.skipped.append(SkippedInput(path: path, reason: reason))
                }
            }
        }
        // A file reached both directly and through a link is read under its own path: links go last.
        let first = walk.found.count
        for entry in entries.sorted(by: { ($0.isLink ? 1 : 0, $0.relative) < ($1.isLink ? 1 : 0, $1.relative) }) {
            walk.add(
                url: URL(fileURLWithPath: root + "/" + entry.relative), id: idPrefix + entry.relative,
                identity: entry.identity, size: entry.size)
        }
        walk.found[first...].sort { $0.relativePath < $1.relativePath }
    }

    private func readFile(
        _ file: InputFile, skip: (SkippedInput) -> Void, emit: (Document) throws -> Void
    ) throws {
        switch file.kind {
        case "jsonl": try readJSONLines(file, skip: skip, emit: emit)
        case "csv", "tsv": try readCSV(file, skip: skip, emit: emit)
        default:
            switch loadTextFile(file.url) {
            case .failure(let reason):
                skip(SkippedInput(path: file.url.path, reason: reason.message))
            case .success(let text):
                let document: Document
                let ownTitle: Bool
                do {
                    (document, ownTitle) =
                        file.kind == "txt"
                        ? (plainTextDocument(text, file: file), false) : try markdownDocumentAndTitle(text, file: file)
                } catch {
                    skip(SkippedInput(path: file.url.path, reason: error.message))
                    return
                }
                if document.body.isEmpty && document.fields.isEmpty && !ownTitle {
                    let frontMatterOnly = !document.tags.isEmpty || !document.metadata.isEmpty
                    skip(
                        SkippedInput(
                            path: file.url.path,
                            reason: frontMatterOnly ? "no text or title besides its front matter" : "empty file"))
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
        var bytes = [UInt8](data)
        if var transcoder = UTF16Transcoder(byteOrderMarkOf: bytes) {
            var utf8: [UInt8] = []
            transcoder.transcode(bytes.dropFirst(2), into: &utf8)
            transcoder.finish(into: &utf8)
            bytes = utf8
        } else if FileByteStream.looksBinary(bytes.prefix(8192)) {
            return .failure(SkipReason(message: "binary file (contains NUL bytes)"))
        }
        // A text file is one document: a NUL byte in it (which no document may hold) costs that file only.
        if let nul = bytes.firstIndex(of: 0) {
            return .failure(
                SkipReason(message: "text contains a NUL byte (at byte \(nul)); remove it to index the file"))
        }
        guard var text = String(validUTF8: bytes) else {
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
