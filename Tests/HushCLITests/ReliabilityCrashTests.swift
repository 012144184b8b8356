import Foundation
import HushTestSupport
import HushToolSupport
import Testing

@testable import Hush

/// A command that writes a store from a folder of files, as run by the crash tests.
struct StoreWriterCommand: Sendable, CustomTestStringConvertible {
    var name: String
    var arguments: @Sendable (_ db: String, _ corpus: String, _ lexical: Bool) -> [String]

    var testDescription: String { name }
}

/// SIGKILL a real `hush` process at seeded random points, then check the file: it opens, SQLite and FTS5
/// find no damage, documents / chunks / vectors / FTS rows agree, nothing committed is lost, and a re-run
/// finishes the work with exactly a clean run's counts.
///
/// `HUSH_RELIABILITY_KILLS` sets the number of kills per lexical run (default 25).
@Suite(.serialized, .killsOrRaces) struct ReliabilityCrashTests {
    /// Every command that writes a store from files. A new one (e.g. `hush build`) is one more line here.
    static let writers: [StoreWriterCommand] = [
        StoreWriterCommand(name: "index") { db, corpus, lexical in
            ["index", "--db", db, "--quiet"] + (lexical ? ["--lexical"] : []) + [corpus]
        }
    ]

    static var kills: Int {
        ProcessInfo.processInfo.environment["HUSH_RELIABILITY_KILLS"].flatMap(Int.init) ?? 25
    }

    @Test(arguments: writers) func lexicalIndexingSurvivesSIGKILL(writer: StoreWriterCommand) async throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let corpus = folder.appendingPathComponent("corpus")
        let total = try ReliabilityCorpus.write(count: 4_000, prefix: "j", seed: 7, into: corpus)
        try await survivesKills(
            writer: writer, corpus: corpus, documents: total, lexical: true, kills: Self.kills, seed: 0x5EED,
            folder: folder)
    }

    @Test(arguments: writers) func modelIndexingSurvivesSIGKILL(writer: StoreWriterCommand) async throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let corpus = folder.appendingPathComponent("corpus")
        // Three batches of 64: a kill lands before the first commit, between commits or after the last.
        let total = try ReliabilityCorpus.write(count: 192, prefix: "m", seed: 11, into: corpus)
        try await survivesKills(
            writer: writer, corpus: corpus, documents: total, lexical: false, kills: 3, seed: 0xBEEF,
            folder: folder)
    }

    private func survivesKills(
        writer: StoreWriterCommand, corpus: URL, documents: Int, lexical: Bool, kills: Int, seed: UInt64,
        folder: URL
    ) async throws {
        // A clean run: how long the work takes and what it leaves.
        let cleanPath = folder.appendingPathComponent("clean.hush").path
        let clean = try ReliabilityProcess.timed(writer.arguments(cleanPath, corpus.path, lexical))
        try #require(clean.status == 0)
        let expected = try StoreAudit.read(cleanPath)
        try #require(expected.isWhole, "\(expected)")
        #expect(expected.documents == documents)

        let path = folder.appendingPathComponent("killed.hush").path
        let arguments = writer.arguments(path, corpus.path, lexical)
        var random = SplitMix(seed: seed)
        var killed = 0
        var attempts = 0
        var reruns = 0
        var previous = 0
        ReliabilityProcess.removeStore(path)
        while killed < kills, attempts < kills * 4 {
            attempts += 1
            let delay = Double.random(in: 0.02...max(0.05, clean.seconds * 0.9), using: &random)
            guard try ReliabilityProcess.kill(arguments, after: delay) else {
                // The run finished before the kill: start again from an empty file.
                ReliabilityProcess.removeStore(path)
                previous = 0
                continue
            }
            killed += 1
            let audit = try StoreAudit.read(path)
            #expect(audit.isWhole, "kill \(killed) after \(delay) s: \(audit)")
            #expect(audit.documents >= previous, "kill \(killed) lost committed documents: \(audit)")
            #expect(audit.documents <= documents)
            previous = audit.documents
            if lexical {
                // The store itself opens it and its memory agrees with the file.
                let store = try await HushStore.open(path: path, embedder: HashingEmbedder())
                let stats = try await store.stats()
                #expect(stats.documents == audit.documents && stats.vectors == audit.vectors)
                #expect(stats.vectorBytes == audit.vectors * stats.embedder.dimension * 4)
            }
            if killed % 5 == 0 || killed == kills {
                // A re-run completes the work: the same counts as the clean run. Then a fresh file.
                let rerun = try ReliabilityProcess.timed(arguments)
                #expect(rerun.status == 0)
                let finished = try StoreAudit.read(path)
                #expect(finished == expected, "re-run after kill \(killed): \(finished), clean: \(expected)")
                reruns += 1
                if killed < kills {
                    ReliabilityProcess.removeStore(path)
                    previous = 0
                }
            }
        }
        #expect(killed == kills, "only \(killed) of \(kills) runs were killed before they finished")
        if lexical {
            let store = try await HushStore.open(path: path, embedder: HashingEmbedder())
            let hits = try await store.search("lying awake replaying the day", mode: .keyword, limit: 3)
            #expect(hits.hits.count == 3)
        }
        reliabilityLog(
            "\(writer.name) \(lexical ? "lexical" : "model"): clean run \(String(format: "%.2f", clean.seconds)) s, "
                + "\(expected); \(killed) SIGKILLs (\(attempts) starts), \(reruns) re-runs equal to the clean run")
    }
}
