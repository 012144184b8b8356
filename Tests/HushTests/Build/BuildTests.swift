import Foundation
import GRDB
import HushTestSupport
import Testing

@testable import Hush

/// Writes a small content folder: two Markdown notes, a text file and a JSONL file of three records.
private func writeContent(_ folder: URL) throws {
    let manager = FileManager.default
    try manager.createDirectory(at: folder.appendingPathComponent("notes"), withIntermediateDirectories: true)
    try "# Watering the garden\n\nWater tomatoes deeply twice a week in the morning, never at noon.\n"
        .write(to: folder.appendingPathComponent("notes/garden.md"), atomically: true, encoding: .utf8)
    try "# Travel budget\n\nBook flights three weeks ahead and prefer trains for trips under four hours.\n"
        .write(to: folder.appendingPathComponent("notes/travel.md"), atomically: true, encoding: .utf8)
    try "Remember to back up the laptop every Friday before leaving the office."
        .write(to: folder.appendingPathComponent("reminder.txt"), atomically: true, encoding: .utf8)
    let lines = [
        #"{"id": "j-sleep", "title": "Sleep", "text": "Going to bed at the same time calms the mind.", "date": "2026-01-02"}"#,
        #"{"id": "j-run", "title": "Running", "text": "A short run before work makes the day lighter.", "date": "2026-01-03"}"#,
        #"{"id": "j-call", "title": "Calling home", "text": "Phoning my parents on Sundays keeps us close.", "date": "2026-01-04"}"#,
    ]
    try (lines.joined(separator: "\n") + "\n")
        .write(to: folder.appendingPathComponent("journal.jsonl"), atomically: true, encoding: .utf8)
}

private func temporaryFiles(in folder: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".building-") }
}

private func sha(_ url: URL) throws -> String { try SHA256.hexDigest(ofFileAt: url.path) }

@Suite("Build: atomic, idempotent and incremental knowledge bases")
struct BuildTests {
    @Test("a build writes one self-contained file and a manifest in it and beside it")
    func manifest() async throws {
        let directory = try TemporaryDirectory()
        let content = directory.url.appendingPathComponent("content")
        try writeContent(content)
        let output = directory.url.appendingPathComponent("kb.sqlite")
        let configuration = BuildConfiguration(sourceType: "note", chunking: .init(targetTokens: 64, overlapTokens: 8))
        let report = try await KnowledgeBaseBuilder(
            inputs: [content], output: output, configuration: configuration, embedder: HashingEmbedder()
        ).build()

        #expect(report.summary.added == 6)
        #expect(report.reusedPrevious == false)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
        #expect(files == ["content", "kb.manifest.json", "kb.sqlite"])  // no -wal, -shm or temporary file

        let sidecar = try JSONDecoder().decode(
            BuildManifest.self, from: Data(contentsOf: directory.url.appendingPathComponent("kb.manifest.json")))
        let inFile = try #require(try BuildManifest.read(fromStoreAt: output.path))
        #expect(sidecar.outputSHA256 == (try sha(output)))
        #expect(inFile.outputSHA256 == nil)
        var withoutSHA = sidecar
        withoutSHA.outputSHA256 = nil
        #expect(withoutSHA == inFile)
        #expect(inFile.format == "hush-build-manifest-1")
        #expect(inFile.hushVersion == HushVersion.current)
        #expect(inFile.embedder == HashingEmbedder().identity)
        #expect(inFile.parameters.chunking.targetTokens == 64)
        #expect(inFile.parameters.chunking.overlapTokens == 8)
        #expect(inFile.parameters.sourceType == "note")
        #expect(inFile.counts.documents == 6)
        #expect(inFile.counts.inputFiles == 4)
        #expect(inFile.counts.chunks == inFile.counts.vectors)
        #expect(inFile.inputDigest.count == 64 && inFile.contentDigest.count == 64)
        #expect(ISO8601DateFormatter().date(from: inFile.created) != nil)

        // One file: journal mode DELETE, statistics present, the content digest matches a recomputation.
        let queue = try DatabaseQueue(path: output.path)
        let facts = try await queue.read { db -> (String?, Int, String, String?) in
            (
                try String.fetchOne(db, sql: "PRAGMA journal_mode"),
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_stat1") ?? 0,
                try StoreFile.contentDigest(db),
                try String.fetchOne(
                    db, sql: "SELECT source_type FROM documents WHERE external_id = 'content/reminder.txt'")
            )
        }
        #expect(facts.0 == "delete")
        #expect(facts.1 > 0)
        #expect(facts.2 == inFile.contentDigest)
        #expect(facts.3 == "note")
        try queue.close()

        // The shipped file opens as a store and answers.
        let store = try await HushStore.open(path: output.path, embedder: HashingEmbedder())
        let hits = try await store.search("water the tomatoes", mode: .keyword, limit: 1)
        #expect(hits.hits.first?.id == "content/notes/garden.md")
    }

