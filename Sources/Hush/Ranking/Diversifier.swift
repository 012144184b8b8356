/// Re-orders a ranked list so that near-duplicates do not crowd the top: maximal marginal relevance (MMR).
///
/// Each step picks the item with the best `lambda × relevance − (1 − lambda) × (highest similarity to an
/// item already picked)`. `lambda = 1` keeps the original order; lower values trade relevance for variety.
/// Relevance scores that all lie in −1…1 (cosines, fused scores) are used as they are; larger scales (bm25,
/// boosted scores) are divided by the largest magnitude first, so the two terms stay comparable.
///
/// ```swift
/// let order = Diversifier.mmr(relevance: [0.9, 0.89, 0.7], vectors: [a, aCopy, b], lambda: 0.7)
/// // [0, 2, 1]: the near-copy of `a` drops below `b`
/// ```
public enum Diversifier {
    /// The indices of the items in MMR order, `limit` of them (all when `nil`).
    ///
    /// `vectors[i]` is item `i`'s unit vector (an empty array for an item without one: similarity 0).
    ///
    /// ```swift
    /// let top = Diversifier.mmr(relevance: hits.map(\.score), vectors: unitVectors, lambda: 0.5, limit: 5)
    /// ```
    ///
    /// - Complexity: O(limit × n × dimension).
    public static func mmr(relevance: [Float], vectors: [[Float]], lambda: Float = 0.7, limit: Int? = nil) -> [Int] {
        let count = min(relevance.count, vectors.count)
        let wanted = min(count, max(0, limit ?? count))
        guard wanted > 0 else { return [] }
        let largest = relevance.prefix(count).map { abs($0) }.filter(\.isFinite).max() ?? 0
        let scale: Float = largest > 1 ? 1 / largest : 1
        let scaled = relevance.prefix(count).map { $0.isFinite ? $0 * scale : -1 }
        var maxSimilarity = [Float](repeating: -.infinity, count: count)
        var picked = [Bool](repeating: false, count: count)
        var order: [Int] = []
        order.reserveCapacity(wanted)
        while order.count < wanted {
            var best = -1
            var bestValue = -Float.infinity
            for index in 0..<count where !picked[index] {
                let redundancy = order.isEmpty ? 0 : max(0, maxSimilarity[index])
                let value = lambda * scaled[index] - (1 - lambda) * redundancy
                if best < 0 || value > bestValue {
                    best = index
                    bestValue = value
                }
            }
            picked[best] = true
            order.append(best)
            for index in 0..<count where !picked[index] {
                let similarity = VectorMath.dot(vectors[best], vectors[index])
                if similarity > maxSimilarity[index] { maxSimilarity[index] = similarity }
            }
        }
        return order
    }
}
