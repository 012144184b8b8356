import HushKernels
import HushToolSupport
import Testing

extension HushKernelsTests {
    /// Known values and extreme inputs, at every supported level.
    @Suite struct EdgeCases {
        /// GELU at points whose exact values are known: gelu(v) = v * Phi(v).
        @Test func geluKnownValues() {
            let inputs: [Float] = [-3, -1, -0.5, 0, 0.5, 1, 2, 3]
            // v * Phi(v) in double precision.
            let exact: [Float] = [
                -0.0040496961, -0.15865525393, -0.15426876936, 0, 0.34573123063, 0.84134474606, 1.95449972471,
                2.99595030389,
            ]
            forEachSupportedLevel { level in
                var x = inputs
                hush_bias_gelu_f32(&x, 1, x.count, [Float](repeating: 0, count: x.count))
                #expect(maxAbsDifference(x, exact) <= 1e-6, "\(levelName(level)): \(x)")
            }
        }

        /// No bias (NULL) is a bias of +0 at every level, tails included: the 4-bit encoder passes none.
        @Test func geluWithoutBiasAddsZero() {
            var rng = SplitMix(seed: 11)
            forEachSupportedLevel { level in
                for n in [1, 7, 8, 15, 16, 33, 1536] {
                    var x = rng.floats(3 * n, in: -6...6)
                    x[0] = -0.0
                    var expected = x
                    hush_bias_gelu_f32(&expected, 3, n, [Float](repeating: 0, count: n))
                    hush_bias_gelu_f32(&x, 3, n, nil)
                    #expect(x.map(\.bitPattern) == expected.map(\.bitPattern), "\(levelName(level)) n=\(n)")
                }
            }
        }

