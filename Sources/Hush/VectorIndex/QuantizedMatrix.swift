/// Compact codes of every row of a vector store (int8, 4-bit or binary), kept in flat arrays, row id = index.
///
/// ```swift
/// var codes = QuantizedMatrix(int8: Int8Quantizer(dimension: 384))
/// vectors.withView { codes.append(contentsOf: $0) }
/// print(codes.bytesPerVector)   // 388
/// ```
package struct QuantizedMatrix: Sendable {
    /// The encoding of the rows.
    package enum Encoding: Sendable, Equatable {
        /// int8 codes plus one f32 scale per row.
        case int8(Int8Quantizer)
        /// 4-bit codes, two dimensions per byte (``Int4Quantizer``).
        case int4(Int4Quantizer)
        /// Bit codes.
        case binary(BinaryQuantizer)
    }

    /// The encoding of the rows.
    package let encoding: Encoding
    /// Length of the source vectors.
    package let dimension: Int
    /// Number of encoded rows.
    package private(set) var count = 0
    var int8Codes: [Int8] = []
    var rowScales: [Float] = []
    /// 4-bit codes, `bytesPerVector` per row.
    var nibbleCodes: [UInt8] = []
    var bitCodes: [UInt64] = []
    let words: Int

    /// An empty int8 matrix.
    ///
    /// ```swift
    /// var codes = QuantizedMatrix(int8: Int8Quantizer(dimension: 384))
    /// ```
    package init(int8 quantizer: Int8Quantizer) {
        encoding = .int8(quantizer)
        dimension = quantizer.dimension
        words = 0
    }

    /// An int8 matrix over codes encoded earlier (a saved image): `codes` holds `count × dimension` bytes, and
    /// the quantizer is per-dimension (every row's scale is 1).
    init(int8 quantizer: Int8Quantizer, codes: [Int8]) {
        precondition(quantizer.calibration == .perDimension, "saved codes are per-dimension")
        encoding = .int8(quantizer)
        dimension = quantizer.dimension
        words = 0
        int8Codes = codes
        count = codes.count / max(1, quantizer.dimension)
        rowScales = [Float](repeating: 1, count: count)
    }

    /// An empty 4-bit matrix.
    ///
    /// ```swift
    /// var codes = QuantizedMatrix(int4: quantizer)
    /// ```
    package init(int4 quantizer: Int4Quantizer) {
        encoding = .int4(quantizer)
        dimension = quantizer.dimension
        words = 0
    }

    /// A 4-bit matrix over codes encoded earlier (a saved image): `codes` holds a whole number of rows.
    init(int4 quantizer: Int4Quantizer, codes: [UInt8]) {
        self.init(int4: quantizer)
        nibbleCodes = codes
        count = codes.count / max(1, quantizer.bytesPerVector)
    }

    /// An empty binary matrix.
    ///
    /// ```swift
    /// var codes = QuantizedMatrix(binary: BinaryQuantizer(dimension: 384))
    /// ```
    package init(binary quantizer: BinaryQuantizer) {
        encoding = .binary(quantizer)
        dimension = quantizer.dimension
        words = quantizer.words
    }

    /// Memory per row in bytes (codes plus scale).
    package var bytesPerVector: Int {
        switch encoding {
        case .int8: return dimension + MemoryLayout<Float>.size
        case .int4(let quantizer): return quantizer.bytesPerVector
        case .binary: return words * 8
        }
    }

    /// Appends the codes of one vector (row id `count`).
    ///
    /// - Complexity: O(dimension).
    ///
    /// ```swift
    /// codes.append(vectorPointer)
    /// ```
    package mutating func append(_ vector: UnsafePointer<Float>) {
        switch encoding {
        case .int8(let quantizer):
            let start = int8Codes.count
            int8Codes.append(contentsOf: repeatElement(0, count: dimension))
            let scale = int8Codes.withUnsafeMutableBufferPointer { buffer in
                quantizer.encode(vector, into: buffer.baseAddress.unsafelyUnwrapped + start)
            }
            rowScales.append(scale)
        case .int4(let quantizer):
            let start = nibbleCodes.count
            nibbleCodes.append(contentsOf: repeatElement(0, count: quantizer.bytesPerVector))
            nibbleCodes.withUnsafeMutableBufferPointer { buffer in
                quantizer.encode(vector, into: buffer.baseAddress.unsafelyUnwrapped + start)
            }
        case .binary(let quantizer):
            let start = bitCodes.count
            bitCodes.append(contentsOf: repeatElement(0, count: words))
            bitCodes.withUnsafeMutableBufferPointer { buffer in
                quantizer.encode(vector, into: buffer.baseAddress.unsafelyUnwrapped + start)
            }
        }
        count += 1
    }

    /// Appends the codes of every row of `vectors` from row `count` on (so calling it after the store grew
    /// encodes only the new rows).
    ///
    /// - Complexity: O(new rows × dimension).
    ///
    /// ```swift
    /// vectors.withView { codes.append(contentsOf: $0) }
    /// ```
    package mutating func append(contentsOf vectors: VectorView) {
        precondition(vectors.dimension == dimension, "dimension mismatch")
        guard vectors.count > count else { return }
        switch encoding {
        case .int8: int8Codes.reserveCapacity(vectors.count * dimension)
        case .int4(let quantizer): nibbleCodes.reserveCapacity(vectors.count * quantizer.bytesPerVector)
        case .binary: bitCodes.reserveCapacity(vectors.count * words)
        }
        for row in count..<vectors.count { append(vectors.row(row)) }
    }

    /// Re-encodes row `row` (after its vector changed).
    ///
    /// ```swift
    /// codes.update(row: 3, vector: pointer)
    /// ```
    package mutating func update(row: Int, vector: UnsafePointer<Float>) {
        precondition(row >= 0 && row < count, "row out of range")
        switch encoding {
        case .int8(let quantizer):
            let scale = int8Codes.withUnsafeMutableBufferPointer { buffer in
                quantizer.encode(vector, into: buffer.baseAddress.unsafelyUnwrapped + row * dimension)
            }
            rowScales[row] = scale
        case .int4(let quantizer):
            nibbleCodes.withUnsafeMutableBufferPointer { buffer in
                quantizer.encode(vector, into: buffer.baseAddress.unsafelyUnwrapped + row * quantizer.bytesPerVector)
            }
        case .binary(let quantizer):
            bitCodes.withUnsafeMutableBufferPointer { buffer in
                quantizer.encode(vector, into: buffer.baseAddress.unsafelyUnwrapped + row * words)
            }
        }
    }
}
