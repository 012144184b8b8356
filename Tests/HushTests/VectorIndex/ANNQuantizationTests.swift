import HushKernels
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

    /// 4-bit codes hold each value in its cell (within half a step of the cell's middle), two dimensions to a
    /// byte in blocks of 64 (a dimension that is not a multiple of 64 pads the last block), and a query's
    /// `offset + scale × dot` approximates the dot product with the decoded row; a value outside the calibrated
    /// range takes the nearest end cell.
    @Test(arguments: [64, 100])
    func int4CodesHoldEachValueInItsCellAndScoreTheDotProduct(dimension: Int) throws {
        let matrix = ANNFixture.clustered(200, dimension: dimension)
        let quantizer = matrix.withView { Int4Quantizer(calibratedOn: $0) }
        var codes = QuantizedMatrix(int4: quantizer)
        matrix.withView { codes.append(contentsOf: $0) }
        #expect(codes.count == 200)
        #expect(codes.bytesPerVector == (dimension + 63) / 64 * 32)
        func code(_ row: Int, _ d: Int) -> Int {
            let byte = codes.nibbleCodes[row * codes.bytesPerVector + d / 64 * 32 + d % 32]
            return Int(d % 64 < 32 ? byte & 15 : byte >> 4)
        }
        func decoded(_ row: Int, _ d: Int) -> Float {
            quantizer.lows[d] + quantizer.steps[d] * (Float(code(row, d)) + 0.5)
        }
        for row in [0, 17, 199] {
            let vector = matrix.vector(row)
            for d in 0..<dimension {
                #expect(abs(decoded(row, d) - vector[d]) <= quantizer.steps[d] / 2 + 1e-5, "row \(row) d \(d)")
            }
        }
        let query = ANNFixture.queries(matrix, count: 1)[0]
        let encoded = quantizer.encodeQuery(query)
        #expect(encoded.weights.count == quantizer.blocks * 64)
        #expect(encoded.weights[dimension...].allSatisfy { $0 == 0 })
        for row in [0, 17, 199] {
            let rowCodes = Array(codes.nibbleCodes[(row * codes.bytesPerVector)..<((row + 1) * codes.bytesPerVector)])
            let dot = hush_dot_u4i8(rowCodes, encoded.weights, quantizer.blocks)
            let approx = encoded.offset + encoded.scale * Float(dot)
            let onDecoded = (0..<dimension).reduce(Float(0)) { $0 + query[$1] * decoded(row, $1) }
            let exact = zip(query, matrix.vector(row)).reduce(Float(0)) { $0 + $1.0 * $1.1 }
            #expect(abs(approx - onDecoded) < 0.01, "row \(row): \(approx) vs \(onDecoded) on the decoded row")
            #expect(abs(approx - exact) < 0.1, "row \(row): \(approx) vs \(exact)")
        }
        // Out of range: below every low and above every high.
        var outside = QuantizedMatrix(int4: quantizer)
        for value in [Float(-10), 10] {
            [Float](repeating: value, count: dimension).withUnsafeBufferPointer { buffer in
                if let base = buffer.baseAddress { outside.append(base) }
            }
        }
        let perRow = quantizer.bytesPerVector
        let lastByte = (dimension - 1) / 64 * 32 + (dimension - 1) % 32
        #expect(outside.nibbleCodes[0] == 0)
        #expect(outside.nibbleCodes[perRow] & 15 == 15)
        #expect(outside.nibbleCodes[perRow + lastByte] != 0)
    }

    /// A graph walked on 4-bit codes and rescored finds what the walk on the f32 vectors finds.
    @Test func graphWalkedOn4BitCodesFindsTheExactNeighbours() throws {
        let matrix = ANNFixture.clustered(2_000)
        let queries = ANNFixture.queries(matrix, count: 40)
        let index = try matrix.withView {
            try HNSWIndex.build(dimension: $0.dimension, rows: 0..<$0.count, vectors: $0)
        }
        var codes = QuantizedMatrix(int4: matrix.withView { Int4Quantizer(calibratedOn: $0) })
        matrix.withView { codes.append(contentsOf: $0) }
        let recall = try ANNFixture.recall(matrix, queries) { query, view in
            let hits = try index.search(query, k: 10, ef: 64, vectors: view, guide: codes)
            // Rescored: every score is the exact dot product.
            for hit in hits {
                let exact = zip(query, matrix.vector(hit.row)).reduce(Float(0)) { $0 + $1.0 * $1.1 }
                #expect(abs(hit.score - exact) < 1e-4)
            }
            return hits
        }
        #expect(recall >= 0.97, "recall \(recall)")
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
