import ArgumentParser
import Foundation
import Hush
import HushEmbedding
import HushToolSupport

/// `hush-bench open`: what opening a store costs in this (new) process: the model's load, the store's open
/// and its first semantic search, each timed apart, and the resident memory the store adds beyond the model.
/// Run it as a fresh process each time (the script in `scripts/bench/open.sh` does) to measure a cold open.
struct BenchOpen: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Cold open of a store in this process: model load, open, first semantic query, resident memory.")

    @Option(help: "The store file (opened read-only with the model it was made with).")
    var db: String

    @Option(help: "The first query's text.")
    var query = "how do I sleep better"

    @Option(help: "Queries to time after the first (a JSONL file with a \"text\" field per line); optional.")
    var queries: String?

    @Flag(help: "Print one JSON object.")
    var json = false

    func run() async throws {
        let clock = ContinuousClock()
        func milliseconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
        }
        guard let identity = try HushStore.storedIdentity(path: db) else {
            throw ValidationError("\(db) holds no vectors (no model stamped in it)")
        }
        var embedder: (any Embedder)?
        let modelTime = try clock.measure {
            if identity.pooling == .lexical {
                embedder = HashingEmbedder(dimension: identity.dimension)
            } else if let choice = ModelChoice.matching(identity) {
                embedder = try choice.load(threads: 1)
            }
        }
        guard let embedder else { throw ValidationError("no installed model matches \(identity)") }
        // One embedding before the store exists warms the encoder (its first call allocates its buffers).
        _ = try embedder.embed(query, role: .query)
        let beforeOpen = ResidentMemory.current()
        var opened: HushStore?
        let openTime = try await clock.measure {
            opened = try await HushStore.open(path: db, embedder: embedder, readOnly: true)
        }
        guard let store = opened else { return }
        var firstHits = 0
        var firstEmbed = 0.0
        let firstTime = try await clock.measure {
            let results = try await store.search(query, mode: .semantic, limit: 10)
            firstHits = results.hits.count
            firstEmbed = results.timings.embedMs
        }
        let afterFirst = ResidentMemory.current()
        var later: [Double] = []
        if let queries {
            for text in try readTexts(queries) {
                let time = try await clock.measure { _ = try await store.search(text, mode: .semantic, limit: 10) }
                later.append(milliseconds(time))
            }
            later.sort()
        }
        let stats = try await store.stats()
        let storeBytes = (afterFirst?.now ?? 0) - (beforeOpen?.now ?? 0)
        if json {
            var fields: [(key: String, value: BenchRecord.Value)] = [
                ("bench", .text("open")), ("db", .text(db)), ("chunks", .int(stats.chunks)),
                ("model_ms", .number(milliseconds(modelTime))), ("open_ms", .number(milliseconds(openTime))),
                ("first_query_ms", .number(milliseconds(firstTime))),
                ("open_plus_first_ms", .number(milliseconds(openTime) + milliseconds(firstTime))),
                ("first_query_embed_ms", .number(firstEmbed)), ("first_hits", .int(firstHits)),
                ("rss_before_open_bytes", .int(beforeOpen?.now ?? 0)),
                ("rss_after_first_bytes", .int(afterFirst?.now ?? 0)), ("peak_rss_bytes", .int(afterFirst?.peak ?? 0)),
                ("store_rss_bytes", .int(storeBytes)), ("vectors_in_memory", .flag(stats.vectorBytes > 0)),
            ]
            if !later.isEmpty {
                fields += [("later_queries", .int(later.count)), ("later_p50_ms", .number(later[later.count / 2]))]
            }
            Console.out(try JSONOutput.line(BenchRecord(fields)))
        } else {
            func mib(_ bytes: Int) -> String { String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
            Console.out(
                String(
                    format:
                        "model %.1f ms; open %.1f ms + first query %.1f ms (embedding it: %.1f ms) = %.1f ms (%d hits)",
                    milliseconds(modelTime), milliseconds(openTime), milliseconds(firstTime), firstEmbed,
                    milliseconds(openTime) + milliseconds(firstTime), firstHits))
            Console.out(
                "resident: \(mib(beforeOpen?.now ?? 0)) with the model, \(mib(afterFirst?.now ?? 0)) after the first "
                    + "query (the store: \(mib(storeBytes))); peak \(mib(afterFirst?.peak ?? 0))")
            if !later.isEmpty {
                Console.out(String(format: "%d later queries: p50 %.3f ms", later.count, later[later.count / 2]))
            }
        }
    }
}
