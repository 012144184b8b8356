import Foundation
import GRDB
import Hush
import HushTestSupport
import Testing

/// The real `hush` binary on the sample texts of the repository, with the real model.
@Suite(.serialized) struct CLITests {
    @Test(.needsModel) func embedPrintsUnitVectorsAsJSONLines() throws {
        let result = try CLIRunner.run([
            "embed", "--model", "minilm", "--tokens", "hello world", "reaching out to someone from the past",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        try #require(lines.count == 2)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(first["text"] as? String == "hello world")
        let vector = try #require(first["vector"] as? [Double])
        #expect(vector.count == 384)
        #expect(abs(vector.reduce(0) { $0 + $1 * $1 } - 1) < 1e-4)
        #expect(first["truncated"] as? Bool == false)
        #expect(first["ids"] as? [Int] == [101, 7592, 2088, 102])
    }

    /// The default model is multilingual-e5-small; `--query` / `--passage` choose the prefix it reads.
    @Test(.needsModel) func embedWithTheDefaultModelTakesARole() throws {
        func embed(_ flag: String?) throws -> [String: Any] {
            let result = try CLIRunner.run(["embed", "--tokens"] + (flag.map { [$0] } ?? []) + ["hello world"])
            #expect(result.status == 0, "\(result.stderr)")
            return try result.json()
        }
        let passage = try embed(nil)
        #expect(passage["ids"] as? [Int] == [0, 46692, 12, 33600, 31, 8999, 2])  // <s> ▁passage : ▁hell o ▁world </s>
        #expect(try embed("--passage")["ids"] as? [Int] == passage["ids"] as? [Int])
        let query = try embed("--query")
        #expect(query["ids"] as? [Int] == [0, 41, 1294, 12, 33600, 31, 8999, 2])  // <s> ▁que ry : ...
        #expect((query["vector"] as? [Double])?.count == 384)
        let both = try CLIRunner.run(["embed", "--query", "--passage", "x"])
        #expect(both.status != 0 && both.stderr.contains("not both"))
    }

    @Test(.needsModel) func invalidUTF8OnStandardInputNamesTheLineAndKeepsTheOthers() throws {
        var input = Data("first line\n".utf8)
        input.append(contentsOf: [0x62, 0x61, 0x64, 0xFF, 0xFE, 0x0A])
        input.append(Data("third line\n".utf8))
        let result = try CLIRunner.run(["embed"], stdin: input)
        #expect(result.status == 1)
        #expect(result.stderr.contains("line 2"))
        let texts = try result.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["text"] as? String
        }
        #expect(texts == ["first line", "third line"])
    }

    @Test(.needsModel) func modelInfoDescribesTheDefaultModel() throws {
        let result = try CLIRunner.run(["model", "info", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let info = try result.json()
        #expect(info["model"] as? String == "multilingual-e5-small")
        #expect(info["dimension"] as? Int == 384)
        #expect(info["pooling"] as? String == "mean")
        #expect(info["max_tokens"] as? Int == 512)
        #expect(info["query_prefix"] as? String == "query: ")
        #expect(info["layers"] as? Int == 12)
        #expect(info["vocabulary"] as? Int == 250_002)
        let minilm = try CLIRunner.run(["model", "info", "--json", "--model", "minilm"]).json()
        #expect(minilm["model"] as? String == "all-MiniLM-L6-v2")
        #expect(minilm["max_tokens"] as? Int == 256)
        #expect(minilm["query_prefix"] == nil)
        #expect(info["languages"] as? String == "multilingual" && minilm["languages"] as? String == "monolingual")
        // Which kernels run, on which CPU, with which BLAS: benchmark tables name them.
        #expect(["scalar", "avx2", "avx512", "avx512+vnni", "neon"].contains(minilm["kernels"] as? String ?? ""))
        #expect((minilm["cpu"] as? String)?.isEmpty == false)
        #expect((minilm["blas"] as? String)?.hasPrefix("OpenBLAS") == true || minilm["blas"] as? String == "Accelerate")
    }

    @Test func missingModelIsAClearError() throws {
        let result = try CLIRunner.run(["embed", "--model", "/nonexistent/model", "hi"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("/nonexistent/model"))
        #expect(result.stderr.contains("scripts/fetch-model"))
    }

    @Test func indexTakesAChunkSizeAndTheStoreKeepsIt() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("sized.hush").path
        let text = folder.appendingPathComponent("long.txt")
        let sentences = (0..<60).map { "Entry \($0) of the harbour log notes the tide, the wind and the ferries." }
        try sentences.joined(separator: " ").write(to: text, atomically: true, encoding: .utf8)
        func stats() throws -> [String: Any] {
            let result = try CLIRunner.run(["stats", "--db", db, "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            return try result.json()
        }

        let lexical = try CLIRunner.run(["index", "--db", db, "--lexical", "--quiet", text.path])
        #expect(lexical.status == 0, "\(lexical.stderr)")
        let standard = try stats()
        #expect(standard["chunk_tokens"] as? Int == 128)
        #expect((standard["languages"] as? [String: Int]) == ["en": 1])
        #expect(standard["chunk_overlap"] as? Int == 24)

        let resized = try CLIRunner.run([
            "index", "--db", db, "--lexical", "--chunk-tokens", "48", "--chunk-overlap", "8", "--json", text.path,
        ])
        #expect(resized.status == 0, "\(resized.stderr)")
        #expect(try resized.json()["updated"] as? Int == 1)
        let small = try stats()
        #expect(small["chunk_tokens"] as? Int == 48)
        #expect(small["chunk_overlap"] as? Int == 8)
        #expect((small["chunks"] as? Int ?? 0) > (standard["chunks"] as? Int ?? 0))

        // Without the options the store keeps 48/8: the same file is unchanged.
        let again = try CLIRunner.run(["index", "--db", db, "--lexical", "--json", text.path])
        #expect(try again.json()["unchanged"] as? Int == 1)

        let bad = try CLIRunner.run(["index", "--db", db, "--lexical", "--chunk-tokens", "4", text.path])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("--chunk-tokens must be at least 8"))
        #expect(try stats()["chunks"] as? Int == small["chunks"] as? Int)

        // More than the model reads is refused with the model's window, and the store keeps its chunks.
        let wide = try CLIRunner.run(["index", "--db", db, "--lexical", "--chunk-tokens", "300", text.path])
        #expect(wide.status != 0)
        #expect(wide.stderr.contains("must be at most 256"), "\(wide.stderr)")
        #expect(try stats()["chunks"] as? Int == small["chunks"] as? Int)

        // A target alone takes the model's overlap in its proportion (24 of 128: 12 at 64).
        let alone = try CLIRunner.run(["index", "--db", db, "--lexical", "--chunk-tokens", "64", "--quiet", text.path])
        #expect(alone.status == 0, "\(alone.stderr)")
        #expect(try stats()["chunk_overlap"] as? Int == 12)

        // A refused option on a new file leaves no file behind.
        let fresh = folder.appendingPathComponent("never.hush").path
        let refused = try CLIRunner.run(["index", "--db", fresh, "--lexical", "--chunk-overlap", "200", text.path])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("below the chunk target of 128 tokens"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fresh))
    }

    @Test(.needsModel) func indexSearchGetDeleteAndStatsOnTheSamples() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("samples.hush").path

        let indexed = try CLIRunner.run(["index", "--db", db, "--json", CLIRunner.samples.path])
        #expect(indexed.status == 0, "\(indexed.stderr)")
        let summary = try indexed.json()
        #expect(summary["added"] as? Int == 27)
        #expect((summary["skipped"] as? [Any])?.isEmpty == true)

        // Meaning, not words: no sample shares a word with this query but "ex".
        let search = try CLIRunner.run(["search", "--db", db, "--json", "--k", "3", "should I text my ex?"])
        #expect(search.status == 0, "\(search.stderr)")
        let json = try search.json()
        let results = try #require(json["results"] as? [[String: Any]])
        #expect(results.count == 3)
        let ids = results.compactMap { $0["id"] as? String }
        #expect(ids.contains("r-ex"))
        #expect(results.allSatisfy { $0["score"] is Double && $0["text"] is String && $0["title"] != nil })
        let timings = try #require(json["timings"] as? [String: Any])
        #expect(timings["total_ms"] is Double || timings["total_ms"] is Int)

        let filtered = try CLIRunner.run([
            "search", "--db", db, "--json", "--filter", "category=work", "--mode", "semantic", "budget and costs",
        ])
        let filteredResults = try #require(try filtered.json()["results"] as? [[String: Any]])
        #expect(!filteredResults.isEmpty)
        #expect(filteredResults.allSatisfy { ($0["category"] as? String) == "work" })

        let keyword = try CLIRunner.run(["search", "--db", db, "--json", "--mode", "keyword", "--k", "1", "trellis"])
        let garden = try #require((try keyword.json()["results"] as? [[String: Any]])?.first)
        #expect(garden["id"] as? String == "samples/notes/garden.md")
        // The word the query matched, where it stands in the text, and the stretch that shows it.
        let text = Array(try #require(garden["text"] as? String).utf16)
        let marked = try #require(garden["highlights"] as? [[Int]])
        #expect(marked.map { String(decoding: text[$0[0]..<$0[1]], as: UTF16.self).lowercased() }.contains("trellis"))
        #expect((garden["snippet"] as? String)?.lowercased().contains("trellis") == true)

        let get = try CLIRunner.run(["get", "--db", db, "--json", "r-ex"])
        #expect(get.status == 0)
        #expect(try get.json()["title"] as? String == "Reaching out to someone from the past")

        let again = try CLIRunner.run(["index", "--db", db, "--json", CLIRunner.samples.path])
        #expect(try again.json()["unchanged"] as? Int == 27)

        let deleted = try CLIRunner.run(["delete", "--db", db, "r-ex", "no-such-entry", "r-ex"])
        #expect(deleted.stdout.contains("deleted 1 of 2 documents; not found: no-such-entry"), "\(deleted.stdout)")
        let gone = try CLIRunner.run(["get", "--db", db, "r-ex"])
        #expect(gone.status == 1)
        #expect(gone.stderr.contains("no document"))

        let stats = try CLIRunner.run(["stats", "--db", db, "--json"])
        let counts = try stats.json()
        #expect(counts["documents"] as? Int == 26)
        #expect(counts["chunks"] as? Int == counts["vectors"] as? Int)
        #expect(counts["embedder"] as? String == "multilingual-e5-small")
    }

    /// A store made with MiniLM keeps it (no --model needed), and `hush reembed --model e5-small` moves it to
    /// the multilingual model, after which a Chinese question finds the English entry on sleep.
    @Test(.needsModel) func aStoreKeepsItsModelAndReembedSwitchesIt() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("switch.hush").path
        let journal = CLIRunner.samples.appendingPathComponent("journal.jsonl").path
        #expect(try CLIRunner.run(["index", "--quiet", "--model", "minilm", "--db", db, journal]).status == 0)
        let before = try CLIRunner.run(["stats", "--db", db, "--json"]).json()
        #expect(before["embedder"] as? String == "all-MiniLM-L6-v2")
        // Without --model, search uses the stored model (MiniLM): the default for new stores (e5-small) would
        // be refused as another vector space.
        let english = try CLIRunner.run([
            "search", "--db", db, "--mode", "semantic", "--k", "3", "should I text my ex?",
        ])
        #expect(english.status == 0 && english.stdout.contains("[r-ex]"), "\(english.stdout)\(english.stderr)")

        let switched = try CLIRunner.run(["reembed", "--db", db, "--model", "e5-small"])
        #expect(switched.status == 0, "\(switched.stderr)")
        let after = try CLIRunner.run(["stats", "--db", db, "--json"]).json()
        #expect(after["embedder"] as? String == "multilingual-e5-small")
        let chinese = try CLIRunner.run(["search", "--db", db, "--mode", "semantic", "--k", "1", "失眠怎么办"])
        #expect(chinese.status == 0 && chinese.stdout.contains("[r-sleep]"), "\(chinese.stdout)\(chinese.stderr)")
    }

    @Test(.needsModel) func evalPrintsTheFourMetrics() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("eval.hush").path
        _ = try CLIRunner.run(["index", "--db", db, "--quiet", CLIRunner.samples.path])
        let queries = folder.appendingPathComponent("queries.jsonl")
        try """
        {"query": "cannot fall asleep at night", "relevant": ["r-sleep"]}
        {"query": "my boss criticised my work", "relevant": ["r-feedback"]}
        {"query": "when should tomatoes be planted", "relevant": ["samples/notes/garden.md"]}
        """.write(to: queries, atomically: true, encoding: .utf8)
        let result = try CLIRunner.run(["eval", "--db", db, "--queries", queries.path, "--mode", "semantic", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let metrics = try result.json()
        #expect(metrics["queries"] as? Int == 3)
        for key in ["ndcg@10", "mrr@10", "recall@10", "recall@100"] {
            let value = try #require((metrics[key] as? Double) ?? (metrics[key] as? Int).map(Double.init))
            #expect(value > 0.5 && value <= 1, "\(key) = \(value)")
        }
    }

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

    @Test(.needsModel) func reindexingAfterAReembedEmbedsNothing() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("r.hush").path
        let first = try CLIRunner.succeed(["index", "--lexical", "--json", "--db", db, CLIRunner.samples.path]).json()
        let count = first["added"] as? Int ?? 0
        #expect(count > 0)
        try CLIRunner.succeed(["reembed", "--quiet", "--model", "minilm", "--db", db])
        let again = try CLIRunner.succeed(["index", "--json", "--db", db, CLIRunner.samples.path]).json()
        #expect(again["added"] as? Int == 0 && again["updated"] as? Int == 0, "\(again)")
        #expect(again["unchanged"] as? Int == count && again["chunks_embedded"] as? Int == 0, "\(again)")
        // A changed file is still re-embedded (with the new model).
        let note = folder.appendingPathComponent("extra.txt")
        try "Water the tomatoes before the heat wave.".write(to: note, atomically: true, encoding: .utf8)
        let added = try CLIRunner.succeed(["index", "--json", "--db", db, note.path]).json()
        #expect(added["added"] as? Int == 1)
        let stats = try CLIRunner.succeed(["stats", "--json", "--db", db]).json()
        #expect((stats["embedder"] as? String)?.contains("MiniLM") == true, "\(stats)")
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
        // A right-to-left override in an id or a title is written out, so it cannot turn "evil\u{202E}exe.txt" into
        // "eviltxt.exe" on the terminal; JSON keeps it exact.
        let spoof = folder.appendingPathComponent("spoof.jsonl")
        try
            "{\"id\": \"evil\u{202E}exe.txt\", \"title\": \"Invoice \u{2067}paid\u{2069}\", \"text\": \"Money owed for the harbour trip.\"}"
            .write(to: spoof, atomically: true, encoding: .utf8)
        try CLIRunner.succeed(["index", "--lexical", "--quiet", "--db", db, spoof.path])
        for command in [["list", "--db", db], ["search", "--db", db, "harbour trip"]] {
            let shown = try CLIRunner.run(command)
            #expect(shown.status == 0 && shown.stdout.contains(#"evil\u{202E}exe.txt"#), "\(shown.stdout)")
            #expect(
                !shown.stdout.unicodeScalars.contains {
                    (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
                })
        }
        let json = try CLIRunner.run(["list", "--db", db, "--json"])
        #expect(json.stdout.contains("evil\u{202E}exe.txt"))
    }

    @Test func searchReadsRelativeTimesAsOfTheDayGiven() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("retros.jsonl")
        try [
            #"{"id": "feb", "title": "Sprint retro", "text": "What went well in the sprint.", "date": "2026-02-10"}"#,
            #"{"id": "mar", "title": "Sprint retro", "text": "What went well in the sprint.", "date": "2026-03-10"}"#,
        ].joined(separator: "\n").write(to: input, atomically: true, encoding: .utf8)
        let db = folder.appendingPathComponent("r.hush").path
        try CLIRunner.succeed(["index", "--lexical", "--quiet", "--db", db, input.path])
        // Wednesday 18 March: last week is 9 to 15 March.
        let lastWeek = try CLIRunner.run(
            ["search", "--db", db, "--explain", "--today", "2026-03-18", "last week's sprint retro"])
        #expect(lastWeek.status == 0, "\(lastWeek.stderr)")
        let first = lastWeek.stdout.split(separator: "\n").first { $0.hasPrefix(" 1. ") }
        #expect(first?.hasSuffix("[mar] Sprint retro") == true, "\(lastWeek.stdout)")
        #expect(lastWeek.stdout.contains("+ time 0.200"), "\(lastWeek.stdout)")
        let json = try CLIRunner.run([
            "search", "--db", db, "--json", "--explain", "--today", "2026-02-18", "last week's sprint retro",
        ])
        #expect(
            json.stdout.contains(#""time_boost":0.2"#) && json.stdout.range(of: #""id":"feb""#) != nil, "\(json.stdout)"
        )
        // A record dated by a moment is on the day of it where the search runs: 06:30 UTC on 18 March is 23:30 on
        // the 17th in California, "today" there on the 17th and not on the 18th.
        let late = folder.appendingPathComponent("late.jsonl")
        try
            #"{"id": "late", "title": "Sprint retro", "text": "What went well in the sprint.", "date": "2026-03-18T06:30:00Z"}"#
            .write(to: late, atomically: true, encoding: .utf8)
        try CLIRunner.succeed(["index", "--lexical", "--quiet", "--db", db, late.path])
        for (zone, today, nudged) in [
            ("America/Los_Angeles", "2026-03-17", true), ("America/Los_Angeles", "2026-03-18", false),
            ("UTC", "2026-03-18", true), ("Asia/Tokyo", "2026-03-18", true),
        ] {
            let result = try CLIRunner.run(
                ["search", "--db", db, "--json", "--explain", "--today", today, "the sprint retro today"],
                environment: ["TZ": zone])
            let json = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let hits = try #require(json["results"] as? [[String: Any]])
            let explain = hits.first { $0["id"] as? String == "late" }?["explain"] as? [String: Any]
            let boost = try #require(explain?["time_boost"] as? Double)
            #expect((boost > 0.1) == nudged, "\(zone) \(today): \(result.stdout)")
        }
        for bad in ["2026-02-30", "18.03.2026", "2026-3"] {
            let refused = try CLIRunner.run(["search", "--db", db, "--today", bad, "retro"])
            #expect(
                refused.status != 0 && refused.stderr.contains("--today \(bad): give a day as YYYY-MM-DD"),
                "\(refused.stderr)")
        }
    }

