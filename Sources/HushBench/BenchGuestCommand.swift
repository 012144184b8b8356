import ArgumentParser
import Foundation
import Hush
import HushEmbedding
import HushToolSupport

extension BenchApp {
    /// `hush-bench app beside`: searches typed while a feed indexes pages of posts, against the same searches on
    /// the idle store, in one process (issue "app-citizen": p95 beside at most 3 × idle p95 + 20 ms).
    struct Beside: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Search latency while pages of documents are indexed, against the idle store's.")

        @Option(help: "The model: e5-small or minilm (by name, as an app opens it).")
        var model = "e5-small"

        @Option(help: "JSONL texts (a \"text\" field per line): the first half stored first, the rest in pages.")
        var corpus = "bench/data/multilingual-corpus.jsonl"

        @Option(help: "JSONL queries with a \"text\" field per line.")
        var queries = "bench/data/multilingual-queries.jsonl"

        @Option(help: "Documents per page (one upsert each).")
        var page = 100

        @Option(help: "Searches on the idle store.")
        var idle = 60

        @Option(help: "Milliseconds between two searches (a person typing).")
        var pause = 20

        @Flag(help: "Print one JSON object.")
        var json = false

        func run() async throws {
            let texts = try readTexts(corpus)
            let questions = try readTexts(queries)
            guard texts.count >= 2 * page, !questions.isEmpty else {
                throw ValidationError("the corpus needs at least \(2 * page) texts and the queries one")
            }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hush-beside-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            // No query cache: every search embeds its query, as a person typing new words does.
            let store = try await HushStore.open(
                path: folder.appendingPathComponent("feed.hush").path, model: ModelChoice(model),
                options: StoreOptions(queryCacheCapacity: 0))
            let documents = texts.enumerated().map { Document(id: "post-\($0.offset)", body: $0.element) }
            let half = documents.count / 2
            try await store.upsert(Array(documents[..<half]))
            var asked = 0
            func search() async throws -> Double {
                let query = questions[asked % questions.count] + (asked >= questions.count ? " \(asked)" : "")
                asked += 1
                let clock = ContinuousClock()
                return BenchApp.milliseconds(try await clock.measure { _ = try await store.search(query, limit: 10) })
            }
            _ = try await search()  // the model loads
            var idleTimes: [Double] = []
            for _ in 0..<idle {
                idleTimes.append(try await search())
                try await Task.sleep(for: .milliseconds(pause))
            }
            let pages = stride(from: half, to: documents.count, by: page).map {
                Array(documents[$0..<min($0 + page, documents.count)])
            }
            let clock = ContinuousClock()
            let started = clock.now
            let done = DoneFlag()
            let indexing = Task {
                defer { done.set() }
                for page in pages { _ = try await store.upsert(page) }
                return clock.now
            }
            var besideTimes: [Double] = []
            // Until the pages are in: the last search started while they were being indexed.
            while !done.isSet {
                besideTimes.append(try await search())
                try await Task.sleep(for: .milliseconds(pause))
            }
            let indexed = BenchApp.milliseconds(try await indexing.value - started)
            try await store.close()
            idleTimes.sort()
            besideTimes.sort()
            let idle95 = BenchApp.percentile(idleTimes, 0.95)
            let beside95 = BenchApp.percentile(besideTimes, 0.95)
            try BenchApp.print(
                [
                    ("model", .text(model)), ("pages", .int(pages.count)), ("page", .int(page)),
                    ("indexing_ms", .number(indexed)), ("idle_searches", .int(idleTimes.count)),
                    ("idle_p50_ms", .number(BenchApp.percentile(idleTimes, 0.5))), ("idle_p95_ms", .number(idle95)),
                    ("beside_searches", .int(besideTimes.count)),
                    ("beside_p50_ms", .number(BenchApp.percentile(besideTimes, 0.5))),
                    ("beside_p95_ms", .number(beside95)), ("beside_max_ms", .number(besideTimes.last ?? .nan)),
                    ("goal_p95_ms", .number(3 * idle95 + 20)), ("goal_met", .flag(beside95 <= 3 * idle95 + 20)),
                ], json: json)
        }

    }

    /// Set once, read from any task.
    final class DoneFlag: @unchecked Sendable {
        // Sendable: `value` is only touched under `lock`.
        private let lock = NSLock()
        private var value = false
        var isSet: Bool { lock.withLock { value } }
        func set() { lock.withLock { value = true } }
    }
}

extension BenchApp {
    /// `hush-bench app models`: resident memory as an app opens two stores by model name, searches both, then
    /// closes both (issue "app-citizen": the second adds at most 25 MiB; after both close, within 10 MiB of before).
    struct Models: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Memory of two stores opened by one model name, and after closing both.")

        @Option(help: "The model: e5-small or minilm.")
        var model = "e5-small"

        @Flag(help: "Print one JSON object.")
        var json = false

        func run() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hush-models-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            func mib() -> Double { Double(ResidentMemory.current()?.now ?? 0) / 1_048_576 }
            let entries = [
                Document(id: "sleep", body: "I lie awake at night and cannot fall asleep."),
                Document(id: "ex", body: "Should I text someone from my past?"),
                Document(id: "trip", body: "Saving for a trip to Lisbon in the spring."),
            ]
            // Each store is made once beforehand, so the measured opens are an app's at launch.
            for name in ["journal", "feed"] {
                let store = try await HushStore.open(
                    path: folder.appendingPathComponent("\(name).hush").path, model: ModelChoice(model))
                try await store.upsert(entries)
                try await store.close()
            }
            try await Task.sleep(for: .milliseconds(100))
            let before = mib()
            let journal = try await HushStore.open(
                path: folder.appendingPathComponent("journal.hush").path, model: ModelChoice(model))
            _ = try await journal.search("trouble sleeping", limit: 3)
            let one = mib()
            let feed = try await HushStore.open(
                path: folder.appendingPathComponent("feed.hush").path, model: ModelChoice(model))
            _ = try await feed.search("a holiday abroad", limit: 3)
            let two = mib()
            try await journal.close()
            try await feed.close()
            try await Task.sleep(for: .milliseconds(100))
            let closed = mib()
            try BenchApp.print(
                [
                    ("model", .text(model)), ("before_mib", .number(before)), ("one_store_mib", .number(one)),
                    ("two_stores_mib", .number(two)), ("second_store_adds_mib", .number(two - one)),
                    ("after_close_mib", .number(closed)), ("after_close_above_before_mib", .number(closed - before)),
                    ("goal_met", .flag(two - one <= 25 && closed - before <= 10)),
                ], json: json)
            withExtendedLifetime((journal, feed)) {}
        }
    }
}
