import Foundation
import GRDB
import HushTestSupport
import Testing

@testable import Hush

/// The defects of the [reliability-2] issue, found by trying the program as a new user would. Each test
/// failed before its fix.
@Suite("Reliability: trust under real use")
struct ReliabilityTrustTests {
    // MARK: 1. File ids across roots

    @Test func filesOfTwoFoldersKeepTheirFolderInTheirIds() throws {
        let root = try TemporaryDirectory()
        try root.write("A/notes.txt", "Notes from folder A.")
        try root.write("B/notes.txt", "Notes from folder B.")
        let a = root.url.appendingPathComponent("A")
        let b = root.url.appendingPathComponent("B")
        #expect(try readAll([a]).documents.map(\.id) == ["A/notes.txt"])
        #expect(try readAll([b]).documents.map(\.id) == ["B/notes.txt"])
        // In one call both are read; neither is dropped as a duplicate.
        #expect(try readAll([a, b]).documents.map(\.id) == ["A/notes.txt", "B/notes.txt"])

        // Two different folders with the same name would still collide: an error that names both files.
        try root.write("x/A/notes.txt", "Another A.")
        let other = root.url.appendingPathComponent("x/A")
        #expect {
            _ = try readAll([a, other])
        } throws: { error in
            guard case IngestError.idCollision(let id, let first, let second) = error else { return false }
            return id == "A/notes.txt" && first.hasSuffix("/A/notes.txt") && second.hasSuffix("/x/A/notes.txt")
        }
    }

    @Test func indexingASecondFolderReplacesNothingOfTheFirst() async throws {
        let root = try TemporaryDirectory()
        try root.write("A/notes.txt", "Buy seeds for the spring garden.")
        try root.write("B/notes.txt", "Renew the passport before the trip.")
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        for folder in ["A", "B"] {
            let summary = try await store.upsert(readAll([root.url.appendingPathComponent(folder)]).documents)
            #expect(summary.added == 1 && summary.updated == 0)
        }
        #expect(try await store.document(id: "A/notes.txt")?.document.body == "Buy seeds for the spring garden.")
        #expect(try await store.document(id: "B/notes.txt")?.document.body == "Renew the passport before the trip.")
    }

    // MARK: 3. An interrupted re-embed (see StoreTests.reembedResumesAfterAnInterruptedRun for the resume)

    @Test func anUnfinishedReembedShowsInStatsAndKeepsTheOldVectorsSearchable() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("half.hush")
        let old = try await HushStore.open(path: path, embedder: HashingEmbedder(dimension: 256))
        let documents = (0..<50).map { Document(id: "n\($0)", body: "Entry \($0): thoughts about item \($0 * 7).") }
        try await old.upsert(documents)
        let target = InstrumentedEmbedder(dimension: 384)
        let converting = try await HushStore.open(
            path: path, embedder: target, options: StoreOptions(allowEmbedderMismatch: true))
        struct Killed: Error {}
        converting.setTestHooks(.init(afterReembedBatch: { batch in if batch == 3 { throw Killed() } }))
        await #expect(throws: Killed.self) { try await converting.reembed(batchSize: 10) }

        let reopened = try await HushStore.open(path: path, embedder: HashingEmbedder(dimension: 256))
        let stats = try await reopened.stats()
        #expect(stats.embedder == HashingEmbedder(dimension: 256).identity)
        #expect(stats.unfinishedReembed?.completed == 30)
        #expect(stats.unfinishedReembed?.total == 50)
        #expect(stats.vectors == 50)
        for document in documents {
            let top = try await reopened.search(document.body, mode: .semantic, limit: 1).hits.first
            #expect(top?.id == document.id)
        }
    }

    @Test func writesDuringAnUnfinishedReembedAreEmbeddedBeforeTheSwap() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("moving.hush")
        let oldModel = HashingEmbedder(dimension: 256)
        let old = try await HushStore.open(path: path, embedder: oldModel)
        var documents = (0..<30).map { Document(id: "n\($0)", body: "Entry \($0) about subject \($0 * 11).") }
        try await old.upsert(documents)
        let target = InstrumentedEmbedder(dimension: 128)
        let options = StoreOptions(allowEmbedderMismatch: true)
        let converting = try await HushStore.open(path: path, embedder: target, options: options)
        struct Killed: Error {}
        converting.setTestHooks(.init(afterReembedBatch: { batch in if batch == 1 { throw Killed() } }))
        await #expect(throws: Killed.self) { try await converting.reembed(batchSize: 10) }

        // The old model keeps writing: a staged document changes, one is deleted, one is added.
        documents[2].body = "Entry 2 rewritten: a completely different subject now."
        try await old.upsert([documents[2], Document(id: "late", body: "A late entry written mid re-embed.")])
        try await old.delete(ids: ["n5"])

        let resumed = try await HushStore.open(path: path, embedder: target, options: options)
        try await resumed.reembed(batchSize: 10)
        #expect(try await resumed.stats().documents == 30)
        for document in documents where document.id != "n5" {
            #expect(try await resumed.search(document.body, mode: .semantic, limit: 1).hits.first?.id == document.id)
        }
        let late = try await resumed.search("A late entry written mid re-embed.", mode: .semantic, limit: 1)
        #expect(late.hits.first?.id == "late")
        #expect(try await resumed.stats().unfinishedReembed == nil)
    }

    // MARK: 4. Hybrid scores of identical documents

    @Test func scoresThatDifferOnlyByFloatNoiseNormaliseEqually() {
        let noisy: [Float] = [0.731_254_3, 0.731_254_4, 0.731_254_2, 0.731_254_3]
        for normalization in [SearchMode.Normalization.minMax, .zScore] {
            let normalize = HybridFusion.normalizer(noisy, normalization)
            let values = Set(noisy.map(normalize))
            #expect(values.count == 1, "\(normalization): \(values)")
        }
        // A real spread is still stretched.
        let spread = HybridFusion.normalizer([0.2, 0.5, 0.8], .minMax)
        #expect(spread(0.2) == 0 && spread(0.8) == 1)
    }

    @Test func identicalRecordsGetIdenticalHybridScores() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        let text = "Walked to the river after dinner and felt calmer."
        let base = try HashingEmbedder().embed(text, role: .passage).vector
        var documents: [Document] = []
        var vectors: [[Float]] = []
        for index in 0..<17 {
            documents.append(Document(id: "same-\(index)", body: text))
            // The last bits differ, as they do when one text is embedded in different batches.
            var vector = base
            vector[index % vector.count] += Float(index) * 1e-7
            vectors.append(vector)
        }
        try await store.upsert(documents, precomputed: vectors)
        let hits = try await store.search("river after dinner", mode: .hybrid, limit: 17).hits
        #expect(hits.count == 17)
        let scores = Set(hits.map { ($0.score * 1000).rounded() })
        #expect(scores.count == 1, "\(hits.map(\.score))")
    }

    // MARK: 5, 6. Read-only files and readers beside a writer

    @Test func aReadOnlyOpenNeverWritesTheFile() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("kb.sqlite")
        let output = URL(fileURLWithPath: path)
        _ = try await KnowledgeBaseBuilder(
            inputs: [
                Repository.samples
            ],
            output: output, configuration: .init(lexical: true), embedder: HashingEmbedder()
        ).build()
        let before = try SHA256.hexDigest(ofFileAt: path)
        let listing = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()

        let store = try await HushStore.open(path: path, embedder: HashingEmbedder(), readOnly: true)
        #expect(store.readOnly)
        #expect(try await store.search("money worries", limit: 3).hits.isEmpty == false)
        #expect(try await store.stats().documents == 27)
        #expect(try await store.document(id: "samples/notes/garden.md")?.document.title == "Vegetable garden plan")
        await #expect(throws: StoreError.self) { try await store.delete(ids: ["anything"]) }
        await #expect(throws: StoreError.self) { try await store.upsert([Document(id: "new", body: "New text.")]) }
        await #expect(throws: StoreError.self) { _ = try await store.compact() }

        #expect(try SHA256.hexDigest(ofFileAt: path) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == listing)
    }

    @Test func readersDoNotWaitForAWriterAndAWriterReportsBusy() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("locked.hush")
        let store = try await HushStore.open(path: path, embedder: HashingEmbedder())
        try await store.upsert(Corpus.documents)

        // Another connection holds the write lock.
        var holding = Configuration()
        holding.allowsUnsafeTransactions = true  // the transaction stays open across accesses, on purpose
        let other = try DatabaseQueue(path: path, configuration: holding)
        try await other.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN IMMEDIATE; INSERT INTO meta (key, value) VALUES ('lock', '1')")
        }
        let started = Date()
        let reader = try await HushStore.open(path: path, embedder: HashingEmbedder(), readOnly: true)
        #expect(try await reader.search("sourdough", mode: .keyword, limit: 1).hits.first?.id == "sourdough")
        #expect(Date().timeIntervalSince(started) < 2)

        let writer = try await HushStore.open(
            path: path, embedder: HashingEmbedder(), options: StoreOptions(busyTimeout: 0.3))
        await #expect(throws: StoreError.busy(path: path)) { try await writer.delete(ids: ["sourdough"]) }
        #expect(!StoreError.busy(path: path).description.contains("delete the file"))
        try await other.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
        #expect(try await writer.delete(ids: ["sourdough"]) == 1)
    }

    // MARK: 7. Compaction beside other connections

    @Test func concurrentCompactionsWaitInsteadOfFailing() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("compact.hush")
        let first = try await HushStore.open(path: path, embedder: HashingEmbedder())
        try await first.upsert(Corpus.documents)
        let second = try await HushStore.open(path: path, embedder: HashingEmbedder())
        for round in 0..<15 {
            async let a = first.compact()
            async let b = second.compact()
            async let c: UpsertSummary = second.upsert([Document(id: "r\(round)", body: "Round \(round) note.")])
            _ = try await (a, b, c)
        }
        #expect(try await first.stats().documents == Corpus.documents.count + 15)
    }

    // MARK: 8. Without the model

    @Test func withoutItsModelAStoreCanBeReadKeywordSearchedAndDeleted() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("nomodel.hush")
        let made = try await HushStore.open(path: path, embedder: HashingEmbedder())
        try await made.upsert(Corpus.documents)

        let store = try await HushStore.open(path: path, embedder: nil)
        #expect(!store.semanticAvailable)
        #expect(try await store.document(id: "sourdough")?.document.title != nil)
        let stats = try await store.stats()
        #expect(stats.documents == Corpus.documents.count && !stats.modelLoaded)
        #expect(try await store.search("sourdough", mode: .keyword, limit: 1).hits.first?.id == "sourdough")
        await #expect(throws: StoreError.modelNotLoaded(stored: HashingEmbedder().identity)) {
            _ = try await store.search("sourdough", mode: .semantic, limit: 1)
        }
        await #expect(throws: StoreError.modelNotLoaded(stored: HashingEmbedder().identity)) {
            try await store.upsert([Document(id: "new", body: "Needs the model.")])
        }
        #expect(try await store.delete(ids: ["sourdough"]) == 1)
        #expect(try await store.prune(maxDocuments: 3) == Corpus.documents.count - 4)
        _ = try await store.compact()

        // With the model again, the graph and vectors follow the deletions.
        let back = try await HushStore.open(path: path, embedder: HashingEmbedder())
        #expect(try await back.stats().documents == 3)
        #expect(try await back.search("bread", mode: .semantic, limit: 10).hits.count <= 3)
    }

    // MARK: 9. Identity by content, not folder

    @Test func identityIsTheWeightsNotTheFolderName() async throws {
        struct Named: Embedder {
            let name: String
            let base = HashingEmbedder()
            var identity: EmbedderIdentity {
                EmbedderIdentity(
                    model: name, weightsSHA256: String(repeating: "ab", count: 32), dimension: base.dimension,
                    pooling: .mean, normalized: true)
            }
            var maxTokens: Int { base.maxTokens }
            func embed(_ texts: [String], role: EmbeddingRole) throws -> [Embedding] {
                try base.embed(texts, role: role)
            }
            func tokenCount(_ text: String) -> Int { base.tokenCount(text) }
        }
        #expect(Named(name: "all-MiniLM-L6-v2").identity == Named(name: "copy-of-model").identity)
        #expect(Set([Named(name: "a").identity, Named(name: "b").identity]).count == 1)
        #expect(HashingEmbedder(dimension: 64).identity != HashingEmbedder(dimension: 128).identity)

        let directory = try TemporaryDirectory()
        let path = directory.path("copied.hush")
        let store = try await HushStore.open(path: path, embedder: Named(name: "all-MiniLM-L6-v2"))
        try await store.upsert(Corpus.documents)
        let moved = try await HushStore.open(path: path, embedder: Named(name: "models-copy"))
        #expect(try await moved.search("sourdough rye", mode: .semantic, limit: 1).hits.first?.id == "sourdough")
        // Nothing is re-embedded: the same weights under another folder name change no text hash.
        #expect(try await moved.upsert(Corpus.documents).unchanged == Corpus.documents.count)
    }

    // MARK: 10. Any k

    @Test func everyLimitUpToIntMaxIsClampedNotTrapped() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert(Corpus.documents)
        let count = Corpus.documents.count
        for mode in [SearchMode.semantic, .keyword, .hybrid, .reciprocalRankFusion()] {
            for limit in [Int.max, Int(Int32.max), count + 1] {
                let hits = try await store.search("budget travel bread", mode: mode, limit: limit).hits
                #expect(hits.count <= count)
            }
        }
        let wide = SearchMode.hybrid(alpha: 0.5, candidates: Int.max)
        #expect(try await store.search("bread", mode: wide, limit: Int.max).hits.isEmpty == false)
        #expect(try await store.search("bread", limit: Int.max, diversify: 0.7).hits.count <= count)
        #expect(try await store.related(to: "sourdough", limit: Int.max).count == count - 1)
        #expect(try await store.rank(liked: ["sourdough"], limit: Int.max).count <= count)
        _ = try await store.summarize(query: "budget", k: Int.max, sentences: Int.max)
        let results = try await store.search("bread", limit: 3)
        #expect(try await store.diversify(results, limit: Int.max).hits.count == results.hits.count)
    }

    // MARK: 11, 12. Only regular files; links followed once

    @Test func devicesFIFOsAndLinkCyclesNeverHang() throws {
        let root = try TemporaryDirectory()
        try root.write("docs/good.txt", "A real note.")
        let docs = root.url.appendingPathComponent("docs")
        let manager = FileManager.default
        try manager.createSymbolicLink(
            atPath: docs.appendingPathComponent("zero.csv").path, withDestinationPath: "/dev/zero")
        try manager.createSymbolicLink(
            atPath: docs.appendingPathComponent("random.jsonl").path, withDestinationPath: "/dev/urandom")
        #expect(mkfifo(docs.appendingPathComponent("pipe.jsonl").path, 0o600) == 0)
        try manager.createSymbolicLink(atPath: docs.appendingPathComponent("up").path, withDestinationPath: "..")
        try manager.createSymbolicLink(
            atPath: docs.appendingPathComponent("gone.txt").path, withDestinationPath: "/nonexistent/file.txt")
        try manager.createSymbolicLink(
            atPath: docs.appendingPathComponent("again.txt").path, withDestinationPath: "good.txt")

        let result = try readAll([docs])
        #expect(result.documents.map(\.id) == ["docs/good.txt"])
        let reasons = Dictionary(
            result.skipped.map { (URL(fileURLWithPath: $0.path).lastPathComponent, $0.reason) },
            uniquingKeysWith: { first, _ in first })
        #expect(reasons["zero.csv"]?.contains("device") == true)
        #expect(reasons["random.jsonl"]?.contains("device") == true)
        #expect(reasons["pipe.jsonl"]?.contains("FIFO") == true)
        // docs/up leads to the folder holding docs: docs itself is not entered again there.
        #expect(
            result.skipped.contains { $0.path.hasSuffix("/docs/up/docs") && $0.reason.contains("already read") })
        #expect(reasons["gone.txt"]?.contains("broken symbolic link") == true)
        #expect(reasons["again.txt"]?.contains("same file") == true)

        // Given directly, the same inputs are reported, never opened.
        let direct = try readAll([docs.appendingPathComponent("zero.csv"), docs.appendingPathComponent("pipe.jsonl")])
        #expect(direct.documents.isEmpty && direct.skipped.count == 2)
    }

    // MARK: 13. NUL in records

    @Test func aNULInAnIdSkipsThatRecordOnlyAndIdsRoundTrip() async throws {
        let folder = try TemporaryDirectory()
        var lines: [String] = []
        for index in 0..<60 { lines.append(#"{"id": "post-\#(index)\tx\n", "text": "Post number \#(index)."}"#) }
        lines.insert(#"{"id": "dup\u0000a", "text": "First NUL id."}"#, at: 10)
        lines.insert(#"{"id": "dup\u0000b", "text": "Second NUL id."}"#, at: 20)
        let file = try folder.write("posts.jsonl", lines.joined(separator: "\n"))
        let result = try readAll([file])
        #expect(result.documents.count == 60)
        #expect(result.skipped.map(\.line) == [11, 21])
        #expect(result.skipped.allSatisfy { $0.reason.contains("NUL") })

        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        #expect(try await store.upsert(result.documents).added == 60)
        #expect(try await store.document(id: "post-7\tx\n")?.document.id == "post-7\tx\n")
        // The library refuses such a document by itself too, with the rest stored.
        let summary = try await store.upsert([
            Document(id: "a\u{0}b", body: "x"), Document(id: "ok", body: "Fine."),
            Document(id: "body", body: "cut\u{0}here"),
        ])
        #expect(summary.added == 1 && summary.errors.count == 2)
    }

    // MARK: Smaller: CSV columns and dates

    @Test func csvDatesAreExactOrReportedAndColumnsNeverShadow() throws {
        let folder = try TemporaryDirectory()
        let csv = try folder.write(
            "events.csv",
            "id,text,date\nold,The first day of the era.,0001-01-01\nbad,A typo in the date.,2026-13-45\n"
                + "leap,Leap day.,2024-02-29\nnoleap,Not a leap day.,2023-02-29\n")
        let result = try readAll([csv])
        #expect(result.documents.map(\.id) == ["old", "leap"])
        #expect(result.documents.first?.createdAt == Date(timeIntervalSince1970: -62_135_596_800))
        #expect(result.documents.last?.createdAt == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(result.skipped.map(\.line) == [3, 5])
        #expect(result.skipped.first?.reason.contains("\"2026-13-45\" is not a date") == true)

        let twoTexts = try folder.write("two.csv", "id,text,body\na,first,second\n")
        let shadowed = try readAll([twoTexts])
        #expect(shadowed.documents.isEmpty)
        #expect(shadowed.skipped.first?.reason.contains("\"text\" and \"body\"") == true)
    }

    // MARK: 2 and smaller: builds never replace foreign files, and write owner-only files

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
