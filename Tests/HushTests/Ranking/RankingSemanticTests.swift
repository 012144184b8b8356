import Foundation
import HushTestSupport
import Testing

@testable import Hush

/// Ranking features where meaning matters, with the real all-MiniLM-L6-v2 model.
@Suite(.serialized, .needsModel) struct RankingSemanticTests {
    func store(_ documents: [Document]) async throws -> HushStore {
        let store = try await HushStore.inMemory(embedder: try TestModels.miniLMEmbedder())
        try await store.upsert(documents)
        return store
    }

    @Test func aLikedTopicOutranksUnrelatedDocuments() async throws {
        let store = try await store(FeedCorpus.posts)
        let ranked = try await store.rank(liked: ["run-1", "run-2"], options: InterestOptions(now: day(10)))
        #expect(ranked.first?.id == "run-3", "\(ranked.map(\.id))")
        let english = ranked.filter { $0.score != nil }
        let position = Dictionary(uniqueKeysWithValues: english.enumerated().map { ($1.id, $0) })
        for unrelated in ["bake-2", "garden-2", "money-1", "sleep-1"] {
            #expect((position["run-3"] ?? 99) < (position[unrelated] ?? -1))
        }
        // French and German posts have no liked item in their language: unscored, newest first, at the end.
        #expect(ranked.suffix(4).map(\.id) == ["fr-bake", "de-run", "fr-run", "de-garden"])
    }

    @Test func dislikingATopicLowersItsDocuments() async throws {
        let store = try await store(FeedCorpus.posts)
        let options = InterestOptions(alpha: 1, now: day(10))
        let candidates = ["bake-3", "run-3"]
        let plain = try await store.rank(liked: ["run-1", "bake-1"], candidates: candidates, options: options)
        let disliking = try await store.rank(
            liked: ["run-1", "bake-1"], disliked: ["bake-2"], candidates: candidates, options: options)
        func margin(_ list: InterestRanking) -> Float {
            (list.first { $0.id == "run-3" }?.score ?? .nan) - (list.first { $0.id == "bake-3" }?.score ?? .nan)
        }
        #expect(margin(disliking) > margin(plain) + 0.05, "\(margin(plain)) -> \(margin(disliking))")
        #expect(disliking.first?.id == "run-3")
    }

    @Test func relatedFindsTheSameTopicAndNeverItself() async throws {
        let store = try await store(FeedCorpus.posts)
        let expectations = [
            "run-1": ["run-2", "run-3"], "run-3": ["run-1", "run-2"], "bake-1": ["bake-2", "bake-3"],
        ]
        for (id, expected) in expectations {
            let related = try await store.related(to: id, limit: 3, sameLanguage: true)
            #expect(!related.contains { $0.id == id })
            #expect(related.allSatisfy { $0.language == "en" })
            #expect(expected.contains(related.first?.id ?? ""), "\(id): \(related.map(\.id))")
        }
        // Gardening is a weaker topic for this model (food posts come close), but stays in the top three.
        #expect(try await store.related(to: "garden-2", limit: 3).contains { $0.id == "garden-1" })
    }

    @Test func summariesPickTheMainThemeInOriginalOrder() async throws {
        let store = try await store([NotesCorpus.retro, NotesCorpus.journal] + NotesCorpus.thread)
        let retro = try await store.summarize(ids: ["retro"], sentences: 3)
        #expect(retro.sentences.count == 3)
        #expect(retro.sentences.map(\.position) == retro.sentences.map(\.position).sorted())
        #expect(!retro.text.contains("pizza"))
        #expect(retro.text.contains("migration"))

        let journal = try await store.summarize(ids: ["journal-sleep"], sentences: 2)
        #expect(!journal.text.contains("cat"))
        #expect(journal.text.lowercased().contains("sleep"))

        let thread = try await store.summarize(ids: ["thread-1", "thread-2", "thread-3"], sentences: 3)
        #expect(thread.sentences.count == 3)
        #expect(!thread.text.contains("pupp"), "\(thread.text)")
        #expect(thread.text.contains("offsite") || thread.text.contains("venue"))

        let byQuery = try await store.summarize(query: "cheaper venue for the team offsite", k: 3, sentences: 2)
        #expect(byQuery.sentences.count == 2)
        #expect(Set(byQuery.documentIDs).isSubset(of: ["thread-1", "thread-2", "thread-3", "retro", "journal-sleep"]))
        #expect(byQuery.sentences.allSatisfy { $0.documentID.hasPrefix("thread-") })
    }

    @Test func aSearchSummaryQuotesWhatTheHitsSayAboutTheQuery() async throws {
        let store = try await store([NotesCorpus.retro, NotesCorpus.journal] + NotesCorpus.thread)
        // Every document is a hit of a five-hit search: the summary still keeps to the question, and its
        // relevance is the similarity to the query, not to the hits' common theme.
        let summary = try await store.summarize(query: "why can't I sleep at night?", k: 5, sentences: 2)
        #expect(summary.documentIDs.count == 5)
        #expect(summary.sentences.count == 2)
        #expect(summary.sentences.allSatisfy { $0.documentID == "journal-sleep" }, "\(summary.text)")
        #expect(!summary.text.contains("cat"), "\(summary.text)")
        let offsite = try await store.summarize(query: "the cost of the offsite venue", k: 5, sentences: 2)
        #expect(offsite.sentences.allSatisfy { $0.documentID.hasPrefix("thread-") }, "\(offsite.text)")
        #expect(offsite.text.contains("venue") && offsite.text.contains("budget"), "\(offsite.text)")
        #expect(!offsite.text.contains("pupp"), "\(offsite.text)")
    }
}
