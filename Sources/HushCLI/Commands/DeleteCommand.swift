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
        if let pending = summary.pendingCleanup {
            Console.error("hush: \(DeletedWords.pending(pending))")
        } else if let note = DeletedWords.note(try await hush.stats()) {
            Console.out(note)
        }
    }
}

/// What `delete`, `prune` and `stats` say when the keyword index keeps words of deleted documents
/// (``StoreStats/deletedWordsRemain``): a file of more than 25,000 chunks keeps them until `hush compact`; a
/// purge that failed after its write committed (a full disk) is finished by the next write.
enum DeletedWords {
    /// The note for `stats`, or `nil` when no words of deleted documents remain.
    static func note(_ stats: StoreStats) -> String? {
        guard stats.deletedWordsRemain else { return nil }
        if let pending = stats.pendingCleanup { return Self.pending(pending) }
        if stats.chunks <= 25_000 {
            return "the text of deleted documents is gone from the file, but the keyword index still holds their "
                + "words (a purge did not finish): the next write or `hush compact` removes them"
        }
        return "the text of deleted documents is gone from the file, but in a file of more than 25,000 chunks the "
            + "keyword index keeps their words until `hush compact`: run it to remove them"
    }

    /// A write's tidying that did not finish, in the command line's terms.
    static func pending(_ reason: String) -> String {
        reason.replacingOccurrences(of: "compact()", with: "`hush compact`")
    }
}
