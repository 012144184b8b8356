import ArgumentParser
import Foundation
import Hush
import HushToolSupport

/// `hush related`: the documents nearest in meaning to a stored one.
struct RelatedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "related",
        abstract: "Documents nearest in meaning to a stored one (from its stored vectors; nothing is re-embedded).",
        discussion: "Filters (--filter key=value) work as in `hush search`.")

    @OptionGroup var store: StoreArguments

    @Option(name: .customLong("k"), help: "Number of results.")
    var limit = 10

    @Option(help: "Drop documents whose cosine is below this.")
    var minCosine: Float?

    @Flag(
        inversion: .prefixedNo,
        help:
            "Only documents in the same language (default: only for a model per language; never for a multilingual model)."
    )
    var sameLanguage: Bool?

    @Option(name: .customLong("filter"), help: "A filter, key=value (repeatable).")
    var filters: [String] = []

    @Flag(help: "Print JSON.")
    var json = false

    @Argument(help: "The stored document's id.")
    var id: String

    func validate() throws {
        if limit < 1 { throw ValidationError("--k must be at least 1") }
        if let minCosine, !(-1...1).contains(minCosine) {
            throw ValidationError("--min-cosine must be a number from -1 to 1")
        }
    }

    func run() async throws {
        let hush = try await store.open(.read)
        let related = try await RankedOutput.reporting {
            try await hush.related(
                to: id, limit: limit, minCosine: minCosine, sameLanguage: sameLanguage,
                filter: try FilterParsing.filter(from: filters))
        }
        if json {
            var line = JSONLine()
            line.add("id", id)
            line.add("results", raw: RankedOutput.json(related))
            Console.out(line.finish())
        } else {
            Console.out(RankedOutput.text(related))
        }
    }
}

/// How ranked document lists are printed (related, rank).
enum RankedOutput {
    /// Runs `body`, turning a ranking error into one line on standard error and exit status 1.
    static func reporting<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as RankingError {
            Console.error("hush: \(error)")
            throw ExitCode(1)
        }
    }

    static func json(_ items: [RankedDocument]) -> String {
        "["
            + items.map { item -> String in
                var line = JSONLine()
                line.add("id", item.id)
                func optional(_ key: String, _ value: Float?) {
                    if let value { line.add(key, Double(value)) } else { line.add(key, raw: "null") }
                }
                optional("score", item.score)
                optional("similarity", item.similarity)
                if item.recency != nil || item.score == nil { optional("recency", item.recency) }
                if let title = item.title { line.add("title", title) } else { line.add("title", raw: "null") }
                line.add("language", item.language)
                if let type = item.sourceType { line.add("type", type) }
                line.add("tags", raw: "[" + item.tags.map(JSONLine.quote).joined(separator: ",") + "]")
                if let category = item.category { line.add("category", category) }
                line.add("created", RecordDate.format(item.createdAt))
                return line.finish()
            }.joined(separator: ",") + "]"
    }

    static func text(_ items: [RankedDocument]) -> String {
        guard !items.isEmpty else { return "no results" }
        return items.enumerated().map { rank, item in
            let score = item.score.map { String(format: "%.3f", $0) } ?? "  -  "
            var parts = [String(format: "%2d. ", rank + 1) + score + "  [\(Console.escaped(item.id))]"]
            if let title = item.title { parts.append(Console.escaped(title)) }
            var details = [item.language, RecordDate.formatDay(item.createdAt)]
            if let similarity = item.similarity, let recency = item.recency {
                details.append(String(format: "cos %.3f, recency %.3f", similarity, recency))
            } else if item.score == nil {
                details.append("unranked")
            }
            return parts.joined(separator: " ") + "  (" + details.joined(separator: ", ") + ")"
        }.joined(separator: "\n")
    }
}
