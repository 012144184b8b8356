/// A borrowed, read-only view of a contiguous row-major f32 matrix (one row per vector, row id = index).
///
/// The ANN components never copy vectors: callers lend a view for the duration of a call.
///
/// ```swift
/// let matrix = VectorSet(dimension: 384)
/// matrix.withView { view in print(view.count) }
/// ```
package struct VectorView {
    /// First element of row 0.
    package let base: UnsafePointer<Float>
    /// Number of rows.
    package let count: Int
    /// Length of each row.
    package let dimension: Int

    /// Wraps `count` rows of `dimension` floats starting at `base`.
    ///
    /// ```swift
    /// floats.withUnsafeBufferPointer { buffer in
    ///     let view = VectorView(base: buffer.baseAddress!, count: buffer.count / 384, dimension: 384)
    /// }
    /// ```
    package init(base: UnsafePointer<Float>, count: Int, dimension: Int) {
        self.base = base
        self.count = count
        self.dimension = dimension
    }

    /// The start of row `row` (unchecked).
    @inline(__always) public func row(_ row: Int) -> UnsafePointer<Float> { base + row * dimension }
}

/// A growable contiguous f32 matrix owning its rows: the simplest vector store (tests, benchmarks).
///
/// ```swift
/// let matrix = VectorSet(dimension: 3)
/// matrix.append([1, 0, 0])
/// let hits = try matrix.withView { try ExactScan.search([1, 0, 0], k: 1, vectors: $0) }
/// ```
package final class VectorSet: @unchecked Sendable {
    /// Length of each row.
    package let dimension: Int
    /// Row-major storage.
    package private(set) var storage: [Float]

    /// An empty matrix of `dimension`-long rows.
    ///
    /// ```swift
    /// let matrix = VectorSet(dimension: 384)
    /// ```
    package init(dimension: Int, storage: [Float] = []) {
        self.dimension = dimension
        self.storage = storage
    }

    /// Number of rows.
    package var count: Int { dimension == 0 ? 0 : storage.count / dimension }

    /// Appends one row (its length must equal `dimension`).
    ///
    /// ```swift
    /// matrix.append(vector)
    /// ```
    package func append(_ vector: [Float]) {
        precondition(vector.count == dimension, "row length \(vector.count) != \(dimension)")
        storage.append(contentsOf: vector)
    }

    /// Appends many rows given as one row-major array.
    ///
    /// ```swift
    /// matrix.append(contentsOf: rows)
    /// ```
    package func append(contentsOf rows: [Float]) {
        precondition(rows.count % dimension == 0, "row-major data is not a multiple of \(dimension)")
        storage.append(contentsOf: rows)
    }

    /// A copy of row `row`.
    ///
    /// ```swift
    /// let v = matrix.vector(0)
    /// ```
    package func vector(_ row: Int) -> [Float] {
        Array(storage[(row * dimension)..<((row + 1) * dimension)])
    }

    /// Lends a view of all rows for the duration of `body`.
    ///
    /// ```swift
    /// let n = matrix.withView { $0.count }
    /// ```
    package func withView<R>(_ body: (VectorView) throws -> R) rethrows -> R {
        let dimension = self.dimension
        let count = self.count
        return try storage.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else {
                return try withUnsafePointer(to: Float(0)) {
                    try body(VectorView(base: $0, count: 0, dimension: dimension))
                }
            }
            return try body(VectorView(base: base, count: count, dimension: dimension))
        }
    }
}
