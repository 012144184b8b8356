import HushKernels

/// Symmetric int8 quantisation of f32 vectors: x ≈ code × scale, codes in -127...127.
///
/// Two calibrations: `.perVector` (each row gets its own scale, 127 / max |x|) and `.perDimension`
/// (each dimension gets a scale calibrated from a sample, so narrow dimensions keep their resolution).
/// `Int8Quantizer.calibrate` measures both on the data and keeps the one with the better recall.
///
/// ```swift
/// let quantizer = Int8Quantizer(dimension: 384)               // per-vector scales
/// var matrix = QuantizedMatrix(int8: quantizer)
/// vectors.withView { matrix.append(contentsOf: $0) }
/// ```
package struct Int8Quantizer: Sendable, Equatable {
    /// How scales are chosen.
    package enum Calibration: String, Sendable, Equatable, CaseIterable {
        /// One scale per vector: max |x| maps to 127.
        case perVector = "per-vector"
        /// One scale per dimension from a calibration sample; the query absorbs the scales.
        case perDimension = "per-dimension"
    }

    /// Length of the vectors.
    package let dimension: Int
    /// The calibration in use.
    package let calibration: Calibration
    /// Per-dimension value of one code step (`.perDimension` only; empty otherwise).
    package let dimensionScales: [Float]

    /// A per-vector quantizer (no calibration data needed).
    ///
    /// ```swift
    /// let quantizer = Int8Quantizer(dimension: 384)
    /// ```
    package init(dimension: Int) {
        self.dimension = dimension
        self.calibration = .perVector
        self.dimensionScales = []
    }

    /// A per-dimension quantizer with given step sizes (one per dimension, all > 0).
    ///
    /// ```swift
    /// let quantizer = Int8Quantizer(dimensionScales: [Float](repeating: 1 / 127, count: 384))
    /// ```
    package init(dimensionScales: [Float]) {
        self.dimension = dimensionScales.count
        self.calibration = .perDimension
        self.dimensionScales = dimensionScales.map { $0 > 0 && $0.isFinite ? $0 : 1 / 127 }
    }

    /// Calibrates a per-dimension quantizer: the step of dimension d is max |x_d| / 127 over up to
    /// `sampleLimit` rows spread evenly through the view.
    ///
    /// - Complexity: O(min(count, sampleLimit) × dimension).
    ///
    /// ```swift
    /// let quantizer = matrix.withView { Int8Quantizer.perDimension(calibratedOn: $0) }
    /// ```
    package static func perDimension(calibratedOn vectors: VectorView, sampleLimit: Int = 20_000) -> Int8Quantizer {
        let dim = vectors.dimension
        var maxAbs = [Float](repeating: 0, count: dim)
        let step = max(1, vectors.count / max(1, sampleLimit))
        var row = 0
        while row < vectors.count {
            let v = vectors.row(row)
            for d in 0..<dim { maxAbs[d] = max(maxAbs[d], abs(v[d])) }
            row += step
        }
        return Int8Quantizer(dimensionScales: maxAbs.map { $0 / 127 })
    }

    /// Encodes one vector into `codes` (dimension bytes) and returns its row scale (score multiplier).
    ///
    /// ```swift
    /// let scale = quantizer.encode(vectorPointer, into: codePointer)
    /// ```
    @discardableResult
    package func encode(_ vector: UnsafePointer<Float>, into codes: UnsafeMutablePointer<Int8>) -> Float {
        switch calibration {
        case .perVector:
            var maxAbs: Float = 0
            for d in 0..<dimension { maxAbs = max(maxAbs, abs(vector[d])) }
            guard maxAbs > 0 else {
                codes.update(repeating: 0, count: dimension)
                return 0
            }
            let inverse = 127 / maxAbs
            for d in 0..<dimension { codes[d] = Int8(clamping: Int((vector[d] * inverse).rounded())) }
            return maxAbs / 127
        case .perDimension:
            dimensionScales.withUnsafeBufferPointer { scales in
                for d in 0..<dimension {
                    let q = (vector[d] / scales[d]).rounded()
                    codes[d] = Int8(clamping: Int(max(-127, min(127, q))))
                }
            }
            return 1
        }
    }

    /// Encodes a query so that `scale × dot_i8(queryCodes, rowCodes) × rowScale` approximates the dot product.
    ///
    /// ```swift
    /// let (codes, scale) = quantizer.encodeQuery(query)
    /// ```
    package func encodeQuery(_ query: [Float]) -> (codes: [Int8], scale: Float) {
        var weighted = query
        if calibration == .perDimension {
            for d in 0..<min(dimension, weighted.count) { weighted[d] *= dimensionScales[d] }
        }
        return Self.perVectorCodes(of: weighted)
    }

    /// `values` as int8 codes with one scale (max |x| maps to 127): `codes × scale` approximates them. What a
    /// query becomes once the codes' per-dimension steps are folded into it.
    static func perVectorCodes(of values: [Float]) -> (codes: [Int8], scale: Float) {
        var codes = [Int8](repeating: 0, count: values.count)
        let scale = values.withUnsafeBufferPointer { source in
            codes.withUnsafeMutableBufferPointer { target -> Float in
                guard let s = source.baseAddress, let t = target.baseAddress else { return 0 }
                return Int8Quantizer(dimension: values.count).encode(s, into: t)
            }
        }
        return (codes, scale)
    }
}
