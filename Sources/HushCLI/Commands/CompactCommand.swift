import ArgumentParser
import Foundation
import Hush
import HushToolSupport

/// `hush compact`: give the space of deleted rows back to the file system.
struct CompactCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compact",
        abstract: "Rewrite the database without the space of deleted rows (VACUUM, WAL checkpoint) and report sizes.",
        discussion: "Ctrl-C rolls the compaction back: the file stays as it was.")

    @OptionGroup var store: StoreArguments

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        let hush = try await store.open(.maintain)
        let report = try await Interruption.cancellingOnSignal(
            stopped: { "the compaction was rolled back and the file is as it was" },
            resume: "run `hush compact` again when it can run to its end (it rewrites the whole file)"
        ) {
            try await hush.compact()
        }
        if json {
            Console.json(
                try JSONOutput.line([
                    "bytes_before": report.bytesBefore, "bytes_after": report.bytesAfter,
                    "reclaimed_bytes": report.reclaimedBytes, "wal_bytes_left": report.walBytesLeft,
                ]))
        } else {
            Console.out(
                "\(store.db): \(StatsCommand.bytes(Int(report.bytesBefore))) -> "
                    + "\(StatsCommand.bytes(Int(report.bytesAfter))) "
                    + "(reclaimed \(StatsCommand.bytes(Int(report.reclaimedBytes))))")
            if report.walBytesLeft > 0 {
                Console.out(
                    "  compacted; \(StatsCommand.bytes(Int(report.walBytesLeft))) of it is still in \(store.db)-wal "
                        + "because another process is reading an older state of the file: it moves into the file "
                        + "when that reader has finished and a command writes again (copy both files until then)")
            }
        }
    }
}
