import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `hush build` as a real process: summaries, JSON, and what SIGTERM and SIGKILL leave behind.
@Suite(.serialized) struct BuildCLITests {
    /// 640 short journal records (10 write batches of 64).
    static func writeRecords(_ url: URL, variant: String = "") throws {
        let topics = ["sleep", "work", "money", "family", "running", "study", "friends", "cooking"]
        var lines: [String] = []
        for index in 0..<640 {
            let topic = topics[index % topics.count]
            lines.append(
                #"{"id": "r\#(index)", "title": "Entry \#(index) about \#(topic)", "text": "Day \#(index): a few lines on \#(topic)\#(variant), what went well and what to try tomorrow.", "category": "\#(topic)"}"#
            )
        }
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
    }

    static func temporaryFiles(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".building-") }
    }

    static func sha(_ url: URL) throws -> Data { try Data(contentsOf: url) }

    /// Starts a slowed-down build and returns once its temporary database exists and embedding is under way.
    static func startSlowBuild(input: URL, output: URL) throws -> Process {
        let process = Process()
        process.executableURL = CLIRunner.binary
        process.arguments = ["build", "--lexical", "--from", input.path, "--out", output.path, "--throttle-ms", "400"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let folder = output.deletingLastPathComponent()
        let working = folder.appendingPathComponent(
            ".\(output.lastPathComponent).building-\(process.processIdentifier)")
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline && !FileManager.default.fileExists(atPath: working.path) { usleep(20_000) }
        usleep(600_000)  // at least one batch committed into the temporary file
        return process
    }

    @Test func buildReportsAndRebuildsWithoutEmbedding() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("kb.sqlite").path
        let first = try CLIRunner.run([
            "build", "--lexical", "--json", "--from", CLIRunner.samples.path, "--out", output,
        ])
        #expect(first.status == 0, "\(first.stderr)")
        let one = try first.json()
        #expect(one["documents"] as? Int == 27)
        #expect(one["added"] as? Int == 27)
        #expect(one["reused_previous"] as? Bool == false)

        let second = try CLIRunner.run(["build", "--lexical", "--from", CLIRunner.samples.path, "--out", output])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("0 added, 0 updated, 27 unchanged, 0 deleted; 0 chunks embedded"))
        #expect(second.stdout.contains("started from the previous build"))
        #expect(second.stdout.contains(try #require(one["content_digest"] as? String)))
        #expect(second.stdout.contains(try #require(one["output_sha256"] as? String)))

        let manifest = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: folder.appendingPathComponent("kb.manifest.json"))) as? [String: Any])
        #expect(manifest["contentDigest"] as? String == one["content_digest"] as? String)
        #expect((manifest["counts"] as? [String: Any])?["inputFiles"] as? Int == 5)

        let search = try CLIRunner.run(["search", "--db", output, "--mode", "keyword", "--k", "1", "garden tomatoes"])
        #expect(search.status == 0, "\(search.stderr)")
        #expect(search.stdout.contains("[samples/notes/garden.md]"))
    }

    @Test func configurationFileSetsChunkingAndType() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("hush-build.json")
        try #"{"sourceType": "handbook", "chunking": {"targetTokens": 48, "overlapTokens": 8}, "lexical": true}"#
            .write(to: config, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("kb.sqlite").path
        let notes = CLIRunner.samples.appendingPathComponent("notes").path
        let built = try CLIRunner.run(["build", "--json", "--config", config.path, "--from", notes, "--out", output])
        #expect(built.status == 0, "\(built.stderr)")
        let report = try built.json()
        #expect(report["documents"] as? Int == 3)
        #expect((report["chunks"] as? Int ?? 0) > 3)  // 48-token chunks split the notes
        let filtered = try CLIRunner.run(["search", "--db", output, "--filter", "type=handbook", "--k", "5", "budget"])
        #expect(filtered.stdout.contains("budget-review.md"), "\(filtered.stderr)")
    }

    @Test func sigtermLeavesThePreviousFileAndNoTemporaryFile() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("records.jsonl")
        let output = folder.appendingPathComponent("kb.sqlite")
        try Self.writeRecords(input)
        let first = try CLIRunner.run(["build", "--lexical", "--quiet", "--from", input.path, "--out", output.path])
        #expect(first.status == 0, "\(first.stderr)")
        let before = try Self.sha(output)

        try Self.writeRecords(input, variant: " and rest")  // every record changes: a long re-embedding build
        let process = try Self.startSlowBuild(input: input, output: output)
        #expect(try !Self.temporaryFiles(folder).isEmpty)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 128 + SIGTERM)
        #expect(try Self.sha(output) == before)
        #expect(try Self.temporaryFiles(folder).isEmpty)
    }

    @Test func sigkillLeavesThePreviousFileAndTheNextBuildCleansUp() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("records.jsonl")
        let output = folder.appendingPathComponent("kb.sqlite")
        try Self.writeRecords(input)
        #expect(
            try CLIRunner.run(["build", "--lexical", "--quiet", "--from", input.path, "--out", output.path]).status == 0
        )
        let before = try Self.sha(output)

        try Self.writeRecords(input, variant: " and rest")
        let process = try Self.startSlowBuild(input: input, output: output)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(try Self.sha(output) == before)
        // SIGKILL cannot be handled: the dead build's files stay until the next build.
        #expect(try !Self.temporaryFiles(folder).isEmpty)

        let next = try CLIRunner.run(["build", "--lexical", "--json", "--from", input.path, "--out", output.path])
        #expect(next.status == 0, "\(next.stderr)")
        let report = try next.json()
        #expect((report["removed_stale"] as? Int ?? 0) >= 1)
        #expect(report["updated"] as? Int == 640)
        #expect(try Self.temporaryFiles(folder).isEmpty)
        #expect(try Self.sha(output) != before)
    }
}
