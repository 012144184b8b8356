import Foundation

/// Standard retrieval metrics with binary relevance, averaged over queries: nDCG@10, MRR@10, Recall@10
/// and Recall@100 (the definitions of BEIR and TREC tools).
///
/// ```swift
/// var metrics = RetrievalMetrics()
/// metrics.add(ranked: ["d3", "d1", "d9"], relevant: ["d1"])
/// print(metrics.ndcg10)  // 0.6309…
/// ```
public struct RetrievalMetrics: Sendable, Hashable {
    private var sums = (ndcg10: 0.0, mrr10: 0.0, recall10: 0.0, recall100: 0.0)
    /// Queries added.
    public private(set) var count = 0

    /// Creates empty metrics.
    public init() {}

    /// Adds one query: its ranked result ids (best first) and the ids that are relevant.
    /// A query with no relevant ids counts as zero on every metric.
    public mutating func add(ranked: [String], relevant: Set<String>) {
        count += 1
        guard !relevant.isEmpty else { return }
        var dcg = 0.0
        var reciprocalRank = 0.0
        var found10 = 0
        var found100 = 0
        for (index, id) in ranked.prefix(100).enumerated() where relevant.contains(id) {
            found100 += 1
            if index < 10 {
                found10 += 1
                dcg += 1 / log2(Double(index) + 2)
                if reciprocalRank == 0 { reciprocalRank = 1 / Double(index + 1) }
            }
        }
        let ideal = (0..<min(relevant.count, 10)).reduce(0.0) { $0 + 1 / log2(Double($1) + 2) }
        sums.ndcg10 += dcg / ideal
        sums.mrr10 += reciprocalRank
        sums.recall10 += Double(found10) / Double(relevant.count)
        sums.recall100 += Double(found100) / Double(relevant.count)
    }

    /// Mean nDCG@10.
    public var ndcg10: Double { mean(sums.ndcg10) }
    /// Mean reciprocal rank of the first relevant result within the top 10.
    public var mrr10: Double { mean(sums.mrr10) }
    /// Mean fraction of the relevant ids found in the top 10.
    public var recall10: Double { mean(sums.recall10) }
    /// Mean fraction of the relevant ids found in the top 100.
    public var recall100: Double { mean(sums.recall100) }

    private func mean(_ sum: Double) -> Double { count > 0 ? sum / Double(count) : 0 }

    public static func == (a: RetrievalMetrics, b: RetrievalMetrics) -> Bool {
        a.count == b.count && a.sums == b.sums
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        hasher.combine(sums.ndcg10)
        hasher.combine(sums.mrr10)
    }
}
