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
            Console.json(try JSONOutput.line(StatsJSON(stats: s, residentBytes: ResidentMemory.current()?.now ?? 0)))
        } else {
            Console.out("file:      \(store.db) (\(Self.bytes(Int(s.fileSizeBytes))))")
            Console.out("documents: \(s.documents)")
            if !s.documentsPerLanguage.isEmpty {
                Console.out("languages: \(Self.languages(s.documentsPerLanguage))")
            }
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
                opened += " (memory image \(Self.bytes(Int(s.imageBytes))), \(s.imageCurrent ? "current" : "stale"))"
            }
            if let problem = s.imageProblem { opened += "; the image was damaged (\(problem)): read from the tables" }
            Console.out(opened)
            if let memory = ResidentMemory.current() {
                Console.out(
                    "memory:    \(Self.bytes(memory.now)) resident in this process"
                        + (s.modelInMemory ? " (model included)" : " (no model in memory)"))
            }
            if s.modelLoaded {
                Console.out(
                    s.modelInMemory
                        ? "model:     in memory"
                        : "model:     installed, not in memory (the first semantic search loads it)")
            }
            if !s.modelLoaded, !StoreModelResolver.findsModel(of: s.embedder) {
                Console.out(
                    "model:     not loaded (a model Hush cannot find by itself: pass its folder with --model): "
                        + "keyword search, get and delete work; semantic search needs it")
            } else if !s.modelLoaded {
                Console.out("model:     not installed: keyword search, get and delete work; semantic search needs it")
            }
            if s.keywordIndexProblem != nil {
                Console.out("keywords:  MISSING or damaged: keyword search cannot run; `hush compact` builds it again")
            }
            if let note = DeletedWords.note(s) {
                Console.out("deleted:   \(note)")
            } else if let pending = s.pendingCleanup {
                Console.out("pending:   \(DeletedWords.pending(pending))")
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

    /// "en 3000, de 250, und 3": the most documents first, then by code.
    static func languages(_ counts: [String: Int]) -> String {
        counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
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

/// `hush stats --json`: the counts, the embedder, the sizes, the index and why, the chunking, the process's
/// resident memory, and an unfinished re-embed (null when there is none).
struct StatsJSON: Encodable {
    var stats: StoreStats
    var residentBytes: Int

    enum CodingKeys: String, CodingKey {
        case documents, chunks, vectors, embedder
        case weightsSHA256 = "weights_sha256"
        case dimension
        case fileBytes = "file_bytes"
        case vectorBytes = "vector_bytes"
        case index
        case indexReason = "index_reason"
        case indexBytes = "index_bytes"
        case graphFileBytes = "graph_file_bytes"
        case modelLoaded = "model_loaded"
        case modelInMemory = "model_in_memory"
        case openMs = "open_ms"
        case vectorsInFile = "vectors_in_file"
        case imageBytes = "image_bytes"
        case imageCurrent = "image_current"
        case chunkTokens = "chunk_tokens"
        case chunkOverlap = "chunk_overlap"
        case windowTokens = "window_tokens"
        case processResidentBytes = "process_resident_bytes"
        case unfinishedReembed = "unfinished_reembed"
        case languages
        case deletedWordsRemain = "deleted_words_remain"
        case pendingCleanup = "pending_cleanup"
        case keywordIndexMissing = "keyword_index_missing"
    }

    /// A re-embed that stopped part-way: the model it moves to, and how far it got.
    struct Reembed: Encodable {
        var target: String
        var targetWeightsSHA256: String
        var completed: Int
        var total: Int

        enum CodingKeys: String, CodingKey {
            case target
            case targetWeightsSHA256 = "target_weights_sha256"
            case completed, total
        }
    }

    func encode(to encoder: any Encoder) throws {
        let s = stats
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(s.documents, forKey: .documents)
        try container.encode(s.chunks, forKey: .chunks)
        try container.encode(s.vectors, forKey: .vectors)
        try container.encode(s.embedder.model, forKey: .embedder)
        try container.encode(s.embedder.weightsSHA256, forKey: .weightsSHA256)
        try container.encode(s.embedder.dimension, forKey: .dimension)
        try container.encode(s.fileSizeBytes, forKey: .fileBytes)
        try container.encode(s.vectorBytes, forKey: .vectorBytes)
        try container.encode(s.index.rawValue, forKey: .index)
        try container.encode(s.indexReason, forKey: .indexReason)
        try container.encode(s.indexBytes, forKey: .indexBytes)
        try container.encode(s.graphFileBytes, forKey: .graphFileBytes)
        try container.encode(s.modelLoaded, forKey: .modelLoaded)
        try container.encode(s.modelInMemory, forKey: .modelInMemory)
        try container.encode(JSONNumber(s.openMilliseconds), forKey: .openMs)
        try container.encode(s.vectorsInFile, forKey: .vectorsInFile)
        try container.encode(s.imageBytes, forKey: .imageBytes)
        try container.encode(s.imageCurrent, forKey: .imageCurrent)
        try container.encode(s.chunking.targetTokens, forKey: .chunkTokens)
        try container.encode(s.chunking.overlapTokens, forKey: .chunkOverlap)
        try container.encode(s.chunking.maxTokens, forKey: .windowTokens)
        try container.encode(residentBytes, forKey: .processResidentBytes)
        try container.encode(s.documentsPerLanguage, forKey: .languages)
        try container.encode(s.deletedWordsRemain, forKey: .deletedWordsRemain)
        try container.encode(s.pendingCleanup, forKey: .pendingCleanup)
        try container.encode(s.keywordIndexProblem != nil, forKey: .keywordIndexMissing)
        try container.encode(
            s.unfinishedReembed.map {
                Reembed(
                    target: $0.target.model, targetWeightsSHA256: $0.target.weightsSHA256, completed: $0.completed,
                    total: $0.total)
            }, forKey: .unfinishedReembed)
    }
}
