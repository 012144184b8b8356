/// Vectors of one dimension in one contiguous row-major `[Float]` (row `r` is `storage[r × dimension ..<
/// (r + 1) × dimension]`): the one f32 matrix of the package. ``VectorMatrix`` keeps the store's chunk vectors
/// in one, with its maps between rows, chunks and documents; the ANN tests and benchmarks use it bare.
///
/// ```swift
/// var matrix = VectorRows(dimension: 3)
/// matrix.append([1, 0, 0])
/// let hits = try matrix.withView { try ExactScan.search([1, 0, 0], k: 1, vectors: $0) }
/// ```
package struct VectorRows: Sendable {
    /// Length of each row.
    package let dimension: Int
    /// Row-major storage.
    package private(set) var storage: [Float]

    /// A matrix of `dimension`-long rows holding `storage` (a multiple of `dimension` values).
    ///
    /// ```swift
    /// let matrix = VectorRows(dimension: 384, storage: rows)
    /// ```
    package init(dimension: Int, storage: [Float] = []) {
        precondition(
            dimension == 0 ? storage.isEmpty : storage.count % dimension == 0,
            "row-major data is not a multiple of \(dimension)")
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
    package mutating func append<C: Collection>(_ vector: C) where C.Element == Float {
        precondition(vector.count == dimension, "row length \(vector.count) != \(dimension)")
        storage.append(contentsOf: vector)
    }

    /// Appends `rows` zero rows.
    mutating func appendZeroRows(_ rows: Int) {
        storage.append(contentsOf: repeatElement(0, count: rows * dimension))
    }

    mutating func reserve(rows: Int) {
        storage.reserveCapacity(rows * dimension)
    }

    /// Replaces row `row` with `vector` (`dimension` values).
    mutating func replace<C: Collection>(row: Int, with vector: C) where C.Element == Float {
        let start = row * dimension
        storage.replaceSubrange(start..<(start + dimension), with: vector)
    }

    /// Sets row `row` to zeros.
    mutating func zero(row: Int) {
        storage.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            (base + row * dimension).update(repeating: 0, count: dimension)
        }
    }

    /// Sets row `row` from `dimension × 4` bytes of little-endian f32.
    mutating func replace(row: Int, littleEndianBytes bytes: UnsafeRawBufferPointer) {
        let start = row * dimension
        let dimension = self.dimension
        storage.withUnsafeMutableBytes { destination in
            UnsafeMutableRawBufferPointer(rebasing: destination[(start * 4)..<((start + dimension) * 4)])
                .copyMemory(from: bytes)
        }
        #if _endian(big)
            for i in start..<(start + dimension) {
                storage[i] = Float(bitPattern: UInt32(littleEndian: storage[i].bitPattern))
            }
        #endif
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
