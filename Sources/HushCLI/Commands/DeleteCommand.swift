import ArgumentParser
import Foundation
import Hush
import HushToolSupport

/// `hush delete`: remove documents.
struct DeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete documents (with their chunks, vectors and full text).")

    @OptionGroup var store: StoreArguments

    @Argument(help: "Ids of the documents to delete.")
    var ids: [String]

    func validate() throws {
        if ids.isEmpty { throw ValidationError("give at least one document id") }
    }

    func run() async throws {
        let hush = try await store.open(.maintain)
        var seen = Set<String>()
        let unique = ids.filter { seen.insert($0).inserted }
        // Both counts come from the transaction that deleted: they add up to what was asked, whatever another
        // process did meanwhile.
        let summary = try await hush.deleteDocuments(ids: unique)
        var notFound: [String] = []
        for id in summary.notFound {
            notFound.append(Console.escaped(id) + (await UnknownIDHint.text(for: id, in: hush)))
        }
        Console.out(
            "deleted \(summary.deleted) of \(unique.count) documents"
                + (notFound.isEmpty ? "" : "; not found: \(notFound.joined(separator: ", "))"))
        if try await hush.stats().deletedWordsRemain { Console.out(DeletedWords.note) }
    }
}

/// What `delete`, `prune` and `stats` say when the keyword index of a large file keeps words of deleted
/// documents until `hush compact` (``StoreStats/deletedWordsRemain``).
enum DeletedWords {
    static let note =
        "the text of deleted documents is gone from the file, but in a file of more than 25,000 chunks the keyword "
        + "index keeps their words until `hush compact`: run it to remove them"
}
