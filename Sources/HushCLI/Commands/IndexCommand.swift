import ArgumentParser
import Foundation
import Hush
import HushToolSupport

/// `hush index`: files and folders into a store.
struct IndexCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Index .txt, .md, .jsonl, .csv and .tsv files (folders recursively) into a database.",
        discussion: """
            Unchanged documents are skipped without re-embedding; changed ones are replaced. Bad files and \
            lines are skipped and reported with their reasons; everything else is indexed.
            """)

    @OptionGroup var store: StoreArguments

    @Option(name: .long, help: "Source type recorded for these documents (note, post, meeting, ...).")
    var type: String?

    @OptionGroup var chunks: ChunkOptions

    @Flag(name: .long, help: "No progress output.")
    var quiet = false

    @Flag(name: .long, help: "Print the summary as one JSON object.")
    var json = false

    @Flag(
        help: ArgumentHelp(
            "Also delete the stored documents of files no longer in the folders given.",
            discussion: """
                A document goes when its id starts with a folder's name (notes/...) and names a file that no \
                longer exists there (for a JSON Lines or CSV line without an id, notes/posts.jsonl#3, that file). \
                Documents whose ids start otherwise are kept. Without this flag, the summary says how many such \
                documents there are.
                """))
    var removeMissing = false

    @Argument(help: "Files or folders to index.")
    var paths: [String]

    func validate() throws {
        if paths.isEmpty { throw ValidationError("give at least one file or folder to index") }
        if removeMissing, let root = folders.first(where: { DocumentReader.idPrefix(ofFolder: $0) == nil }) {
            throw ValidationError(
                "--remove-missing needs folders with a name (\(root.path) has none): give the folders below it")
        }
    }

    /// The folders among `paths`.
    var folders: [URL] {
        paths.map { URL(fileURLWithPath: $0) }.filter {
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: $0.path, isDirectory: &isFolder) && isFolder.boolValue
        }
    }

    /// The stored ids under `folders` whose file is gone: not read this time (`read`), and no file at the path
    /// the id names (in either Unicode normal form; for a line's id, `path#3`, its file).
    static func missing(_ stored: [String], under folders: [URL], read: Set<String>) -> [String] {
        func exists(_ folder: URL, _ path: String) -> Bool {
            [path.precomposedStringWithCanonicalMapping, path.decomposedStringWithCanonicalMapping].contains {
                FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path)
            }
        }
        var gone: [String] = []
        for id in stored where !read.contains(id) {
            for folder in folders {
                guard let prefix = DocumentReader.idPrefix(ofFolder: folder), id.hasPrefix(prefix) else { continue }
                let path = String(id.dropFirst(prefix.count))
                var file = path
                if let mark = path.lastIndex(of: "#"),
                    path[path.index(after: mark)...].allSatisfy({ $0.isASCII && $0.isNumber }),
                    DocumentReader.recordFileExtensions.contains(
                        URL(fileURLWithPath: String(path[..<mark])).pathExtension.lowercased())
                {
                    file = String(path[..<mark])
                }
                if !exists(folder, path) && (file == path || !exists(folder, file)) {
                    gone.append(id)
                    break
                }
            }
        }
        return gone
    }

    func run() async throws {
        // Read first: a path that is not there stops the command before the store is opened, so a mistyped
        // path leaves no new, empty file behind (stamped with a model the corrected command may not use).
        let reader = DocumentReader(sourceType: type)
        var documents: [Document] = []
        let skipped = try reader.read(paths.map { URL(fileURLWithPath: $0) }) { batch in
            documents.append(contentsOf: batch)
        }
        let file = NewStoreFile(path: store.db)
        let hush = try await store.open(
            .embed, create: true, options: StoreOptions(chunkTokens: chunks.tokens, chunkOverlapTokens: chunks.overlap))
        let progress = ProgressReporter(label: "indexing", unit: "docs", quiet: quiet || json)
        let start = Date()
        let batch = documents
        let summary: UpsertSummary
        do {
            summary = try await Interruption.cancellingOnSignal(stopped: {
                progress.finish()
                let (done, total) = progress.reported
                return "\(done) of \(total) documents were stored before the stop (the rest were not)"
            }) {
                try await hush.upsert(batch) { step in progress.update(done: step.completed, total: step.total) }
            }
        } catch {
            // A store this command created and left empty is not left behind (labelled with a model).
            await file.discardIfEmpty(hush)
            throw error
        }
        progress.finish()
        // Nothing went in (every input skipped or rejected): no new, empty file either.
        let discarded = await file.discardIfEmpty(hush)
        // The stored documents of files gone from the folders given: deleted when asked, else counted.
        let read = Set(documents.map { $0.id.precomposedStringWithCanonicalMapping })
        let folders = self.folders
        let gone =
            discarded || folders.isEmpty
            ? [] : Self.missing(try await hush.documentIDs(order: .id), under: folders, read: read)
        var removed: [String] = []
        if removeMissing, !gone.isEmpty {
            try await hush.delete(ids: gone)
            removed = gone
        }
        let seconds = Date().timeIntervalSince(start)
        if json {
            let output = IndexJSON(
                summary: summary, seconds: seconds, skipped: skipped, removed: removeMissing ? removed : nil)
            Console.json(try JSONOutput.line(output))
        } else {
            let rate = seconds > 0 ? Double(documents.count) / seconds : 0
            // Every document read is exactly one of added, updated, unchanged or rejected; skipped inputs
            // (files, lines) never became documents, so they are counted apart.
            Console.out(
                "read \(documents.count) documents in \(String(format: "%.1f", seconds)) s (\(ProgressReporter.format(rate)) docs/s): "
                    + "\(summary.added) added, \(summary.updated) updated"
                    + (summary.metadataOnly > 0 ? " (\(summary.metadataOnly) metadata only, not re-embedded)" : "")
                    + ", \(summary.unchanged) unchanged, "
                    + "\(summary.errors.count) rejected; \(skipped.count) input\(skipped.count == 1 ? "" : "s") skipped"
            )
            for error in summary.errors { Console.out("  rejected \(Console.escaped(error.id)): \(error.reason)") }
            if discarded { Console.out("nothing was stored, so no file was made at \(store.db)") }
            for line in SkipReport.lines(skipped) { Console.out(line) }
            if removeMissing {
                Console.out("removed \(removed.count) document\(removed.count == 1 ? "" : "s") whose file is gone")
                for id in removed { Console.out("  removed \(Console.escaped(id))") }
            } else if !gone.isEmpty {
                let which =
                    gone.count == 1 ? "1 stored document names a file" : "\(gone.count) stored documents name files"
                Console.out(
                    "\(which) no longer in the folders given (\(Console.escaped(gone[0]))\(gone.count > 1 ? ", ..." : "")): "
                        + "--remove-missing deletes them, `hush delete` some of them")
            }
        }
    }
}

/// `hush index --json`: the summary's counts, the time, each rejected document and skipped input, and with
/// `--remove-missing` the ids removed.
struct IndexJSON: Encodable {
    var summary: UpsertSummary
    var seconds: Double
    var skipped: [SkippedInput]
    /// The ids deleted by `--remove-missing` (absent without it).
    var removed: [String]?

    enum CodingKeys: String, CodingKey {
        case added, updated
        case metadataOnly = "metadata_only"
        case unchanged
        case chunksEmbedded = "chunks_embedded"
        case seconds, rejected, skipped, removed
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(summary.added, forKey: .added)
        try container.encode(summary.updated, forKey: .updated)
        try container.encode(summary.metadataOnly, forKey: .metadataOnly)
        try container.encode(summary.unchanged, forKey: .unchanged)
        try container.encode(summary.chunksEmbedded, forKey: .chunksEmbedded)
        try container.encode(JSONNumber(seconds), forKey: .seconds)
        try container.encode(summary.errors, forKey: .rejected)
        try container.encode(skipped, forKey: .skipped)
        try container.encodeIfPresent(removed, forKey: .removed)
    }
}
