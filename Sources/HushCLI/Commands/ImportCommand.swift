import ArgumentParser
import Foundation
import Hush
import HushToolSupport

/// `hush import`: a knowledge base built in Python (sentence-transformers vectors) into a Hush file.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a Python-built knowledge base (documents table with float32 vectors) without re-embedding.",
        discussion: """
            The file needs a table documents(id, title, content, metadata, embedding BLOB) whose vectors were made \
            by the same model Hush uses (all-MiniLM-L6-v2 by default, 384 float32 values). Each row becomes one \
            document with one chunk (title prefixed to the content) carrying its own vector; metadata JSON gives \
            tags, category, language and date, other keys become metadata. Unchanged rows are skipped on a second \
            import.
            """)

    @Option(name: .long, help: "The Python-built SQLite file.")
    var from: String

    @Option(name: .long, help: "The Hush database file to write (created if missing).")
    var db: String

    @Option(name: .long, help: "The table holding the documents.")
    var table = "documents"

    @Option(name: .long, help: "Source type recorded for the imported documents.")
    var type: String?

    @Option(
        name: .long,
        help:
            "The model the vectors were made with: minilm (the default: Python knowledge bases use all-MiniLM-L6-v2), e5-small, or a model folder or file."
    )
    var model: String?

    @Flag(name: .long, help: "No progress output.")
    var quiet = false

    @Flag(name: .long, help: "Print the summary as one JSON object.")
    var json = false

    func run() async throws {
        let embedder = try (model.map(ModelChoice.init) ?? .miniLM).load()
        let source = try PythonKnowledgeBase(path: from, table: table)
        let store = OpenStores.shared.track(try await HushStore.open(path: db, embedder: embedder))
        let start = Date()
        let progress = ProgressReporter(label: "importing", unit: "docs", quiet: quiet || json)
        let summary = try await source.import(into: store, sourceType: type) { step in
            progress.update(done: step.completed, total: step.total)
        }
        progress.finish()
        let seconds = Date().timeIntervalSince(start)
        if json {
            var line = JSONLine()
            line.add("added", summary.added)
            line.add("updated", summary.updated)
            line.add("unchanged", summary.unchanged)
            line.add("rejected", summary.errors.count)
            line.add("embedder", embedder.identity.description)
            line.add("seconds", seconds)
            Console.out(line.finish())
        } else {
            Console.out(
                "imported \(from) into \(db) in \(String(format: "%.2f", seconds)) s without re-embedding: "
                    + "\(summary.added) added, \(summary.updated) updated, \(summary.unchanged) unchanged, "
                    + "\(summary.errors.count) rejected")
            Console.out("  vectors stamped as \(embedder.identity)")
            for error in summary.errors { Console.out("  rejected \(Console.escaped(error.id)): \(error.reason)") }
        }
    }
}
