import Foundation
import HushEmbedding
import HushTestSupport
import Testing

@testable import Hush

/// Search across languages (``SearchMode/acrossLanguages``, the default) with a multilingual model in a store of
/// several languages: each document of another language than the query's is lifted by the query's dot product
/// with its own language's centre less the document's, times the query language's weight in the store
/// (``LanguageShift``).
@Suite struct SearchLanguageShiftTests {
    /// The shift worked out from the stored vectors: the query's language is the group of the nearest centre
    /// (among groups of at least 16 documents or a 16th of the largest), weighted by its documents against the
    /// largest other language's (at most 1); a document's shift is that weight times its centre's dot product
    /// less the query language's.
    struct WorkedShift {
        let ofLanguage: [String: Float]
        let queryLanguage: String
        let weight: Float

        init(query q: [Float], worked: WorkedCentres, counts: [String: Int]) {
            let dots = worked.language.mapValues { WorkedCentres.dot(q, $0) }
            let least = min(16, (counts.values.max() ?? 0) / 16)
            let own = dots.filter { (counts[$0.key] ?? 0) >= least }.max { $0.value < $1.value }?.key ?? ""
            let largestOther = counts.filter { $0.key != own }.values.max() ?? 0
            let weight = min(1, Float(counts[own] ?? 0) / Float(max(1, largestOther)))
            ofLanguage = dots.mapValues { weight * ($0 - (dots[own] ?? 0)) }
            self.weight = weight
            queryLanguage = own
        }

        func callAsFunction(_ language: String) -> Float { ofLanguage[language] ?? 0 }
    }

