import Foundation
import HushEmbedding
import HushTestSupport
import Testing

@testable import Hush

/// Search across languages (``SearchMode/acrossLanguages``) with a multilingual model in a store of several
/// languages: each document's semantic score is its cosine less the query's dot product with its language's
/// centre less the store's (``LanguageShift``).
@Suite struct SearchLanguageShiftTests {
    /// Worked out from the stored vectors for the feed of English, French and German posts: in semantic and
    /// hybrid search, exact and through the graph, every document's semantic score is its cosine less its
    /// language's shift, the shift is in the explanation, and the semantic ranking is by the shifted score.
    @Test(arguments: [IndexStrategy.exact, .hnsw])
    func scoresAreTheCosineLessTheLanguagesShare(strategy: IndexStrategy) async throws {
        let embedder = HashingUnderNeuralIdentity(languageScope: .multilingual)
        let store = try await HushStore.inMemory(embedder: embedder, options: StoreOptions(indexStrategy: strategy))
        let posts = FeedCorpus.posts
        try await store.upsert(posts)
        let worked = try await WorkedCentres(posts, in: store)
        let (storeCentre, centres, vectors) = (worked.store, worked.language, worked.vectors)
        #expect(centres.count == 3)
        let languageOf = Dictionary(uniqueKeysWithValues: posts.map { ($0.id, $0.language ?? "") })

        for query in ["long runs in new shoes", "bread dough rising overnight", "tomatoes in the garden"] {
            let q = try embedder.embed([store.analyze(query).cleaned], role: .query)[0].vector
            func shift(_ id: String) -> Float {
                WorkedCentres.dot(q, centres[languageOf[id] ?? ""] ?? storeCentre) - WorkedCentres.dot(q, storeCentre)
            }
            let expected = posts.map { ($0.id, WorkedCentres.dot(q, vectors[$0.id] ?? []) - shift($0.id)) }
                .sorted { $0.1 > $1.1 }
            let semantic = try await store.search(
                query, mode: .semantic.inEveryLanguage, limit: posts.count, explain: true)
            #expect(semantic.hits.map(\.id) == expected.map(\.0), "\(query)")
            for (hit, want) in zip(semantic.hits, expected) {
                #expect(abs(hit.score - want.1) < 1e-4, "\(hit.id)")
                #expect(abs((hit.explanation?.languageShift ?? .nan) - shift(hit.id)) < 1e-5, "\(hit.id)")
            }
            // A filter keeps its documents in the same order (through the graph: a walk per allowed language).
            let filtered = try await store.search(
                query, mode: .semantic.inEveryLanguage, filter: SearchFilter(languages: ["en", "fr"]),
                limit: posts.count)
            #expect(filtered.hits.map(\.id) == expected.map(\.0).filter { languageOf[$0] != "de" })
            // Without asking for it, the cosines are left as they are.
            let plain = try await store.search(query, mode: .semantic, limit: posts.count, explain: true)
            for hit in plain.hits {
                #expect(hit.explanation?.languageShift == nil)
                #expect(abs(hit.score - WorkedCentres.dot(q, vectors[hit.id] ?? [])) < 1e-5, "\(hit.id)")
            }
            // The shifts differ by language: not a constant that would leave the order as it was.
            #expect(Set(posts.map { shift($0.id) }).count == 3)

            // Hybrid: keyword-only candidates are scored exactly, with the same shift.
            let hybrid = try await store.search(
                query, mode: SearchMode.hybrid(alpha: 0.5).inEveryLanguage, limit: posts.count, explain: true)
            let wanted = Dictionary(uniqueKeysWithValues: expected.map { ($0.0, $0.1) })
            for hit in hybrid.hits {
                let score = try #require(hit.explanation?.semanticScore)
                #expect(abs(score - (wanted[hit.id] ?? .nan)) < 1e-4, "\(hit.id)")
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
                query, mode: .semantic.inEveryLanguage, limit: posts.count, explain: true)
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
