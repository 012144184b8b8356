import Foundation
import HushKernels
import Testing

@testable import Hush

@Suite struct ANNHNSWTests {
    static let parameters = HNSWParameters(M: 8, efConstruction: 64, efSearch: 48)

    static func build(_ matrix: VectorRows, parameters: HNSWParameters = parameters) throws -> HNSWIndex {
        try matrix.withView {
            try HNSWIndex.build(dimension: matrix.dimension, parameters: parameters, rows: 0..<$0.count, vectors: $0)
        }
    }

    @Test(arguments: [false, true])
    func recallAgainstExactScan(clustered: Bool) throws {
        let matrix = clustered ? ANNFixture.clustered(3000) : ANNFixture.uniform(3000)
        let index = try Self.build(matrix)
        #expect(index.checkInvariants() == [])
        #expect(index.liveCount == 3000)
        let recall = try ANNFixture.recall(matrix, ANNFixture.queries(matrix)) {
            try index.search($0, k: 10, ef: clustered ? 48 : 128, vectors: $1)
        }
        // Uniform 64-d data has no structure to exploit (the hardest case), so it gets a larger ef.
        #expect(recall >= (clustered ? 0.97 : 0.95), "HNSW recall@10 \(recall), clustered \(clustered)")
    }

    /// Walking the graph on int8 codes and rescoring the ef rows found keeps the recall of the f32 walk, returns
    /// exact scores, honours filters, and refuses codes that do not cover the graph.
    @Test func int8GuidedWalkKeepsRecallAndReturnsExactScores() throws {
        let matrix = ANNFixture.clustered(3000, seed: 21)
        let index = try Self.build(matrix)
        for calibration in Int8Quantizer.Calibration.allCases {
            let guide = matrix.withView { view -> QuantizedMatrix in
                var codes = QuantizedMatrix(
                    int8: calibration == .perVector
                        ? Int8Quantizer(dimension: view.dimension) : Int8Quantizer.perDimension(calibratedOn: view))
                codes.append(contentsOf: view)
                return codes
            }
            let queries = ANNFixture.queries(matrix)
            let recall = try ANNFixture.recall(matrix, queries) {
                try index.search($0, k: 10, ef: 48, vectors: $1, guide: guide)
            }
            #expect(recall >= 0.97, "guided recall@10 \(recall), \(calibration)")
            try matrix.withView { view in
                let hits = try index.search(queries[0], k: 10, ef: 48, vectors: view, guide: guide)
                #expect(hits.count == 10)
                for hit in hits {
                    let exact = queries[0].withUnsafeBufferPointer { q in
                        hush_dot_f32(view.row(hit.row), q.baseAddress!, view.dimension)
                    }
                    #expect(hit.score == exact)
                }
                #expect(zip(hits, hits.dropFirst()).allSatisfy { $0.score >= $1.score })
                let even = Bitset(count: view.count) { $0 % 2 == 0 }
                let filtered = try index.search(queries[1], k: 10, ef: 48, filter: even, vectors: view, guide: guide)
                #expect(filtered.count == 10 && filtered.allSatisfy { $0.row % 2 == 0 })
            }
        }
        let short = matrix.withView { view -> QuantizedMatrix in
            var codes = QuantizedMatrix(int8: Int8Quantizer(dimension: view.dimension))
            for row in 0..<100 { codes.append(view.row(row)) }
            return codes
        }
        #expect(throws: ANNError.rowOutOfRange(row: 2999, count: 100)) {
            try matrix.withView { try index.search(ANNFixture.queries(matrix)[0], k: 5, vectors: $0, guide: short) }
        }
    }

    @Test func levelsFollowTheSeedAndMLDistribution() throws {
        let parameters = HNSWParameters(M: 16)
        #expect(abs(parameters.mL - 1 / log(16.0)) < 1e-12)
        let levels = (0..<20_000).map { parameters.level(of: $0) }
        let upper = levels.filter { $0 >= 1 }.count
        // P(level >= 1) = exp(-1 / mL) = 1 / M.
        #expect(abs(Double(upper) / 20_000 - 1.0 / 16) < 0.01)
        #expect(levels == (0..<20_000).map { HNSWParameters(M: 16).level(of: $0) })
        // Same seed, same graph.
        let matrix = ANNFixture.clustered(400)
        let a = try Self.build(matrix)
        let b = try Self.build(matrix)
        #expect(a.entryPoint == b.entryPoint)
        #expect((0..<400).allSatisfy { a.neighbours(of: $0, level: 0) == b.neighbours(of: $0, level: 0) })
    }

    @Test func interleavedInsertDeleteSearch() throws {
        let matrix = ANNFixture.clustered(2400, seed: 5)
        let queries = ANNFixture.queries(matrix, count: 30)
        let index = try HNSWIndex(dimension: ANNFixture.dimension, parameters: Self.parameters)
        var deleted = Set<Int>()
        try matrix.withView { view in
            for batch in 0..<6 {
                try index.insert(rows: (batch * 400)..<((batch + 1) * 400), vectors: view)
                for row in stride(from: batch * 400 + 7, to: (batch + 1) * 400, by: 9) {
                    try index.delete(row: row, vectors: view)
                    deleted.insert(row)
                }
                #expect(index.checkInvariants() == [])
                let live = (batch + 1) * 400
                let allowed = Bitset(count: view.count) { $0 < live && !deleted.contains($0) }
                for query in queries.prefix(5) {
                    let hits = try index.search(query, k: 10, vectors: view)
                    #expect(hits.count == 10)
                    #expect(hits.allSatisfy { !deleted.contains($0.row) && $0.row < live })
                    let truth = try ExactScan.search(query, k: 10, filter: allowed, vectors: view)
                    #expect(Set(hits.map(\.row)).intersection(truth.map(\.row)).count >= 8)
                }
            }
        }
        #expect(index.deletedCount == deleted.count)
        let allowed = Bitset(count: 2400) { !deleted.contains($0) }
        let before = try ANNFixture.recall(matrix, queries, filter: allowed) {
            try index.search($0, k: 10, vectors: $1)
        }
        try matrix.withView { try index.compact(vectors: $0) }
        #expect(index.deletedCount == 0)
        #expect(index.liveCount == 2400 - deleted.count)
        #expect(index.checkInvariants() == [])
        #expect(deleted.allSatisfy { !index.contains(row: $0) })
        let after = try ANNFixture.recall(matrix, queries, filter: allowed) { try index.search($0, k: 10, vectors: $1) }
        #expect(before >= 0.95, "recall with tombstones \(before)")
        #expect(after >= 0.95, "recall after compact \(after)")
        // A compacted row can be inserted again.
        let again = try #require(deleted.min())
        try matrix.withView { try index.insert(row: again, vectors: $0) }
        #expect(index.contains(row: again) && !index.isDeleted(row: again))
        #expect(index.checkInvariants() == [])
    }

    @Test func deletingTheEntryPointKeepsSearchWorking() throws {
        let matrix = ANNFixture.clustered(800)
        let index = try Self.build(matrix)
        let entry = index.entryPoint
        try matrix.withView { view in
            try index.delete(row: entry, vectors: view)
            let hits = try index.search(matrix.vector(entry), k: 5, vectors: view)
            #expect(hits.count == 5 && !hits.contains { $0.row == entry })
            try index.compact(vectors: view)
        }
        #expect(index.entryPoint != entry)
        #expect(index.checkInvariants() == [])
    }

    @Test(arguments: [0.004, 0.05, 0.3])
    func filteredTopKIsNeverShort(fraction: Double) throws {
        let matrix = ANNFixture.clustered(3000, seed: 8)
        let index = try Self.build(matrix)
        let step = Int((1 / fraction).rounded())
        let allowed = Bitset(count: 3000) { $0 % step == 1 }
        let queries = ANNFixture.queries(matrix, count: 20)
        try matrix.withView { view in
            for query in queries {
                let hits = try index.search(query, k: 10, filter: allowed, vectors: view)
                #expect(hits.count == min(10, allowed.allowedCount))
                #expect(hits.allSatisfy { allowed.contains($0.row) })
            }
        }
        let recall = try ANNFixture.recall(matrix, queries, filter: allowed) {
            try index.search($0, k: 10, filter: allowed, vectors: $1)
        }
        #expect(recall >= 0.95, "filtered recall \(recall) at \(fraction)")
    }

    @Test func fewerAllowedRowsThanKReturnsAllOfThem() throws {
        let matrix = ANNFixture.uniform(500)
        let index = try Self.build(matrix)
        var allowed = Bitset(count: 500)
        for row in [4, 250, 499] { allowed.insert(row) }
        let hits = try matrix.withView { try index.search(matrix.vector(0), k: 10, filter: allowed, vectors: $0) }
        #expect(Set(hits.map(\.row)) == [4, 250, 499])
    }

    @Test func invariantCheckCatchesBrokenGraphs() throws {
        let matrix = ANNFixture.uniform(300)
        let index = try Self.build(matrix)
        let node = index.entryPoint
        index.links(node, 0)[1] = UInt32(node)  // self loop
        index.maxLevel += 1  // entry point no longer on the top level
        let problems = index.checkInvariants()
        #expect(problems.contains { $0.contains("links to itself") })
        #expect(problems.contains { $0.contains("maxLevel") })
    }

    @Test func rejectsBadInput() throws {
        #expect(throws: ANNError.self) { _ = try HNSWIndex(dimension: 8, parameters: HNSWParameters(M: 1)) }
        let matrix = ANNFixture.uniform(10)
        let index = try Self.build(matrix)
        matrix.withView { view in
            #expect(throws: ANNError.self) { try index.insert(row: 3, vectors: view) }
            #expect(throws: ANNError.rowOutOfRange(row: 10, count: 10)) { try index.insert(row: 10, vectors: view) }
            #expect(throws: ANNError.dimensionMismatch(expected: 64, actual: 2)) {
                try index.search([1, 0], k: 1, vectors: view)
            }
        }
    }
}

extension ANNHNSWTests {
    /// A broken graph fails its invariant checks, and with HUSH_HNSW_CHECKS=1 (as `make test` runs) the
    /// check after a bulk change throws instead of letting the graph be saved.
    @Test func brokenInvariantsAreReported() throws {
        let index = try ANNHNSWTests.build(ANNFixture.uniform(200))
        #expect(index.checkInvariants().isEmpty)
        index.setLinks(0, 0, [0, 0])
        let problems = index.checkInvariants()
        #expect(!problems.isEmpty)
        if HNSWIndex.checksInvariants {
            #expect(throws: ANNError.self) { try index.checkInvariantsWhenAsked() }
        }
    }
}
