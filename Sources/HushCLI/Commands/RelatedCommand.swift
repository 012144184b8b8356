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

    @Option(name: [.customLong("k"), .customLong("limit")], help: "Number of results.")
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
        let filter = try FilterParsing.filter(from: filters)
        if let note = await FilterParsing.noMatchNote(filter, arguments: filters, in: hush) { Console.error(note) }
        let related = try await RankedOutput.reporting(hush) {
            try await hush.related(
                to: id, limit: limit, minCosine: minCosine, sameLanguage: sameLanguage, filter: filter)
        }
        if json {
            Console.json(try JSONOutput.line(RelatedJSON(id: id, results: related.map(RankedOutput.Item.init))))
        } else {
            Console.out(try await RankedOutput.text(related, in: hush))
        }
    }
}

/// How ranked document lists are printed (related, rank).
enum RankedOutput {
    /// Runs `body`, turning a ranking error into one line on standard error and exit status 1.
    static func reporting<T>(_ hush: HushStore, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as RankingError {
            guard case .unknownDocument(let id) = error else {
                Console.error("hush: \(error)")
                throw ExitCode(1)
            }
            let hint = await UnknownIDHint.text(for: id, in: hush)
            Console.error(
                "hush: no document with id \"\(id)\" in the database: check the id (hush list shows them)\(hint)")
            throw ExitCode(1)
        }
    }

    /// One ranked document in JSON: `score` and `similarity` are null when not computed, `recency` is there
    /// when computed or when the document was left unranked (then null), `title` is null when absent, `type`
    /// and `category` are left out.
    struct Item: Encodable {
        var item: RankedDocument

        init(_ item: RankedDocument) { self.item = item }

        enum CodingKeys: String, CodingKey {
            case id, score, similarity, recency, title, language, type, tags, category, created
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(item.id, forKey: .id)
            try container.encode(item.score.map(JSONNumber.init), forKey: .score)
            try container.encode(item.similarity.map(JSONNumber.init), forKey: .similarity)
            if item.recency != nil || item.score == nil {
                try container.encode(item.recency.map(JSONNumber.init), forKey: .recency)
            }
            try container.encode(item.title, forKey: .title)
            try container.encode(item.language, forKey: .language)
            try container.encodeIfPresent(item.sourceType, forKey: .type)
            try container.encode(item.tags, forKey: .tags)
            try container.encodeIfPresent(item.category, forKey: .category)
            try container.encode(item.createdAt, forKey: .created)
        }
    }

    /// The items as lines, each with its title, or for a document without one (a post) its opening words as
    /// `hush list` shows them, read from `store`.
    static func text(_ items: [RankedDocument], in store: HushStore) async throws -> String {
        let untitled = items.filter { $0.title == nil }.map(\.id)
        var openings: [String: String] = [:]
        try await DocumentSelection.forEach(untitled, of: store) { stored in
            openings[stored.document.id] = ListCommand.opening(of: stored.document.body)
        }
        return text(items, openings: openings)
    }

    static func text(_ items: [RankedDocument], openings: [String: String] = [:]) -> String {
        guard !items.isEmpty else { return "no results" }
        return items.enumerated().map { rank, item in
            let score = item.score.map { String(format: "%.3f", $0) } ?? "  -  "
            var parts = [String(format: "%2d. ", rank + 1) + score + "  [\(Console.escaped(item.id))]"]
            if let title = item.title ?? openings[item.id] { parts.append(Console.escaped(title)) }
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

/// `hush related --json`: the stored document's id and its related documents.
struct RelatedJSON: Encodable {
    var id: String
    var results: [RankedOutput.Item]
}
