/// A borrowed, read-only view of a contiguous row-major f32 matrix (one row per vector, row id = index).
///
/// The ANN components never copy vectors: callers lend a view for the duration of a call.
///
/// ```swift
/// let matrix = VectorRows(dimension: 384, storage: floats)
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
