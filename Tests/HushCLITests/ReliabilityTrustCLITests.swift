import Foundation
import GRDB
import HushTestSupport
import Testing

@testable import HushCLI

/// The [reliability-2] defects as a person meets them: the real `hush` binary on real files. Each test
/// failed before its fix.
@Suite(.serialized) struct ReliabilityTrustCLITests {
    /// Builds the samples (lexical: no model needed) into `folder/name`.
    private static func buildSamples(in folder: URL, name: String = "kb.sqlite") throws -> String {
        let output = folder.appendingPathComponent(name).path
        let build = try CLIRunner.run([
            "build", "--lexical", "--quiet", "--from", CLIRunner.samples.path, "--out", output,
        ])
        #expect(build.status == 0, "\(build.stderr)")
        return output
    }

    // MARK: 5. A read-only knowledge base, as another user

    @Test func aReadOnlyKnowledgeBaseIsSearchedWithoutBeingWritten() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let shipped = folder.appendingPathComponent("ro")
        try FileManager.default.createDirectory(at: shipped, withIntermediateDirectories: true)
        let kb = try Self.buildSamples(in: shipped)
        let before = try Data(contentsOf: URL(fileURLWithPath: kb))
        chmod(kb, 0o444)
        chmod(shipped.path, 0o555)
        defer { chmod(shipped.path, 0o755) }

