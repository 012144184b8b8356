import Foundation
import GRDB
import HushTestSupport
import Testing

@testable import HushCLI

/// The [reliability-3] defects as a person meets them: the real `hush` binary on real files. Each test
/// failed before its fix.
@Suite(.serialized) struct ReliabilityTrust3CLITests {
    // MARK: Helpers

    /// Runs `hush` and expects it to succeed.
    @discardableResult
    private static func succeed(_ arguments: [String], environment: [String: String] = [:]) throws
        -> CLIRunner.Output
    {
        let result = try CLIRunner.run(arguments, environment: environment)
        #expect(result.status == 0, "\(arguments.first ?? ""): \(result.stderr)")
        return result
    }

    /// Copies the store file alone (no `-wal`, no `-shm`: what a backup or a sync of one file gets) to a new
    /// folder and returns the copy's path, after checking that no write-ahead log holds anything beside it.
    private static func copyOfMainFileAlone(_ db: String, into folder: URL, _ step: String) throws -> String {
        let wal =
            FileManager.default.fileExists(atPath: db + "-wal")
            ? (try FileManager.default.attributesOfItem(atPath: db + "-wal")[.size] as? Int) ?? 0 : 0
        #expect(wal == 0, "after \(step) the -wal holds \(wal) bytes")
        let copies = folder.appendingPathComponent("copy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: copies, withIntermediateDirectories: true)
        let copy = copies.appendingPathComponent("alone.hush").path
        try FileManager.default.copyItem(atPath: db, toPath: copy)
        return copy
    }

    // MARK: 1. Nothing left in the -wal after a command ends

    @Test func everyCommandLeavesItsChangesInTheMainFile() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let notes = folder.appendingPathComponent("notes")
        try FileManager.default.createDirectory(at: notes, withIntermediateDirectories: true)
        let sentences = try ReliabilityCorpus.sentences()
        for number in 0..<200 {
            let text = (0..<4).map { sentences[(number * 7 + $0 * 13) % sentences.count] }.joined(separator: " ")
            try "Note \(number). \(text)".write(
                to: notes.appendingPathComponent("note-\(number).txt"), atomically: true, encoding: .utf8)
        }
        try "The combination to the blue safe is 4711.".write(
            to: notes.appendingPathComponent("secret.txt"), atomically: true, encoding: .utf8)
        let db = folder.appendingPathComponent("w.hush").path
        try Self.succeed(["index", "--lexical", "--quiet", "--db", db, notes.path])

        // Indexing: a copy of the file alone has every note.
        var copy = try Self.copyOfMainFileAlone(db, into: folder, "index")
        let stats = try Self.succeed(["stats", "--json", "--db", copy]).json()
        #expect(stats["documents"] as? Int == 201)

        // Deleting: a copy of the file alone must not bring the deleted entry back.
        try Self.succeed(["delete", "--db", db, "notes/secret.txt"])
        copy = try Self.copyOfMainFileAlone(db, into: folder, "delete")
        let get = try CLIRunner.run(["get", "--db", copy, "notes/secret.txt"])
        #expect(get.status != 0 && get.stderr.contains("no document"), "\(get.stdout)")
        let search = try CLIRunner.run(["search", "--db", copy, "--mode", "keyword", "combination safe"])
        #expect(!search.stdout.contains("secret"), "\(search.stdout)")
        // The deleted text may linger in free pages until `compact`, but never as a live row.
        let database = try DatabaseQueue(path: copy)
        let live = try database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM documents WHERE external_id = 'notes/secret.txt'") ?? -1
        }
        try database.close()
        #expect(live == 0)

