import HushKernels
import HushToolSupport
import Testing

extension HushKernelsTests {
    /// Each vectorised level against the scalar reference on seeded random data of awkward sizes.
    @Suite struct Agreement {
        /// Rows per matrix: not a multiple of 4 or 8, so the row-block loops and the leftover rows both run.
        let rows = 11

        /// f32 dot products: |got - ref| <= 1e-5 * sum |a_i * b_i| (relative to the size of the terms, since the
        /// sum itself may cancel to near zero).
        @Test func dotF32MatchesReference() {
            var rng = SplitMix(seed: 1)
            forEachSupportedLevel { level in
                for n in kernelSizes {
                    let matrix = rng.floats(rows * n, in: -1...1)
                    let query = rng.floats(n, in: -1...1)
                    var scores = [Float](repeating: .nan, count: rows)
                    hush_dot_f32_rows(matrix, rows, n, query, &scores)
                    for r in 0..<rows {
                        let row = Array(matrix[r * n..<(r + 1) * n])
                        let expected = hush_dot_f32_ref(row, query, n)
                        let magnitude = zip(row, query).reduce(Float(0)) { $0 + abs($1.0 * $1.1) }
                        let tolerance = 1e-5 * magnitude + 1e-30
                        #expect(abs(scores[r] - expected) <= tolerance, "\(levelName(level)) rows n=\(n) r=\(r)")
                        #expect(abs(hush_dot_f32(row, query, n) - expected) <= tolerance, "\(levelName(level)) n=\(n)")
                    }
                }
            }
        }

