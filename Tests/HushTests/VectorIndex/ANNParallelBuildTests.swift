import Testing

@testable import Hush

/// The two-thread build: a sound graph with the recall of the serial one.
@Suite struct ANNParallelBuildTests {
    @Test func twoThreadBuildIsSoundAndAsAccurateAsTheSerialOne() throws {
        let matrix = ANNFixture.clustered(3_000)
        let queries = ANNFixture.queries(matrix)
        let parameters = HNSWParameters(M: 8, efConstruction: 64, efSearch: 48)
        let (serial, parallel) = try matrix.withView { view in
            (
                try HNSWIndex.build(
                    dimension: view.dimension, parameters: parameters, rows: 0..<view.count, vectors: view),
                try HNSWIndex.build(
                    dimension: view.dimension, parameters: parameters, rows: 0..<view.count, vectors: view,
                    threads: 2)
            )
        }
        #expect(parallel.checkInvariants().isEmpty)
        #expect(parallel.liveCount == 3_000 && parallel.dirtyRows.allowedCount == 3_000)
        #expect((0..<3_000).allSatisfy { parallel.level(of: $0) == serial.level(of: $0) })
        let serialRecall = try ANNFixture.recall(matrix, queries) { try serial.search($0, k: 10, vectors: $1) }
        let parallelRecall = try ANNFixture.recall(matrix, queries) { try parallel.search($0, k: 10, vectors: $1) }
        #expect(parallelRecall >= 0.95)
        #expect(parallelRecall >= serialRecall - 0.02)
        // Later inserts and saves work on a parallel-built graph as on any other.
        let extra = ANNFixture.clustered(50, seed: 77)
        let grown = VectorRows(dimension: matrix.dimension, storage: matrix.storage + extra.storage)
        try grown.withView { view in try parallel.insert(rows: 3_000..<3_050, vectors: view) }
        #expect(parallel.checkInvariants().isEmpty && parallel.liveCount == 3_050)
    }
}