        // Adding records, pruning and compacting: each leaves the file complete.
        let records = folder.appendingPathComponent("more.jsonl")
        try (0..<40).map { #"{"id": "r\#($0)", "text": "Record \#($0) about the garden and the budget."}"# }
            .joined(separator: "\n").write(to: records, atomically: true, encoding: .utf8)
        try Self.succeed(["index", "--quiet", "--db", db, records.path])
        copy = try Self.copyOfMainFileAlone(db, into: folder, "index of records")
        #expect(try Self.succeed(["stats", "--json", "--db", copy]).json()["documents"] as? Int == 240)
        try Self.succeed(["prune", "--db", db, "--max-documents", "230"])
        copy = try Self.copyOfMainFileAlone(db, into: folder, "prune")
        #expect(try Self.succeed(["stats", "--json", "--db", copy]).json()["documents"] as? Int == 230)
        try Self.succeed(["compact", "--db", db])
        copy = try Self.copyOfMainFileAlone(db, into: folder, "compact")
        #expect(try Self.succeed(["stats", "--json", "--db", copy]).json()["documents"] as? Int == 230)
        // No log or shared-memory file is left beside the store.
        #expect(!FileManager.default.fileExists(atPath: db + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: db + "-shm"))
    }

    // MARK: 5. Another program's SQLite file is never written

