import ArgumentParser
import Foundation
import Hush
import HushToolSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `hush export`: every stored document as a JSON Lines record that `hush index` reads back.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the stored documents as JSON Lines records that `hush index` reads back, oldest first.",
        discussion: """
            Each line holds a document's id, title, text, quote, fields, type, language, tags, category, \
            metadata and dates (to the fraction of a second): `hush index --db NEW export.jsonl` makes the same \
            documents in a new file, with any model. Vectors are not written; no model is needed. Filters \
            (--filter key=value) work as in `hush search`. With --out, the file appears only once it is whole.
            """)

    @OptionGroup var store: StoreArguments

    @Option(name: .customLong("filter"), help: "A filter, key=value (repeatable).")
    var filters: [String] = []

    @Option(help: "The order: oldest, newest or id.")
    var sort: SortArgument = .oldest

    @Option(help: "Write to this file instead of standard output (replaced only once the export is whole).")
    var out: String?

    func run() async throws {
        if let out, let reason = OutputFile.refusal(out, database: store.db) {
            throw CommandLineMessage(
                description: "\(out) \(reason), so an export will not replace it: choose another --out")
        }
        let hush = try await store.open(.read)
        let ids = try await DocumentSelection.ids(of: hush, filters: filters, order: sort.order)
        guard let out else {
            try await Self.write(ids, of: hush) { Console.json($0) }
            return
        }
        let destination = URL(fileURLWithPath: out)
        let partial = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).exporting")
        guard FileManager.default.createFile(atPath: partial.path, contents: nil),
            let handle = try? FileHandle(forWritingTo: partial)
        else {
            throw CommandLineMessage(
                description: "cannot write \(out): check that its folder exists and can be written")
        }
        do {
            try await Interruption.cancellingOnSignal(
                stopped: { "nothing was written to \(out)" },
                resume: "run the same command again to export",
                atExit: { try? FileManager.default.removeItem(at: partial) }
            ) {
                try await Self.write(ids, of: hush) { handle.write(Data(($0 + "\n").utf8)) }
            }
            try handle.synchronize()
            try handle.close()
            // One step: the file named `out` is the one before or the whole export, never a part of it.
            guard rename(partial.path, destination.path) == 0 else {
                throw CommandLineMessage(
                    description:
                        "cannot write \(out): \(String(cString: strerror(errno)))")
            }
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        let count = ids.count == 1 ? "1 document" : "\(ids.count) documents"
        Console.error("exported \(count) to \(out)")
    }

    /// Each document of `ids` as one line, stopping between pages when cancelled.
    static func write(_ ids: [String], of hush: HushStore, line: (String) throws -> Void) async throws {
        try await DocumentSelection.forEach(ids, of: hush) { stored in
            try line(try JSONOutput.line(DocumentJSON(stored: stored, detail: .record)))
        }
    }
}
