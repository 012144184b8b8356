import Foundation
import Testing

/// `hush list`, `hush export` and `hush get`: a person can see everything a file holds, take it all out as
/// records `hush index` reads back to the same documents, and is told which id was meant.
@Suite struct ListExportCLITests {
    /// Records with every part a document can have: fields, a quote, metadata, a date with a fraction of a
    /// second, a language given as a tag, and a title without text.
    static let records = [
        #"{"id":"mtg-7","title":"Weekly standup","text":"We shipped the importer.","fields":[{"label":"Action items","value":"Ana writes the exporter spec"}],"date":"2026-11-20T09:30:15.25Z","updated_at":"2026-11-21","tags":["work"],"category":"meetings","type":"meeting","metadata":{"room":"B2"}}"#,
        #"{"id":"reply 1","text":"Agreed, let us meet on Friday.","quoted":"Can we move the review?\nIt clashes with the launch.","language":"en-GB","date":1764283469.3814807}"#,
        #"{"id":"entry/睡眠","text":"又失眠了，凌晨三点醒来。","language":"zh-Hans","tags":["health"],"date":"2026-11-22"}"#,
        #"{"id":"heading-only","title":"Grateful today"}"#,
    ].joined(separator: "\n")

    @Test func everythingStoredIsListedAndExportsToTheSameDocuments() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let records = folder.appendingPathComponent("records.jsonl")
        try Self.records.write(to: records, atomically: true, encoding: .utf8)
        let db = folder.appendingPathComponent("a.hush").path
        try CLIRunner.succeed(["index", "--lexical", "--quiet", "--db", db, CLIRunner.samples.path, records.path])
        let total = try #require(try CLIRunner.succeed(["stats", "--db", db, "--json"]).json()["documents"] as? Int)

