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
        var missing: [String] = []
        for id in unique where try await hush.document(id: id) == nil { missing.append(id) }
        var notFound: [String] = []
        for id in missing { notFound.append(Console.escaped(id) + (await UnknownIDHint.text(for: id, in: hush))) }
        let removed = try await hush.delete(ids: unique)
        Console.out(
            "deleted \(removed) of \(unique.count) documents"
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
