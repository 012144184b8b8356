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

    @OptionGroup var database: DatabaseOption

    /// The Hush database file to write (created if missing).
    var db: String { database.db }

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
        // The source is read before the store is opened: a source that cannot be read leaves no store behind.
        let (records, rejected) = try source.rows(dimension: embedder.identity.dimension, sourceType: type)
        let file = NewStoreFile(path: db)
        let store = try await HushStore.open(path: db, embedder: embedder)
        let start = Date()
        let progress = ProgressReporter(label: "importing", unit: "docs", quiet: quiet || json)
        var summary: UpsertSummary
        do {
            summary = try await Interruption.cancellingOnSignal(stopped: {
                progress.finish()
                let (done, total) = progress.reported
                return "\(done) of \(total) rows were imported before the stop"
            }) {
                try await store.upsert(records.map(\.document), precomputed: records.map(\.vector)) { step in
                    progress.update(done: step.completed, total: step.total)
                }
            }
        } catch {
            // A store this command created and left empty is not left behind (labelled with a model).
            if !(await file.discardIfEmpty(store)) { try? await store.close() }
            throw error
        }
        // Nothing went in: no new store is left behind stamped with a model nobody chose to keep.
        if !(await file.discardIfEmpty(store)) {
            do {
                try await store.close()
            } catch {
                Console.error("warning: \(error)")
            }
        }
        summary.errors = rejected + summary.errors
        progress.finish()
        let seconds = Date().timeIntervalSince(start)
        if json {
            Console.json(
                try JSONOutput.line(
                    ImportJSON(
                        added: summary.added, updated: summary.updated, unchanged: summary.unchanged,
                        rejected: summary.errors.count, embedder: embedder.identity.description,
                        seconds: JSONNumber(seconds))))
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

/// `hush import --json`: the counts, the embedder the vectors are stamped with, the time.
struct ImportJSON: Encodable {
    var added: Int
    var updated: Int
    var unchanged: Int
    var rejected: Int
    var embedder: String
    var seconds: JSONNumber
}
