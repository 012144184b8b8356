import Foundation
import GRDB
import Testing

/// The store file as `hush` commands leave it and as other processes and users meet it: nothing left in the
/// `-wal`, read-only files and folders, readers beside a writer, writers and compactions side by side, and
/// other programs' SQLite files left untouched.
@Suite(.serialized) struct StoreFileCLITests {
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
        try CLIRunner.succeed(["index", "--lexical", "--quiet", "--db", db, notes.path])

        // Indexing: a copy of the file alone has every note.
        var copy = try Self.copyOfMainFileAlone(db, into: folder, "index")
        let stats = try CLIRunner.succeed(["stats", "--json", "--db", copy]).json()
        #expect(stats["documents"] as? Int == 201)

        // Deleting: a copy of the file alone must not bring the deleted entry back.
        try CLIRunner.succeed(["delete", "--db", db, "notes/secret.txt"])
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
        try CLIRunner.succeed(["index", "--quiet", "--db", db, records.path])
        copy = try Self.copyOfMainFileAlone(db, into: folder, "index of records")
        #expect(try CLIRunner.succeed(["stats", "--json", "--db", copy]).json()["documents"] as? Int == 240)
        try CLIRunner.succeed(["prune", "--db", db, "--max-documents", "230"])
        copy = try Self.copyOfMainFileAlone(db, into: folder, "prune")
        #expect(try CLIRunner.succeed(["stats", "--json", "--db", copy]).json()["documents"] as? Int == 230)
        try CLIRunner.succeed(["compact", "--db", db])
        copy = try Self.copyOfMainFileAlone(db, into: folder, "compact")
        #expect(try CLIRunner.succeed(["stats", "--json", "--db", copy]).json()["documents"] as? Int == 230)
        // No log or shared-memory file is left beside the store.
        #expect(!FileManager.default.fileExists(atPath: db + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: db + "-shm"))
    }

    @Test func aReadOnlyKnowledgeBaseIsSearchedWithoutBeingWritten() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let shipped = folder.appendingPathComponent("ro")
        try FileManager.default.createDirectory(at: shipped, withIntermediateDirectories: true)
        let kb = try CLIRunner.buildSamples(in: shipped)
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

    /// A file `hush index` made (write-ahead-log mode, its log empty), copied alone to a folder another user can
    /// only read: that user lists, reads, searches by keyword and exports it, and nothing is written.
    @Test func anIndexedFileInAReadOnlyFolderIsReadByAnotherUser() throws {
        let setpriv = "/usr/bin/setpriv"
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: setpriv) else {
            reliabilityLog("indexed file read-only as another user: skipped (needs root and setpriv to switch users)")
            return
        }
        let folder = try CLIRunner.temporaryDirectory()
        let shipped = folder.appendingPathComponent("ro")
        defer {
            chmod(shipped.path, 0o755)
            try? FileManager.default.removeItem(at: folder)
        }
        chmod(folder.path, 0o755)
        let db = folder.appendingPathComponent("journal.hush").path
        try CLIRunner.succeed(["index", "--lexical", "--quiet", "--db", db, CLIRunner.samples.path])
        try FileManager.default.createDirectory(at: shipped, withIntermediateDirectories: true)
        let copy = try Self.copyOfMainFileAlone(db, into: shipped, "index")
        let copies = (copy as NSString).deletingLastPathComponent
        let before = try Data(contentsOf: URL(fileURLWithPath: copy))
        #expect(before[18] == 2 && before[19] == 2, "the file is in write-ahead-log mode")
        chmod(copy, 0o444)
        for path in [copies, shipped.path] { chmod(path, 0o555) }
        defer { chmod(copies, 0o755) }

        let nobody = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
        let list = try CLIRunner.run(["list", "--db", copy], launcher: nobody)
        #expect(list.status == 0 && list.stdout.hasSuffix("(27 documents)\n"), "\(list.stderr)")
        let search = try CLIRunner.run(["search", "--db", copy, "--mode", "keyword", "money"], launcher: nobody)
        #expect(search.stdout.contains("[r-money]"), "\(search.stderr)")
        for arguments in [["get", "--db", copy, "r-money"], ["stats", "--db", copy], ["export", "--db", copy]] {
            let result = try CLIRunner.run(arguments, launcher: nobody)
            #expect(result.status == 0, "\(arguments[0]) as nobody: \(result.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: copies) == ["alone.hush"])
    }

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
        try CLIRunner.succeed(["index", "--lexical", "--quiet", "--db", db, CLIRunner.samples.path])
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
        try CLIRunner.succeed(["index", "--lexical", "--quiet", "--db", reference, shared.path, first.path])
        try CLIRunner.succeed(["index", "--lexical", "--quiet", "--db", reference, shared.path, second.path])
        let expected = try CLIRunner.succeed(["stats", "--json", "--db", reference]).json()

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
            let stats = try CLIRunner.succeed(["stats", "--json", "--db", db]).json()
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
            let again = try CLIRunner.succeed([
                "index", "--lexical", "--json", "--db", db, shared.path, first.path, second.path,
            ])
            .json()
            #expect(again["added"] as? Int == 0 && again["updated"] as? Int == 0, "\(again)")
        }
    }

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
}
