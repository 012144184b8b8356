import ArgumentParser
import Foundation
import Hush
import HushToolSupport

/// `hush prune`: delete old documents by age and by count.
struct PruneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Delete documents older than a number of days and/or all but the newest N.",
        discussion: """
            Deletes in transactions of 500 documents. Ctrl-C stops before the next one: what was deleted stays \
            deleted, and the same command again deletes the rest. The file keeps its size until `hush compact`.
            """)

    @OptionGroup var store: StoreArguments

    @Option(
        name: [.customLong("max-documents"), .customLong("keep")],
        help: "Keep at most this many documents (the newest).")
    var maxDocuments: Int?

    @Option(help: "Delete documents created more than this many days ago.")
    var olderThanDays: Double?

    @Flag(help: "Print JSON.")
    var json = false

    @Flag(help: "Only say which documents would be deleted (oldest first); delete nothing.")
    var dryRun = false

    func validate() throws {
        if maxDocuments == nil && olderThanDays == nil {
            throw ValidationError("give --max-documents N and/or --older-than-days D")
        }
        if let maxDocuments, maxDocuments < 0 { throw ValidationError("--max-documents must be at least 0") }
        if let olderThanDays, !(olderThanDays >= 0) { throw ValidationError("--older-than-days must be at least 0") }
    }

    func run() async throws {
        let cutoff = olderThanDays.map { Date(timeIntervalSinceNow: -$0 * 86_400) }
        if dryRun {
            let hush = try await store.open(.read)
            let doomed = try await hush.pruneCandidates(maxDocuments: maxDocuments, olderThan: cutoff)
            let left = try await hush.stats().documents - doomed.count
            if json {
                Console.json(try JSONOutput.line(PruneJSON(wouldDelete: doomed, left: left)))
            } else {
                for id in doomed { Console.out("would delete \(Console.escaped(id))") }
                Console.out("would delete \(doomed.count) documents, \(left) left (nothing was deleted)")
            }
            return
        }
        let hush = try await store.open(.maintain)
        let progress = ProgressReporter(label: "pruning", unit: "docs", quiet: json)
        let (maxDocuments, olderThan) = (maxDocuments, cutoff)
        let removed = try await Interruption.cancellingOnSignal(
            stopped: {
                progress.finish()
                let (done, total) = progress.reported
                return "\(done) of \(total) documents were deleted before the stop"
            },
            resume: "run the same command again to delete the rest"
        ) {
            try await hush.prune(maxDocuments: maxDocuments, olderThan: olderThan) { step in
                progress.update(done: step.completed, total: step.total)
            }
        }
        progress.finish()
        let stats = try await hush.stats()
        let left = stats.documents
        if json {
            Console.json(try JSONOutput.line(["deleted": removed, "documents": left]))
        } else {
            Console.out("deleted \(removed) documents, \(left) left (run `hush compact` to shrink the file)")
            if let note = DeletedWords.note(stats) { Console.out(note) }
        }
    }
}

/// `hush prune --dry-run --json`: the ids a prune would delete, oldest first, and how many documents would be left.
struct PruneJSON: Encodable {
    var wouldDelete: [String]
    var left: Int

    enum CodingKeys: String, CodingKey {
        case wouldDelete = "would_delete"
        case left
    }
}
