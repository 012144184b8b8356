/// SplitMix64: the tests' one seeded generator, so every run sees the same "random" data (corpora, kill points,
/// vectors, garbage input).
///
/// ```swift
/// var random = SeededGenerator(seed: 7)
/// let delay = Double.random(in: 0.02...0.5, using: &random)
/// ```
public struct SeededGenerator: RandomNumberGenerator {
    /// The generator's state (advanced by every draw).
    public var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `count` floats drawn uniformly from `range`.
    public mutating func floats(_ count: Int, in range: ClosedRange<Float>) -> [Float] {
        (0..<count).map { _ in Float.random(in: range, using: &self) }
    }

    /// `count` bytes drawn uniformly from every Int8 value.
    public mutating func int8s(_ count: Int) -> [Int8] {
        (0..<count).map { _ in Int8.random(in: .min ... .max, using: &self) }
    }

    /// `count` raw 64-bit draws.
    public mutating func words(_ count: Int) -> [UInt64] { (0..<count).map { _ in next() } }
}
