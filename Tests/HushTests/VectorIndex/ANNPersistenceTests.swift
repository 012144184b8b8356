import Foundation
import GRDB
import Testing

@testable import Hush

@Suite struct ANNPersistenceTests {
    static func temporaryDatabase() throws -> (DatabaseQueue, URL) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hnsw-\(UUID().uuidString).sqlite")
        return (try GraphTables.file(path: url.path), url)
    }

    @Test func roundTripThroughSQLite() throws {
        let matrix = ANNFixture.clustered(1200)
        let index = try ANNHNSWTests.build(matrix)
        try matrix.withView { try index.delete(row: 17, vectors: $0) }
        let (queue, url) = try Self.temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: url) }
        try queue.write { try index.save(to: GraphTableWriter($0)) }
        let loaded = try #require(try queue.read { try HNSWIndex.load(from: GraphTableReader($0), rows: 1200) })
        #expect(loaded.parameters == index.parameters)
        #expect(loaded.entryPoint == index.entryPoint && loaded.maxLevel == index.maxLevel)
        #expect(loaded.liveCount == 1199 && loaded.deletedCount == 1 && loaded.isDeleted(row: 17))
        for row in 0..<1200 {
            for level in 0...max(0, index.level(of: row)) {
                #expect(loaded.neighbours(of: row, level: level) == index.neighbours(of: row, level: level))
            }
        }
        #expect(loaded.checkInvariants() == [])
        #expect(loaded.verify(against: 1200).isConsistent)
        let query = ANNFixture.queries(matrix, count: 1)[0]
        let a = try matrix.withView { try index.search(query, k: 10, vectors: $0) }
        let b = try matrix.withView { try loaded.search(query, k: 10, vectors: $0) }
        #expect(a == b)
        let edgeRows = try queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM hnsw_edges") }
        #expect(edgeRows == (0..<1200).reduce(0) { $0 + index.level(of: $1) + 1 })
    }

    @Test func incrementalSaveWritesOnlyDirtyNodes() throws {
        let matrix = ANNFixture.clustered(1000)
        let index = try matrix.withView {
            try HNSWIndex.build(dimension: 64, parameters: ANNHNSWTests.parameters, rows: 0..<900, vectors: $0)
        }
        let (queue, url) = try Self.temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: url) }
        try queue.write { try index.save(to: GraphTableWriter($0)) }
        try matrix.withView { try index.insert(rows: 900..<1000, vectors: $0) }
        let dirty = index.dirtyRows.allowedCount
        #expect(dirty >= 100 && dirty < 1000)
        let changes = try queue.write { db -> Int in
            let before = db.totalChangesCount
            try index.save(to: GraphTableWriter(db))
            return db.totalChangesCount - before
        }
        #expect(index.dirtyRows.isEmpty)
        // One node row plus one edge row per level for each dirty node (plus the metadata), not the whole graph.
        #expect(changes < 3 * dirty + 20)
        let loaded = try #require(try queue.read { try HNSWIndex.load(from: GraphTableReader($0), rows: 1000) })
        #expect((0..<1000).allSatisfy { loaded.neighbours(of: $0, level: 0) == index.neighbours(of: $0, level: 0) })
        // Compaction removes rows from the tables too.
        try matrix.withView { view in
            for row in 0..<50 { try index.delete(row: row, vectors: view) }
            try index.compact(vectors: view)
        }
        try queue.write { try index.save(to: GraphTableWriter($0)) }
        let nodes = try queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM hnsw_nodes") }
        #expect(nodes == 950)
        let reloaded = try #require(try queue.read { try HNSWIndex.load(from: GraphTableReader($0), rows: 1000) })
        #expect(reloaded.checkInvariants() == [])
    }

    @Test func simulatedCrashIsDetectedAndRepaired() throws {
        let matrix = ANNFixture.clustered(1000, seed: 3)
        let index = try matrix.withView {
            try HNSWIndex.build(dimension: 64, parameters: ANNHNSWTests.parameters, rows: 0..<800, vectors: $0)
        }
        let (queue, url) = try Self.temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: url) }
        try queue.write { try index.save(to: GraphTableWriter($0)) }
        // "Crash": 200 more vectors were written to the store, but the graph rows never were.
        let loaded = try #require(try queue.read { try HNSWIndex.load(from: GraphTableReader($0), rows: 1000) })
        let check = loaded.verify(against: matrix.count)
        #expect(!check.isConsistent && !check.needsRebuild)
        #expect(check.missingRows == Array(800..<1000))
        let repaired = try matrix.withView { try loaded.repaired(check, vectors: $0) }
        #expect(repaired.verify(against: matrix.count).isConsistent)
        #expect(repaired.checkInvariants() == [])
        let recall = try ANNFixture.recall(matrix, ANNFixture.queries(matrix)) {
            try repaired.search($0, k: 10, vectors: $1)
        }
        #expect(recall >= 0.95)
    }

    @Test func truncatedVectorsForceARebuild() throws {
        let matrix = ANNFixture.clustered(600, seed: 4)
        let index = try ANNHNSWTests.build(matrix)
        // The store lost its last 100 vectors: nodes and neighbour ids now point past the end.
        let shorter = VectorRows(dimension: 64, storage: Array(matrix.storage.prefix(500 * 64)))
        let check = index.verify(against: 500)
        #expect(check.needsRebuild)
        #expect(check.extraRows == Array(500..<600))
        #expect(check.problems.contains { $0.contains("out of range") })
        let rebuilt = try shorter.withView { try index.repaired(check, vectors: $0) }
        #expect(rebuilt.liveCount == 500)
        #expect(rebuilt.verify(against: 500).isConsistent)
        #expect(rebuilt.checkInvariants() == [])
    }

    @Test func corruptBlobIsReported() throws {
        let index = try ANNHNSWTests.build(ANNFixture.uniform(50))
        let (queue, url) = try Self.temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: url) }
        try queue.write { db in
            try index.save(to: GraphTableWriter(db))
            try db.execute(sql: "UPDATE hnsw_edges SET neighbours = x'010203' WHERE row = 0 AND level = 0")
        }
        #expect(throws: ANNError.self) {
            _ = try queue.read { try HNSWIndex.load(from: GraphTableReader($0), rows: 50) }
        }
        let empty = try DatabaseQueue()
        #expect(try empty.read { try HNSWIndex.load(from: GraphTableReader($0), rows: 50) } == nil)
    }

    /// A node's row or level read from a damaged file is checked against the vector rows and the level limit
    /// before the graph reserves anything: refused in milliseconds, where a level of 10^9 reserved 68 GB.
    @Test(arguments: [
        "UPDATE hnsw_nodes SET level = 1000000000 WHERE row = 19",
        "UPDATE hnsw_nodes SET row = 4000000000 WHERE row = 19",
        "UPDATE hnsw_nodes SET row = 50 WHERE row = 19",
        "UPDATE hnsw_nodes SET level = -3 WHERE row = 19",
        "UPDATE hnsw_meta SET value = '100000000' WHERE key = 'dimension'",
    ])
    func damagedNodesAreRefusedBeforeAllocating(damage: String) throws {
        let index = try ANNHNSWTests.build(ANNFixture.uniform(50))
        let (queue, url) = try Self.temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: url) }
        try queue.write { db in
            try index.save(to: GraphTableWriter(db))
            try db.execute(sql: damage)
        }
        let started = Date()
        #expect(throws: ANNError.self) {
            _ = try queue.read { try HNSWIndex.load(from: GraphTableReader($0), rows: 50, dimension: 64) }
        }
        #expect(Date().timeIntervalSince(started) < 5)
    }
}