    @Test func idsAreOneIdWhateverTheirUnicodeNormalForm() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let nfd = "cafe\u{301}-notes"
        let nfc = "caf\u{E9}-notes"
        #expect(Array(nfd.utf8) != Array(nfc.utf8))
        let first = folder.appendingPathComponent("first.jsonl")
        try #"{"id": "\#(nfd)", "text": "Espresso tasting notes from the corner cafe."}"#
            .write(to: first, atomically: true, encoding: .utf8)
        let second = folder.appendingPathComponent("second.jsonl")
        try #"{"id": "\#(nfc)", "text": "Espresso tasting notes, revised after the second visit."}"#
            .write(to: second, atomically: true, encoding: .utf8)
        let db = folder.appendingPathComponent("u.hush").path
        try CLIRunner.succeed(["index", "--lexical", "--quiet", "--db", db, first.path])
        // The other spelling in another call is the same document, updated.
        let update = try CLIRunner.succeed(["index", "--lexical", "--json", "--db", db, second.path]).json()
        #expect(update["added"] as? Int == 0 && update["updated"] as? Int == 1, "\(update)")
        #expect(try CLIRunner.succeed(["stats", "--json", "--db", db]).json()["documents"] as? Int == 1)
        for spelling in [nfc, nfd] {
            let get = try CLIRunner.succeed(["get", "--db", db, spelling])
            #expect(get.stdout.contains("second visit"), "\(get.stdout)")
        }
        // Stored in NFC: the bytes in the file are the composed form.
        let queue = try DatabaseQueue(path: db)
        let stored = try queue.read { db in try String.fetchOne(db, sql: "SELECT external_id FROM documents") }
        try queue.close()
        #expect(stored.map { Array($0.utf8) } == Array(nfc.utf8))
        try CLIRunner.succeed(["delete", "--db", db, nfd])
        #expect(try CLIRunner.succeed(["stats", "--json", "--db", db]).json()["documents"] as? Int == 0)
    }

    @Test func oldDatesKeepTheirDayInEveryReaderFilterAndPrinter() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let records = folder.appendingPathComponent("old.jsonl")
        try [
            #"{"id": "d1500", "text": "A chronicle entry about the harvest.", "date": "1500-01-01"}"#,
            #"{"id": "d0001", "text": "The first day of the first year.", "date": "0001-01-01"}"#,
            #"{"id": "d0000", "text": "A year that does not exist.", "date": "0000-01-01"}"#,
            #"{"id": "dhuge", "text": "Far too far in the future.", "date": 1e20}"#,
        ].joined(separator: "\n").write(to: records, atomically: true, encoding: .utf8)
        let table = folder.appendingPathComponent("old.csv")
        try "id,text,date\nc1,A row from far ahead,1e20\nc2,A leap day row,2024-02-29\n".write(
            to: table, atomically: true, encoding: .utf8)
        let db = folder.appendingPathComponent("d.hush").path
        let index = try CLIRunner.succeed(["index", "--lexical", "--json", "--db", db, records.path, table.path]).json()
        #expect(index["added"] as? Int == 3, "\(index)")
        let skipped = (index["skipped"] as? [[String: Any]]) ?? []
        #expect(skipped.count == 3, "\(skipped)")
        #expect(skipped.allSatisfy { ($0["reason"] as? String)?.contains("0001-01-01 and 9999-12-31") == true })

        #expect(try CLIRunner.succeed(["get", "--db", db, "d1500"]).stdout.contains("1500-01-01T00:00:00Z"))
        #expect(try CLIRunner.succeed(["get", "--db", db, "d0001"]).stdout.contains("0001-01-01T00:00:00Z"))
        let found = try CLIRunner.succeed([
            "search", "--db", db, "--mode", "keyword", "--json", "--filter", "after=1500-01-01",
            "--filter", "before=1500-01-02", "harvest",
        ]).json()
        let hits = (found["hits"] as? [[String: Any]]) ?? (found["results"] as? [[String: Any]]) ?? []
        #expect(hits.first?["id"] as? String == "d1500", "\(found)")
        #expect(hits.first?["created"] as? String == "1500-01-01T00:00:00Z")
        let refused = try CLIRunner.run(["search", "--db", db, "--filter", "after=0000-01-01", "harvest"])
        #expect(refused.status != 0 && refused.stderr.contains("0001-01-01 and 9999-12-31"), "\(refused.stderr)")
    }
}

