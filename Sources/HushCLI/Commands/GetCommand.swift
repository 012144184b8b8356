import ArgumentParser
import Foundation
import Hush
import HushToolSupport

/// `hush get`: one stored document.
struct GetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "get", abstract: "Print a stored document.")

    @OptionGroup var store: StoreArguments

    @Flag(help: "Print JSON.")
    var json = false

    @Argument(help: "The document's id.")
    var id: String

    func run() async throws {
        let hush = try await store.open(.read)
        guard let stored = try await hush.document(id: id) else {
            Console.error("hush get: no document with id \(JSONLine.quote(id)) in \(store.db)")
            throw ExitCode(1)
        }
        let d = stored.document
        if json {
            var line = JSONLine()
            line.add("id", d.id)
            if let title = d.title { line.add("title", title) }
            line.add("text", d.body)
            if let quoted = d.quoted { line.add("quoted", quoted) }
            if let type = d.sourceType { line.add("type", type) }
            line.add("language", stored.language)
            line.add("tags", raw: "[" + d.tags.map(JSONLine.quote).joined(separator: ",") + "]")
            if let category = d.category { line.add("category", category) }
            var metadata = JSONLine()
            for key in d.metadata.keys.sorted() { metadata.add(key, d.metadata[key] ?? "") }
            line.add("metadata", raw: metadata.finish())
            if let created = d.createdAt { line.add("created", RecordDate.format(created)) }
            line.add("chunks", stored.chunkCount)
            line.add("content_hash", stored.contentHash)
            Console.out(line.finish())
        } else {
            Console.out("id:       \(Console.escaped(d.id))")
            if let title = d.title { Console.out("title:    \(Console.escaped(title))") }
            if let type = d.sourceType { Console.out("type:     \(type)") }
            Console.out("language: \(stored.language)")
            if !d.tags.isEmpty { Console.out("tags:     \(d.tags.joined(separator: ", "))") }
            if let category = d.category { Console.out("category: \(category)") }
            for key in d.metadata.keys.sorted() { Console.out("meta:     \(key) = \(d.metadata[key] ?? "")") }
            if let created = d.createdAt { Console.out("created:  \(RecordDate.format(created))") }
            Console.out("chunks:   \(stored.chunkCount)")
            Console.out("")
            Console.out(d.body)
            if let quoted = d.quoted { Console.out("\n> " + quoted) }
        }
    }
}

/// `hush delete`: remove documents.
struct DeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete documents (with their chunks, vectors and full text).")

    @OptionGroup var store: StoreArguments

    @Argument(help: "Ids of the documents to delete.")
    var ids: [String]

    func validate() throws {
        if ids.isEmpty { throw ValidationError("give at least one document id") }
    }

    func run() async throws {
        let hush = try await store.open(.maintain)
        let removed = try await hush.delete(ids: ids)
        Console.out("deleted \(removed) of \(ids.count) documents")
    }
}

