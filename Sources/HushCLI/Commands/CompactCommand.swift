import ArgumentParser
import Foundation
import Hush
import HushToolSupport

/// `hush compact`: give the space of deleted rows back to the file system.
struct CompactCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compact",
        abstract: "Rewrite the database without the space of deleted rows (VACUUM, WAL checkpoint) and report sizes.")

    @OptionGroup var store: StoreArguments

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        let hush = try await store.open(.maintain)
        let report = try await hush.compact()
        if json {
            var line = JSONLine()
            line.add("bytes_before", Int(report.bytesBefore))
            line.add("bytes_after", Int(report.bytesAfter))
            line.add("reclaimed_bytes", Int(report.reclaimedBytes))
            Console.out(line.finish())
        } else {
            Console.out(
                "\(store.db): \(StatsCommand.bytes(Int(report.bytesBefore))) -> "
                    + "\(StatsCommand.bytes(Int(report.bytesAfter))) "
                    + "(reclaimed \(StatsCommand.bytes(Int(report.reclaimedBytes))))")
        }
    }
}
