import Foundation
import GRDB
import HushTestSupport
import Testing

@testable import Hush

/// Related items, interest ranking, MMR, pruning and compaction on real text with the lexical embedder
/// (structure, not meaning: the model-backed checks are in RankingSemanticTests).
@Suite struct RankingTests {
    func feedStore() async throws -> HushStore {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert(FeedCorpus.posts)
        return store
    }

    @Test func relatedNeverReturnsTheDocumentItselfAndIsSortedByCosine() async throws {
        let store = try await feedStore()
        for post in FeedCorpus.posts {
            let related = try await store.related(to: post.id, limit: 20)
            #expect(!related.contains { $0.id == post.id })
            #expect(related.count == FeedCorpus.posts.count - 1)
            let scores = related.compactMap(\.score)
            #expect(scores == scores.sorted(by: >))
            #expect(related.allSatisfy { $0.similarity == $0.score && $0.recency == nil })
        }
    }

    @Test func relatedHonoursLimitThresholdLanguageAndFilter() async throws {
        let store = try await feedStore()
        #expect(try await store.related(to: "run-1", limit: 3).count == 3)
        let strict = try await store.related(to: "run-1", limit: 20, minCosine: 0.2)
        #expect(strict.allSatisfy { ($0.score ?? 0) >= 0.2 })
        #expect(strict.count < FeedCorpus.posts.count - 1)
        let french = try await store.related(to: "fr-run", limit: 20, sameLanguage: true)
        #expect(french.map(\.id) == ["fr-bake"])
        let filtered = try await store.related(
            to: "run-1", limit: 20, filter: SearchFilter(languages: ["de"]))
        #expect(Set(filtered.map(\.id)) == ["de-garden", "de-run"])
    }

