import Foundation
import Testing

@testable import Hush

/// Search as you type (`SearchMode.asYouType`): the last word being typed matches as the start of longer words,
/// and a whole word searches exactly as without the option.
@Suite struct SearchAsYouTypeTests {
    static let documents = [
        Document(id: "sleep", title: "Insomnia", body: "Insomnia after a stressful week: lying awake until three."),
        Document(id: "joy", title: "Small joys", body: "Happiness is a walk in the park and a warm café au lait."),
        Document(id: "run", title: "Starting to run", body: "Running three times a week made the mornings easier."),
        Document(id: "flies", title: "Summer", body: "Flies everywhere in the kitchen, windows open all day."),
        Document(id: "budget", title: "Budget review", body: "Travel costs went up; the budget needs cutting."),
        Document(id: "de", title: "Arbeit", body: "Die Überstunden werden zu viel, ich schlafe schlecht."),
        Document(id: "zh", title: "失眠", body: "最近总是失眠，半夜醒来就睡不着。"),
    ]

    static func store() async throws -> HushStore {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert(documents)
        return store
    }

    @Test func theWordBeingTypedIsTheLastOneWithNothingAfterIt() {
        #expect(FTSQuery.partialLastWord("trouble slee").map { [$0.word, String($0.before)] } == ["slee", "trouble "])
        #expect(FTSQuery.partialLastWord("Insom").map(\.word) == "insom")
        #expect(FTSQuery.partialLastWord("trouble ") == nil)
        #expect(FTSQuery.partialLastWord("sleep?") == nil)
        #expect(FTSQuery.partialLastWord("a") == nil)  // one character
        #expect(FTSQuery.partialLastWord("失眠") == nil)  // CJK: bigrams
        #expect(FTSQuery.partialLastWord("") == nil)
        #expect(FTSQuery.partialLastWord("über").map(\.word) == "über")
    }

    @Test func prefixTokensReachStemsShorterThanWhatWasTyped() {
        #expect(
            FTSQuery.prefixTokens("happines") == [
                "\"happines\"*", "\"happin\"", "\"happi\"", "\"happ\"",
            ])
        #expect(FTSQuery.prefixTokens("runn") == ["\"runn\"*", "\"run\""])
        #expect(FTSQuery.prefixTokens("in") == ["\"in\"*"])
        #expect(FTSQuery.prefixTokens("insom") == ["\"insom\"*", "\"inso\""])  // not "ins", which stems to "in"
    }

    @Test func aPartialWordFindsTheLongerWordsItStarts() async throws {
        let store = try await Self.store()
        let typing = SearchMode.keyword.whileTyping
        #expect(try await store.search("insom", mode: .keyword).hits.isEmpty)
        #expect(try await store.search("insom", mode: typing).hits.map(\.id) == ["sleep"])
        // Stems shorter than what was typed: happiness -> happi, flies -> fli, running -> run.
        #expect(try await store.search("happines", mode: typing).hits.map(\.id) == ["joy"])
        #expect(try await store.search("flie", mode: typing).hits.map(\.id) == ["flies"])
        #expect(try await store.search("runn", mode: typing).hits.map(\.id).first == "run")
        // Diacritics folded as the index folds them; another language.
        #expect(try await store.search("caf", mode: typing).hits.map(\.id) == ["joy"])
        #expect(try await store.search("überst", mode: typing).hits.map(\.id) == ["de"])
        // Earlier words still count: the document with both ranks first.
        #expect(try await store.search("travel budg", mode: typing).hits.first?.id == "budget")
    }

    @Test func aWholeWordSearchesExactlyAsWithoutTheOption() async throws {
        let store = try await Self.store()
        for query in ["insomnia", "budget", "running week", "a walk in the park", "失眠", "trouble "] {
            for mode in [SearchMode.keyword, .hybrid] {
                let plain = try await store.search(query, mode: mode, limit: 7).hits
                let typed = try await store.search(query, mode: mode.whileTyping, limit: 7).hits
                #expect(typed.map(\.id) == plain.map(\.id), "\(query)")
                #expect(typed.map(\.score) == plain.map(\.score), "\(query)")
            }
        }
    }

    @Test func theSemanticArmEmbedsOnlyTheWordsBeforeThePartialOne() async throws {
        let store = try await Self.store()
        // "budget" is embedded for "budget revi" (the cache then answers "budget" without embedding it).
        _ = try await store.search("budget revi", mode: .hybrid.whileTyping)
        _ = try await store.search("budget", mode: .hybrid)
        #expect(store.metrics.queryCache.hits == 1)
        // Only a partial word: the keyword arm alone, scored as a keyword search.
        let alone = try await store.search("insom", mode: .hybrid.whileTyping).hits
        let keyword = try await store.search("insom", mode: .keyword.whileTyping).hits
        #expect(alone.map(\.id) == ["sleep"])
        #expect(alone.map(\.score) == keyword.map(\.score))
        #expect(store.metrics.queryCache.misses == 1)  // nothing embedded for it
    }

    @Test func aModeWrittenBeforeTheOptionDecodesWithoutIt() throws {
        let old = #"{"kind":"keyword","fusion":{"calibrated":{}},"candidates":50}"#
        let mode = try JSONDecoder().decode(SearchMode.self, from: Data(old.utf8))
        #expect(mode.kind == .keyword && mode.candidates == 50 && !mode.asYouType)
        let typed = try JSONDecoder().decode(SearchMode.self, from: JSONEncoder().encode(SearchMode.hybrid.whileTyping))
        #expect(typed == SearchMode.hybrid.whileTyping)
    }
}
