import Foundation
import Testing

@testable import Hush

@Suite struct SearchTests {
    static func store() async throws -> HushStore {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert(Corpus.documents)
        return store
    }

    /// "失眠怎么办" (what to do about insomnia) finds the entry about sleep by keyword, and not the one that
    /// says "不知道该怎么道歉" (I don't know how to apologise) through their shared "怎么".
    @Test func aChineseQuestionMatchesWhatItAsksAbout() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert([
            Document(id: "sleep", body: "昨晚又失眠了，翻来覆去到凌晨三点才睡着。", language: "zh"),
            Document(id: "apology", body: "今天和妈妈吵架了，心里很难受，不知道该怎么道歉。", language: "zh"),
            Document(id: "hike", body: "朋友约我周末去爬山，很期待。", language: "zh"),
        ])
        let found = try await store.search("失眠怎么办", mode: .keyword, limit: 10).hits.map(\.id)
        #expect(found == ["sleep"])
        #expect(try await store.search("为什么总是失眠呢", mode: .keyword, limit: 10).hits.map(\.id) == ["sleep"])
        // Asked with question words only, they are the keywords.
        #expect(try await store.search("怎么", mode: .keyword, limit: 10).hits.map(\.id) == ["apology"])
    }

    @Test func semanticSearchFindsTheRightNoteWithItsChunk() async throws {
        let store = try await Self.store()
        let results = try await store.search("rye flour and water for the starter", mode: .semantic, limit: 3)
        let top = try #require(results.hits.first)
        #expect(top.id == "sourdough")
        #expect(top.title == "Sourdough starter notes")
        #expect(top.text.contains("rye flour"))
        #expect(top.sourceType == "note" && top.category == "home" && top.tags == ["baking", "bread"])
        #expect(top.language == "en")
        #expect(top.createdAt == date("2024-01-15"))
        #expect(!top.range.isEmpty)
        #expect(results.hits.count == 3)
        #expect(Set(results.hits.map(\.id)).count == 3)  // one hit per document
        #expect(zip(results.hits, results.hits.dropFirst()).allSatisfy { $0.score >= $1.score })
        #expect(results.timings.totalMs >= results.timings.searchMs)
    }

    /// Apps give languages as the device names them ("zh-Hans", "pt_BR", "en-US") while Hush guesses primary
    /// codes: a filter matches by tag, so "zh" finds every Chinese entry and "zh-Hans" the Simplified and the
    /// guessed ones, but not the Traditional.
    @Test func aLanguageFilterMatchesByTag() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert([
            Document(id: "hans", body: "最近总是失眠，凌晨三点还醒着", language: "zh-Hans"),
            Document(id: "cn", body: "今天跑了十公里，膝盖还好", language: "zh_CN"),
            Document(id: "hant", body: "最近總是失眠，凌晨三點還醒著", language: "zh-Hant"),
            Document(id: "guessed", body: "我明天早上要去医院看牙医"),
            Document(id: "br", body: "Hoje corri a minha primeira meia maratona", language: "pt-BR"),
            Document(id: "us", body: "Ran my first half marathon this morning", language: "en-US"),
            Document(id: "en", body: "Could not sleep again last night, lay awake until four"),
        ])
        func ids(_ languages: [String]) async throws -> Set<String> {
            let filter = SearchFilter(languages: languages)
            return Set(
                try await store.search("失眠 marathon sleep", mode: .semantic, filter: filter, limit: 10).hits.map(\.id))
        }
        #expect(try await ids(["zh"]) == ["hans", "cn", "hant", "guessed"])
        #expect(try await ids(["zh-Hans"]) == ["hans", "guessed"])
        #expect(try await ids(["ZH_cn"]) == ["cn", "guessed"])
        #expect(try await ids(["zh-Hant-TW"]) == ["hant", "guessed"])
        #expect(try await ids(["pt"]) == ["br"])
        #expect(try await ids(["en-GB"]) == ["en"])
        #expect(try await ids(["en-US", "pt-PT"]) == ["us", "en"])
        #expect(try await ids(["z"]).isEmpty, "a subtag matches whole, not as a prefix of letters")
        // Keyword search filters the same way.
        let keyword = try await store.search("marathon", mode: .keyword, filter: SearchFilter(languages: ["EN"]))
        #expect(keyword.hits.map(\.id) == ["us"])
    }

    @Test func semanticScoresAreExactCosines() async throws {
        let embedder = HashingEmbedder()
        let store = try await HushStore.inMemory(embedder: embedder)
        try await store.upsert(Corpus.documents)
        let results = try await store.search("plant tomatoes", mode: .semantic, limit: 10)
        let query = try embedder.embed("plant tomatoes", role: .query).vector
        for hit in results.hits {
            let vectors = try await store.vectors(forDocument: hit.id)
            let best = vectors.map { zip($0, query).reduce(Float(0)) { $0 + $1.0 * $1.1 } }.max() ?? -2
            #expect(abs(best - hit.score) < 1e-5)
        }
    }

    @Test func everyFilterIsAppliedBeforeRanking() async throws {
        let store = try await Self.store()
        func ids(_ filter: SearchFilter, _ query: String = "notes and plans") async throws -> Set<String> {
            Set(try await store.search(query, mode: .semantic, filter: filter, limit: 50).hits.map(\.id))
        }
        #expect(try await ids(SearchFilter(languages: ["fr"])) == ["recette"])
        #expect(try await ids(SearchFilter(languages: ["JA"])) == ["tokyo"])
        #expect(try await ids(SearchFilter(sourceTypes: ["meeting"])) == ["budget-review", "hiring-sync", "incident"])
        #expect(try await ids(SearchFilter(sourceTypes: ["post", "MEETING"])).count == 4)
        #expect(try await ids(SearchFilter(tagsAny: ["baking", "garden"])) == ["sourdough", "recette", "garden"])
        #expect(try await ids(SearchFilter(tagsAll: ["baking", "bread"])) == ["sourdough"])
        #expect(try await ids(SearchFilter(tagsAll: ["baking", "garden"])).isEmpty)
        #expect(try await ids(SearchFilter(categories: ["personal"])) == ["marathon", "vacation", "tokyo"])
        #expect(
            try await ids(SearchFilter(createdAfter: date("2024-04-01"), createdBefore: date("2024-05-10")))
                == ["garden", "incident"])
        #expect(try await ids(SearchFilter(metadata: ["team": "ops"])) == ["budget-review", "incident"])
        #expect(try await ids(SearchFilter(metadata: ["team": "ops", "severity": "high"])) == ["incident"])
        #expect(try await ids(SearchFilter(metadata: ["team": "OPS"])).isEmpty)  // values are exact
        #expect(try await ids(SearchFilter(tagsAny: ["no-such-tag"])).isEmpty)
        #expect(
            try await ids(SearchFilter(sourceTypes: ["note"], tagsAny: ["travel"], categories: ["personal"]))
                == ["vacation", "tokyo"])
        // Keyword mode honours the filter too.
        let keyword = try await store.search(
            "budget flights", mode: .keyword, filter: SearchFilter(tagsAny: ["travel"]))
        #expect(keyword.hits.map(\.id) == ["vacation"])
    }

    @Test func verySelectiveFilterStillReturnsKResults() async throws {
        // 600 distractors that match the query closely, and 7 targets that match it poorly but pass the filter.
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        let distractors = (0..<600).map {
            Document(id: "d\($0)", body: "Weekly grocery run \($0): bananas, milk, bread and coffee.", tags: ["misc"])
        }
        let targets = (0..<7).map {
            Document(id: "t\($0)", body: "Quarterly tax form \($0) filed with the accountant.", tags: ["rare"])
        }
        try await store.upsert(distractors + targets)
        for mode in [SearchMode.semantic, .hybrid, .keyword, .reciprocalRankFusion()] {
            let query = mode.kind == .keyword ? "tax grocery" : "grocery run bananas milk"
            let hits = try await store.search(query, mode: mode, filter: SearchFilter(tagsAny: ["rare"]), limit: 5).hits
            #expect(hits.count == 5, "mode \(mode.kind)")
            #expect(hits.allSatisfy { $0.id.hasPrefix("t") })
        }
        let all = try await store.search(
            "grocery", mode: .semantic, filter: SearchFilter(tagsAny: ["rare"]), limit: 50)
        #expect(all.hits.count == 7)
    }

    @Test func limitMinScoreAndErrors() async throws {
        let store = try await Self.store()
        #expect(try await store.search("bread", limit: 2).hits.count == 2)
        let all = try await store.search("bread", mode: .semantic, limit: 10)
        let threshold = try #require(all.hits.dropFirst(2).first?.score)
        let strict = try await store.search("bread", mode: .semantic, limit: 10, minScore: threshold)
        #expect(strict.hits.map(\.id) == all.hits.filter { $0.score >= threshold }.map(\.id))
        #expect(strict.hits.count >= 3 && strict.hits.count < all.hits.count)
        await #expect(throws: SearchError.invalidLimit(0)) { _ = try await store.search("x", limit: 0) }
        await #expect(throws: SearchError.self) { _ = try await store.search("x", mode: .hybrid(alpha: 1.5)) }
        await #expect(throws: SearchError.self) { _ = try await store.search("x", mode: .reciprocalRankFusion(k: 0)) }
        #expect(try await store.search("", limit: 5).hits.isEmpty)
        #expect(try await store.search("   \n", mode: .semantic).hits.isEmpty)
    }

    @Test func queryEmbeddingsAreCached() async throws {
        let embedder = InstrumentedEmbedder()
        let store = try await HushStore.inMemory(embedder: embedder)
        try await store.upsert(Corpus.documents)
        let before = embedder.embedded
        let first = try await store.search("offline search on the phone", mode: .semantic)
        let second = try await store.search("offline search on the phone", mode: .semantic)
        #expect(embedder.embedded == before + 1)
        // A cached query embeds nothing, and its timing says so exactly (it read 0.003 ms before).
        #expect(first.timings.embedMs > 0)
        #expect(second.timings.embedMs == 0)
        #expect(first.hits.map(\.id) == second.hits.map(\.id))
    }

    @Test func lruCacheEvictsTheLeastRecentlyUsed() async throws {
        let cache = QueryEmbeddingCache(capacity: 2)
        cache.insert([1], for: "a")
        cache.insert([2], for: "b")
        #expect(cache.value(for: "a") == [1])  // a is now the most recent
        cache.insert([3], for: "c")  // evicts b
        #expect(cache.value(for: "b") == nil)
        #expect(cache.value(for: "a") == [1] && cache.value(for: "c") == [3])
        #expect(cache.count == 2)
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for index in 0..<500 {
                        let key = "k\((index * 7 + worker) % 9)"
                        if cache.value(for: key) == nil { cache.insert([Float(index)], for: key) }
                    }
                }
            }
        }
        #expect(cache.count == 2)
    }

    @Test func topKKeepsTheBestInOrder() {
        var heap = TopK(capacity: 3)
        for (id, score) in [Float(0.1), 0.9, 0.5, 0.7, 0.9, -1, 0.3].enumerated() { heap.offer(id: id, score: score) }
        heap.offer(id: 99, score: .nan)
        #expect(heap.sorted().map(\.id) == [1, 4, 3])
        #expect(TopK(capacity: 0).sorted().isEmpty)
        // The same heap as a queue hands out the best first, ties by the smaller id.
        var queue = CandidateQueue()
        for (id, score) in [Float(0.5), 0.9, 0.1, 0.9].enumerated() { queue.offer(id: id, score: score) }
        var order: [Int] = []
        while let next = queue.pop() { order.append(next.id) }
        #expect(order == [1, 3, 0, 2])
    }

    @Test func vectorMatrixRowsAreStableAndHolesReused() {
        var matrix = VectorMatrix(dimension: 2)
        var allocator = matrix.allocator
        let rows = (0..<3).map { _ in allocator.allocate() }
        matrix.commit(allocator)
        matrix.set(chunkID: 10, slot: 0, row: rows[0], vector: [1, 2])
        matrix.set(chunkID: 11, slot: 1, row: rows[1], vector: [3, 4])
        matrix.set(chunkID: 12, slot: 2, row: rows[2], vector: [5, 6])
        #expect(matrix.remove(chunkID: 10) == 0)
        // The hole stays: other chunks keep their rows (the HNSW graph names nodes by row).
        #expect(matrix.rows == 3 && matrix.liveRows == 2 && matrix.hasHoles)
        #expect(matrix.rowByChunk[12] == 2 && matrix.vector(chunkID: 12) == [5, 6])
        #expect(matrix.vector(chunkID: 10) == nil && matrix.rowSlot[0] == -1 && matrix.vector(row: 0) == [0, 0])
        #expect(matrix.rows(ofSlot: 0).isEmpty && matrix.rows(ofSlot: 2) == [2])
        // A hole is reused only once released.
        allocator = matrix.allocator
        #expect(allocator.allocate() == 3)
        matrix.release([0])
        allocator = matrix.allocator
        #expect(allocator.allocate() == 0)
        matrix.commit(allocator)
        matrix.set(chunkID: 13, slot: 0, row: 0, vector: [7, 8])
        #expect(matrix.vector(chunkID: 13) == [7, 8] && !matrix.hasHoles && matrix.rows(ofSlot: 0) == [0])
    }

    @Test func warmUpAndStatsOnAnEmptyStore() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.warmUp()
        #expect(try await store.search("anything").hits.isEmpty)
        let stats = try await store.stats()
        #expect(stats.documents == 0 && stats.vectorBytes == 0 && stats.fileSizeBytes == 0)
    }

    @Test func everyLimitUpToIntMaxIsClampedNotTrapped() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert(Corpus.documents)
        let count = Corpus.documents.count
        for mode in [SearchMode.semantic, .keyword, .hybrid, .reciprocalRankFusion()] {
            for limit in [Int.max, Int(Int32.max), count + 1] {
                let hits = try await store.search("budget travel bread", mode: mode, limit: limit).hits
                #expect(hits.count <= count)
            }
        }
        let wide = SearchMode.hybrid(alpha: 0.5, candidates: Int.max)
        #expect(try await store.search("bread", mode: wide, limit: Int.max).hits.isEmpty == false)
        #expect(try await store.search("bread", limit: Int.max, diversify: 0.7).hits.count <= count)
        #expect(try await store.related(to: "sourdough", limit: Int.max).count == count - 1)
        #expect(try await store.rank(liked: ["sourdough"], limit: Int.max).count <= count)
        _ = try await store.summarize(query: "budget", k: Int.max, sentences: Int.max)
        let results = try await store.search("bread", limit: 3)
        #expect(try await store.diversify(results, limit: Int.max).hits.count == results.hits.count)
    }
}
