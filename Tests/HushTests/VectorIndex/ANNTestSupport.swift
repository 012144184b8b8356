import Hush
import HushToolSupport

/// Shared fixtures for the ANN suites: seeded data sets and recall against the exact scan.
enum ANNFixture {
    static let dimension = 64

    static func uniform(_ count: Int, dimension: Int = dimension, seed: UInt64 = 11) -> VectorRows {
        VectorRows(
            dimension: dimension, storage: SyntheticVectors.uniform(count: count, dimension: dimension, seed: seed))
    }

    static func clustered(_ count: Int, dimension: Int = dimension, seed: UInt64 = 12) -> VectorRows {
        VectorRows(
            dimension: dimension,
            storage: SyntheticVectors.clustered(
                count: count, dimension: dimension, clusters: 40, noise: 0.7, seed: seed))
    }

    static func queries(_ matrix: VectorRows, count: Int = 50, seed: UInt64 = 99) -> [[Float]] {
        SyntheticVectors.queries(
            near: matrix.storage, dimension: matrix.dimension, count: count, noise: 0.3, seed: seed)
    }

    /// Mean recall@k of `search` against the exact scan over `queries`.
    static func recall(
        _ matrix: VectorRows, _ queries: [[Float]], k: Int = 10, filter: Bitset? = nil,
        _ search: ([Float], VectorView) throws -> [ScoredRow]
    ) throws -> Double {
        try matrix.withView { view in
            var total = 0.0
            for query in queries {
                let truth = Set(try ExactScan.search(query, k: k, filter: filter, vectors: view).map(\.row))
                let found = Set(try search(query, view).prefix(k).map(\.row))
                total += Double(truth.intersection(found).count) / Double(max(1, truth.count))
            }
            return total / Double(queries.count)
        }
    }
}