    @Test("a second build of unchanged inputs embeds nothing and gives the same digests and bytes")
    func idempotent() async throws {
        let directory = try TemporaryDirectory()
        let content = directory.url.appendingPathComponent("content")
        try writeContent(content)
        let output = directory.url.appendingPathComponent("kb.sqlite")
        let first = InstrumentedEmbedder()
        let one = try await KnowledgeBaseBuilder(inputs: [content], output: output, embedder: first).build()
        #expect(first.embedded == one.manifest.counts.chunks)
        #expect(first.embedded >= 6)
        let firstBytes = try sha(output)

        let second = InstrumentedEmbedder()
        let two = try await KnowledgeBaseBuilder(inputs: [content], output: output, embedder: second).build()
        #expect(second.embedded == 0)
        #expect(two.reusedPrevious)
        #expect(two.summary.unchanged == 6 && two.summary.added == 0 && two.deleted == 0)
        #expect(two.manifest.contentDigest == one.manifest.contentDigest)
        #expect(two.manifest.inputDigest == one.manifest.inputDigest)
        #expect(two.manifest.created == one.manifest.created)
        #expect(try sha(output) == firstBytes)
        #expect(try temporaryFiles(in: directory.url).isEmpty)

        // A build from scratch (no previous file) has the same content digest.
        try FileManager.default.removeItem(at: output)
        let three = try await KnowledgeBaseBuilder(inputs: [content], output: output, embedder: HashingEmbedder())
            .build()
        #expect(three.manifest.contentDigest == one.manifest.contentDigest)
    }

    @Test("changed inputs re-embed only the changed documents; vanished inputs are deleted")
    func incremental() async throws {
        let directory = try TemporaryDirectory()
        let content = directory.url.appendingPathComponent("content")
        try writeContent(content)
        let output = directory.url.appendingPathComponent("kb.sqlite")
        let one = try await KnowledgeBaseBuilder(inputs: [content], output: output, embedder: HashingEmbedder())
            .build()

        try "# Watering the garden\n\nWater tomatoes deeply once a week in a heat wave, and mulch the beds.\n"
            .write(to: content.appendingPathComponent("notes/garden.md"), atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(at: content.appendingPathComponent("reminder.txt"))
        let counting = InstrumentedEmbedder()
        let two = try await KnowledgeBaseBuilder(inputs: [content], output: output, embedder: counting).build()
        #expect(two.reusedPrevious)
        #expect(two.summary.updated == 1)
        #expect(two.summary.unchanged == 4)
        #expect(two.deleted == 1)
        #expect(counting.embedded == 1)  // the one chunk of garden.md
        #expect(two.summary.chunksEmbedded == 1)
        #expect(two.manifest.counts.documents == 5)
        #expect(two.manifest.contentDigest != one.manifest.contentDigest)
        #expect(two.manifest.inputDigest != one.manifest.inputDigest)

        let store = try await HushStore.open(path: output.path, embedder: HashingEmbedder())
        #expect(try await store.document(id: "content/reminder.txt") == nil)
        #expect(try await store.document(id: "content/notes/garden.md")?.document.body.contains("heat wave") == true)
    }

    @Test("other parameters or another embedder rebuild from scratch")
    func parametersChange() async throws {
        let directory = try TemporaryDirectory()
        let content = directory.url.appendingPathComponent("content")
        try writeContent(content)
        let output = directory.url.appendingPathComponent("kb.sqlite")
        _ = try await KnowledgeBaseBuilder(inputs: [content], output: output, embedder: HashingEmbedder()).build()
        let counting = InstrumentedEmbedder()
        let report = try await KnowledgeBaseBuilder(
            inputs: [content], output: output,
            configuration: .init(chunking: .init(targetTokens: 32, overlapTokens: 0)), embedder: counting
        ).build()
        #expect(report.reusedPrevious == false)
        #expect(report.notReusedReason == "the previous file was made with other parameters")
        #expect(report.summary.added == 6)
        #expect(counting.embedded == report.manifest.counts.chunks)
    }

    @Test("a failure at any stage leaves the previous file untouched and no temporary file")
    func injectedFailures() async throws {
        let directory = try TemporaryDirectory()
        let content = directory.url.appendingPathComponent("content")
        try writeContent(content)
        let output = directory.url.appendingPathComponent("kb.sqlite")
        _ = try await KnowledgeBaseBuilder(inputs: [content], output: output, embedder: HashingEmbedder()).build()
        let before = try sha(output)
        let manifestBefore = try Data(contentsOf: BuildManifest.sidecarURL(for: output))
        try "A brand new note about learning the cello.".write(
            to: content.appendingPathComponent("cello.txt"), atomically: true, encoding: .utf8)

        for stage in [KnowledgeBaseBuilder.Stage.reading, .embedding, .deleting, .optimizing, .publishing] {
            var builder = KnowledgeBaseBuilder(inputs: [content], output: output, embedder: HashingEmbedder())
            builder.injectedFailure = stage
            await #expect(throws: InjectedBuildFailure(stage: stage.rawValue)) { try await builder.build() }
            #expect(try sha(output) == before, "stage \(stage)")
            #expect(try Data(contentsOf: BuildManifest.sidecarURL(for: output)) == manifestBefore)
            #expect(try temporaryFiles(in: directory.url).isEmpty, "stage \(stage)")
        }

        // The embedder itself failing mid-build (a poisoned text).
        try "POISON in this note".write(
            to: content.appendingPathComponent("bad.txt"), atomically: true, encoding: .utf8)
        let poisoned = InstrumentedEmbedder(poison: .throwing)
        await #expect(throws: StoreError.self) {
            try await KnowledgeBaseBuilder(inputs: [content], output: output, embedder: poisoned).build()
        }
        #expect(try sha(output) == before)
        #expect(try temporaryFiles(in: directory.url).isEmpty)
    }