        // As this user (root on CI: permissions do not stop it, so only the bytes tell).
        for arguments in [["search", "--db", kb, "money"], ["stats", "--db", kb], ["get", "--db", kb, "r-money"]] {
            let result = try CLIRunner.run(arguments)
            #expect(result.status == 0, "\(arguments[0]): \(result.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: kb)) == before)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: shipped.path).sorted() == [
                "kb.manifest.json", "kb.sqlite",
            ])

        // As a user who cannot write the file or the folder.
        let setpriv = "/usr/bin/setpriv"
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: setpriv) else {
            reliabilityLog("read-only as another user: skipped (needs root and setpriv to switch users)")
            return
        }
        chmod(folder.path, 0o755)
        let nobody = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
        for arguments in [["search", "--db", kb, "money"], ["stats", "--db", kb], ["get", "--db", kb, "r-money"]] {
            let result = try CLIRunner.run(arguments, launcher: nobody)
            #expect(result.status == 0, "\(arguments[0]) as nobody: \(result.stderr)")
        }
        let search = try CLIRunner.run(["search", "--db", kb, "--mode", "keyword", "money"], launcher: nobody)
        #expect(search.stdout.contains("[r-money]"), "\(search.stderr)")
        let delete = try CLIRunner.run(["delete", "--db", kb, "r-money"], launcher: nobody)
        #expect(delete.status != 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: kb)) == before)
    }

    // MARK: 6. Readers beside a writer; a busy file is busy, never "delete it"

    @Test func readersRunBesideAWriterAndWritersSayBusy() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("lk.hush").path
        let index = try CLIRunner.run(["index", "--lexical", "--quiet", "--db", db, CLIRunner.samples.path])
        #expect(index.status == 0, "\(index.stderr)")

        var holding = Configuration()
        holding.allowsUnsafeTransactions = true  // the transaction stays open across accesses, on purpose
        let holder = try DatabaseQueue(path: db, configuration: holding)
        try holder.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN IMMEDIATE; INSERT INTO meta (key, value) VALUES ('z', '1')")
        }
        for arguments in [
            ["search", "--db", db, "--mode", "keyword", "garden"], ["stats", "--db", db],
            ["get", "--db", db, "r-money"], ["search", "--db", db, "money worries"],
        ] {
            let begin = Date()
            let result = try CLIRunner.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(Date().timeIntervalSince(begin) < 5, "\(arguments) waited for the writer")
        }
        let delete = try CLIRunner.run(["delete", "--db", db, "r-money"])
        #expect(delete.status != 0)
        #expect(delete.stderr.contains("busy") && delete.stderr.contains("another process is writing"))
        #expect(!delete.stderr.contains("delete the file"))
        try holder.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
        #expect(try CLIRunner.run(["delete", "--db", db, "r-money"]).status == 0)
    }

    // MARK: 7. compact beside compact and index

    @Test func compactionsWaitForEachOtherAndForIndexing() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("c.hush").path
        #expect(try CLIRunner.run(["index", "--lexical", "--quiet", "--db", db, CLIRunner.samples.path]).status == 0)
        var failures: [String] = []
        for round in 0..<8 {
            let errors = (0..<3).map { folder.appendingPathComponent("err-\(round)-\($0)") }
            let processes = [
                try ReliabilityProcess.start(["compact", "--db", db], errorFile: errors[0]),
                try ReliabilityProcess.start(["compact", "--db", db], errorFile: errors[1]),
                try ReliabilityProcess.start(
                    ["index", "--lexical", "--quiet", "--db", db, CLIRunner.samples.path], errorFile: errors[2]),
            ]
            for (process, error) in zip(processes, errors) {
                process.waitUntilExit()
                if process.terminationStatus != 0 {
                    failures.append((try? String(contentsOf: error, encoding: .utf8)) ?? "")
                }
            }
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    // MARK: 8. Without the model

    @Test(.needsModel) func withoutTheModelAStoreCanBeReadKeywordSearchedAndDeleted() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("m.hush").path
        let index = try CLIRunner.run(["index", "--quiet", "--db", db, CLIRunner.samples.path])
        #expect(index.status == 0, "\(index.stderr)")
        let missing = [
            "HUSH_MODEL_DIR": folder.appendingPathComponent("no-model-here").path,
            "HUSH_E5_MODEL": folder.appendingPathComponent("no-model-here.bin").path,
        ]

        for arguments in [
            ["get", "--db", db, "r-money"], ["stats", "--db", db],
            ["search", "--db", db, "--mode", "keyword", "money"],
            ["delete", "--db", db, "r-money"], ["prune", "--db", db, "--max-documents", "20"], ["compact", "--db", db],
        ] {
            let result = try CLIRunner.run(arguments, environment: missing)
            #expect(result.status == 0, "\(arguments[0]) without the model: \(result.stderr)")
        }
        // The default mode falls back to keywords and says so; semantic search says what to install.
        let fallback = try CLIRunner.run(["search", "--db", db, "garden tomatoes"], environment: missing)
        #expect(fallback.status == 0 && fallback.stderr.contains("keyword search"), "\(fallback.stderr)")
        #expect(fallback.stdout.contains("garden.md"))
        let semantic = try CLIRunner.run(["search", "--db", db, "--mode", "semantic", "garden"], environment: missing)
        #expect(semantic.status != 0 && semantic.stderr.contains("scripts/fetch-model"), "\(semantic.stderr)")
        let stats = try CLIRunner.run(["stats", "--db", db], environment: missing)
        #expect(stats.stdout.contains("model:     not installed"))
    }

    // MARK: Smaller: the mismatch message, bad arguments, large k, escaped ids, typed words, sums

    @Test(.needsModel) func aMismatchNamesTheCommandLineRemedy() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("x.hush").path
        #expect(try CLIRunner.run(["index", "--quiet", "--db", db, CLIRunner.samples.path]).status == 0)
        let result = try CLIRunner.run(["search", "--db", db, "--lexical", "money"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("hush reembed") && result.stderr.contains("--model"), "\(result.stderr)")
        #expect(!result.stderr.contains("allowEmbedderMismatch"))
    }

    @Test func badArgumentsAreRefusedAndAnyKIsClamped() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = try Self.buildSamples(in: folder)
        for (argument, message) in [
            (["--min-score", "nan"], "--min-score"), (["--filter", "tags=,"], "tags"),
            (["--filter", "meta.=1"], "metadata key"), (["--filter", "colour=red"], "unknown key"),
        ] {
            let result = try CLIRunner.run(["search", "--db", db] + argument + ["money"])
            #expect(result.status != 0 && result.stderr.contains(message), "\(argument): \(result.stderr)")
        }
        let huge = String(Int.max)
        for mode in ["hybrid", "semantic", "keyword", "rrf"] {
            let result = try CLIRunner.run(["search", "--db", db, "--mode", mode, "--k", huge, "money"])
            #expect(result.status == 0, "\(mode): \(result.stderr)")
        }
        for arguments in [
            ["related", "--db", db, "--k", huge, "r-money"],
            ["summarize", "--db", db, "--query", "money", "--k", huge],
            ["rank", "--db", db, "--liked", "r-money", "--k", huge],
        ] {
            let result = try CLIRunner.run(arguments)
            #expect(result.status == 0, "\(arguments[0]): \(result.stderr)")
        }
    }

    @Test func idsAreEscapedAndExplainShowsTheWordsTyped() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("posts.jsonl")
        try #"{"id": "two\nlines", "text": "Worried about money and sleeping badly."}"#.write(
            to: input, atomically: true, encoding: .utf8)
        let db = folder.appendingPathComponent("e.hush").path
        #expect(try CLIRunner.run(["index", "--lexical", "--quiet", "--db", db, input.path]).status == 0)
        let result = try CLIRunner.run(["search", "--db", db, "--explain", "sleeping money worries"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#"[two\nlines]"#))
        #expect(result.stdout.contains("keywords: sleeping, money, worries"), "\(result.stdout)")
        let get = try CLIRunner.run(["get", "--db", db, "two\nlines"])
        #expect(get.stdout.contains(#"id:       two\nlines"#))
    }

    @Test func theIndexSummaryAddsUp() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try
            "{\"id\": \"a\", \"text\": \"One.\"}\n{\"id\": \"a\", \"text\": \"Again.\"}\nnot json\n{\"id\": \"b\", \"text\": \"Two.\"}\n"
            .write(to: input.appendingPathComponent("p.jsonl"), atomically: true, encoding: .utf8)
        try Data().write(to: input.appendingPathComponent("empty.txt"))
        let db = folder.appendingPathComponent("s.hush").path
        let result = try CLIRunner.run(["index", "--lexical", "--quiet", "--db", db, input.path])
        #expect(result.status == 0, "\(result.stderr)")
        // 3 documents read (a, a, b): 2 added + 1 rejected duplicate; 2 inputs skipped (a line and a file).
        #expect(result.stdout.contains("read 3 documents"), "\(result.stdout)")
        #expect(
            result.stdout.contains("2 added, 0 updated, 0 unchanged, 1 rejected; 2 inputs skipped"), "\(result.stdout)")
    }

    @Test func manyQueryWordsAndTextsParseInLinearTime() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let texts = (0..<20_000).map { "w\($0)" }
        let begin = Date()
        let embedded = try CLIRunner.run(["embed", "--lexical"] + texts)
        let seconds = Date().timeIntervalSince(begin)
        #expect(embedded.status == 0, "\(embedded.stderr)")
        let lines = embedded.stdout.split(separator: "\n")
        #expect(lines.count == texts.count)
        let last = try #require(
            try JSONSerialization.jsonObject(with: Data(lines[lines.count - 1].utf8)) as? [String: Any])
        #expect(last["text"] as? String == "w19999")
        // Quadratic parsing took about 40 s for 20,000 arguments; linear takes well under a second of it.
        #expect(seconds < 15, "\(seconds) s")
        #expect(TrailingArguments.split(["search", "--db", "x", "--mode", "keyword"] + texts).trailing.count == 19_999)
        #expect(TrailingArguments.split(["search", "--", "-a"] + texts).trailing.isEmpty)
    }

    // MARK: 2 and smaller: build output

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
}
