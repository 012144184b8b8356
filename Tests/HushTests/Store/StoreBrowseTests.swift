import Foundation
import HushTestSupport
import Testing

@testable import Hush

/// Listing what a store holds (`documentIDs(matching:order:)`) and reading it a page at a time
/// (`documents(ids:)`): what `hush list` and `hush export` are made of.
@Suite struct StoreBrowseTests {
    static let entries = [
        Document(
            id: "b-sleep", title: "Sleep", body: "Woke at three again and could not fall back asleep.",
            language: "en", tags: ["health"], createdAt: date("2026-03-02")),
        Document(
            id: "a-run", body: "Ran ten kilometres by the river before work.", language: "en",
            tags: ["health", "sport"], createdAt: date("2026-03-05")),
        Document(
            id: "c-失眠", body: "又失眠了，凌晨三点醒来就再也睡不着。", language: "zh-Hans", tags: ["health"],
            createdAt: date("2026-03-01")),
        Document(
            id: "d-budget", title: "Budget", body: "Rent, groceries and the ferry pass for April.",
            fields: [.init(label: "Total", value: "1,240 EUR")], language: "en", tags: ["money"],
            createdAt: date("2026-03-05")),
    ]

    @Test func everyDocumentIsListedInTheOrderAsked() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert(Self.entries)
        // Newest first; "a-run" and "d-budget" share a day, and the later stored comes first.
        #expect(try await store.documentIDs() == ["d-budget", "a-run", "b-sleep", "c-失眠"])
        #expect(try await store.documentIDs(order: .oldestFirst) == ["c-失眠", "b-sleep", "a-run", "d-budget"])
        #expect(try await store.documentIDs(order: .id) == ["a-run", "b-sleep", "c-失眠", "d-budget"])

        try await store.delete(ids: ["b-sleep"])
        #expect(try await store.documentIDs(order: .id) == ["a-run", "c-失眠", "d-budget"])
    }

    @Test func aListTakesTheFilterSearchesTake() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert(Self.entries)
        #expect(
            try await store.documentIDs(matching: SearchFilter(tagsAny: ["sport", "money"])) == ["d-budget", "a-run"])
        #expect(try await store.documentIDs(matching: SearchFilter(languages: ["zh"])) == ["c-失眠"])
        #expect(try await store.documentIDs(matching: SearchFilter(languages: ["zh-Hant"])).isEmpty)
        let march = SearchFilter(createdAfter: date("2026-03-02"), createdBefore: date("2026-03-05"))
        #expect(try await store.documentIDs(matching: march) == ["b-sleep"])
        #expect(try await store.documentIDs(matching: SearchFilter(excludedIDs: ["a-run", "d-budget"])).count == 2)
    }

    @Test func documentsComeBackWholeInTheOrderGiven() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert(Self.entries)
        let read = try await store.documents(ids: ["d-budget", "missing", "c-失眠", "d-budget"])
        #expect(read.map(\.document.id) == ["d-budget", "c-失眠", "d-budget"])
        let budget = read[0].document
        #expect(budget.title == "Budget" && budget.fields == [.init(label: "Total", value: "1,240 EUR")])
        #expect(budget.createdAt == date("2026-03-05") && budget.tags == ["money"])
        #expect(read[1].language == "zh-Hans" && read[1].document.body.hasPrefix("又失眠了"))
        // An id in another Unicode normal form is the same id, as for `document(id:)`.
        let decomposed = "caf\u{65}\u{301}"
        try await store.upsert([Document(id: "caf\u{e9}", body: "Coffee with Ana.")])
        #expect(try await store.documents(ids: [decomposed]).map(\.document.id) == ["caf\u{e9}"])
        #expect(try await store.documents(ids: []).isEmpty)
    }

    /// What a prune would delete is said before it, and is what it then deletes.
    @Test func pruneCandidatesAreWhatAPruneDeletes() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert(Self.entries)
        #expect(try await store.pruneCandidates(maxDocuments: 2) == ["c-失眠", "b-sleep"])
        #expect(try await store.pruneCandidates(olderThan: date("2026-03-02")) == ["c-失眠"])
        #expect(try await store.pruneCandidates(maxDocuments: 3, olderThan: date("2026-03-02")) == ["c-失眠"])
        #expect(try await store.pruneCandidates().isEmpty)
        await #expect(throws: StoreError.self) { try await store.pruneCandidates(maxDocuments: -1) }
        let doomed = try await store.pruneCandidates(maxDocuments: 1)
        #expect(try await store.documentIDs().count == 4)
        #expect(try await store.prune(maxDocuments: 1) == doomed.count)
        #expect(try await store.documentIDs(order: .oldestFirst) == ["d-budget"])
        #expect(Set(doomed) == ["a-run", "b-sleep", "c-失眠"])
    }
}
