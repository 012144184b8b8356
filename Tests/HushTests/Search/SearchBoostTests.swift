import Foundation
import Testing

@testable import Hush

/// A tag boosts a hit exactly when the keyword index matches the query's word with the tag's (#33: the boosts
/// and the index stem with one rule).
@Suite struct SearchBoostTests {
    /// A tag, a one-word query, and whether the keyword index (FTS5, `porter unicode61 remove_diacritics 2`)
    /// matches them. The first six are words on which the analyzer's former stemmer disagreed with the index,
    /// and gave no boost.
    static let cases: [(tag: String, query: String, indexMatches: Bool)] = [
        ("Cafés", "cafe", true), ("MP3", "mp3s", true), ("1990s", "1990", true), ("Zürich", "zurich", true),
        ("naïveté", "naivete", true), ("İstanbul", "istanbul", true),
        ("Straße", "straße", true), ("Straße", "strasse", false), ("meetings", "meeting", true),
        ("university", "universe", true), ("policy", "police", false), ("relational", "relativity", false),
    ]

    @Test func aTagIsBoostedExactlyWhenTheIndexMatchesTheQueryWord() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert(
            Self.cases.enumerated().map { index, item in
                Document(id: "doc\(index)", body: "Nothing much happened on day \(index).", tags: [item.tag])
            })
        let boosts = Boosts(perTag: 0.5, maxTags: 1, category: 0)
        for (index, item) in Self.cases.enumerated() {
            let id = "doc\(index)"
            let keyword = try await store.search(item.query, mode: .keyword, limit: 50, boosts: .none)
            let indexMatches = keyword.hits.contains { $0.id == id }
            #expect(indexMatches == item.indexMatches, "index: \(item.tag) / \(item.query)")

            let semantic = try await store.search(
                item.query, mode: .semantic, limit: 50, boosts: boosts, explain: true)
            let hit = try #require(semantic.hits.first { $0.id == id }, "\(item.query)")
            let explanation = try #require(hit.explanation)
            let boosted = explanation.matchedTags == [item.tag]
            #expect(boosted == indexMatches, "boost: \(item.tag) / \(item.query)")
            #expect(explanation.tagBoost == (boosted ? 0.5 : 0))
        }
    }

    /// The analyzer leaves a French query's keywords unstemmed, but the index stems every word: the boost
    /// follows the index ("cafés" finds and boosts the tag "Café").
    @Test func theBoostFollowsTheIndexInEveryLanguage() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert([
            Document(id: "bistro", body: "Nous avons déjeuné près de la gare avec des amis.", tags: ["Café"]),
            Document(id: "other", body: "Une longue promenade au bord de la rivière.", tags: ["Promenade"]),
        ])
        let query = "les cafés de la ville"
        let analysis = store.analyze(query)
        #expect(analysis.language == "fr")
        #expect(analysis.keywords == ["cafés", "ville"])
        #expect(try await store.search(query, mode: .keyword, boosts: .none).hits.map(\.id) == ["bistro"])
        let results = try await store.search(query, mode: .semantic, explain: true)
        let bistro = try #require(results.hits.first { $0.id == "bistro" })
        #expect(bistro.explanation?.matchedTags == ["Café"])
        #expect(results.hits.first { $0.id == "other" }?.explanation?.matchedTags == [])
    }

    /// The journal seed's per-call hints (a category guessed by the app's classifier, keywords from NLTagger):
    /// boosts the app names for one search, matched as query words would be, and only for that search.
    @Test func tagsAndACategoryTheAppNamesAreBoostedForThatSearch() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert([
            Document(
                id: "loss", body: "The house is quiet since she is gone.", tags: ["grief", "Missing someone"],
                category: "Loss"),
            Document(
                id: "ex", body: "The house is quiet since she left me.", tags: ["breakup"], category: "Relationships"),
        ])
        let query = "the house is so quiet now"
        let plain = try await store.search(query, mode: .semantic, limit: 2, explain: true)
        #expect(plain.hits.allSatisfy { $0.explanation?.tagBoost == 0 && $0.explanation?.categoryBoost == 0 })

        let hinted = try await store.search(
            query, mode: .semantic, limit: 2,
            boosts: Boosts(hintedTags: ["Griefs", "missing SOMEONE"], hintedCategory: "loss"), explain: true)
        let loss = try #require(hinted.hits.first { $0.id == "loss" }?.explanation)
        #expect(loss.matchedTags == ["grief", "Missing someone"])
        #expect(loss.tagBoost == 0.06 && loss.categoryBoost == 0.05)
        #expect(loss.finalScore == loss.baseScore + 0.11)
        let ex = try #require(hinted.hits.first { $0.id == "ex" }?.explanation)
        #expect(ex.tagBoost == 0 && ex.categoryBoost == 0)
        #expect(hinted.hits.first?.id == "loss")
        // A category hint is not a tag hint, nor the other way round.
        let crossed = try await store.search(
            query, mode: .semantic, limit: 2, boosts: Boosts(hintedTags: ["relationships"], hintedCategory: "breakup"),
            explain: true)
        #expect(crossed.hits.allSatisfy { $0.explanation?.tagBoost == 0 && $0.explanation?.categoryBoost == 0 })
        // Boosts encoded before the hints existed still decode.
        let old = try JSONDecoder().decode(Boosts.self, from: Data(#"{"perTag":0.1,"maxTags":2,"category":0.2}"#.utf8))
        #expect(old == Boosts(perTag: 0.1, maxTags: 2, category: 0.2))
    }
}
