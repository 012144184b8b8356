import Foundation
import GRDB
import HushTestSupport
import Testing

@testable import Hush

/// The saved memory image: an HNSW store opens from it with its vectors left in the file, answers exactly as
/// the store that wrote it, writes through it, and never trusts an image that is stale or damaged.
@Suite struct MemoryImageTests {
    static let options = ScaleStoreTests.options(.hnsw)

    /// Scores of the semantic top 10 of every test query.
    static func scores(_ store: HushStore) async throws -> [[Float]] {
        var all: [[Float]] = []
        for query in ScaleStoreTests.queries {
            all.append(try await store.search(query, mode: .semantic, limit: 10).hits.map(\.score))
        }
        return all
    }

    static func sameScores(_ a: [[Float]], _ b: [[Float]]) -> Bool {
        a.count == b.count
            && zip(a, b).allSatisfy { x, y in x.count == y.count && zip(x, y).allSatisfy { abs($0 - $1) < 1e-5 } }
    }

    /// A store at `path` holding 400 notes on HNSW (the bulk write saves its memory image).
    static func storeOfNotes(_ path: String, embedder: HashingEmbedder) async throws -> HushStore {
        let store = try await HushStore.open(path: path, embedder: embedder, options: options)
        try await store.upsert(ScaleStoreTests.notes(400))
        return store
    }