        /// Q4_0 dequantisation is exact at every level (one product per weight), for any scale: normal,
        /// subnormal, zero, negative, infinite and NaN (compared by bit pattern).
        @Test func dequantizeQ4IsExact() {
            var rng = SplitMix(seed: 9)
            let scales: [UInt16] = [0x3C00, 0x2E66, 0x0001, 0x03FF, 0x0000, 0x8000, 0xBC00, 0x7C00, 0xFC00, 0x7E00]
            forEachSupportedLevel { level in
                for count in [0, 1, 3, 12, 48] {
                    var blocks = (0..<(18 * count)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                    for b in 0..<count where b < scales.count {
                        blocks[18 * b] = UInt8(scales[b] & 0xFF)
                        blocks[18 * b + 1] = UInt8(scales[b] >> 8)
                    }
                    var got = [Float](repeating: 42, count: 32 * count)
                    var expected = [Float](repeating: -42, count: 32 * count)
                    hush_dequantize_q4_0(blocks, count, &got)
                    hush_dequantize_q4_0_ref(blocks, count, &expected)
                    #expect(got.map(\.bitPattern) == expected.map(\.bitPattern), "\(levelName(level)) blocks=\(count)")
                }
            }
            // The reference itself: scale 1.0, byte j = j | (15 - j) << 4.
            let block: [UInt8] = [0x00, 0x3C] + (0..<16).map { UInt8($0 | ((15 - $0) << 4)) }
            var values = [Float](repeating: 0, count: 32)
            hush_dequantize_q4_0_ref(block, 1, &values)
            let low: [Float] = (0..<16).map { Float($0 - 8) }
            let high: [Float] = (0..<16).map { Float(7 - $0) }
            #expect(values == low + high)
        }

        /// Q8_0 activation quantisation gives the reference's bytes at every level: codes, scales and sums, with
        /// strided rows, an all-zero block, a block of one sign, and values on a .5 rounding boundary.
        @Test func quantizeQ8IsExact() {
            var rng = SplitMix(seed: 10)
            forEachSupportedLevel { level in
                for (m, k) in [(1, 32), (3, 384), (6, 1536)] {
                    let ldx = k + 5
                    var x = rng.floats(m * ldx, in: -3...3)
                    for j in 0..<32 { x[j] = 0 }  // an all-zero block: scale 0, codes 0
                    if k >= 64 {
                        // max |x| = 127, so d = 1 and the codes are x rounded half to even: 2.5 -> 2, -3.5 -> -4.
                        for j in 32..<64 { x[j] = Float(j - 48) + 0.5 }
                        x[63] = 127
                    }
                    let blocks = m * k / 32
                    var codes = [Int8](repeating: 0, count: m * k), expectedCodes = codes
                    var scales = [Float](repeating: .nan, count: blocks), expectedScales = scales
                    var sums = [Int32](repeating: 99, count: blocks), expectedSums = sums
                    hush_quantize_q8_0(x, m, k, ldx, &codes, &scales, &sums)
                    hush_quantize_q8_0_ref(x, m, k, ldx, &expectedCodes, &expectedScales, &expectedSums)
                    #expect(codes == expectedCodes, "\(levelName(level)) m=\(m) k=\(k)")
                    #expect(scales.map(\.bitPattern) == expectedScales.map(\.bitPattern), "\(levelName(level))")
                    #expect(sums == expectedSums, "\(levelName(level)) m=\(m) k=\(k)")
                    #expect(expectedScales[0] == 0 && expectedCodes[0..<32].allSatisfy { $0 == 0 })
                    if k >= 64 {
                        #expect(expectedScales[1] == 1)
                        #expect(Array(expectedCodes[46..<51]) == [-2, 0, 0, 2, 2])
                        #expect(expectedCodes[32] == -16 && expectedCodes[33] == -14 && expectedCodes[63] == 127)
                    }
                    for t in 0..<m {
                        for j in 0..<k {
                            let value = Float(expectedCodes[t * k + j]) * expectedScales[(t * k + j) / 32]
                            #expect(abs(value - x[t * ldx + j]) <= expectedScales[(t * k + j) / 32] / 2 * 1.0001)
                        }
                    }
                }
            }
        }

        /// The 4-bit x 8-bit product: the vector level against the reference (within rounding: they add the
        /// blocks in different orders), and the reference against f32 arithmetic on the dequantised weights and
        /// activations (the integer form is the same sum). Every leftover count of tokens (taken four at a time)
        /// and of rows (two at a time), with and without a bias, strided y, more tokens than one chunk (32), and
        /// rows over 4096 (done in passes).
        @Test func matmulQ4Q8MatchesReference() {
            var rng = SplitMix(seed: 11)
            forEachSupportedLevel { level in
                for (m, k, n) in [
                    (1, 32, 3), (4, 384, 5), (7, 384, 2), (9, 1536, 3), (2, 4160, 3), (5, 64, 1), (37, 96, 3),
                    (33, 4160, 2),
                ] {
                    var blocks = (0..<(n * k / 32 * 18)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                    for b in stride(from: 0, to: blocks.count, by: 18) {
                        blocks[b] = 0x00
                        blocks[b + 1] = UInt8.random(in: 0x20...0x2C, using: &rng)  // scales 2^-7 ... 2^-4
                    }
                    let x = rng.floats(m * k, in: -2...2)
                    var codes = [Int8](repeating: 0, count: m * k)
                    var scales = [Float](repeating: 0, count: m * k / 32)
                    var sums = [Int32](repeating: 0, count: m * k / 32)
                    hush_quantize_q8_0_ref(x, m, k, k, &codes, &scales, &sums)
                    let ldy = n + 2
                    var got = [Float](repeating: .nan, count: m * ldy)
                    var expected = [Float](repeating: .nan, count: m * ldy)
                    let bias = n % 2 == 1 ? rng.floats(n, in: -1...1) : nil
                    hush_matmul_q4_0_q8_0(codes, scales, sums, m, k, blocks, n, bias, &got, ldy)
                    hush_matmul_q4_0_q8_0_ref(codes, scales, sums, m, k, blocks, n, bias, &expected, ldy)
                    var weights = [Float](repeating: 0, count: n * k)
                    hush_dequantize_q4_0_ref(blocks, n * k / 32, &weights)
                    for t in 0..<m {
                        for o in 0..<n {
                            let terms = (0..<k).map {
                                Double(weights[o * k + $0]) * Double(codes[t * k + $0])
                                    * Double(scales[(t * k + $0) / 32])
                            }
                            let exact = terms.reduce(Double(bias?[o] ?? 0), +)
                            let tolerance = 1e-5 * terms.reduce(Double(abs(bias?[o] ?? 0))) { $0 + abs($1) } + 1e-30
                            #expect(
                                abs(Double(got[t * ldy + o] - expected[t * ldy + o])) <= tolerance,
                                "\(levelName(level)) m=\(m) k=\(k) n=\(n)")
                            #expect(abs(Double(expected[t * ldy + o]) - exact) <= tolerance, "m=\(m) k=\(k)")
                        }
                        // Padding columns of y stay untouched.
                        #expect(got[t * ldy + n].isNaN && got[t * ldy + n + 1].isNaN)
                    }
                }
            }
        }

        /// The inputs of a 4-bit product: n x k Q4_0 blocks (scales 2^-7 ... 2^-4), m x k int8 codes with -128 at
        /// every `minimumEvery`-th, their per-block scales and sums.
        static func q4Product(m: Int, k: Int, n: Int, minimumEvery: Int, using rng: inout SplitMix) -> (
            blocks: [UInt8], codes: [Int8], scales: [Float], sums: [Int32]
        ) {
            var blocks = (0..<(n * k / 32 * 18)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            for b in stride(from: 0, to: blocks.count, by: 18) {
                blocks[b] = UInt8.random(in: 0...255, using: &rng)
                blocks[b + 1] = UInt8.random(in: 0x20...0x2C, using: &rng)
            }
            let codes = (0..<(m * k)).map { i in
                i % minimumEvery == 0 ? Int8.min : Int8.random(in: -127...127, using: &rng)
            }
            let scales = rng.floats(m * k / 32, in: 0.001...0.05)
            let sums = (0..<(m * k / 32)).map { b in
                codes[(b * 32)..<(b * 32 + 32)].reduce(Int32(0)) { $0 + Int32($1) }
            }
            return (blocks, codes, scales, sums)
        }

        /// The 8-row interleaved 4-bit product (and the layout's rows read back): at every level, for every count of tokens (a tile's leftovers, more
        /// than one chunk), rows taken from any group, a bias or none, extreme codes (-128 against 15) and a strided
        /// y, its outputs are the scalar reference's on the plain layout bit for bit; so a query's vector does not
        /// depend on the machine's level or on how a team splits the rows.
        @Test func matmulQ4Q8Rows8IsTheReferenceBitForBit() {
            var rng = SplitMix(seed: 41)
            forEachSupportedLevel { level in
                for (m, k, n) in [
                    (1, 32, 8), (3, 384, 16), (4, 384, 24), (15, 384, 40), (15, 1536, 8), (33, 96, 16),
                    (70, 64, 8), (10, 384, 16), (13, 96, 8),
                ] {
                    let (generated, codes, scales, sums) = Self.q4Product(
                        m: m, k: k, n: n, minimumEvery: 5, using: &rng)
                    var blocks = generated
                    if m == 15 { for b in stride(from: 0, to: blocks.count, by: 18) { blocks[b + 2] = 0xFF } }
                    let bias = m % 2 == 1 ? rng.floats(n, in: -1...1) : nil
                    var packed = [UInt8](repeating: 0, count: hush_q4_0_rows8_size(n, k))
                    hush_q4_0_interleave_rows8(blocks, n, k, &packed)
                    // Every row read back from the interleaved layout is the plain one's, dequantised.
                    var plainRows = [Float](repeating: 0, count: n * k)
                    hush_dequantize_q4_0_ref(blocks, n * k / 32, &plainRows)
                    var row = [Float](repeating: .nan, count: k)
                    for r in 0..<n {
                        hush_dequantize_q4_0_rows8(packed, k, r, &row)
                        #expect(
                            row.map(\.bitPattern) == plainRows[(r * k)..<((r + 1) * k)].map(\.bitPattern), "row \(r)")
                    }
                    let ldy = n + 3
                    var expected = [Float](repeating: .nan, count: m * ldy)
                    hush_matmul_q4_0_q8_0_ref(codes, scales, sums, m, k, blocks, n, bias, &expected, ldy)
                    var got = [Float](repeating: .nan, count: m * ldy)
                    hush_matmul_q4_0_q8_0_rows8(codes, scales, sums, m, k, packed, n, bias, &got, ldy)
                    // The rows from the second group on, as a team member's share reads them.
                    var share = [Float](repeating: .nan, count: m * ldy)
                    if n > 8 {
                        packed.withUnsafeBufferPointer { whole in
                            hush_matmul_q4_0_q8_0_rows8(
                                codes, scales, sums, m, k, whole.baseAddress! + hush_q4_0_rows8_size(8, k), n - 8,
                                bias.map { Array($0[8...]) }, &share[8], ldy)
                        }
                    }
                    for t in 0..<m {
                        for o in 0..<n {
                            let i = t * ldy + o
                            #expect(
                                got[i].bitPattern == expected[i].bitPattern, "\(levelName(level)) m=\(m) k=\(k) n=\(n)")
                            if n > 8, o >= 8 { #expect(share[i].bitPattern == expected[i].bitPattern) }
                        }
                        #expect(got[t * ldy + n].isNaN, "padding columns of y stay untouched")
                    }
                }
            }
        }

        /// Which layout a model keeps: the interleaved one with AVX2 and AVX-512 (with VNNI or without; its copy then
        /// replaces the plain matrix), never at the scalar level, whose product would be the reference.
        @Test func rows8IsVectorisedFollowsTheLevel() {
            let previous = hush_kernels_level()
            defer { _ = hush_kernels_set_level(previous) }
            #expect(hush_kernels_set_level(HUSH_LEVEL_SCALAR) == 0)
            #expect(hush_matmul_q4_0_q8_0_rows8_is_vectorised() == 0)
            if hush_kernels_set_level(HUSH_LEVEL_AVX2) == 0 {
                #expect(hush_matmul_q4_0_q8_0_rows8_is_vectorised() == 1)
            }
            if hush_kernels_set_level(HUSH_LEVEL_AVX512) == 0 {
                #expect(hush_matmul_q4_0_q8_0_rows8_is_vectorised() == 1)
            }
        }

        /// With VNNI, the AVX-512 level's 4-bit product (both rows of a pair in one register, vpdpbusd) gives the
        /// AVX2 kernel's outputs bit for bit, so the kernel changed no vector of this level, only its speed: every
        /// leftover count of tokens and rows, passes over k > 4096, bias or none, extreme codes.
        @Test(.enabled(if: hush_kernels_has_vnni() != 0 && hush_kernels_best_level() == HUSH_LEVEL_AVX512))
        func matmulQ4Q8WithVNNIIsTheAVX2KernelBitForBit() {
            var rng = SplitMix(seed: 29)
            let previous = hush_kernels_level()
            defer { _ = hush_kernels_set_level(previous) }
            for (m, k, n) in [(1, 32, 1), (3, 384, 7), (4, 384, 384), (13, 1536, 5), (37, 4160, 4), (64, 384, 6)] {
                let (blocks, codes, scales, sums) = Self.q4Product(m: m, k: k, n: n, minimumEvery: 7, using: &rng)
                let bias = n % 2 == 1 ? rng.floats(n, in: -1...1) : nil
                var results: [[Float]] = []
                for level in [HUSH_LEVEL_AVX2, HUSH_LEVEL_AVX512] {
                    #expect(hush_kernels_set_level(level) == 0)
                    var y = [Float](repeating: .nan, count: m * n)
                    hush_matmul_q4_0_q8_0(codes, scales, sums, m, k, blocks, n, bias, &y, n)
                    results.append(y)
                }
                let same = zip(results[0], results[1]).filter { $0.bitPattern == $1.bitPattern }.count
                #expect(same == m * n, "m=\(m) k=\(k) n=\(n): \(same) of \(m * n) bit-identical")
            }
        }

        /// binary16 rounding: to nearest even at every boundary (normal, subnormal, the overflow threshold 65520,
        /// ties both ways), infinities and NaN kept, and back to f32 exactly for every half.
        @Test func floatToHalfRoundsToNearestEven() {
            let cases: [(Float, UInt16)] = [
                (0, 0x0000), (-0.0, 0x8000), (1, 0x3C00), (-2, 0xC000), (65504, 0x7BFF), (65519.99, 0x7BFF),
                (65520, 0x7C00), (1e6, 0x7C00), (-.infinity, 0xFC00), (0x1p-24, 0x0001), (0x1p-25, 0x0000),
                (0x1.8p-25, 0x0001), (0x1.8p-24, 0x0002), (0x1p-14, 0x0400), (0x1.ffcp-15, 0x0400),
                (1 + 0x1p-11, 0x3C00), (1 + 0x3p-11, 0x3C02), (1 + 0x1p-11 + 0x1p-20, 0x3C01),
            ]
            for (value, bits) in cases {
                #expect(hush_float_to_half(value) == bits, "\(value)")
            }
            #expect(hush_float_to_half(.nan) & 0x7C00 == 0x7C00 && hush_float_to_half(.nan) & 0x03FF != 0)
            for bits in UInt16(0)...UInt16(0x7BFF) {
                var half = bits
                var widened: Float = 0
                withUnsafeBytes(of: &half) { raw in
                    hush_half_to_float_array(raw.bindMemory(to: UInt8.self).baseAddress, 1, &widened)
                }
                #expect(hush_float_to_half(widened) == bits)
            }
        }

        /// Packing into binary16 panels gives the reference's bytes at every level (8 x 8 transposes, a k that is
        /// not a multiple of 8), and the product against the panels gives the reference's bits: each output is
        /// the same chain of fused multiply-adds, for any number of tokens (tiles of 6 and every remainder).
        @Test func halfPanelProductsMatchTheReferenceBitForBit() {
            var rng = SplitMix(seed: 23)
            forEachSupportedLevel { level in
                for (m, k, n) in [(1, 8, 16), (5, 384, 32), (6, 13, 16), (7, 384, 48), (12, 1536, 16), (23, 40, 64)] {
                    let w = rng.floats(n * k, in: -1...1)
                    var packed = [UInt16](repeating: 0, count: n * k)
                    var reference = [UInt16](repeating: 0, count: n * k)
                    hush_pack_f16_panels(w, n, k, &packed)
                    hush_pack_f16_panels_ref(w, n, k, &reference)
                    #expect(packed == reference, "\(levelName(level)) pack n=\(n) k=\(k)")
                    let ldx = k + 3
                    let x = rng.floats(m * ldx, in: -2...2)
                    let ldy = n + 5
                    // In two calls: the second takes the last outputs alone, as a member of a team computes its
                    // columns.
                    let half = n / 32 * 16
                    func product(
                        _ kernel: (
                            UnsafePointer<Float>?, Int, Int, Int, UnsafePointer<UInt16>?, Int,
                            UnsafeMutablePointer<Float>?,
                            Int
                        ) -> Void
                    ) -> [Float] {
                        var y = [Float](repeating: .nan, count: m * ldy)
                        x.withUnsafeBufferPointer { x in
                            reference.withUnsafeBufferPointer { panels in
                                y.withUnsafeMutableBufferPointer { out in
                                    guard let x = x.baseAddress, let panels = panels.baseAddress,
                                        let out = out.baseAddress
                                    else { return }
                                    kernel(x, m, k, ldx, panels, n - half, out, ldy)
                                    kernel(x, m, k, ldx, panels + (n - half) * k, half, out + (n - half), ldy)
                                }
                            }
                        }
                        return y
                    }
                    let got = product(hush_matmul_f32_f16p)
                    let expected = product(hush_matmul_f32_f16p_ref)
                    for t in 0..<m {
                        for o in 0..<n {
                            #expect(
                                got[t * ldy + o].bitPattern == expected[t * ldy + o].bitPattern,
                                "\(levelName(level)) m=\(m) k=\(k) n=\(n) t=\(t) o=\(o)")
                            // And the reference is the product with the rounded weights.
                            let exact = (0..<k).reduce(0.0) { sum, i in
                                var bits = reference[(o / 16) * 16 * k + i * 16 + o % 16]
                                var weight: Float = 0
                                withUnsafeBytes(of: &bits) { raw in
                                    hush_half_to_float_array(raw.bindMemory(to: UInt8.self).baseAddress, 1, &weight)
                                }
                                return sum + Double(x[t * ldx + i]) * Double(weight)
                            }
                            #expect(abs(Double(expected[t * ldy + o]) - exact) <= 1e-5 * Double(k), "m=\(m) k=\(k)")
                        }
                        #expect((n..<ldy).allSatisfy { got[t * ldy + $0].isNaN })
                    }
                }
            }
        }

