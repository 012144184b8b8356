/// How a store searches its vectors.
///
/// ```swift
/// let choice = IndexStrategy.choose(vectorCount: 1_200_000, dimension: 384)
/// print(choice.reason)
/// ```
public enum IndexStrategy: String, Sendable, Equatable, CaseIterable {
    /// Exact f32 scan of every row.
    case exact
    /// int8 codes scanned, top k × oversample rescored exactly.
    case int8
    /// Bit codes scanned by Hamming distance, top k × oversample rescored exactly.
    case binary
    /// HNSW graph over the f32 vectors.
    case hnsw

    /// Below this many vectors an exact scan is fast enough (a few ms) and always exact.
    public static let exactThreshold = 20_000

    /// From this many vectors an HNSW store walks its graph on int8 codes by default (see
    /// `StoreOptions.int8GuideThreshold`): below it the vectors mostly sit in cache and the f32 walk is as fast.
    public static let int8GuideThreshold = 200_000

    /// Estimated resident bytes per vector for `dimension`-long vectors (f32 rows included where the
    /// strategy keeps them in memory; int8 and binary rescore from the f32 rows, which may live on disk).
    ///
    /// ```swift
    /// let bytes = IndexStrategy.hnsw.bytesPerVector(dimension: 384)   // 1536 + graph
    /// ```
    public func bytesPerVector(dimension: Int, M: Int = 16) -> Int {
        switch self {
        case .exact: return dimension * 4
        case .int8: return dimension + 4
        case .binary: return (dimension + 63) / 64 * 8
        case .hnsw: return dimension * 4 + (2 * M + 1) * 4 + 6 + (M + 1) * 4 / max(1, M - 1)
        }
    }

    /// Chooses a strategy (pure function). The rule:
    /// 1. `forced` wins when given.
    /// 2. Fewer than `exactThreshold` (20 000) vectors: `exact`.
    /// 3. Otherwise `hnsw` when f32 vectors plus graph fit in `memoryBudget`;
    /// 4. else `int8` when int8 codes fit; 5. else `binary`.
    ///
    /// - Complexity: O(1).
    ///
    /// ```swift
    /// let choice = IndexStrategy.choose(vectorCount: 50_000, dimension: 384, memoryBudget: 1 << 30)
    /// // choice.strategy == .hnsw
    /// ```
    public static func choose(
        vectorCount: Int, dimension: Int, memoryBudget: Int = 2 << 30, forced: IndexStrategy? = nil
    ) -> IndexChoice {
        let count = "\(formatted(vectorCount)) vectors"
        func need(_ strategy: IndexStrategy) -> Int { strategy.bytesPerVector(dimension: dimension) * vectorCount }
        let budget = "the \(formattedBytes(memoryBudget)) memory budget"
        if let forced {
            return IndexChoice(
                strategy: forced,
                reason: "\(forced.rawValue): forced by configuration (\(count), ~\(formattedBytes(need(forced))))")
        }
        if vectorCount < exactThreshold {
            return IndexChoice(
                strategy: .exact,
                reason: "exact: \(count) are below the exact-scan threshold of \(formatted(exactThreshold))")
        }
        if need(.hnsw) <= memoryBudget {
            return IndexChoice(
                strategy: .hnsw,
                reason: "hnsw: \(count) exceed the exact-scan threshold of \(formatted(exactThreshold)); "
                    + "vectors and graph (~\(formattedBytes(need(.hnsw)))) fit \(budget)")
        }
        if need(.int8) <= memoryBudget {
            return IndexChoice(
                strategy: .int8,
                reason: "int8: vectors and graph (~\(formattedBytes(need(.hnsw)))) exceed \(budget); "
                    + "int8 codes (~\(formattedBytes(need(.int8)))) fit, rescored exactly")
        }
        return IndexChoice(
            strategy: .binary,
            reason: "binary: int8 codes (~\(formattedBytes(need(.int8)))) exceed \(budget); "
                + "bit codes take ~\(formattedBytes(need(.binary))), rescored exactly")
    }

    static func formatted(_ n: Int) -> String {
        if n >= 1_000_000 { return trimmed(Double(n) / 1e6) + "M" }
        if n >= 10_000 { return trimmed(Double(n) / 1e3) + "k" }
        return "\(n)"
    }

    static func formattedBytes(_ n: Int) -> String {
        if n >= 1 << 30 { return trimmed(Double(n) / Double(1 << 30)) + " GiB" }
        if n >= 1 << 20 { return trimmed(Double(n) / Double(1 << 20)) + " MiB" }
        if n >= 1 << 10 { return trimmed(Double(n) / Double(1 << 10)) + " KiB" }
        return "\(n) B"
    }

    private static func trimmed(_ value: Double) -> String {
        let tenths = (value * 10).rounded() / 10
        return tenths == tenths.rounded() ? "\(Int(tenths))" : "\(tenths)"
    }
}

/// A chosen strategy with the sentence `hush stats` prints.
///
/// ```swift
/// let choice = IndexStrategy.choose(vectorCount: 5_000, dimension: 384)
/// print(choice.strategy, choice.reason)
/// ```
public struct IndexChoice: Sendable, Equatable {
    /// The strategy.
    public var strategy: IndexStrategy
    /// Why, in one line ("hnsw: 1.2M vectors exceed the exact-scan threshold ...").
    public var reason: String
}