@Suite struct BenchANNCLITests {
    /// `hush-bench ann --graph` builds and saves the graph on the first run and reuses it on the second, with
    /// the same recall for both walks; a graph over other vectors is refused.
    @Test func annBenchmarkReusesASavedGraph() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hush-bench-ann-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let graph = folder.appendingPathComponent("graph.sqlite").path
        func run(_ rows: Int) throws -> CLIRunner.Output {
            try CLIRunner.run(
                [
                    "ann", "--synthetic", "\(rows)", "--dim", "32", "--queries", "40", "--ef-search", "64",
                    "--skip-quantised", "--graph", graph, "--json",
                ], program: "hush-bench")
        }
        func lines(_ output: CLIRunner.Output) throws -> [[String: Any]] {
            try output.stdout.split(separator: "\n").map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
        }
        let first = try run(3000)
        #expect(first.status == 0, "\(first.stderr)")
        let built = try lines(first).filter { ($0["system"] as? String)?.hasPrefix("hush-hnsw") == true }
        #expect(built.count == 2)
        #expect(built.allSatisfy { $0["graph_reused"] as? String == "false" && ($0["build_s"] as? Double ?? 0) > 0 })
        #expect(built.allSatisfy { ($0["recall_at_k"] as? Double ?? 0) >= 0.9 })
        let second = try run(3000)
        #expect(second.status == 0, "\(second.stderr)")
        let reused = try lines(second).filter { ($0["system"] as? String)?.hasPrefix("hush-hnsw") == true }
        #expect(reused.map { $0["graph_reused"] as? String } == ["true", "true"])
        #expect(reused.map { $0["recall_at_k"] as? Double } == built.map { $0["recall_at_k"] as? Double })
        let other = try run(1000)
        #expect(other.status != 0)
        #expect(other.stderr.contains("built over other vectors"))
    }
}
