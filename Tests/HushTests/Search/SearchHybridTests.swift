import Foundation
import Testing

@testable import Hush

@Suite struct SearchHybridTests {
    @Test func explanationsCarryBothArmsAndBoosts() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert(Corpus.documents)
        let results = try await store.search("budget travel costs", limit: 5, explain: true)
        let top = try #require(results.hits.first)
        #expect(top.id == "budget-review")
        let explanation = try #require(top.explanation)
        #expect(explanation.semanticRank == 1)
        #expect(explanation.keywordRank == 1)
        #expect(explanation.semanticScore != nil && explanation.keywordScore != nil)
        #expect(explanation.semanticNormalized == 1 && explanation.keywordNormalized == 1)
        #expect(abs(explanation.baseScore - 1) < 1e-6)
        #expect(explanation.matchedTags == ["budget"])
        #expect(abs(explanation.tagBoost - 0.03) < 1e-6)
        #expect(explanation.categoryBoost == 0)
        #expect(abs(explanation.finalScore - (explanation.baseScore + 0.03)) < 1e-6)
        #expect(top.score == explanation.finalScore)
        #expect(try await store.search("budget travel costs", limit: 5).hits.first?.explanation == nil)
    }

    @Test func convexFusionFollowsAlpha() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert(Corpus.documents)
        let query = "disk usage alert"
        let semantic = try await store.search(query, mode: .semantic, boosts: .none)
        let keyword = try await store.search(query, mode: .keyword, boosts: .none)
        let allSemantic = try await store.search(query, mode: .hybrid(alpha: 1), boosts: .none, explain: true)
        let allKeyword = try await store.search(query, mode: .hybrid(alpha: 0), boosts: .none, explain: true)
        #expect(allSemantic.hits.prefix(3).map(\.id) == semantic.hits.prefix(3).map(\.id))
        #expect(allKeyword.hits.first?.id == keyword.hits.first?.id)
        for hit in allSemantic.hits {
            let e = try #require(hit.explanation)
            #expect(abs(hit.score - (e.semanticNormalized ?? -1)) < 1e-6)
        }
        let z = try await store.search(query, mode: .hybrid(alpha: 0.5, normalization: .zScore), explain: true)
        #expect(z.hits.allSatisfy { ($0.explanation?.semanticNormalized ?? -1) > 0 })
    }

    /// With no weight on meaning, documents no keyword matched all fuse to 0: they follow the keyword matches
    /// in order of meaning, not of storage.
    @Test func tiesAreOrderedByMeaning() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert(Corpus.documents)
        let results = try await store.search(
            "disk usage alert", mode: .hybrid(alpha: 0), limit: 20, boosts: .none, explain: true)
        let unmatched = results.hits.filter { $0.explanation?.keywordRank == nil }
        #expect(unmatched.count >= 2)
        #expect(unmatched.allSatisfy { $0.score == 0 })
        let meaning = unmatched.map { $0.explanation?.semanticScore ?? -1 }
        #expect(meaning == meaning.sorted(by: >))
        #expect(meaning.first != meaning.last)
    }

    /// The default hybrid weight follows the model and the query's language (measured on the multilingual
    /// man-page set; see docs/benchmarks.md).
    @Test func defaultAlphaFollowsTheModelAndTheQueryLanguage() async throws {
        let english = try await HushStore.inMemory(embedder: HashingUnderNeuralIdentity(languageScope: .monolingual))
        #expect(english.hybridAlpha(queryLanguage: "en") == 0.6)
        #expect(english.hybridAlpha(queryLanguage: "und") == 0.6)
        #expect(english.hybridAlpha(queryLanguage: "zh") == 0)
        #expect(english.hybridAlpha(queryLanguage: "ja") == 0)
        #expect(english.hybridAlpha(queryLanguage: "de") == 0.3)
        // A tag as an app's locale gives it counts as its language.
        #expect(english.hybridAlpha(queryLanguage: "zh-Hans") == 0)
        #expect(english.hybridAlpha(queryLanguage: "EN_us") == 0.6)
        func intercept(_ value: Float) -> ScoreCalibration.Coefficients {
            .init(intercept: value, cosine: 0, standing: 0, keyword: 0, product: 0)
        }
        let calibration = ScoreCalibration(
            name: "t", english: intercept(1), cjk: intercept(2), other: intercept(3), recommendedMinScore: 0.5)
        #expect(calibration.coefficients(forLanguage: "zh-Hant").intercept == 2)
        #expect(calibration.coefficients(forLanguage: "en-GB").intercept == 1)
        #expect(calibration.coefficients(forLanguage: "pt_BR").intercept == 3)
        let multilingual = try await HushStore.inMemory(
            embedder: HashingUnderNeuralIdentity(languageScope: .multilingual))
        let lexical = try await HushStore.inMemory(embedder: HashingEmbedder())
        for language in ["en", "zh", "ja", "de", "und"] {
            #expect(multilingual.hybridAlpha(queryLanguage: language) == 0.75)
            #expect(lexical.hybridAlpha(queryLanguage: language) == 0.15)  // English was 0.6, Chinese 0
        }
        // A Chinese query with program names in Latin letters is Chinese, so an English model leaves it to
        // the keyword arm: the default ranking is the keyword ranking, followed by meaning.
        try await english.upsert([
            Document(id: "ab", body: "ab 是 Apache HTTP 服务器性能测试工具，用来测量每秒请求数。"),
            Document(id: "fdisk", body: "fdisk 是 Linux 分区表操作工具软件。"),
            Document(id: "iconv", body: "iconv 把文件从一种字符编码转换成另一种。"),
        ])
        let query = "Apache HTTP 服务器性能测试工具"
        let byDefault = try await english.search(query, boosts: .none)
        let byKeywords = try await english.search(query, mode: .hybrid(alpha: 0), boosts: .none)
        #expect(byDefault.hits.map(\.id) == byKeywords.hits.map(\.id))
        #expect(byDefault.hits.first?.id == "ab")
    }

    @Test func reciprocalRankFusionScores() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert(Corpus.documents)
        let results = try await store.search(
            "budget travel costs", mode: .reciprocalRankFusion(), boosts: .none, explain: true)
        for hit in results.hits {
            let e = try #require(hit.explanation)
            var expected: Float = 0
            if let rank = e.semanticRank { expected += 1 / (60 + Float(rank)) }
            if let rank = e.keywordRank { expected += 1 / (60 + Float(rank)) }
            #expect(abs(hit.score - expected) < 1e-7)
        }
        #expect(results.hits.first?.id == "budget-review")
        #expect(abs((results.hits.first?.score ?? 0) - 2 / 61) < 1e-7)
    }

    @Test func semanticArmDominatesWhenNoKeywordMatches() async throws {
        // A semantic-only embedder stub: hashing vectors, but the query words appear in no document.
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert(Corpus.documents)
        let query = "maraton trainig"  // misspelt: shares character trigrams with the marathon note, no keyword
        let semantic = try await store.search(query, mode: .semantic, boosts: .none)
        #expect(try await store.search(query, mode: .keyword).hits.isEmpty)
        let hybrid = try await store.search(query, mode: .hybrid, boosts: .none, explain: true)
        #expect(hybrid.hits.map(\.id) == semantic.hits.map(\.id))
        let top = try #require(hybrid.hits.first?.explanation)
        #expect(top.keywordRank == nil)
        #expect(abs(top.baseScore - 1) < 1e-6)  // the semantic weight became 1
    }

    @Test func keywordOnlyCandidatesGetTheirExactSemanticScore() throws {
        let fused = HybridFusion.fuse(
            semantic: [(0, 0.9), (1, 0.5)], keyword: [(2, 7), (0, 3)],
            semanticScore: { [0: 0.9, 1: 0.5, 2: 0.1][$0] }, fusion: .convex(alpha: 0.5, normalization: .minMax))
        let bySlot = Dictionary(uniqueKeysWithValues: fused.map { ($0.slot, $0) })
        #expect(bySlot[2]?.explanation.semanticScore == 0.1)
        #expect(bySlot[2]?.explanation.semanticNormalized == 0)
        #expect(bySlot[2]?.explanation.keywordNormalized == 1)
        #expect(bySlot[1]?.explanation.keywordNormalized == nil)
        // A full keyword pool: its weakest candidate is where the list was cut, and min-max runs from it.
        #expect(abs((bySlot[0]?.explanation.baseScore ?? 0) - 0.5) < 1e-6)  // 0.5 × 1 + 0.5 × 0
        #expect(abs((bySlot[1]?.explanation.baseScore ?? 0) - 0.25) < 1e-6)  // 0.5 × 0.5 + 0

        // Every match returned: the keyword arm runs from "no match" (bm25 0), so the weakest match counts.
        let complete = HybridFusion.fuse(
            semantic: [(0, 0.9), (1, 0.5)], keyword: [(2, 7), (0, 3)],
            semanticScore: { [0: 0.9, 1: 0.5, 2: 0.1][$0] }, fusion: .convex(alpha: 0.5, normalization: .minMax),
            keywordComplete: true)
        let first = try #require(complete.first { $0.slot == 0 })
        #expect(abs((first.explanation.keywordNormalized ?? 0) - 3.0 / 7) < 1e-6)
        #expect(abs(first.explanation.baseScore - (0.5 + 0.5 * 3.0 / 7)) < 1e-6)
    }

    @Test func boostsNudgeButNeverGate() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert([
            Document(id: "tagged", body: "Notes from the gym session: squats and rows.", tags: ["fitness"]),
            Document(id: "plain", body: "Notes from the gym session: squats and rows!", category: "fitness"),
            Document(id: "unrelated", body: "A recipe for lentil soup.", tags: ["fitness"]),
        ])
        let plain = try await store.search("fitness gym session", boosts: .none, explain: true)
        let boosted = try await store.search(
            "fitness gym session", boosts: Boosts(perTag: 0.03, category: 0.05), explain: true)
        #expect(Set(plain.hits.map(\.id)) == Set(boosted.hits.map(\.id)))
        let plainHit = try #require(boosted.hits.first { $0.id == "plain" }?.explanation)
        #expect(plainHit.categoryBoost == 0.05 && plainHit.tagBoost == 0)
        let taggedHit = try #require(boosted.hits.first { $0.id == "tagged" }?.explanation)
        #expect(taggedHit.matchedTags == ["fitness"] && taggedHit.tagBoost == 0.03)
        // Boosts are small: the lentil soup note gets the tag boost but stays last.
        #expect(boosted.hits.last?.id == "unrelated")
        // Stemmed tag words match inflected query words.
        try await store.upsert([Document(id: "runner", body: "Interval training.", tags: ["running"])])
        let runs = try await store.search("runs", mode: .semantic, explain: true)
        #expect(runs.hits.first { $0.id == "runner" }?.explanation?.matchedTags == ["running"])
    }

    @Test func scoresThatDifferOnlyByFloatNoiseNormaliseEqually() {
        let noisy: [Float] = [0.731_254_3, 0.731_254_4, 0.731_254_2, 0.731_254_3]
        for normalization in [SearchMode.Normalization.minMax, .zScore] {
            let normalize = HybridFusion.normalizer(noisy, normalization)
            let values = Set(noisy.map(normalize))
            #expect(values.count == 1, "\(normalization): \(values)")
        }
        // A real spread is still stretched.
        let spread = HybridFusion.normalizer([0.2, 0.5, 0.8], .minMax)
        #expect(spread(0.2) == 0 && spread(0.8) == 1)
    }

    @Test func identicalRecordsGetIdenticalHybridScores() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        let text = "Walked to the river after dinner and felt calmer."
        let base = try HashingEmbedder().embed(text, role: .passage).vector
        var documents: [Document] = []
        var vectors: [[Float]] = []
        for index in 0..<17 {
            documents.append(Document(id: "same-\(index)", body: text))
            // The last bits differ, as they do when one text is embedded in different batches.
            var vector = base
            vector[index % vector.count] += Float(index) * 1e-7
            vectors.append(vector)
        }
        try await store.upsert(documents, precomputed: vectors)
        let hits = try await store.search("river after dinner", mode: .hybrid, limit: 17).hits
        #expect(hits.count == 17)
        let scores = Set(hits.map { ($0.score * 1000).rounded() })
        #expect(scores.count == 1, "\(hits.map(\.score))")
    }
}

/// Hashing vectors under a neural model's identity and language scope.
struct HashingUnderNeuralIdentity: Embedder {
    let base = HashingEmbedder()
    let languageScope: LanguageScope
    var identity: EmbedderIdentity {
        EmbedderIdentity(
            model: "test-\(languageScope)", weightsSHA256: "none", dimension: base.dimension, pooling: .mean,
            normalized: true)
    }
    var maxTokens: Int { base.maxTokens }
    func embed(_ texts: [String], role: EmbeddingRole) throws -> [Embedding] {
        try base.embed(texts, role: role)
    }
    func tokenCount(_ text: String) -> Int { base.tokenCount(text) }
}
