import Foundation
import HushTestSupport
import Testing

/// Runs the example programs (`hush-examples`, built beside `hush`) as a user would.
@Suite(.serialized) struct ExampleCLITests {
    static func run(_ arguments: [String]) throws -> CLIRunner.Output {
        let process = Process()
        process.executableURL = CLIRunner.binary.deletingLastPathComponent().appendingPathComponent("hush-examples")
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLIRunner.Output(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    @Test func journalExplainsEveryStepWithTheLexicalFallback() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("journal.hush").path
        let result = try Self.run([
            "journal", "--lexical", "--db", db, "--explain", "I keep worrying about money and unpaid bills",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let out = result.stdout
        #expect(out.contains("index: 300 snippets (300 added, 0 unchanged), lexical fallback"))
        #expect(out.contains("keywords: keep, worri, monei, unpaid, bill"))
        #expect(out.contains("2. category guess: money"))
        #expect(out.contains("3. frames: base + tag + category + guess = final"))
        #expect(out.contains("guess 0.080"))
        let reading = try #require(out.range(of: "Reading for:").map { String(out[$0.lowerBound...]) })
        let lines = reading.split(separator: "\n")
        #expect(lines.count == 4)
        // The frame is the best of the money category (its tag and category are keywords too).
        let firstFrame = try #require(out.split(separator: "\n").first { $0.contains("[frame-") })
        #expect(firstFrame.contains("[frame-money-"))
        #expect(lines[1].hasPrefix("  Frame:  ") && firstFrame.hasSuffix(String(lines[1].dropFirst(10))))
        #expect(lines[2].hasPrefix("  Try 1: ") && lines[3].hasPrefix("  Try 2: "))

        // A second question reuses the stored snippets (nothing added).
        let second = try Self.run([
            "journal", "--lexical", "--db", db, "--explain", "my exam is tomorrow and I cannot study",
        ])
        #expect(second.stdout.contains("(0 added, 300 unchanged)"))
        #expect(second.stdout.contains("2. category guess: study"))
    }

    @Test(.needsModel) func journalWithTheModelFindsMeaningWithoutSharedWords() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try Self.run([
            "journal", "--db", folder.appendingPathComponent("j.hush").path, "should I text my ex?",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Frame:  Wanting to message an ex is often missing who you were then"))
        #expect(result.stdout.contains("Before texting an ex, write the message in a notebook and wait a day."))
    }

    /// The snippets are English; a question in Chinese ("I want to text my ex, should I?") finds the reading
    /// about contacting an ex through the multilingual model (and the category the best matches agree on).
    @Test(.needsModel) func journalAnswersAChineseQuestionAcrossLanguages() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("j.hush").path
        let result = try Self.run(["journal", "--db", db, "--explain", "我想给前任发短信，应该吗？"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("2. category guess: relationships"), "\(result.stdout)")
        #expect(result.stdout.contains("Frame:  Wanting to message an ex is often missing who you were then"))
        #expect(result.stdout.contains("Try 1: Write a letter to your ex that you will not send"))
        let sleep = try Self.run(["journal", "--db", db, "失眠怎么办"])  // "what to do about insomnia"
        let frame = sleep.stdout.split(separator: "\n").first { $0.contains("Frame:") } ?? ""
        #expect(frame.lowercased().contains("sleep") || frame.lowercased().contains("rest"), "\(sleep.stdout)")
    }

    @Test func feedSearchesRelatesRanksAndPrunes() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try Self.run(["feed", "--lexical", "--db", folder.appendingPathComponent("feed.hush").path])
        #expect(result.status == 0, "\(result.stderr)")
        let out = result.stdout
        #expect(out.contains("feed: 22 posts (22 added, 0 unchanged)"))
        let search = try #require(out.components(separatedBy: "\n\n").first { $0.hasPrefix("Search") })
        #expect(search.contains("[p-run-rain]"))
        let relevant = try #require(out.components(separatedBy: "\n\n").first { $0.hasPrefix("Relevant") })
        #expect(!relevant.contains("[p-run-rain]") && !relevant.contains("[p-marathon]"))  // rated posts left out
        #expect(relevant.split(separator: "\n").count == 6)
        // 3 posts are older than 60 days on 2026-03-31; then 19 are trimmed to the newest 16.
        #expect(out.contains("Prune: 3 older than 60 days, 3 over the capacity of 16; 16 posts left"))
    }

    @Test func plannerReindexesOnlyChangedRecordsAndFilters() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("planner.hush").path
        let first = try Self.run(["planner", "--lexical", "--db", db])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("index: 13 added, 0 updated, 0 unchanged; 43 chunks embedded"))
        #expect(first.stdout.contains("Summary of the top hits:"))

        let filtered = try Self.run([
            "planner", "--lexical", "--db", db, "--type", "meeting", "--after", "2026-02-01", "--query",
            "travel by train",
        ])
        #expect(filtered.stdout.contains("index: 0 added, 0 updated, 13 unchanged; 0 chunks embedded"))
        let hits = filtered.stdout.split(separator: "\n").filter { $0.contains("] ") && $0.hasSuffix(")") }
        #expect(hits.first?.contains("[m-travel] Conference travel (meeting, 2026-03-09)") == true)
        #expect(hits.allSatisfy { $0.contains("(meeting, 2026-02") || $0.contains("(meeting, 2026-03") })

        let amended = try Self.run([
            "planner", "--lexical", "--db", db, "--amend", "m-retro=pair programming on Fridays", "--min-score", "2",
        ])
        #expect(amended.stdout.contains("index: 0 added, 1 updated, 12 unchanged; 6 chunks embedded"))
        #expect(amended.stdout.contains("nothing above the minimum score"))
    }
}
