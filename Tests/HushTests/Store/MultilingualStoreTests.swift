import Foundation
import HushEmbedding
import HushTestSupport
import Testing

@testable import Hush

/// The engine with a multilingual model: cross-language search, related items and interest ranking without
/// language partitions, token-counted chunking of Chinese, and the stored identity with its prefixes.
@Suite(.needsModel) struct MultilingualStoreTests {
    /// A bilingual journal: the same worries in English and Simplified Chinese, plus other topics.
    static let journal: [Document] = [
        Document(
            id: "zh-ex", body: "分手半年了，我还是很想给前任发消息，但又怕打扰对方，也怕自己再受伤。", language: "zh"),
        Document(
            id: "en-ex",
            body:
                "It has been months since the breakup and I keep wanting to message my ex, but I am afraid it would reopen everything.",
            language: "en"),
        Document(id: "zh-sleep", body: "最近总是失眠，半夜三点醒来就再也睡不着，白天上班没有精神。", language: "zh"),
        Document(
            id: "en-budget", body: "We went over the household budget and cut the streaming subscriptions.",
            language: "en"),
        Document(id: "zh-garden", body: "周末在阳台种了番茄和罗勒，希望夏天能有收获。", language: "zh"),
        Document(
            id: "en-run", body: "Ran ten kilometres along the river before work; my knees felt fine.", language: "en"),
    ]

    func store() async throws -> HushStore {
        let store = try await HushStore.inMemory(embedder: try TestModels.e5Embedder())
        try await store.upsert(Self.journal)
        return store
    }

    /// A query longer than the model's window (about 100,000 characters here) is embedded from its first window
    /// only, so its cost is bounded; the analysis says how much the model read, and the keyword arm keeps every
    /// word.
    @Test func aQueryLongerThanTheWindowIsEmbeddedFromItsFirstWindow() async throws {
        let store = try await store()
        let embedder = try TestModels.e5Embedder()
        let opening = "I keep wanting to text my ex after the breakup."
        let filler = String(repeating: "The garden needs tomatoes, basil and patience this summer. ", count: 1_700)
        let query = opening + " " + filler
        #expect(query.count > 100_000)
        let analysis = store.analyze(query)
        let kept = try #require(analysis.modelCharacters)
        #expect(kept < 4_000)
        let prefix = String(analysis.cleaned.prefix(kept))
        let budget = embedder.maxTokens - 8
        #expect(embedder.tokenCount(prefix) <= budget)
        #expect(embedder.tokenCount(String(analysis.cleaned.prefix(kept + 2))) > budget)
        // The search embeds exactly that prefix: the same hits and scores as the prefix typed alone.
        let long = try await store.search(query, mode: .semantic, limit: 3)
        let short = try await store.search(prefix, mode: .semantic, limit: 3)
        #expect(long.hits.map(\.id) == short.hits.map(\.id))
        #expect(long.hits.map(\.score) == short.hits.map(\.score))
        #expect(long.hits.first?.id == "en-ex")  // the opening sentence is inside the window
        // Keywords use every word; a query that fits is embedded whole.
        #expect(analysis.terms.contains("patience"))
        #expect(store.analyze(opening).modelCharacters == nil)
    }

    @Test func anEnglishQueryFindsTheChineseEntryThatSaysTheSame() async throws {
        let store = try await store()
        let sleep = try await store.search("I wake up at night and cannot fall asleep again", mode: .semantic, limit: 3)
        #expect(sleep.hits.first?.id == "zh-sleep", "\(sleep.hits.map(\.id))")
        let hybrid = try await store.search("I can't sleep at night", mode: .hybrid, limit: 3)
        #expect(hybrid.hits.first?.id == "zh-sleep", "\(hybrid.hits.map(\.id))")
        let garden = try await store.search("growing tomatoes on the balcony", limit: 3)
        #expect(garden.hits.first?.id == "zh-garden", "\(garden.hits.map(\.id))")
        // And the other way round, among English entries (the journal example's case): "ran ten kilometres,
        // my knees are fine". Without the filter, short Chinese queries lean towards Chinese entries.
        let run = try await store.search(
            "跑了十公里，膝盖还好", mode: .semantic, filter: SearchFilter(languages: ["en"]), limit: 2)
        #expect(run.hits.first?.id == "en-run", "\(run.hits.map(\.id))")
    }

