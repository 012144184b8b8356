import ArgumentParser
import Foundation
import Hush

/// `hush eval`: retrieval quality on labelled queries.
struct EvalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Measure nDCG@10, MRR@10, Recall@10 and Recall@100 on labelled queries.",
        discussion: "Each line of the queries file: {\"query\": \"...\", \"relevant\": [\"doc-id\", ...]}.")

    @OptionGroup var store: StoreArguments

    @Option(help: "JSONL file of labelled queries.")
    var queries: String

    @Option(help: "Ranking: semantic, keyword, hybrid or rrf.")
    var mode: ModeArgument = .hybrid

    @Option(help: "Weight of the semantic arm in hybrid mode, 0...1.")
    var alpha: Float?

    @Option(help: "Evaluate at most this many queries.")
    var limit: Int?

    @Flag(help: "Print one JSON object.")
    var json = false

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        if let alpha, !(0...1).contains(alpha) { throw ValidationError("--alpha must lie between 0 and 1") }
    }

    func run() async throws {
        let labelled = try Self.readQueries(queries, limit: limit)
        let hush = try await store.open(.read)
        let searchMode: SearchMode =
            switch mode {
            case .semantic: .semantic
            case .keyword: .keyword
            case .hybrid: alpha.map { SearchMode.hybrid(alpha: $0) } ?? .hybrid
            case .rrf: .reciprocalRankFusion()
            }
        var metrics = RetrievalMetrics()
        let progress = ProgressReporter(label: "evaluating", unit: "queries", quiet: json)
        for (done, item) in labelled.enumerated() {
            let results = try await hush.search(item.query, mode: searchMode, limit: 100, boosts: .none)
            metrics.add(ranked: results.hits.map(\.id), relevant: Set(item.relevant))
            progress.update(done: done + 1, total: labelled.count)
        }
        progress.finish()
        if json {
            var line = JSONLine()
            line.add("ndcg@10", metrics.ndcg10)
            line.add("mrr@10", metrics.mrr10)
            line.add("recall@10", metrics.recall10)
            line.add("recall@100", metrics.recall100)
            line.add("queries", metrics.count)
            line.add("mode", mode.rawValue)
            Console.out(line.finish())
        } else {
            Console.out("queries:    \(metrics.count) (\(mode.rawValue))")
            Console.out(String(format: "nDCG@10:    %.4f", metrics.ndcg10))
            Console.out(String(format: "MRR@10:     %.4f", metrics.mrr10))
            Console.out(String(format: "Recall@10:  %.4f", metrics.recall10))
            Console.out(String(format: "Recall@100: %.4f", metrics.recall100))
        }
    }

    struct LabelledQuery: Decodable {
        let query: String
        let relevant: [String]
    }

    static func readQueries(_ path: String, limit: Int?) throws -> [LabelledQuery] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("cannot read \(path)")
        }
        var out: [LabelledQuery] = []
        let decoder = JSONDecoder()
        for (number, line) in data.split(separator: 0x0A).enumerated() {
            if let limit, out.count >= limit { break }
            guard let item = try? decoder.decode(LabelledQuery.self, from: line) else {
                throw ValidationError("\(path):\(number + 1): expected {\"query\": \"...\", \"relevant\": [ids]}")
            }
            out.append(item)
        }
        return out
    }
}
