import ArgumentParser
import Foundation
import Hush
import HushEmbedding
import HushToolSupport

/// `hush-bench`: in-process measurements, printed with the parameters used. Kept out of the `hush` product
/// so the library ships no benchmark code.
@main
struct HushBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hush-bench", abstract: "Measure Hush on this machine.",
        subcommands: [
            Embed.self, BenchScan.self, BenchANN.self, BenchSearch.self, BenchRelated.self, BenchOpen.self,
            BenchApp.self,
        ])

    struct Embed: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Embedding throughput (tokens/s, sentences/s) per thread count, and single-query latency.")

        @OptionGroup var modelOptions: ModelOptions

        @Option(help: "JSONL corpus with a \"text\" field per line.")
        var corpus = "bench/data/embed-corpus.jsonl"

        @Option(help: "JSONL short queries with a \"text\" field per line.")
        var queries = "bench/data/queries.jsonl"

        @Option(help: "Comma-separated thread counts to measure.")
        var threadCounts = "1,2"

        @Option(help: "Timed passes over the corpus per thread count (the median is reported).")
        var repeats = 3

        @Flag(help: "Print one JSON object per measurement.")
        var json = false

        func run() throws {
            let texts = try readTexts(corpus)
            let queryTexts = try readTexts(queries)
            let counts = threadCounts.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard !counts.isEmpty, counts.allSatisfy({ $0 > 0 }) else {
                throw ValidationError("--thread-counts takes positive numbers, e.g. 1,2")
            }
            for threads in counts {
                let embedder = try modelOptions.makeEmbedder(threads: threads)
                _ = try embedder.embed(Array(texts.prefix(64)), role: .passage)
                var seconds: [Double] = []
                var tokens = 0
                for _ in 0..<max(1, repeats) {
                    let start = DispatchTime.now().uptimeNanoseconds
                    let embeddings = try embedder.embed(texts, role: .passage)
                    seconds.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                    // The tokens the encoder ran (prefix and special tokens included, after truncation).
                    tokens = embeddings.reduce(0) { $0 + $1.tokenCount }
                }
                let median = seconds.sorted()[seconds.count / 2]
                try report([
                    ("bench", .text("embed")), ("system", .text("hush")), ("cpu", .text(ComputeInfo.cpu)),
                    ("kernels", .text(ComputeInfo.kernels)), ("blas", .text(ComputeInfo.blas)),
                    ("threads", .int(threads)), ("texts", .int(texts.count)), ("tokens", .int(tokens)),
                    ("seconds", .number(median)), ("tok_per_s", .number(Double(tokens) / median)),
                    ("sent_per_s", .number(Double(texts.count) / median)),
                ])
                // Single queries with the same threads (a lone query splits its products over them).
                for query in queryTexts.prefix(20) { _ = try embedder.embed(query, role: .query) }
                var latencies = CallTimes()
                for query in queryTexts { _ = try latencies.time { try embedder.embed(query, role: .query) } }
                let meanTokens =
                    Double(queryTexts.reduce(0) { $0 + embedder.tokenCount($1) }) / Double(max(1, queryTexts.count))
                try report([
                    ("bench", .text("query-latency")), ("system", .text("hush")),
                    ("kernels", .text(ComputeInfo.kernels)), ("threads", .int(threads)),
                    ("queries", .int(latencies.count)), ("mean_tokens", .number(meanTokens)),
                    ("p50_ms", .number(latencies.p50)), ("p95_ms", .number(latencies.p95)),
                    ("peak_rss_mb", .number(Double(PeakMemory.residentBytes()) / 1_048_576)),
                ])
            }
        }

        private func report(_ fields: [(key: String, value: BenchRecord.Value)]) throws {
            let record = BenchRecord(fields)
            Console.out(json ? try JSONOutput.line(record) : record.text)
        }
    }
}

/// Each line of a JSON Lines file as an object, `nil` for a line that is not one.
func readJSONLines(_ path: String) throws -> [[String: Any]?] {
    guard let data = FileManager.default.contents(atPath: path) else {
        throw ValidationError("cannot read \(path)")
    }
    return data.split(separator: 0x0A).map { (try? JSONSerialization.jsonObject(with: $0)) as? [String: Any] }
}

/// The vector index named by `--index`: exact, or hnsw (a graph built in memory at the open).
func exactOrGraph(_ name: String) throws -> IndexStrategy {
    guard let strategy = IndexStrategy(rawValue: name), strategy == .exact || strategy == .hnsw else {
        throw ValidationError("--index takes exact or hnsw (got \(name))")
    }
    return strategy
}

/// Reads the "text" field of each JSON line of a file.
func readTexts(_ path: String, field: String = "text") throws -> [String] {
    try readJSONLines(path).enumerated().map { number, object in
        guard let text = object?[field] as? String else {
            throw ValidationError("\(path):\(number + 1): not a JSON object with a \"\(field)\" string")
        }
        return text
    }
}

/// The process's peak resident memory (Linux: VmHWM of /proc/self/status; 0 elsewhere).
enum PeakMemory {
    static func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let digits = line.filter(\.isNumber)
            return (Int(digits) ?? 0) * 1024
        }
        return 0
    }
}

/// Calls timed one by one: their count, median and 95th percentile in milliseconds.
struct CallTimes {
    private(set) var milliseconds: [Double] = []

    var count: Int { milliseconds.count }
    var p50: Double { percentile(50) }
    var p95: Double { percentile(95) }

    /// Runs `body` and records how long it took.
    mutating func time<T>(_ body: () async throws -> T) async rethrows -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        let result = try await body()
        record(since: start)
        return result
    }

    /// Runs `body` (synchronous) and records how long it took.
    mutating func time<T>(_ body: () throws -> T) rethrows -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        let result = try body()
        record(since: start)
        return result
    }

    private mutating func record(since start: UInt64) {
        milliseconds.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }

    private func percentile(_ p: Int) -> Double {
        let sorted = milliseconds.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, sorted.count * p / 100)]
    }

    /// "N calls, p50 x ms, p95 y ms" with `noun` for the calls.
    func summary(_ noun: String) -> String {
        "\(count) \(noun), p50 \(String(format: "%.3f", p50)) ms, p95 \(String(format: "%.3f", p95)) ms"
    }
}
