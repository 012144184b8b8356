import Foundation
import GRDB
import HushTestSupport
import HushToolSupport
import Testing

@testable import Hush

/// Runs a command; true when it exits 0.
@discardableResult
private func run(_ executable: String, _ arguments: [String]) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
}

/// A small file system mounted for one test (needs root; the tests skip with a message without it).
private final class Mount {
    let url: URL

    init?(_ url: URL, _ arguments: [String]) {
        self.url = url
        guard getuid() == 0, run("/bin/mount", arguments + [url.path]) else { return nil }
    }

    deinit { run("/bin/umount", ["-l", url.path]) }
}

private func skipped(_ what: String) {
    FileHandle.standardError.write(Data("[reliability] skipped \(what): needs root and mount(8)\n".utf8))
}

private func entry(_ number: Int, words: Int) -> Document {
    var random = SplitMix(seed: UInt64(number))
    let vocabulary = [
        "morning", "walk", "river", "sleep", "worry", "sister", "coffee", "letter", "rain", "garden", "train",
        "budget", "evening", "quiet", "laugh", "doctor", "music", "window", "bread", "friend",
    ]
    let body = (0..<words).map { _ in vocabulary[Int.random(in: 0..<vocabulary.count, using: &random)] }
    return Document(id: "filler-\(number)", body: body.joined(separator: " ") + ".")
}

/// A full disk and a read-only disk: the error says so, and the store keeps its previous state.
@Suite(.serialized) struct ReliabilityDiskTests {
    @Test func fullDiskFailsTheBatchAndKeepsEverythingCommitted() async throws {
        let directory = try TemporaryDirectory()
        let folder = directory.url.appendingPathComponent("small")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        guard let mount = Mount(folder, ["-t", "tmpfs", "-o", "size=2m", "tmpfs"]) else {
            return skipped("full-disk test")
        }
        let path = folder.appendingPathComponent("journal.hush").path
        let store = try await HushStore.open(path: path, embedder: HashingEmbedder())
        try await store.upsert(Corpus.documents)
        var committed = 0
        var failure: StoreError?
        for batch in 0..<200 {
            do {
                try await store.upsert((0..<20).map { entry(batch * 20 + $0, words: 400) })
                committed += 20
            } catch let error as StoreError {
                failure = error
                break
            }
        }
        let error = try #require(failure, "2 MB never filled up")
        #expect(error.description.contains("disk is full"), "\(error)")
        // One matchable condition, SQLite's code and GRDB's error kept as the cause.
        guard case .database(let full) = error else {
            Issue.record("expected StoreError.database, got \(error)")
            return
        }
        #expect(full.resultCode == 13)  // SQLITE_FULL
        #expect(full.cause is DatabaseError)
        // The store in memory and the file agree, now and after reopening.
        #expect(try await store.stats().documents == Corpus.documents.count + committed)
        #expect(try await store.search("sore knee long run", mode: .semantic, limit: 1).hits.first?.id == "marathon")
        let reopened = try await HushStore.open(path: path, embedder: HashingEmbedder())
        #expect(try await reopened.stats().documents == Corpus.documents.count + committed)
        #expect(
            try await reopened.search("sourdough rye flour", mode: .keyword, limit: 1).hits.first?.id == "sourdough")
        try await expectConsistent(reopened)
        FileHandle.standardError.write(
            Data("[reliability] full disk (2 MB tmpfs): \(committed) documents committed, then \(error)\n".utf8))
        _ = mount
    }

    @Test func readOnlyFilesAndFoldersGiveAClearError() async throws {
        let directory = try TemporaryDirectory()
        let writable = directory.url.appendingPathComponent("writable")
        let readOnly = directory.url.appendingPathComponent("read-only")
        for url in [writable, readOnly] {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        do {
            let store = try await HushStore.open(
                path: writable.appendingPathComponent("journal.hush").path, embedder: HashingEmbedder())
            try await store.upsert(Corpus.documents)
        }
        guard let mount = Mount(readOnly, ["--bind", writable.path]) else { return skipped("read-only test") }
        guard run("/bin/mount", ["-o", "remount,bind,ro", readOnly.path]) else { return skipped("read-only test") }
        await #expect {
            _ = try await HushStore.open(
                path: readOnly.appendingPathComponent("journal.hush").path, embedder: HashingEmbedder())
        } throws: { error in
            let text = String(describing: error)
            return text.contains("cannot open") && text.contains("read-only")
        }
        await #expect {
            _ = try await HushStore.open(
                path: readOnly.appendingPathComponent("new.hush").path, embedder: HashingEmbedder())
        } throws: { error in
            String(describing: error).contains("Read-only file system")
        }
        _ = mount
        // The file itself is untouched.
        let store = try await HushStore.open(
            path: writable.appendingPathComponent("journal.hush").path, embedder: HashingEmbedder())
        #expect(try await store.stats().documents == Corpus.documents.count)
    }
}
