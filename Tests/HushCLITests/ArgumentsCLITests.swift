import Foundation
import HushEmbedding
import HushToolSupport
import Testing

@testable import HushCLI

/// How `hush` reads its arguments: bad values refused with what to write, any `--k` clamped, `--threads`
/// bounded, values starting with a dash, a folder given as the database, and thousands of trailing words.
@Suite(.serialized) struct ArgumentsCLITests {
    /// ArgumentParser checks a command's values before the options it did not use: a mistyped option was
    /// reported as a missing `--db` or as the check of the option meant. Every command names it now.
    @Test func aMistypedOptionIsNamedWithTheOneMeant() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("never.hush").path
        for (arguments, typo, meant) in [
            (["rank", "--db", db, "--like", "a"], "--like", "--liked"),
            (["search", "--dbb", db, "budget"], "--dbb", "--db"),
            (["list", "--dbb", db], "--dbb", "--db"),
            (["related", "--db", db, "--limt", "3", "a"], "--limt", "--limit"),
            (["index", "--db", db, "--lexicl", "notes"], "--lexicl", "--lexical"),
            (["model", "info", "--jsn"], "--jsn", "--json"),
            (["search", "--db", db, "--no-across-language", "q"], "--no-across-language", "--no-across-languages"),
            (["search", "--db", db, "-k", "5", "q"], "-k", "--k"),
            (["stats", "--db", db, "-json"], "-json", "--json"),
        ] {
            let result = try CLIRunner.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(
                result.stderr.contains("Unknown option '\(typo)'. Did you mean '\(meant)'?"),
                "\(arguments): \(result.stderr)")
        }
        // A snippet fills about 160 columns: Han characters take two.
        #expect(SearchOutput.snippetLength("Lay awake for hours listening to the rain.") == 160)
        #expect(SearchOutput.snippetLength("最近总是失眠，半夜醒来就睡不着。") == 80)
        // Nothing was made or read, and known options and values after -- are not taken for typos.
        #expect(!FileManager.default.fileExists(atPath: db))
        let known = try CLIRunner.run(["search", "--db", db, "--mode", "keyword", "--", "--not-an-option"])
        #expect(!known.stderr.contains("Unknown option"), "\(known.stderr)")
        let far = try CLIRunner.run(["stats", "--db", db, "--zzzzzzzzzz"])
        #expect(far.stderr.contains("Unknown option '--zzzzzzzzzz'.") && !far.stderr.contains("Did you mean"))
    }

    @Test func badArgumentsAreRefusedAndAnyKIsClamped() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = try CLIRunner.buildSamples(in: folder)
        for (argument, message) in [
            (["--min-score", "nan"], "--min-score"), (["--filter", "tags=,"], "tags"),
            (["--filter", "meta.=1"], "metadata key"), (["--filter", "colour=red"], "unknown key"),
        ] {
            let result = try CLIRunner.run(["search", "--db", db] + argument + ["money"])
            #expect(result.status != 0 && result.stderr.contains(message), "\(argument): \(result.stderr)")
        }
        // A blank query is a mistake that says so, unless it is the empty box of a search as you type.
        for arguments in [
            ["search", "--db", db, ""], ["search", "--db", db, " ", "  "],
            ["summarize", "--db", db, "--query", " "],
        ] {
            let result = try CLIRunner.run(arguments)
            #expect(result.status == 64 && result.stderr.contains("is empty"), "\(arguments): \(result.stderr)")
        }
        let typing = try CLIRunner.run(["search", "--db", db, "--as-you-type", ""])
        #expect(typing.status == 0 && typing.stdout.contains("no results"), "\(typing.stderr)")
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

    /// `--liked`, `--disliked` and `--candidates` add up when repeated (the last one alone used to count, so
    /// the first liked document came back ranked), and an id holding a comma is taken whole.
    @Test func repeatedIdListsAddUp() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = try CLIRunner.buildSamples(in: folder)
        let base = ["rank", "--db", db, "--json", "--now", "2026-04-01"]
        let once = try CLIRunner.succeed(base + ["--liked", "r-sleep,r-news", "--disliked", "r-money"]).json()
        let repeated = try CLIRunner.succeed(
            base + ["--liked", "r-sleep", "--liked", "r-news", "--disliked", "r-money"]
        ).json()
        #expect(repeated["liked"] as? [String] == ["r-sleep", "r-news"], "\(repeated)")
        func ids(_ json: [String: Any]) -> [String] {
            (json["results"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
        }
        #expect(ids(repeated) == ids(once))
        #expect(!ids(repeated).contains("r-sleep") && !ids(repeated).contains("r-news"))
        let some = try CLIRunner.succeed(
            base + ["--liked", "r-sleep", "--candidates", "r-run,r-exam", "--candidates", "m-launch"]
        ).json()
        #expect(Set(ids(some)) == ["r-run", "r-exam", "m-launch"], "\(some)")

        // A note whose name holds a comma.
        let notes = folder.appendingPathComponent("notes")
        try FileManager.default.createDirectory(at: notes, withIntermediateDirectories: true)
        try "Standup: the release slips a week.".write(
            to: notes.appendingPathComponent("Meeting, Monday.txt"), atomically: true, encoding: .utf8)
        try "Standup: the release is back on track.".write(
            to: notes.appendingPathComponent("Meeting, Friday.txt"), atomically: true, encoding: .utf8)
        let store = folder.appendingPathComponent("n.hush").path
        try CLIRunner.succeed(["index", "--lexical", "--quiet", "--db", store, notes.path])
        let comma = try CLIRunner.succeed(["rank", "--db", store, "--json", "--liked", "notes/Meeting, Monday.txt"])
            .json()
        #expect(comma["liked"] as? [String] == ["notes/Meeting, Monday.txt"], "\(comma)")
        #expect(ids(comma) == ["notes/Meeting, Friday.txt"])
    }

    /// `--limit N` (the library's word) is `--k N` in every command that takes a number of results.
    @Test func limitIsTheSameAsK() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = try CLIRunner.buildSamples(in: folder)
        func ids(_ arguments: [String]) throws -> [String] {
            let output = try CLIRunner.succeed(arguments + ["--json"]).stdout
            let object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
            let results = object?["results"] as? [[String: Any]] ?? []
            return results.compactMap { $0["id"] as? String }
        }
        for arguments in [
            ["search", "--db", db, "--mode", "semantic", "money worries"], ["related", "--db", db, "r-money"],
            ["rank", "--db", db, "--liked", "r-money"],
        ] {
            let k = try ids(arguments + ["--k", "2"])
            #expect(k.count == 2, "\(arguments[0]): \(k)")
            #expect(try ids(arguments + ["--limit", "2"]) == k, "\(arguments[0])")
        }
        let summary = try CLIRunner.succeed(["summarize", "--db", db, "--query", "money", "--limit", "1", "--json"])
        #expect(summary.stdout.contains("\"documents\":[\"r-money\"]"), "\(summary.stdout)")
    }

    @Test func threadCountsBeyondTheCoresAreRefusedAtOnce() throws {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        for arguments in [
            ["embed", "--threads", "100000", "hello"], ["embed", "--threads", "0", "hello"],
            ["search", "--db", "x.hush", "--threads", "\(cores + 1)", "hello"],
            ["index", "--db", "x.hush", "--threads", "200", "notes"],
        ] {
            let begin = Date()
            let result = try CLIRunner.run(arguments)
            #expect(result.status != 0, "\(arguments)")
            #expect(result.stderr.contains("--threads must be between 1 and \(cores)"), "\(result.stderr)")
            #expect(Date().timeIntervalSince(begin) < 10)
        }
        let fine = try CLIRunner.run(["embed", "--lexical", "--threads", "\(cores)", "hello"])
        #expect(fine.status == 0, "\(fine.stderr)")
    }

    @Test func valuesStartingWithADashAreRefusedWithHowToPassThem() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let notes = folder.appendingPathComponent("-dash dir")
        try FileManager.default.createDirectory(at: notes, withIntermediateDirectories: true)
        try "A note in a folder whose name starts with a dash.".write(
            to: notes.appendingPathComponent("-n.txt"), atomically: true, encoding: .utf8)
        let db = folder.appendingPathComponent("j.hush").path
        try CLIRunner.succeed(["index", "--lexical", "--quiet", "--db", db, "--", notes.path])
        for arguments in [["get", "--db", db, "-dash dir/-n.txt"], ["delete", "--db", db, "-n.txt"]] {
            let result = try CLIRunner.run(arguments)
            #expect(result.status != 0, "\(arguments)")
            #expect(result.stderr.contains("put -- before it"), "\(result.stderr)")
            #expect(!result.stdout.contains("USAGE"))
        }
        let get = try CLIRunner.succeed(["get", "--db", db, "--", "-dash dir/-n.txt"])
        #expect(get.stdout.contains("starts with a dash"), "\(get.stdout)")
    }

    @Test func aFolderGivenAsTheDatabaseIsNamedAsSuch() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        for arguments in [
            ["search", "--db", folder.path, "x"], ["index", "--lexical", "--db", folder.path, folder.path],
        ] {
            let result = try CLIRunner.run(arguments)
            #expect(result.status != 0)
            #expect(result.stderr.contains("it is a folder"), "\(arguments[0]): \(result.stderr)")
            #expect(!result.stderr.contains("disk I/O") && !result.stderr.contains("open read-only"))
        }
    }

    @Test func manyQueryWordsAndTextsParseInLinearTime() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let texts = (0..<20_000).map { "w\($0)" }
        let embedded = try CLIRunner.run(["embed", "--lexical"] + texts)
        #expect(embedded.status == 0, "\(embedded.stderr)")
        let lines = embedded.stdout.split(separator: "\n")
        #expect(lines.count == texts.count)
        let last = try #require(
            try JSONSerialization.jsonObject(with: Data(lines[lines.count - 1].utf8)) as? [String: Any])
        #expect(last["text"] as? String == "w19999")
        // Quadratic parsing took about 40 s for 20,000 arguments; linear takes milliseconds. Timed in process: the
        // command's own time is mostly its 20,000 lines of 384 numbers.
        let begin = Date()
        #expect(TrailingArguments.split(["search", "--db", "x", "--mode", "keyword"] + texts).trailing.count == 19_999)
        let seconds = Date().timeIntervalSince(begin)
        #expect(seconds < 2, "\(seconds) s")
        #expect(TrailingArguments.split(["search", "--", "-a"] + texts).trailing.isEmpty)
    }
}