        /// 4-bit codes against int8 weights are exact at every level, with the nibble layout the quantizer
        /// writes (low nibble: dimension 64b + j, high nibble: 64b + 32 + j), including the extremes 15 × -128
        /// and 15 × 127 in every lane.
        @Test func dotU4I8IsExactInItsLayout() {
            var rng = SplitMix(seed: 9)
            forEachSupportedLevel { level in
                for blocks in [0, 1, 2, 6, 7] {
                    var codes = (0..<(blocks * 32)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                    var query = rng.int8s(blocks * 64)
                    var expected: Int32 = 0
                    for b in 0..<blocks {
                        for j in 0..<32 {
                            let byte = codes[b * 32 + j]
                            expected += Int32(byte & 15) * Int32(query[b * 64 + j])
                            expected += Int32(byte >> 4) * Int32(query[b * 64 + 32 + j])
                        }
                    }
                    #expect(hush_dot_u4i8_ref(codes, query, blocks) == expected)
                    #expect(hush_dot_u4i8(codes, query, blocks) == expected, "\(levelName(level)) blocks=\(blocks)")
                    guard blocks > 0 else { continue }
                    for i in codes.indices { codes[i] = 0xFF }
                    for i in query.indices { query[i] = i % 3 == 0 ? 127 : -128 }
                    let extreme = query.reduce(Int32(0)) { $0 + 15 * Int32($1) }
                    #expect(hush_dot_u4i8(codes, query, blocks) == extreme, "\(levelName(level)) extremes")
                }
            }
        }

        /// int8 dot products are exact, including the extremes -128 * -128 and -128 * 127.
        @Test func dotI8IsExact() {
            var rng = SplitMix(seed: 2)
            forEachSupportedLevel { level in
                for n in kernelSizes {
                    var matrix = rng.int8s(rows * n)
                    var query = rng.int8s(n)
                    if n > 0 {
                        query[0] = -128
                        query[n - 1] = -128
                        for r in 0..<rows {
                            matrix[r * n] = r % 2 == 0 ? -128 : 127
                            matrix[r * n + n - 1] = -128
                        }
                    }
                    var scores = [Int32](repeating: .min, count: rows)
                    hush_dot_i8_rows(matrix, rows, n, query, &scores)
                    for r in 0..<rows {
                        let row = Array(matrix[r * n..<(r + 1) * n])
                        let expected = zip(row, query).reduce(Int32(0)) { $0 + Int32($1.0) * Int32($1.1) }
                        #expect(hush_dot_i8_ref(row, query, n) == expected)
                        #expect(scores[r] == expected, "\(levelName(level)) rows n=\(n) r=\(r)")
                        #expect(hush_dot_i8(row, query, n) == expected, "\(levelName(level)) n=\(n)")
                    }
                }
            }
        }

        /// All-(-128) vectors give the largest possible int8 dot product, 16384 * n, still exact.
        @Test func dotI8OfExtremeVectors() {
            forEachSupportedLevel { level in
                for n in kernelSizes {
                    let low = [Int8](repeating: -128, count: n)
                    let high = [Int8](repeating: 127, count: n)
                    #expect(hush_dot_i8(low, low, n) == Int32(16384 * n), "\(levelName(level)) n=\(n)")
                    #expect(hush_dot_i8(low, high, n) == Int32(-16256 * n), "\(levelName(level)) n=\(n)")
                }
            }
        }

        /// Hamming distances are exact; the sizes here count 64-bit words.
        @Test func hammingIsExact() {
            var rng = SplitMix(seed: 3)
            forEachSupportedLevel { level in
                for words in kernelSizes {
                    let matrix = rng.words(rows * words)
                    let query = rng.words(words)
                    var distances = [UInt32](repeating: .max, count: rows)
                    hush_hamming_rows(matrix, rows, words, query, &distances)
                    for r in 0..<rows {
                        let row = Array(matrix[r * words..<(r + 1) * words])
                        let expected = zip(row, query).reduce(UInt32(0)) { $0 + UInt32(($1.0 ^ $1.1).nonzeroBitCount) }
                        #expect(distances[r] == expected, "\(levelName(level)) rows words=\(words) r=\(r)")
                        #expect(hush_hamming(row, query, words) == expected, "\(levelName(level)) words=\(words)")
                    }
                    // A row against its own complement differs in every bit.
                    let complement = query.map { ~$0 }
                    #expect(hush_hamming(query, complement, words) == UInt32(64 * words))
                }
            }
        }

        /// The eight-row blocks of the Hamming row kernel, at the code size of 384-d vectors (6 words) and with
        /// a tail of rows after the last full block.
        @Test func hammingRowsOfBinaryCodes() {
            var rng = SplitMix(seed: 13)
            forEachSupportedLevel { level in
                for (words, count) in [(6, 37), (12, 16), (32, 9), (33, 17)] {
                    let matrix = rng.words(count * words)
                    let query = rng.words(words)
                    var distances = [UInt32](repeating: .max, count: count)
                    hush_hamming_rows(matrix, count, words, query, &distances)
                    for r in 0..<count {
                        let row = matrix[r * words..<(r + 1) * words]
                        let expected = zip(row, query).reduce(UInt32(0)) { $0 + UInt32(($1.0 ^ $1.1).nonzeroBitCount) }
                        #expect(distances[r] == expected, "\(levelName(level)) words=\(words) r=\(r)")
                    }
                }
            }
        }

        /// Selection keeps exactly the indices below the limit, in order.
        @Test func selectBelowKeepsIndicesUnderTheLimit() {
            var rng = SplitMix(seed: 14)
            let values = (0..<1000).map { _ in UInt32(truncatingIfNeeded: rng.next() % 400) }
            for limit: UInt32 in [0, 1, 150, 399, 400, .max] {
                var picked = [UInt32](repeating: 0, count: values.count)
                let count = hush_select_below_u32(values, values.count, limit, &picked)
                let expected = values.indices.filter { values[$0] < limit }.map { UInt32($0) }
                #expect(Array(picked.prefix(count)) == expected, "limit \(limit)")
            }
        }

        /// Scaled selection keeps the indices whose scaled dot product is above the limit, with those scores.
        @Test func selectScaledAboveKeepsScoresOverTheLimit() {
            var rng = SplitMix(seed: 15)
            let dots = (0..<500).map { _ in Int32(truncatingIfNeeded: rng.next() % 2001) - 1000 }
            let scales = rng.floats(dots.count, in: 0.001...0.01)
            for limit: Float in [-.infinity, -2, 0, 3.5, 20] {
                for useScales in [false, true] {
                    var picked = [UInt32](repeating: 0, count: dots.count)
                    var scores = [Float](repeating: 0, count: dots.count)
                    let count = scales.withUnsafeBufferPointer { s in
                        hush_select_scaled_above(
                            dots, useScales ? s.baseAddress : nil, dots.count, limit, &picked, &scores)
                    }
                    let all = dots.indices.map { useScales ? Float(dots[$0]) * scales[$0] : Float(dots[$0]) }
                    let expected = all.indices.filter { all[$0] > limit }
                    #expect(picked.prefix(count).map { Int($0) } == expected, "limit \(limit) scales \(useScales)")
                    #expect(Array(scores.prefix(count)) == expected.map { all[$0] })
                }
            }
        }

        /// Adding a bias is exact: one f32 addition per element.
        @Test func addBiasIsExact() {
            var rng = SplitMix(seed: 4)
            forEachSupportedLevel { level in
                for n in kernelSizes {
                    let x = rng.floats(rows * n, in: -4...4)
                    let bias = rng.floats(n, in: -1...1)
                    var got = x
                    hush_add_bias_f32(&got, rows, n, bias)
                    let expected = x.indices.map { x[$0] + bias[$0 % max(n, 1)] }
                    #expect(got == expected, "\(levelName(level)) n=\(n)")
                }
            }
        }

        /// GELU within 1e-6 absolute of the erff reference over [-8, 8] (where an f32 ulp is at most 4.8e-7).
        @Test func biasGeluMatchesReference() {
            var rng = SplitMix(seed: 5)
            forEachSupportedLevel { level in
                for n in kernelSizes {
                    let x = rng.floats(rows * n, in: -7...7)
                    let bias = rng.floats(n, in: -1...1)
                    var expected = x
                    hush_bias_gelu_f32_ref(&expected, rows, n, bias)
                    var got = x
                    hush_bias_gelu_f32(&got, rows, n, bias)
                    #expect(maxAbsDifference(got, expected) <= 1e-6, "\(levelName(level)) n=\(n)")
                }
            }
        }

        /// LayerNorm of `x + bias + residual` within 1e-5 absolute, on rows with a large common offset (50), which
        /// a naive f32 variance would get wrong; also with no bias and no residual.
        @Test func layerNormMatchesReference() {
            var rng = SplitMix(seed: 6)
            forEachSupportedLevel { level in
                for n in kernelSizes {
                    let x = rng.floats(rows * n, in: 47...53)
                    let residual = rng.floats(rows * n, in: -2...2)
                    let bias = rng.floats(n, in: -0.5...0.5)
                    let gamma = rng.floats(n, in: 0.5...1.5)
                    let beta = rng.floats(n, in: -0.2...0.2)
                    var expected = x
                    hush_bias_residual_layernorm_f32_ref(&expected, rows, n, bias, residual, gamma, beta, 1e-12)
                    var got = x
                    hush_bias_residual_layernorm_f32(&got, rows, n, bias, residual, gamma, beta, 1e-12)
                    #expect(maxAbsDifference(got, expected) <= 1e-5, "\(levelName(level)) n=\(n)")

                    var expectedPlain = x
                    hush_bias_residual_layernorm_f32_ref(&expectedPlain, rows, n, nil, nil, gamma, beta, 1e-5)
                    var gotPlain = x
                    hush_bias_residual_layernorm_f32(&gotPlain, rows, n, nil, nil, gamma, beta, 1e-5)
                    #expect(maxAbsDifference(gotPlain, expectedPlain) <= 1e-5, "\(levelName(level)) plain n=\(n)")
                }
            }
        }

        /// Softmax within 1e-6 absolute of the reference; each row sums to 1 and padding columns are exactly 0.
        @Test func softmaxMatchesReference() {
            var rng = SplitMix(seed: 7)
            forEachSupportedLevel { level in
                for n in kernelSizes {
                    for valid in uniqued([n, n - n / 3, min(n, 1)]) {
                        let x = rng.floats(rows * n, in: -30...30)
                        var expected = x
                        hush_scaled_softmax_rows_f32_ref(&expected, rows, n, valid, 0.125)
                        var got = x
                        hush_scaled_softmax_rows_f32(&got, rows, n, valid, 0.125)
                        let context = "\(levelName(level)) n=\(n) valid=\(valid)"
                        #expect(maxAbsDifference(got, expected) <= 1e-6, "\(context)")
                        for r in 0..<rows {
                            let row = got[r * n..<(r + 1) * n]
                            if valid > 0 {
                                let sum = row.prefix(valid).reduce(0, +)
                                #expect(abs(sum - 1) <= 1e-5, "\(context) r=\(r) sum=\(sum)")
                            }
                            #expect(row.dropFirst(valid).allSatisfy { $0 == 0 }, "\(context) r=\(r)")
                        }
                    }
                }
            }
        }
    }
}