    static func meta(_ path: String, _ key: String) throws -> String? {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { try String.fetchOne($0, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key]) }
    }

    @Test func aStoreOpensFromItsImageWithTheVectorsInTheFileAndAnswersTheSame() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("image.hush")
        let embedder = HashingEmbedder()
        let written: [[Float]]
        do {
            let store = try await Self.storeOfNotes(path, embedder: embedder)
            // The bulk write saved an image at the file's current commit and let go of the f32 vectors; the
            // image is in the file itself, the write-ahead log emptied (a new process would scan it all).
            #expect(store.memory.read { !$0.isResident })
            #expect(try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int == 0)
            written = try await Self.scores(store)
        }
        #expect(try Self.meta(path, "image_commit") == Self.meta(path, "commit_counter"))
        let counter = try Self.meta(path, "commit_counter")
        for readOnly in [true, false] {
            let reopened = try await HushStore.open(
                path: path, embedder: embedder, readOnly: readOnly, options: Self.options)
            let stats = try await reopened.stats()
            #expect(stats.vectorBytes == 0 && stats.index == .hnsw && stats.documents == 400)
            #expect(Self.sameScores(try await Self.scores(reopened), written))
            // Filters and hybrid search work on it too (the filter's rows are scanned on their codes).
            let rare = try await reopened.search(
                "garlic sauce recipe", mode: .hybrid, filter: SearchFilter(tagsAny: ["rare"]), limit: 10)
            #expect(rare.hits.count == 10 && rare.hits.allSatisfy { $0.tags.contains("rare") })
            try ScaleStoreTests.expectSoundGraph(reopened)
        }
        // Opening from the image wrote nothing.
        #expect(try Self.meta(path, "commit_counter") == counter)
    }

    /// Related items, interest ranking, MMR and summaries read document vectors: on a store whose vectors stay
    /// in the file they read them from it, and agree with the same file loaded into memory.
    @Test func rankingOnAStoreOpenedFromItsImageMatchesTheVectorsInMemory() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("ranking.hush")
        let embedder = HashingEmbedder()
        _ = try await Self.storeOfNotes(path, embedder: embedder)
        let fromImage = try await HushStore.open(path: path, embedder: embedder, readOnly: true, options: Self.options)
        #expect(fromImage.memory.read { !$0.isResident })
        let copy = folder.path("resident.hush")
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let queue = try DatabaseQueue(path: copy)
        try await queue.write { try $0.execute(sql: "DELETE FROM index_image") }
        try queue.close()
        let inMemory = try await HushStore.open(path: copy, embedder: embedder, readOnly: true, options: Self.options)
        #expect(inMemory.memory.read { $0.isResident })

        func same(_ a: [RankedDocument], _ b: [RankedDocument]) -> Bool {
            a.count == b.count && zip(a, b).allSatisfy { abs(($0.score ?? 0) - ($1.score ?? 0)) < 1e-5 }
        }
        for id in ["note-3", "note-77", "note-250"] {
            let a = try await fromImage.related(to: id, limit: 5)
            let b = try await inMemory.related(to: id, limit: 5)
            #expect(a.count == 5 && same(a, b), "related to \(id)")
        }
        let liked = ["note-1", "note-9"]
        #expect(
            same(
                try await fromImage.rank(liked: liked, disliked: ["note-2"], limit: 10).documents,
                try await inMemory.rank(liked: liked, disliked: ["note-2"], limit: 10).documents))
        let results = try await fromImage.search("garlic sauce recipe", mode: .semantic, limit: 10)
        #expect(
            try await fromImage.diversify(results, lambda: 0.5).hits.map(\.id)
                == (try await inMemory.diversify(results, lambda: 0.5).hits.map(\.id)))
        let ids = ["note-3", "note-11", "note-19"]
        #expect(
            try await fromImage.summarize(ids: ids, sentences: 2).sentences.map(\.text)
                == (try await inMemory.summarize(ids: ids, sentences: 2).sentences.map(\.text)))
    }

    @Test func writesToAStoreOpenedFromItsImageLandAndReopenTheSame() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("writes.hush")
        let embedder = HashingEmbedder()
        _ = try await Self.storeOfNotes(path, embedder: embedder)
        let after: [[Float]]
        do {
            let store = try await HushStore.open(path: path, embedder: embedder, options: Self.options)
            #expect(store.memory.read { !$0.isResident })
            let lighthouse = Document(
                id: "lighthouse", title: "Lighthouse",
                body: "Keeper's logbook: foghorn, beacon, storm over the harbour.")
            try await store.upsert([lighthouse])
            #expect(try await store.delete(ids: ["note-1", "note-2"]) == 2)
            try ScaleStoreTests.expectSoundGraph(store)
            let hits = try await store.search("foghorn beacon harbour", mode: .semantic, limit: 3).hits.map(\.id)
            #expect(hits.first == "lighthouse")
            let all = try await store.search("note about garden", mode: .keyword, limit: 500).hits.map(\.id)
            #expect(!all.contains("note-1") && !all.contains("note-2"))
            after = try await Self.scores(store)
        }
        // The small writes left the image behind: the next writable open loads the tables, then saves a new one.
        let reopened = try await HushStore.open(path: path, embedder: embedder, options: Self.options)
        #expect(try Self.meta(path, "image_commit") == Self.meta(path, "commit_counter"))
        #expect(Self.sameScores(try await Self.scores(reopened), after))
        #expect(try await reopened.stats().documents == 399)
        try ScaleStoreTests.expectSoundGraph(reopened)
    }

    @Test func aStaleOrDamagedImageIsNeverUsed() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("stale.hush")
        let embedder = HashingEmbedder()
        let truth: [[Float]]
        do {
            let store = try await Self.storeOfNotes(path, embedder: embedder)
            truth = try await Self.scores(store)
        }
        // Another program deletes a document behind Hush's back: the image no longer matches the tables.
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(sql: "DELETE FROM documents WHERE external_id = 'note-399'")
        }
        var stale = try await HushStore.open(path: path, embedder: embedder, readOnly: true, options: Self.options)
        #expect(stale.memory.read { $0.isResident })
        #expect(try await stale.stats().documents == 399)
        #expect(try await stale.document(id: "note-399") == nil)

        // A commit Hush counted but whose image was not refreshed is stale as well.
        try await queue.write { db in
            try db.execute(sql: "UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'commit_counter'")
        }
        stale = try await HushStore.open(path: path, embedder: embedder, readOnly: true, options: Self.options)
        #expect(stale.memory.read { $0.isResident })

        // A writable open saves a current image; then damage one of its blocks: it is refused, the tables load.
        _ = try await HushStore.open(path: path, embedder: embedder, options: Self.options)
        try await queue.write { db in
            try db.execute(sql: "UPDATE index_image SET data = zeroblob(length(data)) WHERE id = 0")
        }
        let damaged = try await HushStore.open(path: path, embedder: embedder, readOnly: true, options: Self.options)
        #expect(damaged.memory.read { $0.isResident })
        let scores = try await Self.scores(damaged)
        #expect(scores.count == truth.count && scores.allSatisfy { $0.count == 10 })
        // The damage is said (a read-only open cannot mend it), and the next writable open saves a sound image once.
        #expect(damaged.imageProblem != nil)
        #expect(try await damaged.stats().imageProblem == damaged.imageProblem)
        let mending = try await HushStore.open(path: path, embedder: embedder, options: Self.options)
        #expect(mending.imageProblem != nil)
        try await mending.close()
        let mended = try await HushStore.open(path: path, embedder: embedder, readOnly: true, options: Self.options)
        #expect(mended.imageProblem == nil && !mended.memory.read { $0.isResident })
        try queue.close()
    }

    /// An image written by another release of Hush (another image version) is reported stale and never read,
    /// even though the commit it was made at is still the file's; the next writable open replaces it.
    @Test func anImageOfAnotherVersionIsStaleUntilAWritableOpenReplacesIt() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("version.hush")
        let embedder = HashingEmbedder()
        _ = try await Self.storeOfNotes(path, embedder: embedder)
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            var block = try #require(try Data.fetchOne(db, sql: "SELECT data FROM index_image WHERE id = 0"))
            // After the 8-byte magic: the version, little-endian. 4 was the int8-coded image.
            block.replaceSubrange(8..<12, with: [4, 0, 0, 0])
            try db.execute(sql: "UPDATE index_image SET data = ? WHERE id = 0", arguments: [block])
        }
        try queue.close()
        let old = try await HushStore.open(path: path, embedder: embedder, readOnly: true, options: Self.options)
        #expect(old.memory.read { $0.isResident })
        #expect(try await !old.stats().imageCurrent)
        #expect(try await old.search("garlic sauce recipe", mode: .semantic, limit: 5).hits.count == 5)

        _ = try await HushStore.open(path: path, embedder: embedder, options: Self.options)
        let replaced = try await HushStore.open(path: path, embedder: embedder, readOnly: true, options: Self.options)
        #expect(replaced.memory.read { !$0.isResident })
        #expect(try await replaced.stats().imageCurrent)
    }

    @Test func aVersionTwoFileOpensReadOnlyWithoutAnImage() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("old.hush")
        let embedder = HashingEmbedder()
        do {
            let store = try await HushStore.open(path: path, embedder: embedder, options: Self.options)
            try await store.upsert(ScaleStoreTests.notes(120))
        }
        // Make it the file an earlier Hush wrote: schema 2, no image, no counter, no passage starts.
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(
                sql: """
                    DROP TABLE index_image;
                    ALTER TABLE chunks DROP COLUMN passage_start;
                    ALTER TABLE chunks DROP COLUMN field;
                    DROP INDEX documents_listing;
                    DELETE FROM grdb_migrations WHERE identifier IN ('v3', 'v4', 'v5', 'v6', 'v7');
                    DELETE FROM meta WHERE key IN ('commit_counter', 'image_commit', 'image_fingerprint');
                    UPDATE meta SET value = '2' WHERE key = 'schema_version';
                    """)
        }
        try queue.close()
        let shipped = try await HushStore.open(path: path, embedder: embedder, readOnly: true, options: Self.options)
        #expect(try await shipped.search("garlic sauce recipe", mode: .semantic, limit: 5).hits.count == 5)
        #expect(try Self.meta(path, "schema_version") == "2")
        // A writable open upgrades it and saves the image.
        _ = try await HushStore.open(path: path, embedder: embedder, options: Self.options)
        #expect(try Self.meta(path, "schema_version") == String(StoreSchema.version))
        #expect(try Self.meta(path, "image_commit") != nil)
    }

    /// A store on an exact scan keeps a documents image, refreshed by each write: an open that compares no
    /// vectors (the model not loaded yet) reads its documents from it instead of the tables, and the first call
    /// that compares vectors reads them from the tables as before.
    @Test func anExactStoreOpensItsDocumentsFromTheirImage() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("journal.hush")
        let embedder = HashingEmbedder()
        do {
            let writer = try await HushStore.open(path: path, embedder: embedder)
            try await writer.upsert(Corpus.documents)
            #expect(try await writer.stats().index == .exact)
            #expect(try await writer.stats().imageCurrent, "the write left a documents image")
            try await writer.close()
        }
        // Tags changed behind Hush's back (no commit counted): an open that reads the image still sees the old
        // ones, which shows where its documents came from; an open that reads the tables sees the new.
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(sql: #"UPDATE documents SET tags = '["moved"]' WHERE external_id = 'sourdough'"#)
        }
        try queue.close()
        func lazy() -> LazyEmbedder { StoreModelLoadingTests.lazy() }
        let fromImage = try await HushStore.open(path: path, embedder: lazy(), readOnly: true)
        #expect(try await fromImage.stats().documents == Corpus.documents.count)
        #expect(try await fromImage.search("sourdough", mode: .keyword, limit: 1).hits.first?.id == "sourdough")
        let tagged = try await fromImage.search(
            "sourdough", mode: .keyword, filter: SearchFilter(tagsAny: ["moved"]), limit: 1)
        #expect(tagged.hits.isEmpty, "documents from the image")
        let fromTables = try await HushStore.open(path: path, embedder: embedder, readOnly: true)
        #expect(
            try await fromTables.search(
                "sourdough", mode: .keyword, filter: SearchFilter(tagsAny: ["moved"]), limit: 1
            ).hits.first?.id == "sourdough")
        // Comparing vectors reads the vectors, the documents with them, from the tables.
        #expect(try await fromImage.search("sourdough bread", mode: .semantic, limit: 3).hits.count == 3)
        #expect(
            try await fromImage.search(
                "sourdough", mode: .keyword, filter: SearchFilter(tagsAny: ["moved"]), limit: 1
            ).hits.first?.id == "sourdough")

        // A write makes the image current again, with what it wrote.
        let writer = try await HushStore.open(path: path, embedder: lazy())
        try await writer.upsert([Document(id: "late-note", body: "A late note about the garden shed.")])
        #expect(try await writer.stats().imageCurrent)
        try await writer.close()
        let reopened = try await HushStore.open(path: path, embedder: lazy(), readOnly: true)
        #expect(try await reopened.search("garden shed", mode: .keyword, limit: 1).hits.first?.id == "late-note")
        #expect(try await reopened.stats().documents == Corpus.documents.count + 1)
        #expect(!reopened.modelInMemory)
    }
}

