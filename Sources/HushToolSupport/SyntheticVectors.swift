import Foundation
import HushKernels

/// Seeded random unit vectors for tests and benchmarks: uniform on the sphere, or clustered (random
/// centres plus Gaussian noise, closer to real embeddings).
///
/// ```swift
/// let rows = SyntheticVectors.clustered(count: 10_000, dimension: 384, clusters: 100, noise: 0.6, seed: 7)
/// let matrix = VectorRows(dimension: 384, storage: rows)
/// ```
package enum SyntheticVectors {
    /// `count` unit vectors uniform on the sphere, row-major.
    ///
    /// - Complexity: O(count × dimension).
    ///
    /// ```swift
    /// let rows = SyntheticVectors.uniform(count: 1000, dimension: 64, seed: 1)
    /// ```
    package static func uniform(count: Int, dimension: Int, seed: UInt64) -> [Float] {
        var rng = SplitMix(seed: seed)
        var out = [Float](repeating: 0, count: count * dimension)
        for r in 0..<count {
            for d in 0..<dimension { out[r * dimension + d] = rng.gaussian() }
            normalise(&out, row: r, dimension: dimension)
        }
        return out
    }

    /// `count` unit vectors around `clusters` random centres: centre + noise × (gaussian / sqrt(dimension)),
    /// normalised. noise 0.5–1 gives neighbourhoods about as tight as sentence embeddings.
    ///
    /// - Complexity: O(count × dimension).
    ///
    /// ```swift
    /// let rows = SyntheticVectors.clustered(count: 1000, dimension: 64, clusters: 20, noise: 0.7, seed: 1)
    /// ```
    package static func clustered(count: Int, dimension: Int, clusters: Int, noise: Float, seed: UInt64) -> [Float] {
        let centres = uniform(count: max(1, clusters), dimension: dimension, seed: seed ^ 0xC0FF_EE)
        var rng = SplitMix(seed: seed)
        var out = [Float](repeating: 0, count: count * dimension)
        let scale = noise / Float(dimension).squareRoot()
        for r in 0..<count {
            let c = Int(rng.next() % UInt64(max(1, clusters)))
            for d in 0..<dimension { out[r * dimension + d] = centres[c * dimension + d] + scale * rng.gaussian() }
            normalise(&out, row: r, dimension: dimension)
        }
        return out
    }

    /// Queries near stored rows: row + noise, normalised (so the true neighbours are meaningful).
    ///
    /// ```swift
    /// let queries = SyntheticVectors.queries(near: rows, dimension: 64, count: 100, noise: 0.3, seed: 2)
    /// ```
    package static func queries(near rows: [Float], dimension: Int, count: Int, noise: Float, seed: UInt64) -> [[Float]]
    {
        var rng = SplitMix(seed: seed)
        let n = rows.count / dimension
        let scale = noise / Float(dimension).squareRoot()
        return (0..<count).map { _ in
            let r = Int(rng.next() % UInt64(max(1, n)))
            var q = (0..<dimension).map { rows[r * dimension + $0] + scale * rng.gaussian() }
            normalise(&q, row: 0, dimension: dimension)
            return q
        }
    }

    /// Scales row `row` of a row-major matrix to unit length (the kernels' one normalisation).
    package static func normalise(_ values: inout [Float], row: Int, dimension: Int) {
        values.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            _ = hush_normalize_f32(base + row * dimension, base + row * dimension, dimension)
        }
    }
}