    @Test func foreignDatabasesAreRefusedAndLeftByteIdentical() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let records = folder.appendingPathComponent("in.jsonl")
        try #"{"id": "a", "text": "A note about the garden."}"#.write(to: records, atomically: true, encoding: .utf8)
        let schemas = [
            "CREATE TABLE contacts (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO contacts (name) VALUES ('Ada');",
            // Its own `documents` table, unlike Hush's.
            "CREATE TABLE documents (id INTEGER PRIMARY KEY, path TEXT UNIQUE); INSERT INTO documents (path) VALUES ('x');",
            // Even a `meta` table with a schema version is not enough to be a Hush store.
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT); INSERT INTO meta VALUES ('schema_version', '1');",
        ]
        for (number, schema) in schemas.enumerated() {
            let path = folder.appendingPathComponent("app-\(number).db").path
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in try db.execute(sql: schema) }
            try queue.close()
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            for arguments in [
                ["index", "--lexical", "--quiet", "--db", path, records.path],
                ["delete", "--db", path, "a"], ["prune", "--db", path, "--max-documents", "0"],
                ["compact", "--db", path], ["reembed", "--lexical", "--db", path],
                ["search", "--db", path, "--mode", "keyword", "garden"], ["stats", "--db", path],
            ] {
                let result = try CLIRunner.run(arguments)
                #expect(result.status != 0, "\(arguments[0]) accepted \(schema)")
                #expect(
                    result.stderr.contains("another program's SQLite database"), "\(arguments[0]): \(result.stderr)")
                #expect(!result.stderr.contains("while executing") && !result.stderr.contains("CREATE "))
                #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "\(arguments[0]) changed it")
                #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "\(arguments[0]) left a -wal")
            }
        }
    }

    // MARK: 3. Two writers with overlapping input

    @Test func twoWritersWithOverlappingInputEndAsIfRunOneAfterTheOther() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let shared = folder.appendingPathComponent("shared")
        let first = folder.appendingPathComponent("first")
        let second = folder.appendingPathComponent("second")
        try ReliabilityCorpus.write(count: 800, prefix: "shared", files: 2, seed: 31, into: shared)
        try ReliabilityCorpus.write(count: 200, prefix: "one", files: 1, seed: 32, into: first)
        try ReliabilityCorpus.write(count: 200, prefix: "two", files: 1, seed: 33, into: second)

        // The same inputs one after the other, for the counts to expect.
        let reference = folder.appendingPathComponent("reference.hush").path
        try Self.succeed(["index", "--lexical", "--quiet", "--db", reference, shared.path, first.path])
        try Self.succeed(["index", "--lexical", "--quiet", "--db", reference, shared.path, second.path])
        let expected = try Self.succeed(["stats", "--json", "--db", reference]).json()

        for round in 0..<3 {
            let db = folder.appendingPathComponent("both-\(round).hush").path
            let errors = (0..<2).map { folder.appendingPathComponent("err-\(round)-\($0)") }
            let processes = [
                try ReliabilityProcess.start(
                    ["index", "--lexical", "--quiet", "--db", db, shared.path, first.path], errorFile: errors[0]),
                try ReliabilityProcess.start(
                    ["index", "--lexical", "--quiet", "--db", db, second.path, shared.path], errorFile: errors[1]),
            ]
            for (process, error) in zip(processes, errors) {
                process.waitUntilExit()
                let message = (try? String(contentsOf: error, encoding: .utf8)) ?? ""
                #expect(process.terminationStatus == 0, "round \(round): \(message)")
                #expect(!message.contains("UNIQUE") && !message.contains("while executing"), "\(message)")
            }
            let stats = try Self.succeed(["stats", "--json", "--db", db]).json()
            #expect(stats["documents"] as? Int == expected["documents"] as? Int, "round \(round): \(stats)")
            #expect(stats["chunks"] as? Int == expected["chunks"] as? Int, "round \(round): \(stats)")
            #expect(stats["vectors"] as? Int == stats["chunks"] as? Int)
            // Every shared record is found by its own words, once.
            let queue = try DatabaseQueue(path: db)
            let (duplicates, integrity, orphans) = try queue.read { db in
                (
                    try Int.fetchOne(
                        db,
                        sql: "SELECT COUNT(*) FROM (SELECT external_id FROM documents GROUP BY 1 HAVING COUNT(*) > 1)"),
                    try String.fetchOne(db, sql: "PRAGMA integrity_check"),
                    try Int.fetchOne(
                        db, sql: "SELECT COUNT(*) FROM chunks WHERE document_id NOT IN (SELECT id FROM documents)")
                )
            }
            try queue.close()
            #expect(duplicates == 0 && integrity == "ok" && orphans == 0)
            // A third run changes nothing: everything is stored as the inputs say.
            let again = try Self.succeed([
                "index", "--lexical", "--json", "--db", db, shared.path, first.path, second.path,
            ])
            .json()
            #expect(again["added"] as? Int == 0 && again["updated"] as? Int == 0, "\(again)")
        }
    }

    // MARK: 7. --threads is bounded

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

    // MARK: 4. Unchanged content stays unchanged across a re-embed

    @Test(.needsModel) func reindexingAfterAReembedEmbedsNothing() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("r.hush").path
        let first = try Self.succeed(["index", "--lexical", "--json", "--db", db, CLIRunner.samples.path]).json()
        let count = first["added"] as? Int ?? 0
        #expect(count > 0)
        try Self.succeed(["reembed", "--quiet", "--model", "minilm", "--db", db])
        let again = try Self.succeed(["index", "--json", "--db", db, CLIRunner.samples.path]).json()
        #expect(again["added"] as? Int == 0 && again["updated"] as? Int == 0, "\(again)")
        #expect(again["unchanged"] as? Int == count && again["chunks_embedded"] as? Int == 0, "\(again)")
        // A changed file is still re-embedded (with the new model).
        let note = folder.appendingPathComponent("extra.txt")
        try "Water the tomatoes before the heat wave.".write(to: note, atomically: true, encoding: .utf8)
        let added = try Self.succeed(["index", "--json", "--db", db, note.path]).json()
        #expect(added["added"] as? Int == 1)
        let stats = try Self.succeed(["stats", "--json", "--db", db]).json()
        #expect((stats["embedder"] as? String)?.contains("MiniLM") == true, "\(stats)")
    }

    // MARK: 12. A -wal without its -shm in a folder the reader cannot write

    @Test func aLogWithoutItsIndexInAReadOnlyFolderIsExplained() throws {
        let setpriv = "/usr/bin/setpriv"
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: setpriv) else {
            reliabilityLog("-wal without -shm: skipped (needs root and setpriv to switch users)")
            return
        }
        let folder = try CLIRunner.temporaryDirectory()
        defer {
            chmod(folder.appendingPathComponent("ro").path, 0o755)
            try? FileManager.default.removeItem(at: folder)
        }
        chmod(folder.path, 0o755)
        let shipped = folder.appendingPathComponent("ro")
        try FileManager.default.createDirectory(at: shipped, withIntermediateDirectories: true)
        let db = shipped.appendingPathComponent("s.hush").path
        try Self.succeed(["index", "--lexical", "--quiet", "--db", db, CLIRunner.samples.path])
        // Another program writes while this test copies the file and its log (as a sync tool or a crash
        // could leave them): the copy has a -wal holding changes and no -shm.
        let writer = try DatabaseQueue(path: db)
        try writer.write { db in try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('copied', '1')") }
        let copy = shipped.appendingPathComponent("copy.hush").path
        try FileManager.default.copyItem(atPath: db, toPath: copy)
        try FileManager.default.copyItem(atPath: db + "-wal", toPath: copy + "-wal")
        try writer.close()
        #expect(FileManager.default.fileExists(atPath: copy + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: copy + "-shm"))
        for file in [copy, copy + "-wal"] { chmod(file, 0o444) }
        chmod(shipped.path, 0o555)
        let nobody = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
        let search = try CLIRunner.run(["search", "--db", copy, "--mode", "keyword", "money"], launcher: nobody)
        #expect(search.status != 0)
        #expect(search.stderr.contains("-shm") && search.stderr.contains("hush compact"), "\(search.stderr)")
        #expect(!search.stderr.contains("SELECT") && !search.stderr.contains("disk I/O"), "\(search.stderr)")
    }

    // MARK: 11. Import: per-row errors, nothing silent, no empty store left

    /// A Python-style knowledge base: `documents(id, title, content, metadata, embedding)` with `rows`.
    private static func pythonBase(
        at path: String, rows: [(id: Int, content: String, metadata: String?, vector: [Float])]
    )
        throws
    {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql:
                    "CREATE TABLE documents (id INTEGER PRIMARY KEY, title TEXT, content TEXT, metadata TEXT, embedding BLOB)"
            )
            for row in rows {
                let blob = row.vector.withUnsafeBufferPointer { Data(buffer: $0) }
                try db.execute(
                    sql: "INSERT INTO documents (id, title, content, metadata, embedding) VALUES (?, NULL, ?, ?, ?)",
                    arguments: [row.id, row.content, row.metadata, blob])
            }
        }
        try queue.close()
    }

    @Test(.needsModel) func importReportsEveryBadRowAndLeavesNoEmptyStore() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        func vector(_ seed: Int) -> [Float] {
            var values = (0..<384).map { Float(($0 * 31 + seed * 17) % 97) / 97 - 0.5 }
            let norm = values.reduce(0) { $0 + $1 * $1 }.squareRoot()
            values = values.map { $0 / norm }
            return values
        }
        var nan = vector(3)
        nan[7] = .nan
        var infinite = vector(4)
        infinite[0] = .infinity
        let source = folder.appendingPathComponent("py.sqlite").path
        try Self.pythonBase(
            at: source,
            rows: [
                (1, "A good note about sleep.", #"{"tags": ["sleep"]}"#, vector(1)),
                (2, "Metadata that is not JSON.", "not json at all", vector(2)),
                (3, "A NaN vector.", nil, nan),
                (4, "An infinite vector.", nil, infinite),
                (5, "A bad date.", #"{"date": "2024-13-45"}"#, vector(5)),
                (6, "A null value.", #"{"n": null}"#, vector(6)),
                (7, "Another good note about gardens.", #"{"date": "1500-01-01"}"#, vector(7)),
            ])
        let db = folder.appendingPathComponent("kb.hush").path
        let result = try CLIRunner.run(["import", "--json", "--from", source, "--db", db])
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try result.json()
        #expect(summary["added"] as? Int == 2 && summary["rejected"] as? Int == 5, "\(summary)")
        let text = try CLIRunner.run(["import", "--from", source, "--db", db])
        for id in ["2", "3", "4", "5", "6"] {
            #expect(text.stdout.contains("rejected \(id): row \(id):"), "\(text.stdout)")
        }
        let get = try CLIRunner.run(["get", "--db", db, "7"])
        #expect(get.stdout.contains("1500-01-01"), "\(get.stdout)")

        // A source whose every row is refused, or that cannot be read, leaves no new store behind.
        let bad = folder.appendingPathComponent("bad.sqlite").path
        try Self.pythonBase(at: bad, rows: [(1, "Only NaN.", nil, nan)])
        let none = folder.appendingPathComponent("none.hush").path
        let refused = try CLIRunner.run(["import", "--from", bad, "--db", none])
        #expect(refused.stdout.contains("rejected 1"), "\(refused.stdout)")
        #expect(!FileManager.default.fileExists(atPath: none))
        let text16 = folder.appendingPathComponent("text.sqlite").path
        try "not a database".write(toFile: text16, atomically: true, encoding: .utf8)
        #expect(try CLIRunner.run(["import", "--from", text16, "--db", none]).status != 0)
        #expect(!FileManager.default.fileExists(atPath: none))
    }

    // MARK: 9. Ids equal up to Unicode normalisation are one id

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
        try Self.succeed(["index", "--lexical", "--quiet", "--db", db, first.path])
        // The other spelling in another call is the same document, updated.
        let update = try Self.succeed(["index", "--lexical", "--json", "--db", db, second.path]).json()
        #expect(update["added"] as? Int == 0 && update["updated"] as? Int == 1, "\(update)")
        #expect(try Self.succeed(["stats", "--json", "--db", db]).json()["documents"] as? Int == 1)
        for spelling in [nfc, nfd] {
            let get = try Self.succeed(["get", "--db", db, spelling])
            #expect(get.stdout.contains("second visit"), "\(get.stdout)")
        }
        // Stored in NFC: the bytes in the file are the composed form.
        let queue = try DatabaseQueue(path: db)
        let stored = try queue.read { db in try String.fetchOne(db, sql: "SELECT external_id FROM documents") }
        try queue.close()
        #expect(stored.map { Array($0.utf8) } == Array(nfc.utf8))
        try Self.succeed(["delete", "--db", db, nfd])
        #expect(try Self.succeed(["stats", "--json", "--db", db]).json()["documents"] as? Int == 0)
    }

    // MARK: Smaller ones

    @Test func valuesStartingWithADashAreRefusedWithHowToPassThem() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let notes = folder.appendingPathComponent("-dash dir")
        try FileManager.default.createDirectory(at: notes, withIntermediateDirectories: true)
        try "A note in a folder whose name starts with a dash.".write(
            to: notes.appendingPathComponent("-n.txt"), atomically: true, encoding: .utf8)
        let db = folder.appendingPathComponent("j.hush").path
        try Self.succeed(["index", "--lexical", "--quiet", "--db", db, "--", notes.path])
        for arguments in [["get", "--db", db, "-dash dir/-n.txt"], ["delete", "--db", db, "-n.txt"]] {
            let result = try CLIRunner.run(arguments)
            #expect(result.status != 0, "\(arguments)")
            #expect(result.stderr.contains("put -- before it"), "\(result.stderr)")
            #expect(!result.stdout.contains("USAGE"))
        }
        let get = try Self.succeed(["get", "--db", db, "--", "-dash dir/-n.txt"])
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

    // MARK: 8. One calendar, one range

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
        let index = try Self.succeed(["index", "--lexical", "--json", "--db", db, records.path, table.path]).json()
        #expect(index["added"] as? Int == 3, "\(index)")
        let skipped = (index["skipped"] as? [[String: Any]]) ?? []
        #expect(skipped.count == 3, "\(skipped)")
        #expect(skipped.allSatisfy { ($0["reason"] as? String)?.contains("0001-01-01 and 9999-12-31") == true })

        #expect(try Self.succeed(["get", "--db", db, "d1500"]).stdout.contains("1500-01-01T00:00:00Z"))
        #expect(try Self.succeed(["get", "--db", db, "d0001"]).stdout.contains("0001-01-01T00:00:00Z"))
        let found = try Self.succeed([
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
