import Foundation

extension Ranker {
    /// See the public method of the same name on ``HushStore``.
    func rank(
        liked: [String], disliked: [String] = [], candidates: [String]? = nil, options: InterestOptions = .init(),
        limit: Int? = nil
    ) throws -> InterestRanking {
        guard (0...1).contains(options.alpha) else {
            throw RankingError.invalidOption("alpha must lie in 0…1 (got \(options.alpha))")
        }
        guard options.halfLife > 0, options.halfLife.isFinite else {
            throw RankingError.invalidOption(
                "the half-life must be a positive number of seconds (got \(options.halfLife))")
        }
        guard options.dislikedWeight >= 0, options.dislikedWeight.isFinite else {
            throw RankingError.invalidOption("dislikedWeight must be ≥ 0 (got \(options.dislikedWeight))")
        }
        if let limit, limit < 1 { throw RankingError.invalidOption("limit must be at least 1 (got \(limit))") }
        let now = (options.now ?? Date()).timeIntervalSince1970
        let current = embedder.identity
        if let blocker = try readyForSemantic() {
            throw blocker
        }
        let perLanguage = options.perLanguage ?? (embedder.languageScope != .multilingual)

        typealias Entry = (slot: Int, score: Float?, similarity: Float?, recency: Float?)
        var unknown: [String] = []
        let entries: [Entry] = try memory.read { state in
            try state.requireSemantic(current: current)
            let known = state.slots(ofExternalIDs: liked + disliked + (candidates ?? []))
            var unknownSeen = Set<String>()
            func resolve(_ ids: [String]) throws -> [Int] {
                var seen = Set<Int>()
                var result: [Int] = []
                for id in ids {
                    guard let slot = known[id] else {
                        guard options.ignoreUnknownIDs else { throw RankingError.unknownDocument(id: id) }
                        if unknownSeen.insert(id).inserted { unknown.append(id) }
                        continue
                    }
                    if seen.insert(slot).inserted { result.append(slot) }
                }
                return result
            }
            let likedSlots = try resolve(liked)
            let dislikedSlots = try resolve(disliked)
            let rated = Set(likedSlots + dislikedSlots)

            // Candidates in their original order.
            var pool: [Int]
            if let candidates {
                pool = try resolve(candidates)
            } else {
                pool = state.newestFirst()
            }
            if !options.includeRated { pool.removeAll(where: rated.contains) }

            let vectors = try DocumentVectors(
                state: state, slots: pool + likedSlots + dislikedSlots, centres: try memory.documentCentres(of: state))
            func language(_ slot: Int) -> String {
                guard perLanguage else { return "" }
                return state.record(slot)?.language.lowercased() ?? ""
            }

            // Interest centroid per language (or one, keyed "", across languages).
            var likedByLanguage: [String: [[Float]]] = [:]
            var dislikedByLanguage: [String: [[Float]]] = [:]
            for slot in likedSlots {
                if let v = vectors.vector(slot) { likedByLanguage[language(slot), default: []].append(v) }
            }
            for slot in dislikedSlots {
                if let v = vectors.vector(slot) { dislikedByLanguage[language(slot), default: []].append(v) }
            }
            var centroids: [String: [Float]] = [:]
            for (code, likes) in likedByLanguage {
                guard var centroid = VectorMath.normalizedMean(likes) else { continue }
                if let dislikes = dislikedByLanguage[code], let negative = Self.mean(dislikes) {
                    // The liked mean (unnormalised) minus the weighted disliked mean.
                    let positive = Self.mean(likes) ?? centroid
                    centroid = zip(positive, negative).map { $0 - options.dislikedWeight * $1 }
                }
                if let unit = VectorMath.normalized(centroid) { centroids[code] = unit }
            }

            // Score what can be scored; keep the rest in order.
            var ranked: [(entry: Entry, createdAt: Double, position: Int)] = []
            var unranked: [Entry] = []
            let ln2 = log(2.0)
            for (position, slot) in pool.enumerated() {
                guard let centroid = centroids[language(slot)], let similarity = vectors.dot(slot, centroid),
                    let record = state.record(slot)
                else {
                    unranked.append((slot, nil, nil, nil))
                    continue
                }
                let age = max(0, now - record.createdAt)
                let recency = Float(exp(-ln2 * age / options.halfLife))
                let score = options.alpha * similarity + (1 - options.alpha) * recency
                ranked.append(((slot, score, similarity, recency), record.createdAt, position))
            }
            ranked.sort { lhs, rhs in
                let l = lhs.entry.score ?? 0
                let r = rhs.entry.score ?? 0
                if l != r { return l > r }
                if lhs.createdAt != rhs.createdAt { return lhs.createdAt > rhs.createdAt }
                return lhs.position < rhs.position
            }
            let all = ranked.map(\.entry) + unranked
            return limit.map { Array(all.prefix($0)) } ?? all
        }
        return InterestRanking(documents: try describe(entries), unknownIDs: unknown)
    }

    /// The component-wise mean of equal-length vectors (not normalised).
    static func mean(_ vectors: [[Float]]) -> [Float]? {
        guard let first = vectors.first else { return nil }
        var sum = [Float](repeating: 0, count: first.count)
        for vector in vectors where vector.count == sum.count {
            for index in sum.indices { sum[index] += vector[index] }
        }
        let scale = 1 / Float(vectors.count)
        return sum.map { $0 * scale }
    }
}
