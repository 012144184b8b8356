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
            documents' stored vectors (with --query: against the query, so that the summary says what the \
            hits say about it), then printed in document order (for --query: oldest hit first).
            """)

    @OptionGroup var store: StoreArguments

    @Option(help: "Summarise the top hits of this search instead of given ids.")
    var query: String?

    @Option(name: [.customLong("k"), .customLong("limit")], help: "Hits to summarise with --query.")
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
        if query == nil && ids.isEmpty {
            throw ValidationError("give the ids of the documents to summarise, or --query WORDS to summarise a search")
        }
        if query != nil && !ids.isEmpty { throw ValidationError("give document ids or --query, not both") }
        if let query, query.allSatisfy(\.isWhitespace) {
            throw ValidationError("--query is empty: give the words to search for")
        }
        if sentences < 1 { throw ValidationError("--sentences must be at least 1") }
        if limit < 1 { throw ValidationError("--k must be at least 1") }
        if !(0...1).contains(lambda) { throw ValidationError("--lambda must lie between 0 and 1") }
    }

    func run() async throws {
        let hush = try await store.open(.read)
        let summary = try await RankedOutput.reporting(hush) {
            if let query {
                return try await hush.summarize(query: query, k: limit, sentences: sentences, lambda: lambda)
            }
            return try await hush.summarize(ids: ids, sentences: sentences, lambda: lambda)
        }
        if json {
            Console.json(try JSONOutput.line(SummarizeJSON(query: query, summary: summary)))
        } else if summary.sentences.isEmpty {
            Console.out("nothing to summarise")
        } else {
            for sentence in summary.sentences {
                Console.out("[\(Console.escaped(sentence.documentID))] \(sentence.text)")
            }
        }
    }
}

/// `hush summarize --json`: the query (with `--query`), the documents summarised, the sentences chosen and
/// the summary text.
struct SummarizeJSON: Encodable {
    var query: String?
    var summary: Summary

    enum CodingKeys: String, CodingKey {
        case query, documents, sentences, summary
    }

    /// One sentence: its text, its document, its position there, its relevance.
    struct Sentence: Encodable {
        var text: String
        var id: String
        var position: Int
        var relevance: JSONNumber
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(query, forKey: .query)
        try container.encode(summary.documentIDs, forKey: .documents)
        try container.encode(
            summary.sentences.map {
                Sentence(
                    text: $0.text, id: $0.documentID, position: $0.position, relevance: JSONNumber($0.relevance))
            }, forKey: .sentences)
        try container.encode(summary.text, forKey: .summary)
    }
}
