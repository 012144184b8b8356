import ArgumentParser
import Foundation
import Hush
import HushToolSupport

/// `hush-bench related`: the latency of related items (`HushStore.related`) on an existing store, in process,
/// on the exact scan or through a graph built at the open.
struct BenchRelated: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "related",
        abstract: "Related-items latency on an existing store (read-only; no model needed).")

    @Option(help: "The store file (opened read-only).")
    var db: String

    @Option(help: "JSONL file whose --field gives the source documents' ids (every --every-th line).")
    var ids: String

    @Option(help: "The JSON field holding each source's id.")
    var field = "id"

    @Option(help: "Take every n-th id of the file.")
    var every = 10

    @Option(help: "The vector index: exact or hnsw (a graph built in memory at the open).")
    var index = "exact"

    @Option(help: "Timed passes over the sources (after one untimed pass).")
    var repeats = 3

    @Option(help: "Related items per call.")
    var limit = 10

    @Flag(help: "Print one JSON object.")
    var json = false

    func run() async throws {
        let all = try readTexts(ids, field: field)
        let sources = stride(from: 0, to: all.count, by: max(1, every)).map { all[$0] }
        guard !sources.isEmpty else { throw ValidationError("\(ids) holds no ids") }
        let strategy = try exactOrGraph(index)
        let store = try await HushStore.open(
            path: db, readOnly: true, options: StoreOptions(indexStrategy: strategy))
        for id in sources { _ = try await store.related(to: id, limit: limit) }
        var times = CallTimes()
        var found = 0
        for _ in 0..<max(1, repeats) {
            for id in sources { found += try await times.time { try await store.related(to: id, limit: limit) }.count }
        }
        if json {
            Console.out(
                try JSONOutput.line(
                    BenchRecord([
                        ("bench", .text("related")), ("index", .text(strategy.rawValue)),
                        ("sources", .int(sources.count)), ("calls", .int(times.count)),
                        ("p50_ms", .number(times.p50)), ("p95_ms", .number(times.p95)), ("found", .int(found)),
                    ])))
        } else {
            Console.out("related (\(strategy.rawValue)): \(times.summary("calls")), \(found) found")
        }
    }
}
