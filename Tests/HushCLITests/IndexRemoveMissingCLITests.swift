import Foundation
import Testing

/// `hush index --remove-missing`: a folder indexed again takes with it the documents of the files deleted from
/// it, and nothing else; without the flag the summary says they are there.
@Suite struct IndexRemoveMissingCLITests {
    @Test func theDocumentsOfDeletedFilesGoAndNothingElseDoes() throws {
        let root = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let notes = root.appendingPathComponent("notes")
        try FileManager.default.createDirectory(
            at: notes.appendingPathComponent("trips"), withIntermediateDirectories: true)
        func write(_ path: String, _ text: String) throws {
            try text.write(to: notes.appendingPathComponent(path), atomically: true, encoding: .utf8)
        }
        try write("groceries.txt", "Oat milk, eggs, spinach and coffee beans.")
        try write("dentist.md", "# Dentist\n\nMoved to 14 December at 9:30.")
        try write("issue#12.md", "The export drops the fields of meeting records.")
        try write("trips/lisbon.txt", "Ferry to Cacilhas, then the tram up to the castle.")
        try write("posts.jsonl", #"{"id":"p1","text":"First post."}"# + "\n" + #"{"text":"A post without an id."}"#)
        // A record of another file whose id happens to start elsewhere is never touched.
        let extra = root.appendingPathComponent("extra.jsonl")
        try #"{"id":"journal-1","text":"Slept well for once."}"#.write(to: extra, atomically: true, encoding: .utf8)
        let db = root.appendingPathComponent("n.hush").path
        try CLIRunner.succeed(["index", "--lexical", "--quiet", "--db", db, notes.path, extra.path])
        let all = try CLIRunner.succeed(["list", "--db", db, "--sort", "id", "--json"]).stdout
        #expect(all.split(separator: "\n").count == 7)
        #expect(all.contains(#""id":"notes/posts.jsonl#2""#))

        try FileManager.default.removeItem(at: notes.appendingPathComponent("groceries.txt"))
        try FileManager.default.removeItem(at: notes.appendingPathComponent("trips"))
        // Without the flag, nothing goes and the summary says what could.
        let told = try CLIRunner.succeed(["index", "--lexical", "--quiet", "--db", db, notes.path]).stdout
        #expect(told.contains("2 stored documents name files no longer in the folders given"), "\(told)")
        #expect(told.contains("--remove-missing deletes them"))
        #expect(try CLIRunner.succeed(["stats", "--db", db, "--json"]).json()["documents"] as? Int == 7)

        let index = try CLIRunner.succeed([
            "index", "--lexical", "--json", "--remove-missing", "--db", db, notes.path,
        ]).json()
        #expect(index["removed"] as? [String] == ["notes/groceries.txt", "notes/trips/lisbon.txt"], "\(index)")
        let left = try CLIRunner.succeed(["list", "--db", db, "--sort", "id", "--json"]).stdout
            .split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["id"] as? String
            }
        #expect(left == ["journal-1", "notes/dentist.md", "notes/issue#12.md", "notes/posts.jsonl#2", "p1"])

        // Removing nothing is said too, and a folder without a name is refused before anything is done.
        let again = try CLIRunner.succeed(["index", "--lexical", "--remove-missing", "--db", db, notes.path])
        #expect(again.stdout.contains("removed 0 documents whose file is gone"))
        let rootFolder = try CLIRunner.run(["index", "--lexical", "--remove-missing", "--db", db, "/"])
        #expect(rootFolder.status != 0 && rootFolder.stderr.contains("--remove-missing needs folders with a name"))
    }
}