        /// GELU saturates: the identity far right, zero far left, for +-10 and beyond, without NaN.
        @Test func geluAtExtremes() {
            let inputs: [Float] = [10, -10, 20, -20, 100, -100, 1e6, -1e6, 5.5, -5.5, 9.99, -9.99]
            let zeros = [Float](repeating: 0, count: inputs.count)
            forEachSupportedLevel { level in
                var x = inputs
                hush_bias_gelu_f32(&x, 1, x.count, zeros)
                var expected = inputs
                hush_bias_gelu_f32_ref(&expected, 1, inputs.count, zeros)
                #expect(maxAbsDifference(x, expected) <= 1e-6, "\(levelName(level)): \(x)")
                #expect(x[0] == 10 && x[2] == 20 && x[4] == 100 && x[6] == 1e6, "\(levelName(level)): \(x)")
                for i in [1, 3, 5, 7] { #expect(abs(x[i]) <= 1e-6, "\(levelName(level)) gelu(\(inputs[i])) = \(x[i])") }
            }
        }

        /// Softmax of [1, 2, 3] (known values), with the bias added as the first column to show scale applies.
        @Test func softmaxKnownValues() {
            forEachSupportedLevel { level in
                var x: [Float] = [2, 4, 6, 99]
                hush_scaled_softmax_rows_f32(&x, 1, 4, 3, 0.5)
                let exact: [Float] = [0.09003057317, 0.24472847105, 0.66524095578, 0]
                #expect(maxAbsDifference(x, exact) <= 1e-6, "\(levelName(level)): \(x)")
                #expect(x[3] == 0)
            }
        }

        /// Huge logits must not overflow: only the differences from the row maximum matter.
        @Test func softmaxWithLargeValues() {
            var rng = SplitMix(seed: 11)
            forEachSupportedLevel { level in
                for n in [17, 384] {
                    // Values around 1e4 with spreads of tens: exp(value) alone would overflow f32.
                    let x = rng.floats(3 * n, in: -40...40).map { $0 + 10_000 }
                    var got = x
                    hush_scaled_softmax_rows_f32(&got, 3, n, n, 1)
                    var expected = x
                    hush_scaled_softmax_rows_f32_ref(&expected, 3, n, n, 1)
                    #expect(got.allSatisfy { $0.isFinite && $0 >= 0 }, "\(levelName(level))")
                    #expect(maxAbsDifference(got, expected) <= 1e-6, "\(levelName(level)) n=\(n)")
                    for r in 0..<3 {
                        #expect(abs(got[r * n..<(r + 1) * n].reduce(0, +) - 1) <= 1e-5, "\(levelName(level))")
                    }
                }
                // One logit far above the rest takes all the weight; the others underflow to exactly 0.
                var spike: [Float] = [0, 0, 1000, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5]
                hush_scaled_softmax_rows_f32(&spike, 1, spike.count, spike.count - 1, 1)
                #expect(spike[2] == 1, "\(levelName(level)): \(spike)")
                #expect(spike.enumerated().allSatisfy { $0.offset == 2 || $0.element == 0 }, "\(levelName(level))")
            }
        }

        /// A row with no valid columns becomes all zeros.
        @Test func softmaxWithNothingValid() {
            forEachSupportedLevel { level in
                var x: [Float] = [1, 2, 3, 4, 5, 6, 7, 8, 9]
                hush_scaled_softmax_rows_f32(&x, 1, x.count, 0, 1)
                #expect(x.allSatisfy { $0 == 0 }, "\(levelName(level)): \(x)")
            }
        }

        /// LayerNorm of [1, 2, 3, 4]: mean 2.5, biased variance 1.25.
        @Test func layerNormKnownValues() {
            forEachSupportedLevel { level in
                var x: [Float] = [1, 2, 3, 4]
                hush_bias_residual_layernorm_f32(&x, 1, 4, nil, nil, [1, 1, 1, 1], [0, 0, 0, 0], 0)
                let exact: [Float] = [-1.34164079, -0.44721360, 0.44721360, 1.34164079]
                #expect(maxAbsDifference(x, exact) <= 1e-6, "\(levelName(level)): \(x)")
            }
        }

        /// A constant row has zero variance: every output is exactly beta (no NaN from 0 / 0).
        @Test func layerNormOfConstantRow() {
            forEachSupportedLevel { level in
                for n in [1, 7, 17, 384] {
                    var x = [Float](repeating: 123.25, count: 2 * n)
                    let gamma = (0..<n).map { 1 + Float($0) / 100 }
                    let beta = (0..<n).map { Float($0) / 10 - 1 }
                    hush_bias_residual_layernorm_f32(&x, 2, n, nil, nil, gamma, beta, 1e-12)
                    #expect(x == beta + beta, "\(levelName(level)) n=\(n)")
                }
            }
        }
    }
}

extension HushKernelsTests {
    /// The one L2 normalisation: unit length, the norm returned, a zero vector left zero, NaN reported.
    @Suite struct Normalisation {
        @Test func scalesToUnitLengthAndReturnsTheNorm() {
            let x: [Float] = [3, 0, -4]
            var unit = [Float](repeating: 0, count: 3)
            #expect(hush_normalize_f32(x, &unit, x.count) == 5)
            #expect(abs(unit[0] - 0.6) < 1e-7 && unit[1] == 0 && abs(unit[2] + 0.8) < 1e-7)
            var rng = SplitMix(seed: 3)
            for n in [1, 7, 384, 1000] {
                let v = rng.floats(n, in: -2...2)
                var out = [Float](repeating: 0, count: n)
                _ = hush_normalize_f32(v, &out, n)
                let length = out.reduce(0.0) { $0 + Double($1) * Double($1) }
                #expect(abs(length - 1) < 1e-6, "n = \(n)")
            }
        }

        @Test func zeroAndNonFiniteVectorsAreReported() {
            var zero = [Float](repeating: 1, count: 8)
            #expect(hush_normalize_f32([Float](repeating: 0, count: 8), &zero, 8) == 0)
            #expect(zero.allSatisfy { $0 == 0 })
            var out = [Float](repeating: 0, count: 3)
            #expect(!hush_normalize_f32([1, .nan, 2], &out, 3).isFinite)
        }
    }
}