    @Test func relatedToAnUnknownIDIsATypedError() async throws {
        let store = try await feedStore()
        await #expect(throws: RankingError.unknownDocument(id: "nope")) {
            _ = try await store.related(to: "nope")
        }
        await #expect(throws: RankingError.self) { _ = try await store.related(to: "run-1", limit: 0) }
    }

    @Test func relatedComparesDocumentsCentredOnTheirLanguage() async throws {
        // With one chunk per document, a document's vector is its chunk vector less its language's centre: the
        // store's centre (the mean chunk vector g, shrunk by n / (n + 16) for n documents) plus m / (m + 16) of
        // the difference between its language's mean chunk and g, for the m documents of that language (10
        // English, 2 French, 2 German posts here), worked out from the stored vectors (`WorkedCentres`).
        let store = try await feedStore()
        let posts = FeedCorpus.posts
        let worked = try await WorkedCentres(posts, in: store)
        func centred(_ id: String) -> [Float] {
            let language = posts.first { $0.id == id }?.language ?? ""
            let vector = zip(worked.vectors[id] ?? [], worked.language[language] ?? []).map { $0 - $1 }
            let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
            return vector.map { $0 / norm }
        }
        for sourceID in ["bake-1", "fr-run", "de-garden"] {
            let source = centred(sourceID)
            let expected = posts.map(\.id).filter { $0 != sourceID }.map { id in
                (id, zip(source, centred(id)).reduce(Float(0)) { $0 + $1.0 * $1.1 })
            }.sorted { $0.1 > $1.1 }
            let related = try await store.related(to: sourceID, limit: 5)
            #expect(related.map(\.id) == expected.prefix(5).map(\.0), "related to \(sourceID)")
            for (found, want) in zip(related, expected) { #expect(abs((found.score ?? 0) - want.1) < 1e-4) }
        }
        // The centre matters: the raw cosines (the best chunk pair, for one-chunk documents) are higher.
        let raw = try store.ranker.relatedDocuments(
            to: "bake-1", limit: 5, minCosine: nil, sameLanguage: false, filter: .init(), similarity: .bestChunkPair)
        let related = try await store.related(to: "bake-1", limit: 5)
        #expect((raw.first?.score ?? 0) > (related.first?.score ?? 0))
    }

    @Test func languageCentresGroupCodesByPrimarySubtagAndLeaveUndeterminedToTheStore() async throws {
        // "zh-Hans", "zh_CN" and "ZH" are one language; "und" documents are centred on the store's centre; a
        // store of one language is centred on the store's centre alone.
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        let texts = [
            ("a", "zh-Hans", "Morning run by the river"), ("b", "zh_CN", "Sourdough with a crackly crust"),
            ("c", "ZH", "Tomatoes and basil in the garden"), ("d", "en", "A spreadsheet of every subscription"),
            ("e", "und", "ok"), ("f", "en", "Could not fall asleep until three"),
        ]
        try await store.upsert(texts.map { Document(id: $0.0, body: $0.2, language: $0.1) })
        let (centres, slots) = try store.memory.read { state in
            (try state.documentCentres(), state.slots(ofExternalIDs: texts.map(\.0)))
        }
        let found = try #require(centres)
        #expect(found.languages.count == 2)
        func centre(_ id: String) -> [Float] { found.centre(ofSlot: slots[id] ?? -1) }
        #expect(centre("a") == centre("b") && centre("b") == centre("c"))
        #expect(centre("d") == centre("f") && centre("d") != centre("a"))
        #expect(centre("e") == found.store)

        let english = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await english.upsert(FeedCorpus.posts.filter { $0.language == "en" })
        let one = try #require(try english.memory.read { try $0.documentCentres() })
        #expect(one.languages.count == 1 && one.languages.first == one.store)

        // Kept for the generation they were computed at: a write (here, the first document in French) makes
        // the next call compute them again.
        func cached() throws -> DocumentCentres? {
            try english.memory.read { try english.memory.documentCentres(of: $0) }
        }
        #expect(try cached()?.store == one.store)
        try await english.upsert([Document(id: "fr", body: "Premier semi-marathon terminé ce matin", language: "fr")])
        let after = try #require(try cached())
        let fresh = try #require(try english.memory.read { try $0.documentCentres() })
        #expect(after.languages.count == 2 && after.store == fresh.store && after.store != one.store)
    }

    @Test func recencyBreaksTiesBetweenEquallyInterestingDocuments() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        let text = "Long run along the river at an easy pace, then stretching for the calves."
        try await store.upsert([
            Document(
                id: "liked", body: "Easy long run by the river, stretching the calves afterwards.", language: "en",
                createdAt: day(1)),
            Document(id: "old", body: text, language: "en", createdAt: day(2)),
            Document(id: "new", body: text, language: "en", createdAt: day(20)),
            Document(id: "middle", body: text, language: "en", createdAt: day(10)),
        ])
        let options = InterestOptions(alpha: 0.8, halfLife: 7 * 86_400, now: day(21))
        let ranked = try await store.rank(liked: ["liked"], options: options)
        #expect(ranked.map(\.id) == ["new", "middle", "old"])
        #expect(Set(ranked.compactMap(\.similarity)).count == 1)  // identical text: only recency differs
        let recency = ranked.compactMap(\.recency)
        #expect(abs(recency[0] - Float(exp(-log(2.0) / 7))) < 1e-5)  // one day old, half-life seven days
        // With alpha = 1 recency has no weight; the tie still goes to the newer document.
        let pure = try await store.rank(liked: ["liked"], options: InterestOptions(alpha: 1, now: day(21)))
        #expect(pure.map(\.id) == ["new", "middle", "old"])
    }

    @Test func otherLanguagesKeepTheirOrderAfterTheRankedOnes() async throws {
        let store = try await feedStore()
        let options = InterestOptions(now: day(10))
        let ranked = try await store.rank(liked: ["run-1", "run-2"], options: options)
        #expect(!ranked.contains { $0.id == "run-1" || $0.id == "run-2" })
        let english = ranked.prefix { $0.score != nil }
        #expect(english.allSatisfy { $0.language == "en" })
        #expect(english.count == FeedCorpus.posts.filter { $0.language == "en" }.count - 2)
        // The rest: French and German, newest first (the default order), unscored.
        let rest = Array(ranked.dropFirst(english.count))
        #expect(rest.allSatisfy { $0.score == nil && $0.similarity == nil })
        let expected = FeedCorpus.posts.filter { $0.language != "en" }
            .sorted { ($0.createdAt ?? .distantPast) > ($1.createdAt ?? .distantPast) }.map(\.id)
        #expect(rest.map(\.id) == expected)

        // Given candidates: the unranked ones keep the given order.
        let given = try await store.rank(
            liked: ["run-1"], candidates: ["de-run", "bake-2", "fr-bake", "de-garden", "run-3"], options: options)
        #expect(given.suffix(3).map(\.id) == ["de-run", "fr-bake", "de-garden"])
        #expect(Set(given.prefix(2).map(\.id)) == ["bake-2", "run-3"])
    }

    @Test func ratedItemsAreExcludedUnlessAskedAndUnknownIDsAreTypedErrors() async throws {
        let store = try await feedStore()
        let included = try await store.rank(
            liked: ["run-1"], disliked: ["bake-2"], options: InterestOptions(includeRated: true, now: day(10)))
        #expect(included.contains { $0.id == "run-1" } && included.contains { $0.id == "bake-2" })
        #expect(included.count == FeedCorpus.posts.count)
        await #expect(throws: RankingError.unknownDocument(id: "ghost")) {
            _ = try await store.rank(liked: ["run-1", "ghost"], options: InterestOptions(ignoreUnknownIDs: false))
        }
        // By default a like of a post pruned since is skipped and reported (a feed with a short TTL meets it daily).
        let tolerant = try await store.rank(
            liked: ["run-1", "ghost", "ghost"], disliked: ["gone"], options: InterestOptions(now: day(10)), limit: 4)
        #expect(tolerant.count == 4)
        #expect(tolerant.unknownIDs == ["ghost", "gone"])
        let same = try await store.rank(liked: ["run-1"], options: InterestOptions(now: day(10)), limit: 4)
        #expect(tolerant.documents == same.documents && same.unknownIDs.isEmpty)
        await #expect(throws: RankingError.self) {
            _ = try await store.rank(liked: ["run-1"], options: InterestOptions(alpha: 1.5))
        }
        await #expect(throws: RankingError.self) {
            _ = try await store.rank(liked: ["run-1"], options: InterestOptions(halfLife: 0))
        }
    }

    @Test func mmrDropsANearDuplicateThatPlainRankingKeeps() {
        let a: [Float] = [1, 0, 0]
        let aCopy = VectorMath.normalized([0.99, 0.05, 0]) ?? []
        let b = VectorMath.normalized([0.3, 0.95, 0]) ?? []
        let order = Diversifier.mmr(relevance: [0.9, 0.89, 0.7], vectors: [a, aCopy, b], lambda: 0.7)
        #expect(order == [0, 2, 1])
        #expect(Diversifier.mmr(relevance: [0.9, 0.89, 0.7], vectors: [a, aCopy, b], lambda: 1) == [0, 1, 2])
        #expect(Diversifier.mmr(relevance: [0.9, 0.89, 0.7], vectors: [a, aCopy, b], limit: 2) == [0, 2])
        // bm25-sized scores are scaled, not dominating.
        #expect(Diversifier.mmr(relevance: [9, 8.9, 7], vectors: [a, aCopy, b], lambda: 0.7) == [0, 2, 1])
    }

    @Test func diversifiedSearchAvoidsNearDuplicates() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert([
            Document(
                id: "pie", body: "Apple pie with cinnamon, brown sugar and a buttery lattice crust.", language: "en"),
            Document(
                id: "pie-copy", body: "Apple pie with cinnamon, brown sugar and a buttery lattice crust!",
                language: "en"),
            Document(
                id: "orchard", body: "The apple orchard smells of cinnamon trees; we picked a basket of apples.",
                language: "en"),
            Document(id: "bike", body: "Fixed the bicycle chain and pumped the tyres before the ride.", language: "en"),
        ])
        let plain = try await store.search("apple pie cinnamon", mode: .semantic, limit: 3)
        #expect(Set(plain.hits.prefix(2).map(\.id)) == ["pie", "pie-copy"])
        let diverse = try await store.search("apple pie cinnamon", mode: .semantic, limit: 3, diversify: 0.5)
        #expect(diverse.hits.count == 3)
        #expect(diverse.hits[1].id == "orchard")
        #expect(
            Set(diverse.hits.prefix(2).map(\.id)).count == 2
                && !Set(diverse.hits.prefix(2).map(\.id)).isSuperset(of: ["pie", "pie-copy"]))
        await #expect(throws: RankingError.self) { _ = try await store.diversify(plain, lambda: 2) }
    }

    /// A diversified search is MMR, worked out here, over the hits' scores rescaled to 0…1 and their document
    /// vectors centred on their language's centre (as related items compare documents).
    @Test func diversifyingWeighsRescaledScoresAgainstCentredVectors() async throws {
        let store = try await HushStore.inMemory(embedder: HashingUnderNeuralIdentity(languageScope: .multilingual))
        let posts = FeedCorpus.posts
        try await store.upsert(posts)
        let worked = try await WorkedCentres(posts, in: store)
        let languageOf = Dictionary(uniqueKeysWithValues: posts.map { ($0.id, $0.language ?? "") })
        func unit(_ vector: [Float]) -> [Float] {
            let norm = WorkedCentres.dot(vector, vector).squareRoot()
            return vector.map { $0 / norm }
        }
        var reordered = 0
        for query in ["running shoes and long runs", "bread dough overnight", "tomatoes and basil", "sleep"] {
            let pool = try await store.search(query, mode: .semantic, limit: posts.count)
            let scores = pool.hits.map(\.score)
            let low = scores.min() ?? 0
            let high = scores.max() ?? 1
            let centred = pool.hits.map { hit in
                let centre = worked.language[languageOf[hit.id] ?? ""] ?? worked.store
                return unit(zip(worked.vectors[hit.id] ?? [], centre).map { $0 - $1 })
            }
            let expected = Diversifier.mmr(
                relevance: scores.map { ($0 - low) / (high - low) }, vectors: centred, lambda: 0.7, limit: 5)
            let diversified = try await store.diversify(pool, lambda: 0.7, limit: 5)
            #expect(diversified.hits.map(\.id) == expected.map { pool.hits[$0].id }, "\(query)")
            // The raw cosines against the raw vectors would order them otherwise.
            let raw = Diversifier.mmr(
                relevance: scores, vectors: pool.hits.map { worked.vectors[$0.id] ?? [] }, lambda: 0.7, limit: 5)
            if raw != expected { reordered += 1 }
        }
        #expect(reordered > 0)
        #expect(Ranker.relevance([0.85, 0.84, 0.80]).map { ($0 * 1000).rounded() } == [1000, 800, 0])
        #expect(Ranker.relevance([0.5, 0.5]) == [1, 1])
        #expect(Ranker.relevance([]) == [])
    }

    @Test func summariesKeepOriginalOrderAndTheRequestedCount() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert([NotesCorpus.retro, NotesCorpus.journal] + NotesCorpus.thread)
        for count in 1...4 {
            let summary = try await store.summarize(ids: ["retro"], sentences: count)
            #expect(summary.sentences.count == count)
            #expect(summary.sentences.map(\.position) == summary.sentences.map(\.position).sorted())
            #expect(summary.sentences.allSatisfy { NotesCorpus.retro.body.contains($0.text) })
        }
        let thread = try await store.summarize(ids: ["thread-1", "thread-2", "thread-3"], sentences: 4)
        #expect(thread.sentences.count == 4)
        let threadIDs = ["thread-1", "thread-2", "thread-3"]
        let keys: [Int] = thread.sentences.map { sentence in
            (threadIDs.firstIndex(of: sentence.documentID) ?? 0) * 100 + sentence.position
        }
        #expect(keys == keys.sorted())
        // More sentences than exist: all of them, still in order.
        let all = try await store.summarize(ids: ["thread-2"], sentences: 10)
        #expect(all.sentences.map(\.position) == [0, 1, 2])
        await #expect(throws: RankingError.unknownDocument(id: "missing")) {
            _ = try await store.summarize(ids: ["retro", "missing"])
        }
    }

    @Test func analyzeExposesTheQueryAnalysis() async throws {
        let store = try await feedStore()
        let analysis = store.analyze("Meetings about the running budget")
        #expect(analysis.language == "en" || analysis.language == "und")
        #expect(analysis.keywords == ["meet", "run", "budget"])
    }
}