/// What `hush index` says about a notes folder as note apps leave it: pictures, a template, a spreadsheet.
@Suite struct IndexNotesFolderCLITests {
    @Test func picturesAreCountedByTypeAndTheNoteThatFailedStandsOut() throws {
        let root = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let vault = root.appendingPathComponent("vault")
        try FileManager.default.createDirectory(
            at: vault.appendingPathComponent("attachments"), withIntermediateDirectories: true)
        func write(_ path: String, _ text: String) throws {
            try text.write(to: vault.appendingPathComponent(path), atomically: true, encoding: .utf8)
        }
        for number in 1...5 { try write("attachments/photo\(number).png", "not really a picture") }
        try write("scan.pdf", "not really a PDF")
        try write("template.md", "---\ndate: {{date}}\n---\nA note from a template.")
        try write("sleep.md", "---\ntags:\n  - health\nmood: tired\n---\nWoke at three again.")
        try write("reading.tsv", "title\ttext\nDune\tSand, spice; and a desert planet.\n")
        let db = root.appendingPathComponent("v.hush").path
        let text = try CLIRunner.succeed(["index", "--lexical", "--quiet", "--db", db, vault.path]).stdout
        let lines = text.split(separator: "\n").map(String.init)
        #expect(
            lines.first?.contains("2 added") == true && lines.first?.contains("7 inputs skipped") == true, "\(text)")
        #expect(lines.filter { $0.contains("skipped") }.count == 4, "\(text)")
        #expect(
            lines.contains {
                $0.hasPrefix("  skipped 5 .png files: unsupported file type .png") && $0.hasSuffix(" and 3 more")
            },
            "\(text)")
        #expect(lines.contains { $0.contains("scan.pdf: unsupported file type .pdf") }, "\(text)")
        #expect(lines.contains { $0.contains("template.md: front matter: date \"{{date}}\" is not a date") }, "\(text)")
        let json = try CLIRunner.succeed(["index", "--lexical", "--json", "--db", db, vault.path]).json()
        #expect((json["skipped"] as? [Any])?.count == 7)

        let sleep = try CLIRunner.succeed(["get", "--db", db, "--json", "vault/sleep.md"]).json()
        #expect(sleep["tags"] as? [String] == ["health"])
        #expect((sleep["metadata"] as? [String: String])?["mood"] == "tired")
        #expect(try CLIRunner.succeed(["get", "--db", db, "vault/reading.tsv#2"]).stdout.contains("desert planet"))
        // A row of a .tsv file goes with its file.
        try FileManager.default.removeItem(at: vault.appendingPathComponent("reading.tsv"))
        let removed = try CLIRunner.succeed([
            "index", "--lexical", "--json", "--remove-missing", "--db", db, vault.path,
        ]).json()
        #expect(removed["removed"] as? [String] == ["vault/reading.tsv#2"], "\(removed)")
    }
}

/// `hush index` and `hush import` leave no new file behind when nothing went in: an empty store stamped with
/// the default model refused the corrected command that named another.
@Suite struct IndexNewFileCLITests {
    @Test func aMistypedPathOrAnEmptyFolderLeavesNoFileBehind() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("journal.hush").path
        let mistyped = try CLIRunner.run(["index", "--db", db, folder.appendingPathComponent("entires").path])
        #expect(mistyped.status != 0 && mistyped.stderr.contains("No file or folder at"), "\(mistyped.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db))
        let empty = folder.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let nothing = try CLIRunner.succeed(["index", "--lexical", "--db", db, empty.path])
        #expect(nothing.stdout.contains("nothing was stored, so no file was made at \(db)"), "\(nothing.stdout)")
        #expect(!FileManager.default.fileExists(atPath: db))
        // The corrected command, with another model than the default the mistyped one would have stamped.
        try CLIRunner.succeed(["index", "--lexical", "--quiet", "--db", db, CLIRunner.samples.path])
        #expect(try CLIRunner.succeed(["stats", "--db", db, "--json"]).json()["documents"] as? Int == 27)
    }
}

/// `hush prune --dry-run` says what a prune would delete and deletes nothing.
@Suite struct PruneDryRunCLITests {
    @Test func aDryRunNamesTheDocumentsAndKeepsThem() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let records = folder.appendingPathComponent("entries.jsonl")
        try (1...5).map { #"{"id": "e\#($0)", "text": "Entry \#($0) about the day.", "date": "2026-01-0\#($0)"}"# }
            .joined(separator: "\n").write(to: records, atomically: true, encoding: .utf8)
        let db = folder.appendingPathComponent("j.hush").path
        try CLIRunner.succeed(["index", "--lexical", "--quiet", "--db", db, records.path])
        let dry = try CLIRunner.succeed(["prune", "--db", db, "--max-documents", "3", "--dry-run"]).stdout
        #expect(dry == "would delete e1\nwould delete e2\nwould delete 2 documents, 3 left (nothing was deleted)\n")
        let json = try CLIRunner.succeed(["prune", "--db", db, "--max-documents", "3", "--dry-run", "--json"]).json()
        #expect(json["would_delete"] as? [String] == ["e1", "e2"] && json["left"] as? Int == 3)
        #expect(try CLIRunner.succeed(["stats", "--db", db, "--json"]).json()["documents"] as? Int == 5)
        try CLIRunner.succeed(["prune", "--db", db, "--max-documents", "3"])
        let left = try CLIRunner.succeed(["list", "--db", db, "--sort", "id"]).stdout
        #expect(left.contains("[e3]") && left.contains("[e5]") && !left.contains("[e1]") && !left.contains("[e2]"))
    }
}
