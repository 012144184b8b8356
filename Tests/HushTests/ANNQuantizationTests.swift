import Testing

@testable import Hush

@Suite struct ANNQuantizationTests {
    @Test func int8PerVectorRoundTripsWithinHalfAStep() {
        let matrix = ANNFixture.uniform(20)
        let quantizer = Int8Quantizer(dimension: ANNFixture.dimension)
        var codes = QuantizedMatrix(int8: quantizer)
        matrix.withView { codes.append(contentsOf: $0) }
        #expect(codes.count == 20)
        #expect(codes.bytesPerVector == ANNFixture.dimension + 4)
        let row = matrix.vector(3)
        let scale = codes.rowScales[3]
        for d in 0..<ANNFixture.dimension {
            let decoded = Float(codes.int8Codes[3 * ANNFixture.dimension + d]) * scale
            #expect(abs(decoded - row[d]) <= scale / 2 + 1e-6)
        }
        // The largest component maps to ±127.
        #expect(
            codes.int8Codes[(3 * ANNFixture.dimension)..<(4 * ANNFixture.dimension)].map { abs(Int($0)) }.max() == 127)
    }

    @Test func int8ScoresApproximateTheDotProduct() throws {
        let matrix = ANNFixture.clustered(200)
        let query = ANNFixture.queries(matrix, count: 1)[0]
        for quantizer in [
            Int8Quantizer(dimension: ANNFixture.dimension),
            matrix.withView { Int8Quantizer.perDimension(calibratedOn: $0) },
        ] {
            var codes = QuantizedMatrix(int8: quantizer)
            matrix.withView { codes.append(contentsOf: $0) }
            let (q, queryScale) = quantizer.encodeQuery(query)
            for row in [0, 17, 199] {
                var dot: Int32 = 0
                for d in 0..<ANNFixture.dimension {
                    dot += Int32(q[d]) * Int32(codes.int8Codes[row * ANNFixture.dimension + d])
                }
                let approx = Float(dot) * queryScale * codes.rowScales[row]
                let exact = zip(query, matrix.vector(row)).reduce(Float(0)) { $0 + $1.0 * $1.1 }
                #expect(abs(approx - exact) < 0.02, "\(quantizer.calibration) row \(row): \(approx) vs \(exact)")
            }
        }
    }

    @Test func binaryCodesAreSignBitsAndHammingRanks() {
        let quantizer = BinaryQuantizer(dimension: 70)
        var vector = [Float](repeating: -1, count: 70)
        vector[0] = 1
        vector[65] = 0.5
        let bits = quantizer.encodeQuery(vector)
        #expect(bits == [1, 2])
        #expect(quantizer.words == 2)
    }

    @Test func int8CalibrationsCompared() throws {
        // Both calibrations measured on clustered and uniform data, quantised ranking only (no rescoring).
        for matrix in [ANNFixture.clustered(3000), ANNFixture.uniform(3000)] {
            let queries = ANNFixture.queries(matrix)
            var recalls: [Int8Quantizer.Calibration: Double] = [:]
            for quantizer in [
                Int8Quantizer(dimension: ANNFixture.dimension),
                matrix.withView { Int8Quantizer.perDimension(calibratedOn: $0) },
            ] {
                var codes = QuantizedMatrix(int8: quantizer)
                matrix.withView { codes.append(contentsOf: $0) }
                let scan = QuantizedScan(codes: codes, oversample: 1)
                recalls[quantizer.calibration] = try ANNFixture.recall(matrix, queries) { q, _ in
                    try scan.search(q, k: 10, vectors: nil)
                }
            }
            let perVector = recalls[.perVector] ?? 0
            let perDimension = recalls[.perDimension] ?? 0
            #expect(perVector >= 0.9, "per-vector int8 recall \(perVector)")
            #expect(perDimension >= 0.85, "per-dimension int8 recall \(perDimension)")
        }
    }

    /// At 256 dimensions (binary codes need many bits: at 64 they keep too little of the angle).
    @Test(arguments: [false, true])
    func twoStageRecallMeetsThresholds(clustered: Bool) throws {
        let matrix = clustered ? ANNFixture.clustered(4000, dimension: 256) : ANNFixture.uniform(4000, dimension: 256)
        let queries = ANNFixture.queries(matrix)
        var int8 = QuantizedMatrix(int8: Int8Quantizer(dimension: 256))
        var binary = QuantizedMatrix(binary: matrix.withView { BinaryQuantizer(centredOn: $0) })
        matrix.withView {
            int8.append(contentsOf: $0)
            binary.append(contentsOf: $0)
        }
        let int8Scan = QuantizedScan(codes: int8)
        let binaryScan = QuantizedScan(codes: binary, oversample: 16)
        let int8Recall = try ANNFixture.recall(matrix, queries) { try int8Scan.search($0, k: 10, vectors: $1) }
        let binaryRecall = try ANNFixture.recall(matrix, queries) { try binaryScan.search($0, k: 10, vectors: $1) }
        #expect(int8Recall >= 0.99, "int8 + rescore recall \(int8Recall)")
        // Uniform random data is the worst case for sign bits (near-orthogonal neighbours); clustered data is
        // closer to embeddings.
        #expect(
            binaryRecall >= (clustered ? 0.95 : 0.55), "binary + rescore recall \(binaryRecall) clustered \(clustered)")
        // Rescored scores are the exact dot products.
        let hits = try matrix.withView { try int8Scan.search(queries[0], k: 3, vectors: $0) }
        let exact = zip(queries[0], matrix.vector(hits[0].row)).reduce(Float(0)) { $0 + $1.0 * $1.1 }
        #expect(abs(hits[0].score - exact) < 1e-5)
    }

    @Test func filterIsAppliedBeforeRanking() throws {
        let matrix = ANNFixture.clustered(3000)
        let query = ANNFixture.queries(matrix, count: 1)[0]
        var codes = QuantizedMatrix(int8: Int8Quantizer(dimension: ANNFixture.dimension))
        matrix.withView { codes.append(contentsOf: $0) }
        let scan = QuantizedScan(codes: codes)
        for modulus in [3, 97] {  // dense (block path) and sparse (row-by-row path) filters
            let allowed = Bitset(count: 3000) { $0 % modulus == 1 }
            let hits = try matrix.withView { try scan.search(query, k: 10, filter: allowed, vectors: $0) }
            let truth = try matrix.withView { try ExactScan.search(query, k: 10, filter: allowed, vectors: $0) }
            #expect(hits.count == 10)
            #expect(hits.allSatisfy { $0.row % modulus == 1 })
            #expect(Set(hits.map(\.row)).intersection(truth.map(\.row)).count >= 9)
        }
    }

    @Test func wrongQueryLengthIsRejected() {
        let scan = QuantizedScan(codes: QuantizedMatrix(binary: BinaryQuantizer(dimension: 8)))
        #expect(throws: ANNError.dimensionMismatch(expected: 8, actual: 3)) {
            try scan.search([1, 0, 0], k: 1, vectors: nil)
        }
    }
}
