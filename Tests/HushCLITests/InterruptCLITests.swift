import Foundation
import HushTestSupport
import Testing

/// `hush index` and `hush eval` under Ctrl-C: they stop at the next checkpoint, say what they kept and how to
/// resume, exit 130, and the same index command again embeds only the rest. (`hush build` under SIGTERM:
/// BuildCLITests; a cancelled prune and compact: StoreCancellationTests.)
@Suite struct InterruptCLITests {
    /// `count` journal-like entries, each with a word of its own, as JSON Lines.
    static func writeEntries(_ url: URL, count: Int) throws {
        let sources = try String(contentsOf: CLIRunner.samples.appendingPathComponent("journal.jsonl"), encoding: .utf8)
            .split(separator: "\n").compactMap { line in
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            }
        var lines: [String] = []
        for n in 0..<count {
            var record = sources[n % sources.count]
            record["id"] = "entry-\(n)"
            record["text"] = "\(record["text"] as? String ?? "") Entry marker entry\(n)."
            let data = try JSONSerialization.data(withJSONObject: record, options: [.sortedKeys])
            lines.append(String(decoding: data, as: UTF8.self))
        }
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
    }

    @Test(.needsModel) func ctrlCStopsAnIndexAtTheNextBatchAndTheSameCommandResumes() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("entries.jsonl")
        try Self.writeEntries(input, count: 500)
        let db = folder.appendingPathComponent("journal.hush").path
        let log = folder.appendingPathComponent("stderr.txt")
        let process = try ReliabilityProcess.start(
            ["index", "--model", "minilm", "--db", db, input.path], errorFile: log)
        // Plain progress lines (stderr is a file): wait for the first batches to be reported.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, process.isRunning,
            !((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("indexing: ")
        {
            usleep(20_000)
        }
        let interrupted = Date()
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let stopped = Date().timeIntervalSince(interrupted)
        let stderr = try String(contentsOf: log, encoding: .utf8)
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 128 + SIGINT, "\(stderr)")
        #expect(stopped < 10, "took \(stopped) s to stop")
        #expect(stderr.contains("press Ctrl-C again to quit at once"), "\(stderr)")
        #expect(stderr.contains("run the same command again to resume"), "\(stderr)")
        let said = try #require(
            stderr.firstMatch(of: /interrupted: (\d+) of 500 documents were stored before the stop/), "\(stderr)")
        let kept = Int(said.1) ?? -1
        #expect(kept > 0 && kept < 500)

        let stats = try CLIRunner.run(["stats", "--json", "--db", db]).json()
        #expect(stats["documents"] as? Int == kept)
        // Again: the kept documents are unchanged, only the rest is embedded.
        let again = try CLIRunner.run(["index", "--model", "minilm", "--json", "--quiet", "--db", db, input.path])
        #expect(again.status == 0, "\(again.stderr)")
        let summary = try again.json()
        #expect(summary["unchanged"] as? Int == kept)
        #expect(summary["added"] as? Int == 500 - kept)
    }

    /// `hush eval` under Ctrl-C, or its terminal closed (SIGHUP, which ended it at once with no summary): it stops
    /// between queries, says how many it evaluated, prints no scores (they would be of a part) and exits 128 + the
    /// signal.
    @Test(arguments: [SIGINT, SIGHUP])
    func aSignalStopsAnEvalBetweenQueries(signal: Int32) throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("journal.hush").path
        #expect(try CLIRunner.run(["index", "--lexical", "--quiet", "--db", db, CLIRunner.samples.path]).status == 0)
        let queries = folder.appendingPathComponent("queries.jsonl")
        let count = 50_000
        let lines = (0..<count).map { #"{"query": "trouble sleeping at night \#($0)", "relevant": ["r-sleep"]}"# }
        try (lines.joined(separator: "\n") + "\n").write(to: queries, atomically: true, encoding: .utf8)
        let log = folder.appendingPathComponent("stderr.txt")
        let process = try ReliabilityProcess.start(["eval", "--db", db, "--queries", queries.path], errorFile: log)
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, process.isRunning,
            !((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("evaluating: ")
        {
            usleep(20_000)
        }
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        let stderr = try String(contentsOf: log, encoding: .utf8)
        #expect(process.terminationStatus == 128 + signal, "\(stderr)")
        let said = try #require(
            stderr.firstMatch(of: /(?:interrupted|terminated): (\d+) of 50000 queries were evaluated before the stop/),
            "\(stderr)")
        #expect((Int(said.1) ?? 0) > 0 && (Int(said.1) ?? count) < count)
    }

    @Test func asYouTypeFindsTheWordBeingTyped() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("journal.hush").path
        #expect(try CLIRunner.run(["index", "--lexical", "--quiet", "--db", db, CLIRunner.samples.path]).status == 0)
        let plain = try CLIRunner.run(["search", "--db", db, "--mode", "keyword", "--json", "drows"])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(!plain.stdout.contains("r-sleep"))
        let typed = try CLIRunner.run(["search", "--db", db, "--mode", "keyword", "--as-you-type", "--json", "drows"])
        #expect(typed.status == 0, "\(typed.stderr)")
        #expect(typed.stdout.contains("r-sleep"), "\(typed.stdout)")
    }
}
