import Foundation
import GRDB
import HushTestSupport
import HushToolSupport
import Testing

@testable import Hush

/// The store through each index strategy: same answers as the exact scan, filters never short, the HNSW graph
/// saved with the vectors, repaired after a simulated crash, and sound after every kind of write.
@Suite struct ScaleStoreTests {
    /// Notes on eight topics, each built from the topic's own vocabulary, so that a query about one topic has
    /// a clear set of nearest documents. Every 25th note is tagged "rare" (3 %), every third "common".
    static func notes(_ count: Int, offset: Int = 0) -> [Document] {
        let topics: [(name: String, words: [String])] = [
            ("garden", ["tomatoes", "compost", "seedlings", "watering", "soil", "mulch", "pruning", "basil"]),
            ("finance", ["budget", "invoice", "expenses", "savings", "mortgage", "interest", "taxes", "receipts"]),
            ("travel", ["flight", "passport", "hotel", "luggage", "itinerary", "train", "visa", "airport"]),
            ("cooking", ["recipe", "oven", "simmer", "garlic", "dough", "sauce", "roast", "spices"]),
            ("fitness", ["running", "stretching", "squats", "marathon", "cardio", "weights", "recovery", "sprint"]),
            ("music", ["guitar", "chords", "melody", "rehearsal", "drums", "concert", "tempo", "lyrics"]),
            ("software", ["compiler", "database", "deploy", "refactor", "latency", "server", "tests", "cache"]),
            ("astronomy", ["telescope", "nebula", "orbit", "galaxy", "eclipse", "comet", "planets", "stars"]),
        ]
        return (offset..<(offset + count)).map { i in
            let topic = topics[i % topics.count]
            var words: [String] = []
            for j in 0..<14 { words.append(topic.words[(i * 7 + j * 3 + j * j) % topic.words.count]) }
            let body =
                "Note \(i) about \(topic.name): " + words[0..<7].joined(separator: " ") + ". Then "
                + words[7...].joined(separator: " ") + "."
            var tags = [topic.name]
            if i % 25 == 0 { tags.append("rare") }
            if i % 3 == 0 { tags.append("common") }
            return Document(id: "note-\(i)", title: "\(topic.name.capitalized) note \(i)", body: body, tags: tags)
        }
    }

    static let queries = [
        "watering the tomato seedlings", "monthly budget and savings", "passport for the flight",
        "garlic sauce recipe", "marathon recovery", "guitar chords for the concert", "database latency",
        "comet seen through the telescope", "compost and mulch", "hotel near the airport", "taxes and receipts",
        "deploy the server", "roast in the oven", "drums and tempo", "galaxy and stars", "squats and weights",
    ]

    static let parameters = HNSWParameters(M: 8, efConstruction: 48, efSearch: 48)

    static func options(_ strategy: IndexStrategy?) -> StoreOptions {
        StoreOptions(indexStrategy: strategy, hnswParameters: parameters)
    }

    static func ids(_ store: HushStore, _ query: String, filter: SearchFilter = .init(), limit: Int = 10)
        async throws -> [String]
    {
        try await store.search(query, mode: .semantic, filter: filter, limit: limit).hits.map(\.id)
    }

