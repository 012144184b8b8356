import Foundation
import GRDB
import HushToolSupport
import Testing

@testable import Hush

/// Journal-like documents made from the sentences of the repository's samples, recombined with a seed.
enum ReliabilityCorpus {
    /// Every sentence of samples/ (journal texts, notes, meeting records).
    static func sentences() throws -> [String] {
        var texts: [String] = []
        let journal = try String(
            contentsOf: CLIRunner.samples.appendingPathComponent("journal.jsonl"), encoding: .utf8)
        for line in journal.split(separator: "\n") {
            if let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let text = object["text"] as? String
            {
                texts.append(text)
            }
        }
        let notes = CLIRunner.samples.appendingPathComponent("notes")
        for name in try FileManager.default.contentsOfDirectory(atPath: notes.path) {
            texts.append(try String(contentsOf: notes.appendingPathComponent(name), encoding: .utf8))
        }
        var sentences: [String] = []
        for text in texts {
            for piece in text.split(whereSeparator: { $0 == "." || $0 == "\n" || $0 == "?" || $0 == "!" }) {
                let sentence = piece.trimmingCharacters(in: .whitespaces)
                if sentence.count > 12, !sentence.hasPrefix("#") { sentences.append(sentence + ".") }
            }
        }
        return sentences
    }

    /// Writes `count` JSONL records (ids `prefix-N`) of 2 to 9 sentences each into `files` files under `folder`.
    @discardableResult
    static func write(
        count: Int, prefix: String, files: Int = 4, seed: UInt64, into folder: URL
    ) throws -> Int {
        let sentences = try sentences()
        var random = SplitMix(seed: seed)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var lines = [[String]](repeating: [], count: files)
        let tags = ["sleep", "work", "family", "health", "money", "friends", "anxiety", "gratitude"]
        for number in 0..<count {
            let length = Int.random(in: 2...9, using: &random)
            let body = (0..<length).map { _ in sentences[Int.random(in: 0..<sentences.count, using: &random)] }
            let record: [String: Any] = [
                "id": "\(prefix)-\(number)",
                "title": "Entry \(number)",
                "text": body.joined(separator: " ") + " Day \(number).",
                "tags": [tags[number % tags.count]],
                "date": String(format: "2025-%02d-%02d", number % 12 + 1, number % 28 + 1),
            ]
            let data = try JSONSerialization.data(withJSONObject: record, options: [.sortedKeys])
            lines[number % files].append(String(decoding: data, as: UTF8.self))
        }
        for (file, content) in lines.enumerated() {
            try (content.joined(separator: "\n") + "\n").write(
                to: folder.appendingPathComponent("journal-\(file).jsonl"), atomically: true, encoding: .utf8)
        }
        return count
    }
}

/// What a store file holds, read with plain SQLite after a crash, and whether it is whole.
struct StoreAudit: Equatable, CustomStringConvertible {
    var documents = 0
    var chunks = 0
    var vectors = 0
    var ftsRows = 0
    /// Documents without chunks, chunks without a vector or FTS row, FTS rows or vectors without a chunk,
    /// vectors of the wrong byte length.
    var orphans = 0
    /// The distinct prefixes of the documents' ids (`a` for `a-17`): which corpus the file holds.
    var idPrefixes: Set<String> = []
    var integrity = ""
    var ftsIntegrity = ""

    var description: String {
        "documents \(documents), chunks \(chunks), vectors \(vectors), fts \(ftsRows), orphans \(orphans), "
            + "integrity \(integrity), fts integrity \(ftsIntegrity)"
    }

    /// True when SQLite and FTS5 find no damage and every table agrees with the others.
    var isWhole: Bool {
        integrity == "ok" && ftsIntegrity == "ok" && orphans == 0 && chunks == vectors && chunks == ftsRows
    }

    /// Reads `path` (a new file with no tables is an empty, whole store).
    static func read(_ path: String, dimension: Int = HashingEmbedder().identity.dimension) throws -> StoreAudit {
        let queue = try DatabaseQueue(path: path)
        return try queue.write { db in
            var audit = StoreAudit()
            audit.integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "; ")
            guard try db.tableExists("chunks_fts") else {
                audit.ftsIntegrity = "ok"
                return audit
            }
            do {
                try db.execute(sql: "INSERT INTO chunks_fts(chunks_fts) VALUES('integrity-check')")
                audit.ftsIntegrity = "ok"
            } catch {
                audit.ftsIntegrity = String(describing: error)
            }
            func count(_ sql: String) throws -> Int { try Int.fetchOne(db, sql: sql) ?? -1 }
            audit.documents = try count("SELECT COUNT(*) FROM documents")
            audit.chunks = try count("SELECT COUNT(*) FROM chunks")
            audit.vectors = try count("SELECT COUNT(*) FROM vectors")
            audit.ftsRows = try count("SELECT COUNT(*) FROM chunks_fts")
            let ids = try String.fetchAll(db, sql: "SELECT external_id FROM documents")
            audit.idPrefixes = Set(ids.map { String($0.prefix { $0 != "-" }) })
            audit.orphans =
                try count("SELECT COUNT(*) FROM documents WHERE id NOT IN (SELECT document_id FROM chunks)")
                + count("SELECT COUNT(*) FROM chunks WHERE id NOT IN (SELECT chunk_id FROM vectors)")
                + count("SELECT COUNT(*) FROM chunks WHERE id NOT IN (SELECT rowid FROM chunks_fts)")
                + count("SELECT COUNT(*) FROM chunks_fts WHERE rowid NOT IN (SELECT id FROM chunks)")
                + count("SELECT COUNT(*) FROM vectors WHERE chunk_id NOT IN (SELECT id FROM chunks)")
                + count("SELECT COUNT(*) FROM vectors WHERE length(vector) != \(dimension * 4)")
            return audit
        }
    }
}

/// Starting, timing and killing real `hush` processes.
enum ReliabilityProcess {
    /// Starts `hush` with these arguments, output discarded.
    static func start(
        _ arguments: [String], environment: [String: String] = [:], errorFile: URL? = nil, umask mask: String? = nil
    ) throws -> Process {
        let process = Process()
        if let mask {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "umask \(mask) && exec \"$0\" \"$@\"", CLIRunner.binary.path] + arguments
        } else {
            process.executableURL = CLIRunner.binary
            process.arguments = arguments
        }
        process.standardOutput = FileHandle.nullDevice
        if let errorFile {
            _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: errorFile)
        } else {
            process.standardError = FileHandle.nullDevice
        }
        process.standardInput = FileHandle.nullDevice
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        try process.run()
        return process
    }

    /// Runs `hush` to the end; returns its exit status and the seconds it took.
    static func timed(_ arguments: [String]) throws -> (status: Int32, seconds: Double) {
        let begin = Date()
        let process = try start(arguments)
        process.waitUntilExit()
        return (process.terminationStatus, Date().timeIntervalSince(begin))
    }

    /// Starts `hush`, kills it with SIGKILL after `delay` seconds (unless it finished); true when killed.
    static func kill(_ arguments: [String], after delay: Double) throws -> Bool {
        let process = try start(arguments)
        let deadline = Date().addingTimeInterval(delay)
        while process.isRunning, Date() < deadline { usleep(2_000) }
        guard process.isRunning else { return false }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
    }

    /// Removes a store file and its -wal and -shm files.
    static func removeStore(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}

/// Writes one line to the test log (numbers quoted in docs/reliability.md come from here).
func reliabilityLog(_ text: String) {
    FileHandle.standardError.write(Data("[reliability] \(text)\n".utf8))
}