/// Pruning and compaction on a real file.
@Suite struct RankingPruneTests {
    static func diary(_ count: Int, words: Int = 60) -> [Document] {
        let sentences = [
            "Walked the dog along the canal before work and watched the herons fishing.",
            "The team argued about the release date, then agreed to cut the export feature.",
            "Cooked lentil soup with cumin and lemon; it tasted better the second day.",
            "Read two chapters of a novel about a lighthouse keeper on a remote island.",
            "My back hurt after moving the bookshelf, so I skipped the gym and stretched instead.",
            "Paid the electricity bill and noticed the heating costs doubled since autumn.",
        ]
        return (0..<count).map { index in
            var body: [String] = []
            var length = 0
            var cursor = index
            while length < words {
                let sentence = sentences[cursor % sentences.count]
                body.append(sentence)
                length += sentence.split(separator: " ").count
                cursor += 7
            }
            return Document(
                id: "entry-\(index)", title: "Entry \(index)", body: body.joined(separator: " ") + " Day \(index).",
                sourceType: "journal", language: "en",
                createdAt: Date(timeIntervalSince1970: 1_767_225_600 + Double(index) * 86_400))
        }
    }

    static func counts(_ store: HushStore) throws -> [Int] {
        try store.database.read { db in
            try ["documents", "chunks", "vectors", "chunks_fts"].map {
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \($0)") ?? -1
            }
        }
    }