    @Test("temporary files of a dead build are removed by the next build; a live build's are kept")
    func staleTemporaryFiles() async throws {
        let directory = try TemporaryDirectory()
        let content = directory.url.appendingPathComponent("content")
        try writeContent(content)
        let output = directory.url.appendingPathComponent("kb.sqlite")
        // A process id that cannot be running (above the kernel's pid_max of 4,194,304).
        let dead = directory.url.appendingPathComponent(".kb.sqlite.building-99999999")
        try Data("half a database".utf8).write(to: dead)
        try Data().write(to: directory.url.appendingPathComponent(".kb.sqlite.building-99999999-wal"))
        // This test process is alive: its files must stay.
        let live = directory.url.appendingPathComponent(".kb.sqlite.building-1")
        try Data("init's build".utf8).write(to: live)

        let report = try await KnowledgeBaseBuilder(inputs: [content], output: output, embedder: HashingEmbedder())
            .build()
        #expect(report.removedStaleFiles.count == 2)
        #expect(!FileManager.default.fileExists(atPath: dead.path))
        #expect(FileManager.default.fileExists(atPath: live.path))
    }

    @Test("configuration files: partial keys, relative model folders and bad values")
    func configuration() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("hush-build.json")
        try #"{"sourceType": "faq", "chunking": {"targetTokens": 96}, "modelDirectory": "models/mini"}"#
            .write(to: url, atomically: true, encoding: .utf8)
        let loaded = try BuildConfiguration.load(from: url)
        #expect(loaded.sourceType == "faq")
        #expect(loaded.chunking == .init(targetTokens: 96, overlapTokens: nil))
        #expect(loaded.modelDirectory == directory.url.appendingPathComponent("models/mini").path)
        #expect(loaded.lexical == false)

        try #"{"chunking": {"targetTokens": 32, "overlapTokens": 40}}"#.write(
            to: url, atomically: true, encoding: .utf8)
        #expect(throws: BuildError.self) { try BuildConfiguration.load(from: url) }
        try "not json".write(to: url, atomically: true, encoding: .utf8)
        #expect(throws: BuildError.self) { try BuildConfiguration.load(from: url) }
    }

    @Test func aBuildReplacesOnlyWhatABuildMade() async throws {
        let directory = try TemporaryDirectory()
        let content = directory.url.appendingPathComponent("content")
        try FileManager.default.createDirectory(at: content, withIntermediateDirectories: true)
        try "Plant tomatoes after the last frost.".write(
            to: content.appendingPathComponent("garden.txt"), atomically: true, encoding: .utf8)

        let thesis = directory.url.appendingPathComponent("thesis.txt")
        try "Chapter one.".write(to: thesis, atomically: true, encoding: .utf8)
        var builder = KnowledgeBaseBuilder(
            inputs: [content], output: thesis, configuration: .init(lexical: true), embedder: HashingEmbedder())
        await #expect(throws: BuildError.self) { _ = try await builder.build() }
        #expect(try String(contentsOf: thesis, encoding: .utf8) == "Chapter one.")

        // A store made by upsert (no manifest) is refused too.
        let indexed = directory.path("indexed.hush")
        try await HushStore.open(path: indexed, embedder: HashingEmbedder()).upsert(Corpus.documents)
        builder.output = URL(fileURLWithPath: indexed)
        await #expect(throws: BuildError.self) { _ = try await builder.build() }
        #expect(
            try await HushStore.open(path: indexed, embedder: HashingEmbedder()).stats().documents
                == Corpus.documents.count)

        // A previous build's output is replaced; --force replaces anything; -wal and -shm leftovers go.
        builder.output = directory.url.appendingPathComponent("kb.sqlite")
        _ = try await builder.build()
        for suffix in ["-wal", "-shm"] { try Data().write(to: URL(fileURLWithPath: builder.output.path + suffix)) }
        _ = try await builder.build()
        #expect(!FileManager.default.fileExists(atPath: builder.output.path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: builder.output.path + "-shm"))
        for file in [builder.output.path, BuildManifest.sidecarURL(for: builder.output).path] {
            let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(file)")
        }
        builder.output = thesis
        builder.replaceAnyFile = true
        _ = try await builder.build()
        #expect(try await HushStore.open(path: thesis.path, embedder: HashingEmbedder()).stats().documents == 1)
    }
}