    /// The graph holds exactly the live rows, passes its structural checks and matches `hnsw_nodes`.
    static func expectSoundGraph(_ store: HushStore, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (problems, nodes, liveRows, verification) = store.memory.read { state in
            let rowChunk = state.matrix.rowChunk
            let live = Bitset(count: state.matrix.rows) { rowChunk[$0] >= 0 }
            return (
                state.hnsw?.checkInvariants() ?? ["no graph"], state.hnsw?.liveCount ?? -1, state.matrix.liveRows,
                state.hnsw?.verify(against: state.matrix.rows, liveRows: live)
            )
        }
        #expect(problems.isEmpty, "\(problems)", sourceLocation: sourceLocation)
        #expect(nodes == liveRows, sourceLocation: sourceLocation)
        #expect(verification?.isConsistent == true, "\(verification?.problems ?? [])", sourceLocation: sourceLocation)
        let saved = try store.database.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM hnsw_nodes WHERE deleted = 0") ?? -1,
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM vectors") ?? -1,
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM vectors WHERE row NOT IN (SELECT row FROM hnsw_nodes)") ?? -1
            )
        }
        #expect(saved.0 == saved.1 && saved.2 == 0, "graph rows \(saved)", sourceLocation: sourceLocation)
        // Every vector's stored row is the row memory (and so the graph) uses for it.
        let stored = try store.database.read { db in
            try Row.fetchAll(db, sql: "SELECT chunk_id, row FROM vectors").map { ($0[0] as Int64, $0[1] as Int32?) }
        }
        let mismatched = store.memory.read { state in
            stored.filter { state.matrix.rowByChunk[$0.0] != $0.1 }.count
        }
        #expect(mismatched == 0, sourceLocation: sourceLocation)
    }

    @Test func everyForcedStrategyAgreesWithTheExactScan() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("scale.hush")
        let embedder = HashingEmbedder()
        do {
            let store = try await HushStore.open(path: path, embedder: embedder, options: Self.options(.exact))
            try await store.upsert(Self.notes(480))
            #expect(try await store.stats().index == .exact)
        }
        let exact = try await HushStore.open(path: path, embedder: embedder, options: Self.options(.exact))
        var truth: [[String]] = []
        for query in Self.queries { truth.append(try await Self.ids(exact, query)) }
        for (strategy, wanted) in [(IndexStrategy.hnsw, 0.95), (.int8, 0.95), (.binary, 0.85)] {
            let store = try await HushStore.open(path: path, embedder: embedder, options: Self.options(strategy))
            let stats = try await store.stats()
            #expect(stats.index == strategy)
            #expect(stats.indexReason.hasPrefix("\(strategy.rawValue): forced"))
            #expect(stats.indexBytes > 0)
            var overlap = 0
            for (query, expected) in zip(Self.queries, truth) {
                let found = try await Self.ids(store, query)
                #expect(found.count == 10)
                overlap += Set(found).intersection(expected).count
            }
            let recall = Double(overlap) / Double(10 * Self.queries.count)
            #expect(recall >= wanted, "\(strategy) recall \(recall)")
            // Scores are exact cosines whichever index found the document.
            let hit = try #require(try await store.search("garlic sauce recipe", mode: .semantic, limit: 1).hits.first)
            let exactHit = try #require(
                try await exact.search("garlic sauce recipe", mode: .semantic, limit: 1).hits.first)
            if hit.id == exactHit.id { #expect(abs(hit.score - exactHit.score) < 1e-5) }
        }
        // Back to automatic: 480 vectors are below the threshold, the graph tables are cleared.
        let automatic = try await HushStore.open(path: path, embedder: embedder, options: Self.options(nil))
        let stats = try await automatic.stats()
        #expect(stats.index == .exact && stats.indexReason.contains("below the exact-scan threshold"))
        #expect(try automatic.database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM hnsw_nodes") } == 0)
    }

    @Test(arguments: [IndexStrategy.exact, .hnsw, .int8, .binary])
    func filteredTopKIsNeverShort(strategy: IndexStrategy) async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder(), options: Self.options(strategy))
        try await store.upsert(Self.notes(400))
        let rare = SearchFilter(tagsAny: ["rare"])  // 16 documents
        for query in Self.queries.prefix(6) {
            let tenRare = try await store.search(query, mode: .semantic, filter: rare, limit: 10).hits
            #expect(tenRare.count == 10 && tenRare.allSatisfy { $0.tags.contains("rare") })
            let allRare = try await Self.ids(store, query, filter: rare, limit: 50)
            #expect(allRare.count == 16)
            let common = try await store.search(
                query, mode: .semantic, filter: SearchFilter(tagsAny: ["common"]), limit: 40
            ).hits
            #expect(common.count == 40 && common.allSatisfy { $0.tags.contains("common") })
            let hybrid = try await store.search(query, mode: .hybrid, filter: rare, limit: 10).hits
            #expect(hybrid.count == 10 && hybrid.allSatisfy { $0.tags.contains("rare") })
        }
    }

    @Test func graphIsSavedWithTheVectorsAndSoundAfterEveryWrite() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("graph.hush")
        let embedder = HashingEmbedder()
        var before: [[Float]] = []
        var neighbours: [Int] = []
        do {
            let store = try await HushStore.open(path: path, embedder: embedder, options: Self.options(.hnsw))
            try await store.upsert(Self.notes(300))
            try Self.expectSoundGraph(store)
            #expect(try await store.delete(ids: (0..<40).map { "note-\($0 * 7)" }) == 40)
            try Self.expectSoundGraph(store)
            // Changed text: old chunks leave the graph, new ones join it (holes are reused).
            var changed = Self.notes(30, offset: 100)
            for i in changed.indices { changed[i].body += " Revised with an extra telescope and budget remark." }
            try await store.upsert(changed)
            try Self.expectSoundGraph(store)
            try await store.upsert(Self.notes(60, offset: 300))
            try Self.expectSoundGraph(store)
            #expect(store.memory.read { !$0.matrix.hasHoles })
            #expect(try await store.prune(maxDocuments: 250) > 0)
            try Self.expectSoundGraph(store)
            for query in Self.queries {
                before.append(try await store.search(query, mode: .semantic, limit: 10).hits.map(\.score))
            }
            neighbours = store.memory.read { state in
                let row = state.matrix.rowChunk.firstIndex { $0 >= 0 } ?? 0
                return state.hnsw?.neighbours(of: row, level: 0) ?? []
            }
        }
        // Reopen: the saved graph is used as is (same lists), and answers the same.
        let reopened = try await HushStore.open(path: path, embedder: embedder, options: Self.options(.hnsw))
        try Self.expectSoundGraph(reopened)
        let reloaded = reopened.memory.read { state in
            let row = state.matrix.rowChunk.firstIndex { $0 >= 0 } ?? 0
            return state.hnsw?.neighbours(of: row, level: 0) ?? []
        }
        #expect(!neighbours.isEmpty && reloaded == neighbours)
        // Same scores rank by rank (the notes repeat words, so ties make ids an unstable comparison).
        for (query, expected) in zip(Self.queries, before) {
            let got = try await reopened.search(query, mode: .semantic, limit: 10).hits.map(\.score)
            #expect(got.count == expected.count && zip(got, expected).allSatisfy { abs($0 - $1) < 1e-5 })
        }
    }

    @Test func aCrashBetweenVectorsAndGraphIsRepairedOnOpen() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("crash.hush")
        let embedder = HashingEmbedder()
        do {
            let store = try await HushStore.open(path: path, embedder: embedder, options: Self.options(.hnsw))
            try await store.upsert(Self.notes(200))
        }
        // Simulate a writer that died after the vectors but before the graph: a document, its chunk and its
        // vector written by raw SQL (one without a row number), with no graph rows.
        let text = "Lighthouse keeper logbook: foghorn, beacon, and the storm over the harbour."
        let vector = try embedder.embed(text, role: .query).vector
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            for (n, row) in [(1, 200 as Int?), (2, nil)] {
                try db.execute(
                    sql: """
                        INSERT INTO documents (external_id, title, body, language, created_at, text_hash, content_hash)
                        VALUES (?, 'Lighthouse', ?, 'en', 0, 'x', 'x')
                        """, arguments: ["crash-\(n)", text])
                let document = db.lastInsertedRowID
                try db.execute(
                    sql: """
                        INSERT INTO chunks (document_id, ordinal, text, range_start, range_end, token_count)
                        VALUES (?, 0, ?, 0, 10, 10)
                        """, arguments: [document, text])
                let chunk = db.lastInsertedRowID
                try db.execute(
                    sql: "INSERT INTO vectors (chunk_id, vector, row) VALUES (?, ?, ?)",
                    arguments: [chunk, VectorBlob.encode(vector), row])
                try db.execute(sql: "INSERT INTO chunks_fts (rowid, text) VALUES (?, ?)", arguments: [chunk, text])
            }
        }
        try queue.close()
        let repaired = try await HushStore.open(path: path, embedder: embedder, options: Self.options(.hnsw))
        try Self.expectSoundGraph(repaired)
        #expect(Set(try await Self.ids(repaired, "lighthouse foghorn beacon", limit: 2)) == ["crash-1", "crash-2"])

        // A graph whose tables lost a node (neighbours now dangle) is rebuilt.
        let broken = try DatabaseQueue(path: path)
        try await broken.write { db in
            // (The saved image, current, would be used instead of the tables: it goes too.)
            try db.execute(
                sql:
                    "DELETE FROM hnsw_nodes WHERE row = 3; DELETE FROM hnsw_edges WHERE row = 3; DELETE FROM index_image"
            )
        }
        try broken.close()
        let rebuilt = try await HushStore.open(path: path, embedder: embedder, options: Self.options(.hnsw))
        try Self.expectSoundGraph(rebuilt)
        #expect(try await Self.ids(rebuilt, "garlic sauce recipe", limit: 10).count == 10)
    }

    /// Rows of clustered unit vectors for `count` notes, for writes with precomputed vectors.
    static func vectors(_ count: Int, seed: UInt64) -> [[Float]] {
        let flat = SyntheticVectors.clustered(count: count, dimension: 384, clusters: 40, noise: 0.7, seed: seed)
        return (0..<count).map { Array(flat[($0 * 384)..<(($0 + 1) * 384)]) }
    }

    /// The graph rows saved in the file at `path`, and its vectors.
    static func savedCounts(_ path: String) throws -> (graph: Int, vectors: Int) {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM hnsw_nodes WHERE deleted = 0") ?? -1,
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM vectors") ?? -1
            )
        }
    }

    /// A bulk write saves the graph only when due (the batches' saves rewrote the whole table each time), so
    /// mid-way the file's graph lags its vectors; a copy taken then (what a crash leaves) opens with the
    /// missing nodes inserted, and the finished write leaves the graph complete.
    @Test func aBulkWriteSavesTheGraphWhenDueAndACrashMidwayIsRepairedOnOpen() async throws {
        let folder = try TemporaryDirectory()
        let (path, crashed) = (folder.path("bulk.hush"), folder.path("crashed.hush"))
        let embedder = HashingEmbedder()
        let store = try await HushStore.open(path: path, embedder: embedder, options: Self.options(.hnsw))
        let midway = Locked<(graph: Int, vectors: Int)?>(nil)
        let summary = try await store.upsert(Self.notes(6_000), precomputed: Self.vectors(6_000, seed: 5)) {
            guard $0.completed == 2_048 else { return }
            midway.value = try? Self.savedCounts(path)
            for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
                try? FileManager.default.copyItem(atPath: path + suffix, toPath: crashed + suffix)
            }
        }
        #expect(summary.added == 6_000)
        // Batches of 512 into the (empty) graph the open made: none saved yet, 4,096 new rows are due.
        #expect(midway.value?.graph == 0 && midway.value?.vectors == 2_048, "\(String(describing: midway.value))")
        try Self.expectSoundGraph(store)
        let reopened = try await HushStore.open(path: crashed, embedder: embedder, options: Self.options(.hnsw))
        #expect(try await reopened.stats().documents == 2_048)
        try Self.expectSoundGraph(reopened)
    }

    /// When a batch of a bulk write fails, the batches before it stay committed and their graph is saved.
    @Test func aFailedBatchLeavesTheGraphOfTheBatchesBeforeItSaved() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("failed.hush")
        let store = try await HushStore.open(path: path, embedder: HashingEmbedder(), options: Self.options(.hnsw))
        var vectors = Self.vectors(1_500, seed: 9)
        vectors[1_100][7] = .nan  // in the third batch of 512
        await #expect(throws: StoreError.self) { try await store.upsert(Self.notes(1_500), precomputed: vectors) }
        #expect(try await store.stats().documents == 1_024)
        let saved = try Self.savedCounts(path)
        #expect(saved.graph == 1_024 && saved.vectors == 1_024, "\(saved)")
        try Self.expectSoundGraph(store)
    }

    /// A store past the guide threshold walks its graph on int8 codes: same answers as the exact scan, exact
    /// scores, the codes counted in the index bytes and named in the reason, and kept up to date by writes.
    @Test func graphWalkedOnInt8CodesAgreesWithTheExactScan() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("guided.hush")
        let embedder = HashingEmbedder()
        let exact = try await HushStore.open(path: path, embedder: embedder, options: Self.options(.exact))
        try await exact.upsert(Self.notes(480))
        var options = Self.options(.hnsw)
        options.int8GuideThreshold = 100
        let guided = try await HushStore.open(path: path, embedder: embedder, options: options)
        // Without its saved image (which keeps only codes in memory) a store below the threshold walks on f32.
        let queue = try DatabaseQueue(path: path)
        try await queue.write { try $0.execute(sql: "DELETE FROM index_image") }
        try queue.close()
        let plain = try await HushStore.open(
            path: path, embedder: embedder, readOnly: true, options: Self.options(.hnsw))
        let guidedStats = try await guided.stats()
        #expect(guidedStats.indexReason.contains("walked on int8 codes"))
        #expect(guidedStats.indexBytes > (try await plain.stats()).indexBytes)
        #expect(!(try await plain.stats()).indexReason.contains("int8"))
        var overlap = 0
        for query in Self.queries {
            let truth = try await Self.ids(exact, query)
            let found = try await Self.ids(guided, query)
            #expect(found.count == 10)
            overlap += Set(found).intersection(truth).count
        }
        #expect(Double(overlap) / Double(10 * Self.queries.count) >= 0.95)
        let hit = try #require(try await guided.search("garlic sauce recipe", mode: .semantic, limit: 1).hits.first)
        let exactHit = try #require(try await exact.search("garlic sauce recipe", mode: .semantic, limit: 1).hits.first)
        #expect(hit.id == exactHit.id && abs(hit.score - exactHit.score) < 1e-5)
        // A note written after opening is found through the codes as well.
        try await guided.upsert([
            Document(id: "new-kite", body: "Flying a red kite on the windy beach with a long string and a spare tail.")
        ])
        let kite = try await guided.search("red kite windy beach", mode: .semantic, limit: 1).hits.first
        #expect(kite?.id == "new-kite")
    }

    @Test func automaticChoiceHasHysteresisAroundTheThreshold() {
        let policy = IndexPolicy(forced: nil, memoryBudget: 2 << 30, hnsw: HNSWParameters())
        #expect(policy.choose(vectorCount: 5_000, dimension: 384, current: nil).strategy == .exact)
        #expect(policy.choose(vectorCount: 25_000, dimension: 384, current: nil).strategy == .hnsw)
        // Deleting a few documents below 20k keeps the graph; far below drops it.
        let kept = policy.choose(vectorCount: 18_000, dimension: 384, current: .hnsw)
        #expect(kept.strategy == .hnsw && kept.reason.contains("kept"))
        #expect(policy.choose(vectorCount: 14_000, dimension: 384, current: .hnsw).strategy == .exact)
        let tight = IndexPolicy(forced: nil, memoryBudget: 64 << 20, hnsw: HNSWParameters())
        #expect(tight.choose(vectorCount: 100_000, dimension: 384, current: nil).strategy == .int8)
        #expect(tight.choose(vectorCount: 1_000_000, dimension: 384, current: nil).strategy == .binary)
        // The int8 guide: from its threshold, when vectors, graph and codes fit the budget.
        #expect(!policy.wantsGuide(vectorCount: 150_000, dimension: 384))
        #expect(policy.wantsGuide(vectorCount: 1_000_000, dimension: 384))
        let noRoom = IndexPolicy(forced: nil, memoryBudget: 1_700 * 1_000_000, hnsw: HNSWParameters())
        #expect(noRoom.choose(vectorCount: 1_000_000, dimension: 384, current: nil).strategy == .hnsw)
        #expect(!noRoom.wantsGuide(vectorCount: 1_000_000, dimension: 384))
    }
}

