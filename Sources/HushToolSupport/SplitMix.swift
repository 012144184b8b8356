import Foundation

/// SplitMix64: the package's one seeded generator, so that every run of a benchmark or a test sees the same
/// "random" data (vectors, corpora, kill points, garbage input). Uniform and Gaussian draws of its own, and
/// every standard library draw through `RandomNumberGenerator`.
///
/// ```swift
/// var random = SplitMix(seed: 7)
/// let delay = Double.random(in: 0.02...0.5, using: &random)
/// let noise = random.gaussian()
/// ```
package struct SplitMix: RandomNumberGenerator {
    /// The generator's state (advanced by every draw).
    package var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    package init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform draw in (0, 1): 53 random bits, never 0 or 1.
    package mutating func uniform() -> Double { (Double(next() >> 11) + 0.5) / 9_007_199_254_740_992.0 }

    /// A standard normal draw (Box-Muller, from two uniform draws).
    package mutating func gaussian() -> Float {
        Float((-2 * log(uniform())).squareRoot() * cos(2 * Double.pi * uniform()))
    }

    /// `count` floats drawn uniformly from `range`.
    package mutating func floats(_ count: Int, in range: ClosedRange<Float>) -> [Float] {
        (0..<count).map { _ in Float.random(in: range, using: &self) }
    }

    /// `count` bytes drawn uniformly from every Int8 value.
    package mutating func int8s(_ count: Int) -> [Int8] {
        (0..<count).map { _ in Int8.random(in: .min ... .max, using: &self) }
    }

    /// `count` raw 64-bit draws.
    package mutating func words(_ count: Int) -> [UInt64] { (0..<count).map { _ in next() } }
}
