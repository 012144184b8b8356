import HushKernels

/// 4-bit quantisation of f32 vectors, per dimension: dimension d's range `[low_d, low_d + 16 × step_d]` is cut
/// into 16 equal cells and a value is stored as its cell (0...15), two dimensions to a byte. Half the bytes of
/// int8 codes (192 for 384 dimensions), coarser, and meant for ranking candidates that are then rescored
/// exactly: on MiniLM vectors of real text and on clustered synthetic ones, the exact top 10 is within the
/// top 40 by 4-bit score (scripts/bench measured it; see docs/benchmarks.md).
///
/// Codes are laid out in blocks of 64 dimensions (32 bytes): byte j of block b holds dimension `64b + j` in its
/// low nibble and `64b + 32 + j` in its high nibble, the layout `hush_dot_u4i8` reads. A dimension that is not
/// a multiple of 64 is padded with zero codes and zero query weights.
///
/// ```swift
/// let quantizer = vectors.withView { Int4Quantizer(calibratedOn: $0) }
/// var codes = QuantizedMatrix(int4: quantizer)
/// vectors.withView { codes.append(contentsOf: $0) }
/// print(codes.bytesPerVector)   // 192
/// ```
package struct Int4Quantizer: Sendable, Equatable {
    /// Length of the vectors.
    package let dimension: Int
    /// Per dimension, the lower end of cell 0.
    package let lows: [Float]
    /// Per dimension, the width of one cell (> 0).
    package let steps: [Float]

    /// Blocks of 64 dimensions per vector.
    package var blocks: Int { (dimension + 63) / 64 }
    /// Bytes of one vector's codes.
    package var bytesPerVector: Int { blocks * 32 }

    /// A quantizer with given ranges (`steps` > 0 and finite; others become the cell width of [-1, 1]).
    ///
    /// ```swift
    /// let quantizer = Int4Quantizer(lows: [Float](repeating: -1, count: 384), steps: [Float](repeating: 0.125, count: 384))
    /// ```
    package init(lows: [Float], steps: [Float]) {
        precondition(lows.count == steps.count, "one low and one step per dimension")
        self.dimension = lows.count
        self.lows = lows.map { $0.isFinite ? $0 : -1 }
        self.steps = steps.map { $0 > 0 && $0.isFinite ? $0 : 0.125 }
    }

    /// Calibrates the ranges on the data: dimension d spans the smallest to the largest value over up to
    /// `sampleLimit` rows spread evenly through the view (values outside it later take the nearest end cell).
    ///
    /// - Complexity: O(min(count, sampleLimit) × dimension).
    ///
    /// ```swift
    /// let quantizer = matrix.withView { Int4Quantizer(calibratedOn: $0) }
    /// ```
    package init(calibratedOn vectors: VectorView, sampleLimit: Int = 20_000) {
        let dimension = vectors.dimension
        var lows = [Float](repeating: .infinity, count: dimension)
        var highs = [Float](repeating: -.infinity, count: dimension)
        let stride = max(1, vectors.count / max(1, sampleLimit))
        var row = 0
        while row < vectors.count {
            let vector = vectors.row(row)
            for d in 0..<dimension where vector[d].isFinite {
                lows[d] = min(lows[d], vector[d])
                highs[d] = max(highs[d], vector[d])
            }
            row += stride
        }
        var steps = [Float](repeating: 0, count: dimension)
        for d in 0..<dimension {
            if lows[d] > highs[d] { (lows[d], highs[d]) = (-1, 1) }  // no finite value seen
            steps[d] = max((highs[d] - lows[d]) / 16, 1e-6)
        }
        self.init(lows: lows, steps: steps)
    }

    /// Encodes one vector into `codes` (``bytesPerVector`` bytes).
    ///
    /// ```swift
    /// quantizer.encode(vectorPointer, into: codePointer)
    /// ```
    package func encode(_ vector: UnsafePointer<Float>, into codes: UnsafeMutablePointer<UInt8>) {
        codes.update(repeating: 0, count: bytesPerVector)
        for d in 0..<dimension {
            let cell = ((vector[d] - lows[d]) / steps[d]).rounded(.down)
            let code = UInt8(cell.isNaN ? 0 : max(0, min(15, cell)))
            let block = d / 64
            let within = d % 64
            let byte = block * 32 + within % 32
            codes[byte] |= within < 32 ? code : code << 4
        }
    }

    /// Encodes a query so that `offset + scale × hush_dot_u4i8(rowCodes, weights, blocks)` approximates its dot
    /// product with a row (each value read as the middle of its cell). Ranking rows for one query needs only
    /// the integer dot: `scale` is not negative and `offset` is the same for every row.
    ///
    /// ```swift
    /// let query = quantizer.encodeQuery(vector)
    /// let score = query.offset + query.scale * Float(hush_dot_u4i8(rowCodes, query.weights, quantizer.blocks))
    /// ```
    package func encodeQuery(_ query: [Float]) -> (weights: [Int8], scale: Float, offset: Float) {
        var weighted = [Float](repeating: 0, count: blocks * 64)
        var offset: Float = 0
        for d in 0..<min(dimension, query.count) {
            weighted[d] = query[d] * steps[d]
            offset += query[d] * (lows[d] + steps[d] / 2)
        }
        let (weights, scale) = Int8Quantizer.perVectorCodes(of: weighted)
        return (weights, scale, offset)
    }
}