extension ScaleStoreTests {
    @Test func relatedItemsThroughTheGraphMatchTheExactOnes() async throws {
        let notes = Self.notes(240)
        let exact = try await HushStore.inMemory(embedder: HashingEmbedder(), options: Self.options(.exact))
        let graph = try await HushStore.inMemory(embedder: HashingEmbedder(), options: Self.options(.hnsw))
        try await exact.upsert(notes)
        try await graph.upsert(notes)
        for id in ["note-3", "note-42", "note-117"] {
            let truth = try await exact.related(to: id, limit: 5).compactMap(\.similarity)
            let found = try await graph.related(to: id, limit: 5)
            #expect(!found.contains { $0.id == id })
            #expect(found.compactMap(\.similarity).count == 5)
            // Same similarities rank by rank (ids may differ between exact ties).
            #expect(zip(found.compactMap(\.similarity), truth).allSatisfy { abs($0 - $1) < 1e-4 })
        }
    }
}

extension ScaleStoreTests {
    @Test func reembeddingReplacesTheGraph() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("reembed.hush")
        do {
            let store = try await HushStore.open(path: path, embedder: HashingEmbedder(), options: Self.options(.hnsw))
            try await store.upsert(Self.notes(120))
            #expect(store.memory.read { $0.hnsw?.dimension } == 384)
        }
        let smaller = HashingEmbedder(dimension: 128)
        var options = Self.options(.hnsw)
        options.allowEmbedderMismatch = true
        let store = try await HushStore.open(path: path, embedder: smaller, options: options)
        try await store.reembed()
        // The old 384-d graph is gone; a 128-d one over the new vectors is saved and sound.
        #expect(store.memory.read { $0.hnsw?.dimension } == 128)
        try Self.expectSoundGraph(store)
        #expect(
            try store.database.read {
                try String.fetchOne($0, sql: "SELECT value FROM hnsw_meta WHERE key = 'dimension'")
            }
                == "128")
        #expect(try await Self.ids(store, "garlic sauce recipe").count == 10)
    }
}
