import Foundation
import HushTestSupport
import Testing

@testable import Hush

/// Several `hush` processes on one file, and what the file looks like on disk.
@Suite(.serialized, .killsOrRaces) struct ReliabilityProcessTests {
    /// Two processes index different journals into the same (new) file at the same time: the second writer
    /// waits for the first one's transactions (busy timeout), neither crashes, and no write is lost.
    @Test func twoWriterProcessesOnOneFileLoseNothing() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = folder.appendingPathComponent("first")
        let second = folder.appendingPathComponent("second")
        try ReliabilityCorpus.write(count: 1_500, prefix: "a", seed: 21, into: first)
        try ReliabilityCorpus.write(count: 1_500, prefix: "b", seed: 22, into: second)
        var overlapped = 0
        for round in 0..<3 {
            let path = folder.appendingPathComponent("shared-\(round).hush").path
            if round == 2 {
                // The third round starts from a file that already holds the first journal's documents.
                let seeded = try ReliabilityProcess.timed(["index", "--db", path, "--lexical", "--quiet", first.path])
                try #require(seeded.status == 0)
            }
            let errors = (0..<2).map { folder.appendingPathComponent("stderr-\(round)-\($0).txt") }
            let begin = Date()
            let processes = try [first, second].enumerated().map { offset, corpus in
                try ReliabilityProcess.start(
                    ["index", "--db", path, "--lexical", "--quiet", corpus.path], errorFile: errors[offset])
            }
            usleep(50_000)
            if processes.allSatisfy(\.isRunning) { overlapped += 1 }
            for process in processes { process.waitUntilExit() }
            for (process, error) in zip(processes, errors) {
                let message = (try? String(contentsOf: error, encoding: .utf8)) ?? ""
                #expect(process.terminationReason == .exit, "crashed: \(message)")
                #expect(process.terminationStatus == 0, "round \(round): \(message)")
            }
            let audit = try StoreAudit.read(path)
            #expect(audit.isWhole, "\(audit)")
            #expect(audit.documents == 3_000, "round \(round): \(audit)")
            reliabilityLog(
                "two writers, round \(round): \(String(format: "%.2f", Date().timeIntervalSince(begin))) s, \(audit)")
        }
        // Both were running at once (checked 50 ms after starting them) in at least two of the three rounds.
        #expect(overlapped >= 2)
    }

    /// Two processes that create the same new file at the same instant both succeed, 20 times over. Before the
    /// fix about one start in ten failed: switching a new file to WAL answers SQLITE_BUSY at once (no busy
    /// handler), and two writers could both run the same schema migration ("duplicate column name").
    @Test func twoProcessesCreatingOneNewFileBothSucceed() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = folder.appendingPathComponent("first")
        let second = folder.appendingPathComponent("second")
        try ReliabilityCorpus.write(count: 40, prefix: "a", files: 1, seed: 31, into: first)
        try ReliabilityCorpus.write(count: 40, prefix: "b", files: 1, seed: 32, into: second)
        for round in 0..<20 {
            let path = folder.appendingPathComponent("new-\(round).hush").path
            let errors = (0..<2).map { folder.appendingPathComponent("stderr-\(round)-\($0).txt") }
            let processes = try [first, second].enumerated().map { offset, corpus in
                try ReliabilityProcess.start(
                    ["index", "--db", path, "--lexical", "--quiet", corpus.path], errorFile: errors[offset])
            }
            for process in processes { process.waitUntilExit() }
            for (process, error) in zip(processes, errors) {
                let message = (try? String(contentsOf: error, encoding: .utf8)) ?? ""
                #expect(process.terminationStatus == 0, "round \(round): \(message)")
            }
            let audit = try StoreAudit.read(path)
            #expect(audit.isWhole && audit.documents == 80, "round \(round): \(audit)")
        }
    }

    /// A writer process that is killed leaves its -wal and -shm files behind: all three are owner-only even
    /// under `umask 000`.
    @Test func storeFilesAreReadableByTheirOwnerOnly() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let corpus = folder.appendingPathComponent("corpus")
        try ReliabilityCorpus.write(count: 3_000, prefix: "p", seed: 5, into: corpus)
        let path = folder.appendingPathComponent("private.hush").path
        let process = try ReliabilityProcess.start(
            ["index", "--db", path, "--lexical", "--quiet", corpus.path], umask: "000")
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, Date() < deadline, !FileManager.default.fileExists(atPath: path + "-shm") {
            usleep(1_000)
        }
        usleep(100_000)
        let wasRunning = process.isRunning
        if wasRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try #require(wasRunning, "indexing finished before its files could be checked")
        for file in [path, path + "-wal", path + "-shm"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: file)
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
            #expect(mode == 0o600, "\(file) has mode \(String(mode, radix: 8))")
        }
        // A control: the same umask gives an ordinary file 0666, so the 0600 above is Hush's doing.
        let control = folder.appendingPathComponent("control").path
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "umask 000 && : > \"$0\"", control]
        try shell.run()
        shell.waitUntilExit()
        let controlMode = (try FileManager.default.attributesOfItem(atPath: control)[.posixPermissions] as? NSNumber)?
            .intValue
        #expect(controlMode == 0o666)
    }
}
