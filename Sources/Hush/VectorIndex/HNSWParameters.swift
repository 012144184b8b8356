import Foundation

/// Parameters of an HNSW graph, named as in Malkov & Yashunin (2016/2018).
///
/// ```swift
/// var parameters = HNSWParameters(M: 16, efConstruction: 200)
/// parameters.efSearch = 64
/// ```
public struct HNSWParameters: Sendable, Hashable {
    /// Maximum neighbours per node on layers above 0.
    public var M: Int
    /// Maximum neighbours per node on layer 0 (the paper's Mmax0; 2 × M by default).
    public var M0: Int
    /// Size of the dynamic candidate list while inserting.
    public var efConstruction: Int
    /// Size of the dynamic candidate list while searching (raised to k when smaller).
    public var efSearch: Int
    /// Seed of the level generator: the same seed and rows give the same levels, hence the same graph.
    public var seed: UInt64
    /// Algorithm 4's keepPrunedConnections: fill neighbour lists up to the limit with pruned candidates.
    public var keepPrunedConnections: Bool
    /// Filtered searches whose allowed fraction of live rows is below this use an exact scan of the
    /// allowed rows instead of the graph.
    public var exactFilterFraction: Double

    /// The level normalisation factor mL = 1 / ln(M).
    public var mL: Double { 1 / log(Double(max(2, M))) }

    /// Parameters with the paper's M0 = 2M. `efConstruction` defaults to 100 (Qdrant's default; pgvector's is
    /// 64): on 100,000 clustered 384-d vectors it builds in half the time of 200 with recall@10 at `efSearch`
    /// 64 of 0.9997 against 0.9998 (`hush-bench ann`, docs/benchmarks.md, "Opening at launch").
    ///
    /// ```swift
    /// let parameters = HNSWParameters(M: 16, efConstruction: 200, efSearch: 64)
    /// ```
    public init(
        M: Int = 16, M0: Int? = nil, efConstruction: Int = 100, efSearch: Int = 64, seed: UInt64 = 0x48_55_53_48,
        keepPrunedConnections: Bool = false, exactFilterFraction: Double = 0.02
    ) {
        self.M = M
        self.M0 = M0 ?? 2 * M
        self.efConstruction = efConstruction
        self.efSearch = efSearch
        self.seed = seed
        self.keepPrunedConnections = keepPrunedConnections
        self.exactFilterFraction = exactFilterFraction
    }

    func validate() throws {
        guard M >= 2, M <= 255 else { throw ANNError.invalidParameter(name: "M", value: "\(M)", allowed: "2...255") }
        guard M0 >= M, M0 <= 1024 else {
            throw ANNError.invalidParameter(name: "M0", value: "\(M0)", allowed: "M...1024")
        }
        guard efConstruction >= 1 else {
            throw ANNError.invalidParameter(name: "efConstruction", value: "\(efConstruction)", allowed: ">= 1")
        }
        guard efSearch >= 1 else {
            throw ANNError.invalidParameter(name: "efSearch", value: "\(efSearch)", allowed: ">= 1")
        }
    }

    /// The level of `row`: floor(-ln(u) × mL) with u uniform in (0, 1] drawn from a hash of seed and row,
    /// so levels do not depend on insertion order.
    func level(of row: Int) -> Int {
        var z = seed &+ UInt64(truncatingIfNeeded: row) &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        let u = (Double(z >> 11) + 1) / 9_007_199_254_740_992.0
        return min(32, Int((-log(u) * mL).rounded(.down)))
    }
}