        // Every document, one line each, and how many.
        let list = try CLIRunner.succeed(["list", "--db", db]).stdout.split(separator: "\n")
        #expect(list.count == total + 1)
        #expect(list.last == "(\(total) documents)")
        #expect(list.contains("2026-11-20  en  [mtg-7] Weekly standup"))
        // A document without a title shows how its text begins.
        #expect(list.contains { $0.hasSuffix("[entry/睡眠] 又失眠了，凌晨三点醒来。") })
        let health = try CLIRunner.succeed(["list", "--db", db, "--filter", "tag=health", "--filter", "language=zh"])
        #expect(health.stdout == "2026-11-22  zh-Hans  [entry/睡眠] 又失眠了，凌晨三点醒来。\n(1 document)\n")
        // A filter that lets nothing through is said to, so that "no results" is not taken for the query's fault.
        let note = "note: no stored document matches the filter tag=helth"
        let none = try CLIRunner.succeed(["list", "--db", db, "--filter", "tag=helth"])
        #expect(none.stdout == "(0 documents)\n" && none.stderr.contains(note), "\(none.stderr)")
        let search = try CLIRunner.succeed([
            "search", "--db", db, "--mode", "keyword", "--filter", "tag=helth", "sleep",
        ])
        #expect(search.stdout == "no results\n" && search.stderr.contains(note), "\(search.stderr)")
        #expect(!health.stderr.contains("note:"))
        let oldest = try CLIRunner.succeed(["list", "--db", db, "--sort", "id", "--limit", "2", "--json"])
        let lines = oldest.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) }
        let objects = lines.compactMap { $0 as? [String: Any] }
        #expect(objects.map { $0["id"] as? String } == ["entry/睡眠", "heading-only"])
        #expect(objects.allSatisfy { $0["text"] == nil && $0["chunks"] is Int })

        // `hush get` shows every part, the fields and the update time included.
        let get = try CLIRunner.succeed(["get", "--db", db, "mtg-7"]).stdout
        #expect(get.contains("\nAction items: Ana writes the exporter spec\n"), "\(get)")
        #expect(get.contains("updated:  2026-11-21T00:00:00Z"))
        let reply = try CLIRunner.succeed(["get", "--db", db, "reply 1"]).stdout
        #expect(reply.hasSuffix("\n> Can we move the review?\n> It clashes with the launch.\n"), "\(reply)")
        let getJSON = try CLIRunner.succeed(["get", "--db", db, "--json", "mtg-7"]).json()
        #expect(
            (getJSON["fields"] as? [[String: String]]) == [
                ["label": "Action items", "value": "Ana writes the exporter spec"]
            ])

        // An export indexed into a new file gives the same documents: its own export is the same bytes.
        let exported = folder.appendingPathComponent("export.jsonl")
        let export = try CLIRunner.succeed(["export", "--db", db, "--out", exported.path])
        #expect(export.stderr.contains("exported \(total) documents to \(exported.path)"))
        let text = try String(contentsOf: exported, encoding: .utf8)
        #expect(text.split(separator: "\n").count == total)
        #expect(text.contains(#""created":"2026-11-20T09:30:15.25Z""#))
        #expect(text.contains(#""quoted":"Can we move the review?\nIt clashes with the launch.""#))
        let copy = folder.appendingPathComponent("b.hush").path
        let reindex = try CLIRunner.succeed(["index", "--lexical", "--json", "--db", copy, exported.path]).json()
        #expect(reindex["added"] as? Int == total)
        #expect((reindex["rejected"] as? [Any])?.isEmpty == true && (reindex["skipped"] as? [Any])?.isEmpty == true)
        #expect(try CLIRunner.succeed(["export", "--db", copy]).stdout == text)
        #expect(
            try CLIRunner.succeed(["get", "--db", copy, "heading-only"]).stdout.contains("title:    Grateful today"))

        // A filtered export holds only what the filter lets through; standard output without --out.
        let work = try CLIRunner.succeed(["export", "--db", db, "--filter", "type=meeting"]).stdout
        #expect(work.split(separator: "\n").count == 1 && work.hasPrefix(#"{"category":"meetings""#))
    }

    @Test func anExportThatCannotBeWrittenSaysSoAndLeavesNothing() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = try CLIRunner.buildSamples(in: folder)
        let target = folder.appendingPathComponent("missing/export.jsonl").path
        let failed = try CLIRunner.run(["export", "--db", db, "--out", target])
        #expect(failed.status != 0)
        #expect(failed.stderr.contains("cannot write \(target): check that its folder exists"), "\(failed.stderr)")
        #expect(!failed.stderr.contains("Usage"))
        // The database itself, one of its files or another database is never replaced by an export.
        let documents = try CLIRunner.succeed(["stats", "--db", db, "--json"]).json()["documents"] as? Int
        let other = try CLIRunner.buildSamples(in: folder, name: "other.sqlite")
        for (target, reason) in [
            (db, "is the database this command reads"), (db + "-wal", "is a file of the database this command reads"),
            (other, "is a SQLite database"), (folder.path, "is a folder"),
        ] {
            let refused = try CLIRunner.run(["export", "--db", db, "--out", target])
            #expect(refused.status != 0, "\(target)")
            #expect(
                refused.stderr.contains("\(target) \(reason), so an export will not replace it"), "\(refused.stderr)")
        }
        #expect(try CLIRunner.succeed(["stats", "--db", db, "--json"]).json()["documents"] as? Int == documents)
        #expect(try CLIRunner.succeed(["stats", "--db", other, "--json"]).json()["documents"] as? Int == documents)
        // A file already there is replaced only by a whole export.
        let existing = folder.appendingPathComponent("old.jsonl")
        try "old\n".write(to: existing, atomically: true, encoding: .utf8)
        try CLIRunner.succeed(["export", "--db", db, "--out", existing.path])
        #expect(try String(contentsOf: existing, encoding: .utf8).hasPrefix("{"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasSuffix(".exporting")
        }
        #expect(leftovers.isEmpty)
    }

    /// `hush eval --evidence` writes a file too: never over the database or the queries it reads.
    @Test func anEvidenceFileNeverReplacesWhatTheEvaluationReads() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = try CLIRunner.buildSamples(in: folder)
        let queries = folder.appendingPathComponent("queries.jsonl")
        let labelled = #"{"query": "garden trellis", "relevant": ["samples/notes/garden.md"]}"# + "\n"
        try labelled.write(to: queries, atomically: true, encoding: .utf8)
        for (target, reason) in [
            (db, "is the database this command reads"), (queries.path, "is a file this command reads"),
        ] {
            let refused = try CLIRunner.run(["eval", "--db", db, "--queries", queries.path, "--evidence", target])
            #expect(refused.status != 0)
            #expect(
                refused.stderr.contains("\(target) \(reason), so --evidence will not replace it"), "\(refused.stderr)")
        }
        #expect(try String(contentsOf: queries, encoding: .utf8) == labelled)
        let evidence = folder.appendingPathComponent("evidence.jsonl").path
        try CLIRunner.succeed(["eval", "--db", db, "--queries", queries.path, "--evidence", evidence])
        #expect(FileManager.default.fileExists(atPath: evidence))
    }

    @Test func anIdGivenWithoutItsFolderNamesTheOneMeant() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = try CLIRunner.buildSamples(in: folder)
        let suggestion = #"(did you mean "samples/notes/garden.md"?)"#
        let get = try CLIRunner.run(["get", "--db", db, "garden.md"])
        #expect(get.status == 1 && get.stderr.contains(suggestion), "\(get.stderr)")
        let related = try CLIRunner.run(["related", "--db", db, "Garden.md"])
        #expect(related.status == 1 && related.stderr.contains(suggestion), "\(related.stderr)")
        let delete = try CLIRunner.succeed(["delete", "--db", db, "notes/garden.md", "nothing-like-it"])
        #expect(delete.stdout.contains("not found: notes/garden.md \(suggestion), nothing-like-it"), "\(delete.stdout)")
        let unknown = try CLIRunner.run(["get", "--db", db, "nothing-like-it"])
        #expect(unknown.status == 1 && !unknown.stderr.contains("did you mean"))
    }
}
