/// One bit per dimension: bit d is set when x_d exceeds the centre of dimension d (0 unless calibrated).
/// Rows are ranked by Hamming distance (popcount of XOR), then rescored exactly.
///
/// ```swift
/// let quantizer = matrix.withView { BinaryQuantizer(centredOn: $0) }
/// var codes = QuantizedMatrix(binary: quantizer)
/// ```
package struct BinaryQuantizer: Sendable, Equatable {
    /// Length of the vectors.
    package let dimension: Int
    /// Per-dimension thresholds (empty: sign bits, threshold 0).
    package let centre: [Float]
    /// 64-bit words per code.
    package var words: Int { (dimension + 63) / 64 }

    /// Plain sign bits.
    ///
    /// ```swift
    /// let quantizer = BinaryQuantizer(dimension: 384)
    /// ```
    package init(dimension: Int) {
        self.dimension = dimension
        self.centre = []
    }

    /// Sign bits after subtracting the mean of up to `sampleLimit` rows (balances the bits of anisotropic
    /// embeddings, whose dimensions are rarely centred on 0).
    ///
    /// - Complexity: O(min(count, sampleLimit) × dimension).
    ///
    /// ```swift
    /// let quantizer = matrix.withView { BinaryQuantizer(centredOn: $0) }
    /// ```
    package init(centredOn vectors: VectorView, sampleLimit: Int = 20_000) {
        dimension = vectors.dimension
        var sum = [Double](repeating: 0, count: dimension)
        let step = max(1, vectors.count / max(1, sampleLimit))
        var row = 0
        var n = 0
        while row < vectors.count {
            let v = vectors.row(row)
            for d in 0..<dimension { sum[d] += Double(v[d]) }
            n += 1
            row += step
        }
        centre = sum.map { n == 0 ? 0 : Float($0 / Double(n)) }
    }

    /// Writes the bits of `vector` into `words` 64-bit words.
    ///
    /// ```swift
    /// quantizer.encode(vectorPointer, into: wordPointer)
    /// ```
    package func encode(_ vector: UnsafePointer<Float>, into code: UnsafeMutablePointer<UInt64>) {
        code.update(repeating: 0, count: words)
        for d in 0..<dimension {
            let threshold = centre.isEmpty ? 0 : centre[d]
            if vector[d] > threshold { code[d >> 6] |= 1 << UInt64(d & 63) }
        }
    }

    /// The code of a query.
    ///
    /// ```swift
    /// let bits = quantizer.encodeQuery(query)
    /// ```
    package func encodeQuery(_ query: [Float]) -> [UInt64] {
        var code = [UInt64](repeating: 0, count: words)
        query.withUnsafeBufferPointer { source in
            code.withUnsafeMutableBufferPointer { target in
                if let s = source.baseAddress, let t = target.baseAddress { encode(s, into: t) }
            }
        }
        return code
    }
}