/// `hush stats`: what a database holds.
struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Counts, embedder, file size, vector memory and the vector index in use (and why).")

    @OptionGroup var store: StoreArguments

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        let hush = try await store.open(.read)
        let s = try await hush.stats()
        if json {
            var line = JSONLine()
            line.add("documents", s.documents)
            line.add("chunks", s.chunks)
            line.add("vectors", s.vectors)
            line.add("embedder", s.embedder.model)
            line.add("weights_sha256", s.embedder.weightsSHA256)
            line.add("dimension", s.embedder.dimension)
            line.add("file_bytes", Int(s.fileSizeBytes))
            line.add("vector_bytes", s.vectorBytes)
            line.add("index", s.index.rawValue)
            line.add("index_reason", s.indexReason)
            line.add("index_bytes", s.indexBytes)
            line.add("graph_file_bytes", Int(s.graphFileBytes))
            line.add("model_loaded", s.modelLoaded)
            line.add("open_ms", s.openMilliseconds)
            line.add("vectors_in_file", s.vectorsInFile)
            line.add("image_bytes", Int(s.imageBytes))
            line.add("image_current", s.imageCurrent)
            line.add("chunk_tokens", s.chunking.targetTokens)
            line.add("chunk_overlap", s.chunking.overlapTokens)
            line.add("window_tokens", s.chunking.maxTokens)
            line.add("process_resident_bytes", ResidentMemory.current()?.now ?? 0)
            if let pending = s.unfinishedReembed {
                var reembed = JSONLine()
                reembed.add("target", pending.target.model)
                reembed.add("target_weights_sha256", pending.target.weightsSHA256)
                reembed.add("completed", pending.completed)
                reembed.add("total", pending.total)
                line.add("unfinished_reembed", raw: reembed.finish())
            } else {
                line.add("unfinished_reembed", raw: "null")
            }
            Console.out(line.finish())
        } else {
            Console.out("file:      \(store.db) (\(Self.bytes(Int(s.fileSizeBytes))))")
            Console.out("documents: \(s.documents)")
            Console.out(
                "chunks:    \(s.chunks) (\(s.chunking.targetTokens) tokens, \(s.chunking.overlapTokens) overlap, "
                    + "window \(s.chunking.maxTokens))")
            if s.vectorsInFile {
                Console.out("vectors:   \(s.vectors) (in the file; searches read the few they rescore)")
            } else {
                Console.out("vectors:   \(s.vectors) (\(Self.bytes(s.vectorBytes)) in memory)")
            }
            Console.out("embedder:  \(s.embedder)")
            var index = "index:     \(s.index.rawValue)"
            if s.index == .hnsw {
                let what =
                    s.vectorsInFile
                    ? "graph and 4-bit codes" : s.indexReason.contains("int8") ? "graph and int8 codes" : "graph"
                index +=
                    " (\(what) \(Self.bytes(s.indexBytes)) in memory, graph \(Self.bytes(Int(s.graphFileBytes))) "
                    + "in the file)"
            } else if s.index != .exact {
                index += " (codes \(Self.bytes(s.indexBytes)) in memory)"
            }
            Console.out(index)
            Console.out("           \(s.indexReason)")
            var opened = String(format: "open:      %.1f ms", s.openMilliseconds)
            if s.imageBytes > 0 {
                opened += " (index image \(Self.bytes(Int(s.imageBytes))), \(s.imageCurrent ? "current" : "stale"))"
            }
            Console.out(opened)
            if let memory = ResidentMemory.current() {
                Console.out("memory:    \(Self.bytes(memory.now)) resident in this process (model included)")
            }
            if !s.modelLoaded {
                Console.out("model:     not installed: keyword search, get and delete work; semantic search needs it")
            }
            if let pending = s.unfinishedReembed {
                let percent = pending.total > 0 ? 100 * Double(pending.completed) / Double(pending.total) : 0
                Console.out(
                    "re-embed:  UNFINISHED, \(pending.completed) of \(pending.total) chunks (\(String(format: "%.0f", percent)) %) "
                        + "to \(pending.target); searches use the old vectors until it finishes: run "
                        + "`hush reembed --db \(store.db)` with that model to resume")
            }
        }
    }

    static func bytes(_ count: Int) -> String {
        let units = ["B", "KiB", "MiB", "GiB"]
        var value = Double(count)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(count) B" : String(format: "%.1f %@", value, units[unit])
    }
}

/// `hush reembed`: re-embed every chunk with the current model.
struct ReembedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reembed",
        abstract: "Re-embed every chunk with the current model, in resumable batches.",
        discussion: "Interrupted runs resume where they stopped when started again with the same model.")

    @OptionGroup var modelOptions: ModelOptions

    @Option(name: .long, help: "The Hush database file.")
    var db: String

    @Option(help: "Chunks per transaction.")
    var batchSize = 256

    @Flag(help: "No progress output.")
    var quiet = false

    func run() async throws {
        guard FileManager.default.fileExists(atPath: db) else { throw ValidationError("no database at \(db)") }
        let embedder = try modelOptions.makeEmbedder()
        let hush = OpenStores.shared.track(
            try await HushStore.open(path: db, embedder: embedder, options: StoreOptions(allowEmbedderMismatch: true)))
        let progress = ProgressReporter(label: "re-embedding", unit: "chunks", quiet: quiet)
        try await hush.reembed(batchSize: batchSize) { step in progress.update(done: step.completed, total: step.total)
        }
        progress.finish()
        let s = try await hush.stats()
        Console.out("re-embedded \(s.chunks) chunks with \(s.embedder)")
    }
}