/// A memory image is read from a file that may come from anywhere: every count, length, level and id in it is
/// checked against what the image can hold before anything is allocated, so no value written over any of its
/// fields makes the open crash, reserve gigabytes or take long. (Before, a graph's slot count of 0x7FFFFFFF
/// asked for 283 GB and ended the process; a documents image's first count reserved 17 GB.)
@Suite struct MemoryImageDamageTests {
    /// Records where each scalar of an image lands, as it is written.
    final class RecordingOutput: ImageOutput {
        var bytes: [UInt8] = []
        var scalars: [(offset: Int, size: Int)] = []
        func write(_ buffer: UnsafeRawBufferPointer) throws {
            if buffer.count <= 8 { scalars.append((bytes.count, buffer.count)) }
            bytes.append(contentsOf: buffer)
        }
    }

    /// Reads an image from memory.
    final class MemoryInput: ImageInput {
        let bytes: [UInt8]
        var position = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        var remaining: Int { bytes.count - position }
        func read(into target: UnsafeMutableRawBufferPointer) throws {
            guard target.count <= remaining else { throw ImageError.truncated }
            bytes.withUnsafeBytes { source in
                target.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[position..<(position + target.count)]))
            }
            position += target.count
        }
    }

    /// Values written over a field of each size: the largest counts, a count past the image, and zero.
    static func damages(size: Int) -> [[UInt8]] {
        let values: [UInt64] =
            switch size {
            case 8: [UInt64(Int32.max), 1 << 40, UInt64.max, 100_000_000, 0]
            case 4: [UInt64(UInt32.max), UInt64(Int32.max), 100_000_000, 0]
            case 2: [UInt64(UInt16.max), 0]
            default: [0xFF, 0x80, 0]
            }
        return values.map { value in (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    }

    @Test(arguments: [IndexStrategy.hnsw, .exact])
    func noValueOverAnyFieldOfAnImageCrashesOrReservesMemory(strategy: IndexStrategy) async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("image.hush")
        let store = try await HushStore.open(
            path: path, embedder: HashingEmbedder(), options: ScaleStoreTests.options(strategy))
        try await store.upsert(ScaleStoreTests.notes(strategy == .hnsw ? 400 : 60))
        let policy = store.options.indexPolicy
        let state = store.memory.read { $0 }
        let output = RecordingOutput()
        let codes = state.isResident ? state.buildImageCodes() : state.ann.guide
        try state.writeImage(codes: strategy == .hnsw ? codes : nil, to: output)
        // The image as written reads back.
        var sound = state
        if strategy == .hnsw {
            try sound.loadImage(MemoryInput(output.bytes), policy: policy)
        } else {
            try sound.loadImageDocuments(MemoryInput(output.bytes))
        }
        #expect(sound.documentCount == state.documentCount)
        #expect(output.scalars.count > 20)
        let clock = ContinuousClock()
        var refused = 0
        for field in output.scalars {
            for damage in Self.damages(size: field.size) {
                var bytes = output.bytes
                bytes.replaceSubrange(field.offset..<(field.offset + field.size), with: damage)
                var copy = state
                let elapsed = clock.measure {
                    do {
                        if strategy == .hnsw {
                            try copy.loadImage(MemoryInput(bytes), policy: policy)
                        } else {
                            try copy.loadImageDocuments(MemoryInput(bytes))
                        }
                    } catch is ImageError {
                        refused += 1
                    } catch {
                        Issue.record("field at \(field.offset): \(error)")
                    }
                }
                #expect(elapsed < .seconds(2), "field at \(field.offset) took \(elapsed)")
            }
        }
        #expect(refused > output.scalars.count, "most damage is refused")
    }
}