    /// Worked out from the stored vectors for the feed of English, French and German posts: in semantic and
    /// hybrid search, exact and through the graph, every document's semantic score is its cosine less its
    /// language's shift, the shift is in the explanation, and the semantic ranking is by the shifted score.
    @Test(arguments: [IndexStrategy.exact, .hnsw])
    func scoresAreTheCosineLiftedTowardTheQuerysLanguage(strategy: IndexStrategy) async throws {
        let embedder = HashingUnderNeuralIdentity(languageScope: .multilingual)
        let store = try await HushStore.inMemory(embedder: embedder, options: StoreOptions(indexStrategy: strategy))
        let posts = FeedCorpus.posts
        try await store.upsert(posts)
        let worked = try await WorkedCentres(posts, in: store)
        #expect(worked.language.count == 3)
        let languageOf = Dictionary(uniqueKeysWithValues: posts.map { ($0.id, $0.language ?? "") })
        let counts = posts.reduce(into: [String: Int]()) { $0[$1.language ?? "", default: 0] += 1 }

        var weights: [String: Float] = [:]
        for query in [
            "long runs in new shoes", "bread dough rising overnight", "tomatoes in the garden",
            "une tarte aux pommes tiède", "Laufschuhe im Regen",
        ] {
            let q = try embedder.embed([store.analyze(query).cleaned], role: .query)[0].vector
            let shift = WorkedShift(query: q, worked: worked, counts: counts)
            weights[shift.queryLanguage] = shift.weight
            let expected = posts.map {
                ($0.id, WorkedCentres.dot(q, worked.vectors[$0.id] ?? []) - shift($0.language ?? ""))
            }
            .sorted { $0.1 > $1.1 }
            let semantic = try await store.search(query, mode: .semantic, limit: posts.count, explain: true)
            #expect(semantic.hits.map(\.id) == expected.map(\.0), "\(query)")
            for (hit, want) in zip(semantic.hits, expected) {
                #expect(abs(hit.score - want.1) < 1e-4, "\(hit.id)")
                let language = languageOf[hit.id] ?? ""
                #expect(abs((hit.explanation?.languageShift ?? .nan) - shift(language)) < 1e-5, "\(hit.id)")
                // The query's own language keeps its cosines; the others are lifted (or, nearer still, lowered).
                if language == shift.queryLanguage { #expect(hit.explanation?.languageShift == 0) }
            }
            // A filter keeps its documents in the same order (through the graph: a walk per allowed language).
            let filtered = try await store.search(
                query, mode: .semantic, filter: SearchFilter(languages: ["en", "fr"]), limit: posts.count)
            #expect(filtered.hits.map(\.id) == expected.map(\.0).filter { languageOf[$0] != "de" })
            // With raw cosines, the cosines are left as they are.
            let plain = try await store.search(query, mode: .semantic.withRawCosines, limit: posts.count, explain: true)
            for hit in plain.hits {
                #expect(hit.explanation?.languageShift == nil)
                #expect(abs(hit.score - WorkedCentres.dot(q, worked.vectors[hit.id] ?? [])) < 1e-5, "\(hit.id)")
            }
            // The shifts differ by language: not a constant that would leave the order as it was.
            #expect(Set(shift.ofLanguage.values).count == 3)

            // Hybrid: keyword-only candidates are scored exactly, with the same shift.
            let hybrid = try await store.search(
                query, mode: SearchMode.hybrid(alpha: 0.5), limit: posts.count, explain: true)
            let wanted = Dictionary(uniqueKeysWithValues: expected.map { ($0.0, $0.1) })
            for hit in hybrid.hits {
                let score = try #require(hit.explanation?.semanticScore)
                #expect(abs(score - (wanted[hit.id] ?? .nan)) < 1e-4, "\(hit.id)")
            }
        }
        // English (10 of 14 posts) lifts the others by the whole gap; French and German (2 each) by 2/10.
        #expect(weights == ["en": 1, "fr": Float(2) / 10, "de": Float(2) / 10])
    }

    /// A language of a few documents in a store of one main language is never taken for the query's: one
    /// English post marked Portuguese among fifty English ones leaves an English query's weight whole, and a
    /// French query in that store (three French posts) lifts the English ones by 3/50 of the gap only.
    @Test func aFewDocumentsOfALanguageAreNotTakenForTheQuerys() async throws {
        let embedder = HashingUnderNeuralIdentity(languageScope: .multilingual)
        let store = try await HushStore.inMemory(embedder: embedder)
        let english = FeedCorpus.posts.filter { $0.language == "en" }
        var posts = (0..<5).flatMap { round in
            english.map { Document(id: "\($0.id)-\(round)", body: $0.body, language: "en") }
        }
        posts.append(Document(id: "pt", body: "Running shoes for long runs in the rain", language: "pt"))
        posts += FeedCorpus.posts.filter { $0.language == "fr" }
        posts.append(
            Document(id: "fr-garden", body: "J'ai planté des tomates et du basilic au potager.", language: "fr"))
        try await store.upsert(posts)
        let worked = try await WorkedCentres(posts, in: store)
        let counts = posts.reduce(into: [String: Int]()) { $0[$1.language ?? "", default: 0] += 1 }
        #expect(counts == ["en": 50, "pt": 1, "fr": 3])

        for (query, language, weight) in [
            ("long runs in new shoes", "en", Float(1)), ("une tarte aux pommes tiède", "fr", Float(3) / 50),
        ] {
            let q = try embedder.embed([store.analyze(query).cleaned], role: .query)[0].vector
            let shift = WorkedShift(query: q, worked: worked, counts: counts)
            #expect(shift.queryLanguage == language && shift.weight == weight, "\(query)")
            let hits = try await store.search(query, mode: .semantic, limit: posts.count, explain: true).hits
            #expect(hits.count == posts.count)
            for hit in hits {
                let documentLanguage = posts.first { $0.id == hit.id }?.language ?? ""
                #expect(abs((hit.explanation?.languageShift ?? .nan) - shift(documentLanguage)) < 1e-5, "\(hit.id)")
            }
        }
    }

    /// No shift where there is nothing to shift between, or where the model's languages do not share a space:
    /// one language (undetermined documents aside), or a monolingual model in a store of three languages.
    @Test func oneLanguageOrAMonolingualModelLeavesTheCosines() async throws {
        let multilingual = HashingUnderNeuralIdentity(languageScope: .multilingual)
        let english = FeedCorpus.posts.filter { $0.language == "en" }
        let undetermined = [Document(id: "note", body: "ok 42", language: "und")]
        let cases: [(any Embedder, [Document])] = [
            (multilingual, english), (multilingual, english + undetermined), (HashingEmbedder(), FeedCorpus.posts),
        ]
        for (embedder, posts) in cases {
            let store = try await HushStore.inMemory(embedder: embedder)
            try await store.upsert(posts)
            let query = "bread dough rising overnight"
            let q = try embedder.embed([store.analyze(query).cleaned], role: .query)[0].vector
            let results = try await store.search(
                query, mode: .semantic, limit: posts.count, explain: true)
            #expect(results.hits.count == posts.count)
            for hit in results.hits {
                #expect(hit.explanation?.languageShift == nil)
                let vector = try #require(try await store.vectors(forDocument: hit.id).first)
                #expect(abs(hit.score - WorkedCentres.dot(q, vector)) < 1e-5, "\(hit.id)")
            }
        }
    }

    /// What every search asks of the document table, the dominant language (for short queries) and whether the
    /// store holds several (for the shift), follows writes and deletes and survives reopening the file.
    @Test func theStoreKnowsItsLanguagesThroughWritesDeletesAndReopening() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.url.appendingPathComponent("languages.hush").path
        func languages(_ store: HushStore) -> (dominant: String?, several: Bool) {
            store.memory.read { ($0.dominantLanguage, $0.documents.hasSeveralLanguages) }
        }
        do {
            let store = try await HushStore.open(path: path, embedder: HashingEmbedder())
            let documents = [
                ("a", "en"), ("b", "EN"), ("c", "en-GB"), ("d", "zh_CN"), ("e", "zh_cn"), ("f", "zh-Hans"),
                ("g", "und"), ("h", "und"), ("i", "und"), ("j", "und"),
            ]
            try await store.upsert(
                documents.map { Document(id: $0.0, body: "entry \($0.0) about sleep", language: $0.1) })
            // By code as written, case aside: "en" 2, "zh_cn" 2, "en-gb" 1, "zh-hans" 1; "und" never dominates.
            #expect(languages(store).dominant == "en" && languages(store).several)
            _ = try await store.delete(ids: ["d", "e", "f"])
            #expect(languages(store).dominant == "en" && !languages(store).several)  // "en-GB" is English
            _ = try await store.delete(ids: ["a", "b"])
            #expect(languages(store).dominant == "en-gb" && !languages(store).several)
            try await store.upsert([Document(id: "k", body: "又失眠了", language: "zh")])
            try await store.close()
        }
        let reopened = try await HushStore.open(path: path, embedder: HashingEmbedder())
        #expect(languages(reopened).several)
        #expect(languages(reopened).dominant == "en-gb")  // one each of "en-gb" and "zh": the first by name
    }
}
