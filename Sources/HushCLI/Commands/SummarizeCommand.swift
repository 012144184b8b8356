import ArgumentParser
import Foundation
import Hush
import HushToolSupport

/// `hush summarize`: an extractive summary of stored documents or of a search's top hits.
struct SummarizeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "summarize",
        abstract: "Pick the sentences that best cover documents (or a search's top hits), in original order.",
        discussion: """
            Sentences are embedded and chosen by maximal marginal relevance against the centroid of the \
            documents' stored vectors, then printed in document order (for --query: oldest hit first).
            """)

    @OptionGroup var store: StoreArguments

    @Option(help: "Summarise the top hits of this search instead of given ids.")
    var query: String?

    @Option(name: .customLong("k"), help: "Hits to summarise with --query.")
    var limit = 5

    @Option(help: "Number of sentences.")
    var sentences = 3

    @Option(help: "MMR weight on relevance, 0...1 (lower: more varied).")
    var lambda: Float = 0.7

    @Flag(help: "Print JSON.")
    var json = false

    @Argument(help: "Ids of the documents to summarise (a thread: in reading order).")
    var ids: [String] = []

    func validate() throws {
        if (query == nil) == ids.isEmpty { throw ValidationError("give document ids or --query, not both") }
        if sentences < 1 { throw ValidationError("--sentences must be at least 1") }
        if limit < 1 { throw ValidationError("--k must be at least 1") }
        if !(0...1).contains(lambda) { throw ValidationError("--lambda must lie between 0 and 1") }
    }

    func run() async throws {
        let hush = try await store.open(.read)
        let summary = try await RankedOutput.reporting {
            if let query {
                return try await hush.summarize(query: query, k: limit, sentences: sentences, lambda: lambda)
            }
            return try await hush.summarize(ids: ids, sentences: sentences, lambda: lambda)
        }
        if json {
            var line = JSONLine()
            if let query { line.add("query", query) }
            line.add("documents", raw: "[" + summary.documentIDs.map(JSONLine.quote).joined(separator: ",") + "]")
            line.add(
                "sentences",
                raw: "["
                    + summary.sentences.map { sentence in
                        var item = JSONLine()
                        item.add("text", sentence.text)
                        item.add("id", sentence.documentID)
                        item.add("position", sentence.position)
                        item.add("relevance", Double(sentence.relevance))
                        return item.finish()
                    }.joined(separator: ",") + "]")
            line.add("summary", summary.text)
            Console.out(line.finish())
        } else if summary.sentences.isEmpty {
            Console.out("nothing to summarise")
        } else {
            for sentence in summary.sentences {
                Console.out("[\(Console.escaped(sentence.documentID))] \(sentence.text)")
            }
        }
    }
}
