import Foundation
import HushEmbedding
import HushTestSupport
import Testing

@testable import Hush

/// The default hybrid score is a calibrated estimate of relevance ([scores] #17 items 1 and 2).
@Suite struct SearchCalibrationTests {
    /// The journal shipped in samples/, read as an app would.
    static func journal() throws -> [Document] {
        let url = Repository.samples.appendingPathComponent("journal.jsonl")
        var documents: [Document] = []
        _ = try DocumentReader().read([url]) { documents += $0 }
        return documents
    }

    /// Min-max fusion scored the best hit 1.000 whatever the query, so `minScore` rejected nothing; the
    /// calibrated score of a query about nothing in the journal is near 0, below the recommended threshold,
    /// while a query the journal answers scores above it.
    @Test(.needsModel) func anUnrelatedQueryScoresLowAndMinScoreRejectsIt() async throws {
        let store = try await HushStore.inMemory(embedder: TestModels.miniLMEmbedder())
        try await store.upsert(Self.journal())
        let calibration = try #require(store.scoreCalibration)
        #expect(calibration.name.hasPrefix("all-MiniLM-L6-v2"))

        let unrelated = "quantum chromodynamics lattice gauge"
        let minMax = try await store.search(unrelated, boosts: .none)
        #expect(minMax.hits.first?.score == 1)  // the defect: relative to the other candidates
        let calibrated = try await store.search(unrelated, mode: .calibrated, boosts: .none)
        let top = try #require(calibrated.hits.first)
        #expect(top.score < 0.01)
        // In a journal of twenty short entries the levels sit below the man-page fit's (docs/benchmarks.md), but an
        // answer still scores tens of times what a query about nothing does, and a threshold between keeps it.
        let rejected = try await store.search(unrelated, mode: .calibrated, minScore: 0.01, boosts: .none)
        #expect(rejected.hits.isEmpty)
        let answered = try await store.search(
            "lying awake and I cannot sleep", mode: .calibrated, minScore: 0.01, boosts: .none)
        let answer = try #require(answered.hits.first)
        #expect(answer.id == "r-sleep")
        #expect(answer.score > 20 * top.score)
    }

    /// Min-max sent the last keyword match to exactly 0, as if it had matched no word. The default hybrid now
    /// scales the keyword arm from "no match" (bm25 0), and calibrated keyword evidence is the document's own
    /// bm25 against the most the query could score: in both, the last match still counts.
    @Test func theLastKeywordMatchStillCounts() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert([
            Document(id: "ex", body: "Thinking about my ex again. Should I send a text or let it be?"),
            Document(id: "texted", body: "Texted the plumber about the leak under the sink; he comes Monday."),
            Document(id: "garden", body: "Planted tomatoes and basil along the south fence."),
            Document(id: "run", body: "Ran five kilometres before work and felt lighter all morning."),
            Document(id: "exam", body: "Exam in two weeks; made a revision plan for every evening."),
            Document(id: "mum", body: "Called mum for her birthday; she laughed at the card."),
        ])
        let hybrid = try await store.search("should I text my ex?", boosts: .none, explain: true)
        let matches = hybrid.hits.compactMap { hit -> (bm25: Float, normalized: Float, strength: Float)? in
            guard let bm25 = hit.explanation?.keywordScore, let normalized = hit.explanation?.keywordNormalized,
                let strength = hit.explanation?.evidence?.keyword
            else { return nil }
            return (bm25, normalized, strength)
        }
        #expect(matches.count == 2)
        let best = try #require(matches.map(\.bm25).max())
        for match in matches {
            #expect(match.bm25 > 0)
            #expect(match.normalized > 0)  // min-max gave the weaker of the two exactly 0
            // From 0 to the best, weighed by how strong a match it is.
            let weight = min(1, match.strength / HybridFusion.strongKeywordEvidence)
            #expect(abs(match.normalized - match.bm25 / best * weight) < 1e-5)
        }
        #expect(hybrid.hits.first?.id == "ex")