    @Test func pruneKeepsTheNewestAndLeavesEveryTableAndTheIndexConsistent() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("diary.hush")
        let store = try await HushStore.open(path: path, embedder: HashingEmbedder())
        let documents = Self.diary(40, words: 200)
        try await store.upsert(documents)
        let before = try Self.counts(store)
        #expect(before[0] == 40 && before[1] > 40 && before[1] == before[2] && before[2] == before[3])

        let removed = try await store.prune(maxDocuments: 12)
        #expect(removed == 28)
        let after = try Self.counts(store)
        #expect(after[0] == 12)
        #expect(after[1] == after[2] && after[2] == after[3])
        let (indexDocuments, indexRows) = store.memory.read { ($0.documents.count, $0.matrix.liveRows) }
        #expect(indexDocuments == 12 && indexRows == after[2])

        let kept = Set((28..<40).map { "entry-\($0)" })
        let pruned = (0..<28).map { "entry-\($0)" }
        for id in pruned { #expect(try await store.document(id: id) == nil) }
        for mode in [SearchMode.semantic, .keyword, .hybrid] {
            for query in ["herons fishing canal", "heating costs bill", "Entry 3", "lighthouse keeper novel"] {
                let hits = try await store.search(query, mode: mode, limit: 40).hits
                #expect(!hits.isEmpty)
                #expect(hits.allSatisfy { kept.contains($0.id) }, "\(mode) \(query): \(hits.map(\.id))")
            }
        }
        #expect(try await store.related(to: "entry-39", limit: 40).allSatisfy { kept.contains($0.id) })

        // By age: everything created before entry 35.
        let cutoff = Date(timeIntervalSince1970: 1_767_225_600 + 35 * 86_400)
        #expect(try await store.prune(olderThan: cutoff) == 7)
        let final = try Self.counts(store)
        #expect(final[0] == 5 && final[1] == final[2] && final[2] == final[3])
        #expect(try await store.prune(maxDocuments: 5, olderThan: nil) == 0)
        #expect(try await store.prune() == 0)

        // The file agrees with memory after reopening.
        let reopened = try await HushStore.open(path: path, embedder: HashingEmbedder())
        let ids = try await reopened.search("herons", mode: .semantic, limit: 10).hits.map(\.id)
        #expect(Set(ids) == Set((35..<40).map { "entry-\($0)" }))
        await #expect(throws: StoreError.self) { _ = try await store.prune(maxDocuments: -1) }
    }

    @Test func compactShrinksTheFileAfterDeletingMostRows() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("big.hush")
        let store = try await HushStore.open(path: path, embedder: HashingEmbedder())
        try await store.upsert(Self.diary(400, words: 150))
        #expect(try await store.prune(maxDocuments: 20) == 380)
        let report = try await store.compact()
        #expect(report.bytesAfter * 4 < report.bytesBefore, "\(report)")
        #expect(report.reclaimedBytes == report.bytesBefore - report.bytesAfter)
        let onDisk = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
        #expect(onDisk <= report.bytesAfter)
        // Still a working store.
        let hits = try await store.search("lentil soup cumin", limit: 5).hits
        #expect(!hits.isEmpty && hits.allSatisfy { Int($0.id.dropFirst(6)) ?? 0 >= 380 })
        let counts = try Self.counts(store)
        #expect(counts[0] == 20 && counts[1] == counts[2] && counts[2] == counts[3])
    }
}