    @Test func relatedAndInterestCrossLanguagesByDefault() async throws {
        let store = try await store()
        let related = try await store.related(to: "en-ex", limit: 2)
        #expect(related.first?.id == "zh-ex", "\(related.map(\.id))")
        let sameLanguage = try await store.related(to: "en-ex", limit: 5, sameLanguage: true)
        #expect(sameLanguage.allSatisfy { $0.id.hasPrefix("en-") })

        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let ranked = try await store.rank(liked: ["en-ex"], options: InterestOptions(alpha: 1, now: now))
        #expect(ranked.first?.id == "zh-ex", "\(ranked.map(\.id))")
        #expect(ranked.allSatisfy { $0.score != nil }, "one centroid for all languages scores every document")
        let partitioned = try await store.rank(
            liked: ["en-ex"], options: InterestOptions(alpha: 1, now: now, perLanguage: true))
        #expect(partitioned.filter { $0.score != nil }.allSatisfy { $0.id.hasPrefix("en-") })
        #expect(partitioned.contains { $0.id == "zh-ex" && $0.score == nil })
    }

    /// Chinese has no spaces: chunks are sized in the model's own tokens and cut between sentences
    /// (`。！？；`), or between characters for one over-long sentence, never inside a character.
    @Test func chineseIsChunkedByTokensAtSentenceEnds() throws {
        let e5 = try TestModels.e5Embedder()
        let sentences = [
            "今天早上下了很大的雨。", "我们在咖啡馆里讨论了新的项目计划！", "大家都同意先做一个小的原型？",
            "预算还没有最后确定；", "下周一再开会决定。",
        ]
        let text = String(repeating: sentences.joined(), count: 6)
        let chunker = Chunker(
            configuration: ChunkingConfiguration(maxTokens: 48, targetTokens: 40, overlapTokens: 0, prefixTitle: false),
            tokenCounter: { e5.tokenCount($0) })
        let chunks = chunker.chunk(title: nil, text: text)
        #expect(chunks.count >= 5)
        for chunk in chunks {
            #expect(chunk.tokenCount == e5.tokenCount(chunk.text))
            #expect(chunk.tokenCount <= 48, "\(chunk.tokenCount) tokens: \(chunk.text)")
            #expect(!chunk.truncated)
            #expect(["。", "！", "？", "；"].contains(chunk.text.last), "ends mid-sentence: \(chunk.text)")
        }
        #expect(chunks.map(\.text).joined() == text)

        // One sentence longer than the window is cut between characters.
        let long = String(repeating: "这是一个没有任何标点符号的非常长的句子", count: 20)
        let pieces = chunker.chunk(title: nil, text: long)
        #expect(pieces.count > 1)
        #expect(pieces.allSatisfy { $0.tokenCount <= 48 })
        #expect(pieces.map(\.text).joined() == long)
    }

    @Test func theStoreRemembersTheModelAndItsPrefixes() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.url.appendingPathComponent("e5.hush").path
        do {
            let store = try await HushStore.open(path: path, embedder: try TestModels.e5Embedder())
            try await store.upsert(Array(Self.journal.prefix(2)))
        }
        let stored = try #require(try HushStore.storedIdentity(path: path))
        #expect(stored.queryPrefix == "query: " && stored.passagePrefix == "passage: ")
        #expect(stored == (try TestModels.e5Embedder()).identity)
        #expect(ModelChoice.matching(stored) == .e5Small)
        // Opened with MiniLM, the file keeps its e5 vectors and says which model it needs.
        await #expect(throws: StoreError.self) {
            _ = try await HushStore.open(path: path, embedder: try TestModels.miniLMEmbedder())
        }
        let other = try await HushStore.open(
            path: path, embedder: try TestModels.miniLMEmbedder(), options: StoreOptions(allowEmbedderMismatch: true))
        await #expect(throws: StoreError.self) {
            _ = try await other.search("breakup", mode: .semantic)
        }
        do {
            _ = try await other.search("breakup", mode: .semantic)
        } catch StoreError.embedderMismatch(let stored, let current) {
            #expect(stored.model == "multilingual-e5-small" && current.model == "all-MiniLM-L6-v2")
        }
        let keyword = try await other.search("前任", mode: .keyword)
        #expect(keyword.hits.first?.id == "zh-ex")
    }
}
