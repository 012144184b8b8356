import ArgumentParser
import Foundation
import GRDB
import Hush
import HushEmbedding
import HushToolSupport

/// How a store behaves inside an app (issue "in-the-app"): `hush-bench launch` (open and the first keyword search
/// without the model, and memory after `releaseModel()`), `hush-bench typing` (search as you type, keystroke by
/// keystroke) and `hush-bench cancel` (from `cancel()` to the upsert throwing).
struct BenchApp: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app", abstract: "A store inside an app: launch, search as you type, cancelling a write.",
        subcommands: [Launch.self, Typing.self, Cancel.self, Beside.self, Models.self])

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
    }

    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded(.up)))]
    }

    static func print(_ fields: [(key: String, value: BenchRecord.Value)], json: Bool) throws {
        let record = BenchRecord(fields)
        Console.out(json ? try JSONOutput.line(record) : record.text)
    }

    /// `hush-bench app launch`: in this fresh process, `HushStore.open(path:)` (the model by the file's stamp, not
    /// loaded) and the first keyword search, timed together; resident memory above the process before it; then a
    /// semantic search (the model loads), `releaseModel()`, and the memory after each.
    struct Launch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Open + first keyword search without the model; memory before, with and after the model.")

        @Option(help: "The store file (opened writable, by the model it was made with).")
        var db: String

        @Option(help: "The first keyword query.")
        var query = "library for parsing"

        @Option(help: "Open and search this many times in this process (the first is the launch; for profiling).")
        var times = 1

        @Flag(help: "Stop after the open and the keyword search (no model; for profiling the launch alone).")
        var keywordOnly = false

        @Flag(help: "Print one JSON object.")
        var json = false

        func run() async throws {
            let clock = ContinuousClock()
            let empty = ResidentMemory.current()?.now ?? 0
            var opened: HushStore?
            var hits = 0
            var openTime = Duration.zero
            let firstTime = try await clock.measure {
                let start = clock.now
                let store = try await HushStore.open(path: db)
                openTime = clock.now - start
                hits = try await store.search(query, mode: .keyword, limit: 10).hits.count
                opened = store
            }
            for _ in 1..<Swift.max(1, times) {
                let store = try await HushStore.open(path: db)
                _ = try await store.search(query, mode: .keyword, limit: 10)
                try await store.close()
            }
            guard let store = opened else { return }
            // Another keyword search in the same process: what the first paid once (a connection, lazy tables).
            let secondTime = try await clock.measure {
                _ = try await store.search("command line parser", mode: .keyword, limit: 10)
            }
            if keywordOnly {
                try BenchApp.print(
                    [
                        ("bench", .text("app-launch-keyword")), ("db", .text(db)), ("hits", .int(hits)),
                        ("open_plus_keyword_ms", .number(BenchApp.milliseconds(firstTime))),
                        ("open_ms", .number(BenchApp.milliseconds(openTime))),
                        ("second_keyword_ms", .number(BenchApp.milliseconds(secondTime))),
                    ], json: json)
                return
            }
            let afterKeyword = ResidentMemory.current()?.now ?? 0
            let loadedBefore = store.modelInMemory
            let semanticTime = try await clock.measure { _ = try await store.search(query, mode: .semantic, limit: 10) }
            let withModel = ResidentMemory.current()?.now ?? 0
            store.releaseModel()
            let released = ResidentMemory.current()?.now ?? 0
            try await store.close()
            try BenchApp.print(
                [
                    ("bench", .text("app-launch")), ("db", .text(db)), ("cpu", .text(ComputeInfo.cpu)),
                    ("hits", .int(hits)), ("model_loaded_by_keyword", .flag(loadedBefore)),
                    ("open_plus_keyword_ms", .number(BenchApp.milliseconds(firstTime))),
                    ("open_ms", .number(BenchApp.milliseconds(openTime))),
                    ("second_keyword_ms", .number(BenchApp.milliseconds(secondTime))),
                    ("first_semantic_ms", .number(BenchApp.milliseconds(semanticTime))),
                    ("empty_rss_bytes", .int(empty)), ("keyword_rss_above_empty", .int(afterKeyword - empty)),
                    ("model_rss_above_empty", .int(withModel - empty)),
                    ("released_rss_above_keyword", .int(released - afterKeyword)),
                ], json: json)
        }
    }

    /// `hush-bench app typing`: every keystroke prefix of each query (a JSONL file with `query` and `relevant`),
    /// searched as you type in the keyword arm; the latency per keystroke, and each query's first relevant
    /// document's rank with the whole query typed, as you type and not.
    struct Typing: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Keyword search as you type: latency per keystroke; ranks with the whole query unchanged.")

        @Option(help: "The store file (opened read-only).")
        var db: String

        @Option(help: "JSONL queries: {\"query\": ..., \"relevant\": [ids]} per line.")
        var queries: String

        @Option(help: "How many queries (the first N).")
        var count = 200

        @Option(help: "Hits per search.")
        var limit = 10

        @Flag(help: "Search each keystroke without the option (the same searches as a plain keyword search).")
        var plain = false

        @Option(help: "Also print the N slowest keystrokes (milliseconds and the text typed so far), slowest first.")
        var slowest = 0

        @Flag(help: "Print one JSON object.")
        var json = false

        func run() async throws {
            let store = try await HushStore.open(path: db, readOnly: true)
            // One read of the file: each line's query and its relevant ids.
            let lines = try readJSONLines(queries).prefix(count)
            let cases = try lines.enumerated().map { number, object in
                guard let query = object?["query"] as? String else {
                    throw ValidationError("\(queries):\(number + 1): not a JSON object with a \"query\" string")
                }
                return query
            }
            let relevant = lines.map { $0?["relevant"] as? [String] ?? [] }
            let clock = ContinuousClock()
            var latencies: [Double] = []
            var typedTexts: [String] = []
            var sameRank = 0
            var foundTyped = 0
            for (query, targets) in zip(cases, relevant) {
                var typed = ""
                for character in query {
                    typed.append(character)
                    let text = typed
                    let mode = plain ? SearchMode.keyword : SearchMode.keyword.whileTyping
                    let time = try await clock.measure { _ = try await store.search(text, mode: mode, limit: limit) }
                    latencies.append(BenchApp.milliseconds(time))
                    if slowest > 0 { typedTexts.append(text) }
                }
                let plain = try await store.search(query, mode: .keyword, limit: 100).hits.map(\.id)
                let asTyped = try await store.search(query, mode: SearchMode.keyword.whileTyping, limit: 100).hits.map(
                    \.id)
                let rank = { (ids: [String]) in ids.firstIndex { targets.contains($0) } }
                if rank(plain) == rank(asTyped) { sameRank += 1 }
                if rank(asTyped) != nil { foundTyped += 1 }
            }
            let sorted = latencies.sorted()
            for index in latencies.indices.sorted(by: { latencies[$0] > latencies[$1] }).prefix(slowest) {
                Console.error(String(format: "%8.3f ms  ", latencies[index]) + typedTexts[index])
            }
            let stats = try await store.stats()
            try BenchApp.print(
                [
                    ("bench", .text(plain ? "app-typing-plain" : "app-typing")), ("db", .text(db)),
                    ("cpu", .text(ComputeInfo.cpu)),
                    ("documents", .int(stats.documents)), ("queries", .int(cases.count)),
                    ("keystrokes", .int(latencies.count)), ("p50_ms", .number(BenchApp.percentile(sorted, 0.5))),
                    ("p99_ms", .number(BenchApp.percentile(sorted, 0.99))), ("max_ms", .number(sorted.last ?? .nan)),
                    ("same_rank_whole_query", .int(sameRank)), ("found_in_top100", .int(foundTyped)),
                ], json: json)
        }
    }

    /// `hush-bench app cancel`: upserts the first `count` documents of a corpus with the default model into a new
    /// store and cancels the call after a random delay, again and again (each call resumes the last): the time
    /// from `cancel()` to the call throwing; after each, `PRAGMA integrity_check`, every committed document
    /// found by keyword, and the next call embedding only what was not committed.
    struct Cancel: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Cancel latency of an e5 upsert, and what is kept: integrity, committed documents, resume.")

        @Option(help: "JSONL corpus: {\"id\", \"title\", \"text\"} per line.")
        var corpus: String

        @Option(help: "Documents to upsert.")
        var count = 2000

        @Option(help: "Worker threads for the model.")
        var threads = 2

        @Option(help: "Cancellations to time.")
        var trials = 30

        @Option(help: "The longest random delay before cancelling, in milliseconds (the shortest is 50 ms).")
        var maxDelayMs = 6000

        @Option(help: "Seed of the delays.")
        var seed: UInt64 = 7

        @Flag(help: "Print one JSON object.")
        var json = false

        func run() async throws {
            let documents = try readDocuments().prefix(count).map { $0 }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hush-cancel-\(getpid())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let path = folder.appendingPathComponent("cancel.hush").path
            let store = try await HushStore.open(path: path, model: .e5Small, threads: threads)
            var random = SplitMix(seed: seed)
            let clock = ContinuousClock()
            var latencies: [Double] = []
            var resumedRight = 0
            var intact = 0
            var committedFound = 0
            var committed = 0
            var kept = 0
            for _ in 0..<trials {
                guard committed < documents.count else { break }
                let task = Task { try await store.upsert(documents) }
                let delay = Int(random.next() % UInt64(maxDelayMs)) + 50
                try await Task.sleep(for: .milliseconds(delay))
                let cancelled = clock.now
                task.cancel()
                let outcome = await task.result
                let latency = BenchApp.milliseconds(clock.now - cancelled)
                let now = try await store.stats().documents
                switch outcome {
                case .failure(let error) where error is CancellationError:
                    latencies.append(latency)
                case .failure(let error):
                    throw error
                case .success(let summary):
                    // Finished before the cancel: it embedded exactly what the last cancel left.
                    if summary.unchanged == committed { resumedRight += 1 }
                }
                // Nothing committed is lost, and a batch is all or nothing.
                if now >= committed, now == documents.count || now % StoreOptions().batchSize == 0 { kept += 1 }
                if try await integrityIsOK(path) { intact += 1 }
                // Every committed document is searchable: its id's own words find it (spot check of 20).
                var found = 0
                let stored = documents.prefix(now)
                let sample = stride(from: 0, to: stored.count, by: max(1, stored.count / 20)).map { stored[$0] }
                for document in sample where try await store.document(id: document.id) != nil { found += 1 }
                if found == sample.count { committedFound += 1 }
                committed = now
            }
            // The last call: resumes and finishes, embedding only what was not committed.
            let final = try await store.upsert(documents)
            if final.unchanged == committed { resumedRight += 1 }
            try await store.close()
            let sorted = latencies.sorted()
            try BenchApp.print(
                [
                    ("bench", .text("app-cancel")), ("cpu", .text(ComputeInfo.cpu)), ("threads", .int(threads)),
                    ("documents", .int(documents.count)), ("cancellations", .int(latencies.count)),
                    ("p50_ms", .number(BenchApp.percentile(sorted, 0.5))),
                    ("p99_ms", .number(BenchApp.percentile(sorted, 0.99))), ("max_ms", .number(sorted.last ?? .nan)),
                    ("integrity_ok", .int(intact)), ("committed_found", .int(committedFound)),
                    ("whole_batches_kept", .int(kept)), ("committed_before_last_call", .int(committed)),
                    ("resumed_without_reembedding", .int(resumedRight)), ("final_unchanged", .int(final.unchanged)),
                    ("final_added", .int(final.added)),
                ], json: json)
        }

        func readDocuments() throws -> [Document] {
            try readJSONLines(corpus).compactMap { object in
                guard let id = object?["id"] as? String, let text = object?["text"] as? String else { return nil }
                return Document(id: id, title: object?["title"] as? String, body: text)
            }
        }

        func integrityIsOK(_ path: String) async throws -> Bool {
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            let check = try await queue.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") }
            try queue.close()
            return check == "ok"
        }
    }
}
