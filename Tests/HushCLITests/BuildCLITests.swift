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
        // This build's own temporary files are gone; what it embedded is kept for the next one.
        let left = try Self.temporaryFiles(folder)
        #expect(Set(left) == [".kb.sqlite.building-resume", ".kb.sqlite.building-resume.json"], "\(left)")

        let next = try CLIRunner.run(["build", "--lexical", "--json", "--from", input.path, "--out", output.path])
        #expect(next.status == 0, "\(next.stderr)")
        let report = try next.json()
        #expect(report["resumed_stopped"] as? Bool == true)
        let updated = report["updated"] as? Int ?? -1
        let unchanged = report["unchanged"] as? Int ?? -1
        #expect(unchanged > 0 && updated + unchanged == 640, "\(report)")
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

    @Test func aBuildRefusesForeignFilesAndWritesOwnerOnlyFiles() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let thesis = folder.appendingPathComponent("thesis.txt")
        try "Chapter one.".write(to: thesis, atomically: true, encoding: .utf8)
        let refused = try CLIRunner.run([
            "build", "--lexical", "--quiet", "--from", CLIRunner.samples.path, "--out", thesis.path,
        ])
        #expect(refused.status != 0 && refused.stderr.contains("--force"), "\(refused.stderr)")
        #expect(try String(contentsOf: thesis, encoding: .utf8) == "Chapter one.")

        let indexed = folder.appendingPathComponent("store.hush").path
        #expect(
            try CLIRunner.run(["index", "--lexical", "--quiet", "--db", indexed, CLIRunner.samples.path]).status == 0)
        let overStore = try CLIRunner.run([
            "build", "--lexical", "--quiet", "--from", CLIRunner.samples.path, "--out", indexed,
        ])
        #expect(overStore.status != 0 && overStore.stderr.contains("no build manifest"), "\(overStore.stderr)")

        let forced = try CLIRunner.run(
            ["build", "--lexical", "--quiet", "--force", "--from", CLIRunner.samples.path, "--out", thesis.path])
        #expect(forced.status == 0, "\(forced.stderr)")

        // Under umask 000 the file and its manifest are still owner-only.
        let output = folder.appendingPathComponent("kb.sqlite")
        let process = try ReliabilityProcess.start(
            ["build", "--lexical", "--quiet", "--from", CLIRunner.samples.path, "--out", output.path], umask: "000")
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        for path in [output.path, folder.appendingPathComponent("kb.manifest.json").path] {
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(path): \(String(mode ?? 0, radix: 8))")
        }
    }

    @Test func buildTakesALongLegalNameAndIgnoresItsOwnOutputInItsInputs() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = String(repeating: "k", count: 240) + ".sqlite"
        #expect(name.utf8.count == 247)
        let long = folder.appendingPathComponent(name).path
        let build = try CLIRunner.run([
            "build", "--lexical", "--quiet", "--from", CLIRunner.samples.path, "--out", long,
        ])
        #expect(build.status == 0, "\(build.stderr)")
        #expect(FileManager.default.fileExists(atPath: long))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("building") } == [])

        // Into its own input folder: an unchanged second build gives the same bytes.
        let inputs = folder.appendingPathComponent("inputs")
        try FileManager.default.copyItem(at: CLIRunner.samples, to: inputs)
        let out = inputs.appendingPathComponent("kb.sqlite").path
        var bytes: [Data] = []
        for _ in 0..<3 {
            let result = try CLIRunner.run(["build", "--lexical", "--quiet", "--from", inputs.path, "--out", out])
            #expect(result.status == 0, "\(result.stderr)")
            bytes.append(try Data(contentsOf: URL(fileURLWithPath: out)))
        }
        #expect(bytes[0] == bytes[1] && bytes[1] == bytes[2])
    }
}
