import ArgumentParser
import Foundation
import Hush
import HushToolSupport

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