/// `hush embed` writes its lines itself: each is the line `JSONEncoder` makes of the same value, byte for byte,
/// and every component reads back as the float it was.
@Suite struct EmbedLineTests {
    @Test func theDirectLineIsTheEncodersLine() throws {
        let vectors: [[Float]] = [
            [0, -0.0, 1, -1, 0.1, 1e-5, -3.25e-7, 123_456.79, .leastNonzeroMagnitude, .greatestFiniteMagnitude],
            (0..<384).map { Float(sin(Double($0) * 1.7)) / 19.5 },
            [.nan, .infinity, 0.5],
        ]
        let texts = ["plain", "quote \" and back\\slash", "line\nbreak\ttab", "a/b 🙂 失眠怎么办", ""]
        for (index, vector) in vectors.enumerated() {
            for text in texts {
                for ids in [nil, [101, 7, 102] as [Int32]] {
                    let value = EmbedJSON(
                        text: text, embedding: Embedding(vector: vector, tokenCount: 3, truncated: index == 1), ids: ids
                    )
                    #expect(value.line == (try JSONOutput.line(value)))
                    let parsed = try #require(
                        try JSONSerialization.jsonObject(with: Data(value.line.utf8)) as? [String: Any])
                    #expect(parsed["text"] as? String == text)
                    let numbers = try #require(parsed["vector"] as? [Any])
                    for (component, number) in zip(vector, numbers) where component.isFinite {
                        #expect(Float((number as? NSNumber)?.doubleValue ?? .nan) == component)
                    }
                }
            }
        }
    }
}