@Suite struct ANNStrategyTests {
    @Test func smallStoresUseTheExactScan() {
        let choice = IndexStrategy.choose(vectorCount: 5_000, dimension: 384)
        #expect(choice.strategy == .exact)
        #expect(choice.reason == "exact: 5000 vectors are below the exact-scan threshold of 20k")
    }

    @Test func largeStoresUseHNSWWhenItFits() {
        let choice = IndexStrategy.choose(vectorCount: 1_200_000, dimension: 384, memoryBudget: 4 << 30)
        #expect(choice.strategy == .hnsw)
        #expect(choice.reason.hasPrefix("hnsw: 1.2M vectors exceed the exact-scan threshold of 20k"))
    }

    @Test func tightBudgetsFallBackToCodes() {
        let int8 = IndexStrategy.choose(vectorCount: 1_200_000, dimension: 384, memoryBudget: 1 << 30)
        #expect(int8.strategy == .int8)
        let binary = IndexStrategy.choose(vectorCount: 10_000_000, dimension: 384, memoryBudget: 1 << 30)
        #expect(binary.strategy == .binary)
        #expect(binary.reason.contains("bit codes take ~457.8 MiB"))
        let forced = IndexStrategy.choose(vectorCount: 10, dimension: 384, forced: .hnsw)
        #expect(forced.strategy == .hnsw && forced.reason.contains("forced"))
    }
}