        let results = try await store.search("should I text my ex?", mode: .calibrated, boosts: .none, explain: true)
        #expect(results.hits.first?.id == "ex")
        for hit in results.hits where hit.explanation?.keywordRank != nil {
            #expect((hit.explanation?.evidence?.keyword ?? 0) > 0)
        }
    }

    @Test func keywordMinMaxRunsFromNoMatch() {
        let keyword = HybridFusion.normalizer([6, 3, 1.5], .minMax, noMatch: 0)
        #expect([6, 3, 1.5, 0].map(keyword) == [1, 0.5, 0.25, 0])
        let relative = HybridFusion.normalizer([6, 3, 1.5], .minMax)
        #expect(relative(1.5) == 0)
        let zScore = HybridFusion.normalizer([6, 3, 1.5], .zScore, noMatch: 0)
        #expect(abs(zScore(3) - HybridFusion.normalizer([6, 3, 1.5], .zScore)(3)) < 1e-6)
    }

    /// Explain shows the calibrated score and the evidence it came from; the score is the calibration's
    /// probability of that evidence, and it does not depend on which other documents were candidates.
    @Test func explainShowsTheEvidenceAndTheScoreIsItsProbability() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert(Corpus.documents)
        let calibration = try #require(store.scoreCalibration)
        let results = try await store.search(
            "budget travel costs", mode: .calibrated, limit: 5, boosts: .none, explain: true)
        #expect(results.hits.first?.id == "budget-review")
        for hit in results.hits {
            let explanation = try #require(hit.explanation)
            let evidence = try #require(explanation.evidence)
            #expect(explanation.calibration == calibration.name)
            #expect(evidence.cosine == explanation.semanticScore)
            #expect((0...1).contains(evidence.keyword))
            #expect(abs(hit.score - calibration.probability(evidence, language: "en")) < 1e-5)
        }
        // The same document's score with fewer candidates around it (a filter) is the same.
        let top = try #require(results.hits.first)
        let alone = try await store.search(
            "budget travel costs", mode: .calibrated, filter: SearchFilter(sourceTypes: ["meeting"]), limit: 1,
            boosts: .none)
        #expect(alone.hits.first?.id == top.id)
        #expect(abs((alone.hits.first?.score ?? 0) - top.score) < 1e-4)
    }

    @Test func keywordEvidenceIsAFractionOfTheMostTheQueryCanScore() {
        #expect(ScoreCalibration.keywordEvidence(bm25: 0, queryTerms: 3, indexedChunks: 500) == 0)
        let one = ScoreCalibration.keywordEvidence(bm25: 3, queryTerms: 1, indexedChunks: 500)
        let three = ScoreCalibration.keywordEvidence(bm25: 3, queryTerms: 3, indexedChunks: 500)
        #expect(abs(one - 3 / (2.2 * Float(log(499.5 / 1.5)))) < 1e-5)
        #expect(abs(three - one / 3) < 1e-6)
        #expect(ScoreCalibration.keywordEvidence(bm25: 1e6, queryTerms: 1, indexedChunks: 2) == 1)
        // The number of terms a match can add up: each OR alternative (a CJK run's phrase and its bigrams).
        #expect(FTSQuery.expression(for: "a b c")?.alternatives == 3)
        #expect(FTSQuery.expression(for: "東京大学")?.alternatives == 4)
        #expect(FTSQuery.expression(for: "x OR y")?.alternatives == 3)
        #expect(FTSQuery.expression(for: "a b c", requireAll: true)?.alternatives == 1)
    }

    /// A filter can exclude documents by id (the one being read, those already shown).
    @Test func excludedIDsNeverComeBack() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert(Corpus.documents)
        let all = try await store.search("budget travel costs", limit: 3)
        let first = try #require(all.hits.first?.id)
        for mode in [SearchMode.hybrid, .calibrated, .semantic, .keyword] {
            let rest = try await store.search(
                "budget travel costs", mode: mode, filter: SearchFilter(excludedIDs: [first]), limit: 10)
            #expect(!rest.hits.contains { $0.id == first })
            #expect(mode == .keyword || !rest.hits.isEmpty)
        }
        let decoded = try JSONDecoder().decode(SearchFilter.self, from: Data(#"{"tagsAny":["x"]}"#.utf8))
        #expect(decoded.tagsAny == ["x"] && decoded.excludedIDs.isEmpty)
    }
}
