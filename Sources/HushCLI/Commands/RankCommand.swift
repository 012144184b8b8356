import ArgumentParser
import Foundation
import Hush
import HushToolSupport

/// `hush rank`: order documents by interest (liked / disliked ids) blended with recency.
struct RankCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rank",
        abstract: "Order documents by similarity to liked ones (minus disliked ones), blended with recency.",
        discussion: """
            score = alpha × cos(document, interest centroid) + (1 − alpha) × 2^(−age / half-life). With a \
            multilingual model (e5-small) there is one centroid for all languages; otherwise one per language, \
            and documents in languages with no liked item follow, unscored, in their original order (newest \
            first, or the order of --candidates). --per-language / --no-per-language override. Liked and \
            disliked documents are left out. --liked, --disliked and --candidates take ids separated by commas \
            and may be repeated; an id that itself holds a comma is taken whole when the file has it.
            """)

    @OptionGroup var store: StoreArguments

    @Option(help: "Liked document ids, comma-separated; repeat the option for more.")
    var liked: [String] = []

    @Option(help: "Disliked document ids, comma-separated; repeat the option for more.")
    var disliked: [String] = []

    @Option(
        help: """
            Only rank these ids, comma-separated (repeat the option for more), in this original order (default: \
            every document).
            """)
    var candidates: [String] = []

    @Option(help: "Weight of interest against recency, 0...1.")
    var alpha: Float = 0.8

    @Option(help: "Days after which the recency weight halves.")
    var halfLifeDays: Double = 14

    @Option(help: "Measure ages from this date instead of now (ISO-8601 or yyyy-MM-dd).")
    var now: String?

    @Option(name: [.customLong("k"), .customLong("limit")], help: "Number of results (default: all).")
    var limit: Int?

    @Flag(
        inversion: .prefixedNo, help: "One interest centroid per language (default: unless the model is multilingual).")
    var perLanguage: Bool?

    @Flag(help: "Print JSON.")
    var json = false

    /// The ids of an option's values, given once or repeated: each value is split at its commas, unless the file
    /// holds a document of that very id (a note named "Meeting, Monday.md").
    static func ids(_ values: [String], in hush: HushStore) async throws -> [String] {
        var ids: [String] = []
        for value in values {
            if value.contains(","), try await hush.document(id: value) != nil {
                ids.append(value)
            } else {
                ids += split(value)
            }
        }
        return ids
    }

    /// `a, b,c` → `["a", "b", "c"]`.
    static func split(_ value: String) -> [String] {
        value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func validate() throws {
        if liked.flatMap(Self.split).isEmpty { throw ValidationError("--liked needs at least one document id") }
        if !(0...1).contains(alpha) { throw ValidationError("--alpha must lie between 0 and 1") }
        if !(halfLifeDays > 0) { throw ValidationError("--half-life-days must be positive") }
        if let limit, limit < 1 { throw ValidationError("--k must be at least 1") }
    }

    func run() async throws {
        let hush = try await store.open(.read)
        // An id typed on the command line that names nothing is a mistake to report (with the nearest id), not
        // a like to skip as an app's pruned one is.
        let options = InterestOptions(
            alpha: alpha, halfLife: halfLifeDays * 86_400, ignoreUnknownIDs: false,
            now: try now.map { try FilterParsing.date($0, key: "now") }, perLanguage: perLanguage)
        let liked = try await Self.ids(self.liked, in: hush)
        let disliked = try await Self.ids(self.disliked, in: hush)
        let candidates = self.candidates.isEmpty ? nil : try await Self.ids(self.candidates, in: hush)
        let ranked = try await RankedOutput.reporting(hush) {
            try await hush.rank(
                liked: liked, disliked: disliked, candidates: candidates, options: options, limit: limit)
        }
        if json {
            Console.json(
                try JSONOutput.line(
                    RankJSON(
                        liked: liked, disliked: disliked, alpha: JSONNumber(alpha),
                        halfLifeDays: JSONNumber(halfLifeDays), results: ranked.map(RankedOutput.Item.init))))
        } else {
            Console.out(try await RankedOutput.text(ranked.documents, in: hush))
        }
    }
}

/// `hush rank --json`: the liked and disliked ids, the weights, and the documents in order.
struct RankJSON: Encodable {
    var liked: [String]
    var disliked: [String]
    var alpha: JSONNumber
    var halfLifeDays: JSONNumber
    var results: [RankedOutput.Item]

    enum CodingKeys: String, CodingKey {
        case liked, disliked, alpha
        case halfLifeDays = "half_life_days"
        case results
    }
}
