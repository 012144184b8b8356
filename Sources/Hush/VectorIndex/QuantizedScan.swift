import HushKernels

/// Two-stage search: a scan of quantised codes keeps the best `k × oversample` rows, which are then
/// rescored with the exact f32 dot product.
///
/// ```swift
/// let scan = QuantizedScan(codes: codes, oversample: 4)
/// let hits = try vectors.withView { try scan.search(query, k: 10, vectors: $0) }
/// ```
package struct QuantizedScan: Sendable {
    /// The codes scanned in the first stage.
    package var codes: QuantizedMatrix
    /// Candidates kept per requested hit for the exact rescoring (1 = no oversampling).
    package var oversample: Int

    /// Default oversampling: 4 for int8 and 4-bit codes, 16 for binary codes.
    ///
    /// ```swift
    /// let scan = QuantizedScan(codes: codes)
    /// ```
    package init(codes: QuantizedMatrix, oversample: Int? = nil) {
        self.codes = codes
        switch codes.encoding {
        case .int8, .int4: self.oversample = max(1, oversample ?? 4)
        case .binary: self.oversample = max(1, oversample ?? 16)
        }
    }

    /// Below this allowed fraction the scan scores allowed rows one by one instead of in blocks (as the exact
    /// scan does).
    static let sparseFilterFraction = ExactScan.sparseFilterFraction
    static let block = ExactScan.block

    /// The best `k` rows for `query`: quantised scan for `k × oversample` candidates (only rows in `filter`,
    /// when given), then exact rescoring against `vectors` (pass nil to return the quantised ranking).
    ///
    /// - Complexity: O(n × dimension) on codes (n = rows, or allowed rows for a sparse filter) plus
    ///   O(k × oversample × dimension) f32 work.
    ///
    /// ```swift
    /// let hits = try scan.search(query, k: 10, filter: allowed, vectors: view)
    /// ```
    package func search(_ query: [Float], k: Int, filter: Bitset? = nil, vectors: VectorView?) throws
        -> [ScoredRow]
    {
        guard query.count == codes.dimension else {
            throw ANNError.dimensionMismatch(expected: codes.dimension, actual: query.count)
        }
        guard k > 0, codes.count > 0 else { return [] }
        let candidates = candidates(query, count: k * oversample, filter: filter)
        guard let vectors else { return Array(candidates.prefix(k)) }
        guard vectors.count >= codes.count, vectors.dimension == codes.dimension else {
            throw ANNError.dimensionMismatch(expected: codes.dimension, actual: vectors.dimension)
        }
        var top = TopK(capacity: k)
        query.withUnsafeBufferPointer { q in
            guard let qp = q.baseAddress else { return }
            // The candidates are scattered rows: start loading all of them before the first dot product.
            for candidate in candidates { hush_prefetch(vectors.row(candidate.row), codes.dimension * 4) }
            for candidate in candidates {
                top.offer(id: candidate.row, score: hush_dot_f32(vectors.row(candidate.row), qp, codes.dimension))
            }
        }
        return top.sortedRows()
    }

    /// First stage only: the best `count` rows by quantised score (int8 and 4-bit: approximate dot product;
    /// binary: minus the Hamming distance), best first.
    ///
    /// - Complexity: O(n × code size).
    ///
    /// ```swift
    /// let rough = scan.candidates(query, count: 100)
    /// ```
    package func candidates(_ query: [Float], count wanted: Int, filter: Bitset? = nil) -> [ScoredRow] {
        var top = TopK(capacity: wanted)
        let n = codes.count
        let sparse = filter.map { Double($0.allowedCount) < Self.sparseFilterFraction * Double(n) } ?? false
        switch codes.encoding {
        case .int8(let quantizer):
            let (q, _) = quantizer.encodeQuery(query)
            let dim = codes.dimension
            codes.int8Codes.withUnsafeBufferPointer { codeBuffer in
                codes.rowScales.withUnsafeBufferPointer { scales in
                    q.withUnsafeBufferPointer { qb in
                        guard let base = codeBuffer.baseAddress, let qp = qb.baseAddress else { return }
                        let perVector = quantizer.calibration == .perVector
                        if sparse, let filter {
                            filter.forEachAllowed { row in
                                guard row < n else { return }
                                let dot = Float(hush_dot_i8(base + row * dim, qp, dim))
                                top.offer(id: row, score: perVector ? dot * scales[row] : dot)
                            }
                            return
                        }
                        var out = [Int32](repeating: 0, count: Self.block)
                        var picked = [UInt32](repeating: 0, count: Self.block)
                        var pickedScores = [Float](repeating: 0, count: Self.block)
                        out.withUnsafeMutableBufferPointer { ob in
                            picked.withUnsafeMutableBufferPointer { pb in
                                pickedScores.withUnsafeMutableBufferPointer { sb in
                                    guard let op = ob.baseAddress, let pp = pb.baseAddress, let sp = sb.baseAddress
                                    else { return }
                                    var start = 0
                                    while start < n {
                                        let rows = min(Self.block, n - start)
                                        hush_dot_i8_rows(base + start * dim, rows, dim, qp, op)
                                        // Only rows better than the current k-th best reach the heap.
                                        let limit = top.isFull ? top.threshold : -Float.infinity
                                        let rowScales = perVector ? scales.baseAddress.map { $0 + start } : nil
                                        let survivors = hush_select_scaled_above(op, rowScales, rows, limit, pp, sp)
                                        for j in 0..<survivors {
                                            let row = start + Int(pp[j])
                                            if let filter, !filter.contains(row) { continue }
                                            top.offer(id: row, score: sp[j])
                                        }
                                        start += rows
                                    }
                                }
                            }
                        }
                    }
                }
            }
        case .int4:
            // Row by row through the walk's scorer (4-bit codes guide graphs; a scan of them is the rare case).
            struct Scan: ScorerTask {
                let count: Int
                let filter: Bitset?
                let wanted: Int
                func run<Scorer: NodeScorer>(_ scorer: Scorer) -> TopK {
                    var top = TopK(capacity: wanted)
                    func offer(_ row: Int) {
                        let score = scorer.score(row)
                        if score > top.threshold || score == top.threshold { top.offer(id: row, score: score) }
                    }
                    if let filter {
                        filter.forEachAllowed { row in if row < count { offer(row) } }
                    } else {
                        for row in 0..<count { offer(row) }
                    }
                    return top
                }
            }
            top = codes.withScorer(for: query, Scan(count: n, filter: filter, wanted: wanted)) ?? top
        case .binary(let quantizer):
            let q = quantizer.encodeQuery(query)
            let words = codes.words
            codes.bitCodes.withUnsafeBufferPointer { codeBuffer in
                q.withUnsafeBufferPointer { qb in
                    guard let base = codeBuffer.baseAddress, let qp = qb.baseAddress else { return }
                    if sparse, let filter {
                        filter.forEachAllowed { row in
                            guard row < n else { return }
                            top.offer(id: row, score: -Float(hush_hamming(base + row * words, qp, words)))
                        }
                        return
                    }
                    var out = [UInt32](repeating: 0, count: Self.block)
                    var picked = [UInt32](repeating: 0, count: Self.block)
                    out.withUnsafeMutableBufferPointer { ob in
                        picked.withUnsafeMutableBufferPointer { pb in
                            guard let op = ob.baseAddress, let pp = pb.baseAddress else { return }
                            var start = 0
                            while start < n {
                                let rows = min(Self.block, n - start)
                                hush_hamming_rows(base + start * words, rows, words, qp, op)
                                // Once the list is full only rows closer than its worst can enter: select them
                                // in C, so the heap sees a few rows per block instead of all of them.
                                let limit = top.isFull ? UInt32(max(0, -top.threshold)) : UInt32.max
                                let survivors = hush_select_below_u32(op, rows, limit, pp)
                                for j in 0..<survivors {
                                    let i = Int(pp[j])
                                    let row = start + i
                                    if let filter, !filter.contains(row) { continue }
                                    top.offer(id: row, score: -Float(op[i]))
                                }
                                start += rows
                            }
                        }
                    }
                }
            }
        }
        return top.sortedRows()
    }
}
