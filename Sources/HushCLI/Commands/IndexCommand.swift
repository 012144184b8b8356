import ArgumentParser
import Foundation
import Hush
import HushToolSupport

/// `hush index`: files and folders into a store.
struct IndexCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Index .txt, .md, .jsonl and .csv files (folders recursively) into a database.",
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

    @Argument(help: "Files or folders to index.")
    var paths: [String]

    func validate() throws {
        if paths.isEmpty { throw ValidationError("give at least one file or folder to index") }
    }

    func run() async throws {
        let hush = try await store.open(
            .embed, create: true, options: StoreOptions(chunkTokens: chunks.tokens, chunkOverlapTokens: chunks.overlap))
        let reader = DocumentReader(sourceType: type)
        var documents: [Document] = []
        let skipped = try reader.read(paths.map { URL(fileURLWithPath: $0) }) { batch in
            documents.append(contentsOf: batch)
        }
        let progress = ProgressReporter(label: "indexing", unit: "docs", quiet: quiet || json)
        let start = Date()
        let batch = documents
        let summary = try await Interruption.cancellingOnSignal(stopped: {
            progress.finish()
            let (done, total) = progress.reported
            return "\(done) of \(total) documents were stored before the stop (the rest were not)"
        }) {
            try await hush.upsert(batch) { step in progress.update(done: step.completed, total: step.total) }
        }
        progress.finish()
        let seconds = Date().timeIntervalSince(start)
        if json {
            Console.out(try JSONOutput.line(IndexJSON(summary: summary, seconds: seconds, skipped: skipped)))
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
            for skip in skipped {
                Console.out(
                    "  skipped \(Console.escaped(skip.path))\(skip.line.map { ":\($0)" } ?? ""): \(skip.reason)")
            }
        }
    }
}

/// `hush index --json`: the summary's counts, the time, and each rejected document and skipped input.
struct IndexJSON: Encodable {
    var summary: UpsertSummary
    var seconds: Double
    var skipped: [SkippedInput]

    enum CodingKeys: String, CodingKey {
        case added, updated
        case metadataOnly = "metadata_only"
        case unchanged
        case chunksEmbedded = "chunks_embedded"
        case seconds, rejected, skipped
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
    }
}
