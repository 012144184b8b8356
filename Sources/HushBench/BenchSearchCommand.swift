import ArgumentParser
import Foundation
import Hush
import HushToolSupport

/// `hush-bench search`: the latency of whole searches (query analysis, embedding or the query cache, both
/// arms, fusion, the hits' text) on an existing store, per mode, in process.
struct BenchSearch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search latency per mode on an existing store (read-only; its own model).")

    @Option(help: "The store file (opened read-only with the model it was made with).")
    var db: String

    @Option(help: "JSONL queries with a \"text\" field per line (or the field named by --field).")
    var queries: String

    @Option(help: "The JSON field holding each query's text.")
    var field = "text"

    @Option(help: "Comma-separated modes to time: semantic, keyword, hybrid.")
    var modes = "semantic,keyword,hybrid"

    @Option(help: "Timed passes over the queries per mode (after one untimed pass).")
    var repeats = 3

    @Option(
        help:
            "The vector index: exact or hnsw (a graph built in memory at the open); the store's own choice when not given."
    )
    var index: String?

    @Option(help: "Hits per search.")
    var limit = 10

    @Flag(help: "Print one JSON object per mode.")
    var json = false

    func run() async throws {
        let texts = try readTexts(queries, field: field)
        guard !texts.isEmpty else { throw ValidationError("\(queries) holds no queries") }
        let kinds = try modes.split(separator: ",").map { name -> SearchMode in
            switch name.trimmingCharacters(in: .whitespaces) {
            case "semantic": .semantic
            case "keyword": .keyword
            case "hybrid": .hybrid
            default: throw ValidationError("--modes takes semantic, keyword and hybrid (got \(name))")
            }
        }
        let strategy = try index.map(exactOrGraph)
        // The query cache holds every query, so that the timed passes measure the search, not the encoder.
        let options = StoreOptions(
            queryCacheCapacity: max(StoreOptions().queryCacheCapacity, texts.count), indexStrategy: strategy)
        let store = try await HushStore.open(path: db, readOnly: true, options: options)
        for mode in kinds {
            // One untimed pass fills the query cache: the timed passes measure the search, not the encoder.
            for text in texts { _ = try await store.search(text, mode: mode, limit: limit) }
            var times = CallTimes()
            var hits = 0
            for _ in 0..<max(1, repeats) {
                for text in texts {
                    hits += try await times.time { try await store.search(text, mode: mode, limit: limit) }.hits.count
                }
            }
            if json {
                Console.out(
                    try JSONOutput.line(
                        BenchRecord([
                            ("bench", .text("search")), ("mode", .text(mode.kind.rawValue)),
                            ("index", strategy.map { .text($0.rawValue) } ?? .text("store")),
                            ("queries", .int(texts.count)), ("searches", .int(times.count)),
                            ("p50_ms", .number(times.p50)), ("p95_ms", .number(times.p95)), ("hits", .int(hits)),
                        ])))
            } else {
                Console.out(
                    "\(mode.kind.rawValue) (\(strategy?.rawValue ?? "the store's index")): \(times.summary("searches")), \(hits) hits"
                )
            }
        }
    }
}
