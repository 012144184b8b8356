import ArgumentParser
import Foundation
import Hush
import HushToolSupport

/// The orders `hush list` and `hush export` take (`--sort`).
enum SortArgument: String, ExpressibleByArgument, CaseIterable {
    case newest, oldest, id

    var order: DocumentOrder {
        switch self {
        case .newest: .newestFirst
        case .oldest: .oldestFirst
        case .id: .id
        }
    }
}

/// `hush list`: the stored documents, one line each.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the stored documents (id, date, language, title), newest first.",
        discussion: """
            Filters (--filter key=value) work as in `hush search`. No model is needed. `hush get ID` prints one \
            document whole; `hush export` writes them all as records `hush index` reads back.
            """)

    @OptionGroup var store: StoreArguments

    @Option(name: .customLong("filter"), help: "A filter, key=value (repeatable).")
    var filters: [String] = []

    @Option(help: "The order: newest, oldest or id.")
    var sort: SortArgument = .newest

    @Option(name: [.customLong("limit"), .customLong("k")], help: "List at most this many (default: all).")
    var limit: Int?

    @Flag(help: "Print one JSON object per document (without its text).")
    var json = false

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() async throws {
        let hush = try await store.open(.read)
        let ids = try await DocumentSelection.ids(of: hush, filters: filters, order: sort.order)
        let shown = limit.map { Array(ids.prefix($0)) } ?? ids
        try await DocumentSelection.forEach(shown, of: hush) { stored in
            if json {
                Console.json(try JSONOutput.line(DocumentJSON(stored: stored, detail: .listing)))
            } else {
                let d = stored.document
                let day = d.createdAt.map(RecordDate.formatDay) ?? "----------"
                // A post or an entry without a title shows how it begins.
                let title = (d.title ?? Self.opening(of: d.body)).map { " " + Console.escaped($0) } ?? ""
                Console.out("\(day)  \(stored.language)  [\(Console.escaped(d.id))]\(title)")
            }
        }
        if !json {
            let count = ids.count == 1 ? "1 document" : "\(ids.count) documents"
            Console.out(shown.count < ids.count ? "(\(shown.count) of \(count))" : "(\(count))")
        }
    }

    /// The first 60 characters of `body` on one line (with "…" when there is more), or `nil` when it is empty.
    static func opening(of body: String) -> String? {
        let line = body.prefix(240).split(whereSeparator: \.isNewline).joined(separator: " ")
        guard !line.isEmpty else { return nil }
        return line.count > 60 ? String(line.prefix(59)) + "…" : line
    }
}
