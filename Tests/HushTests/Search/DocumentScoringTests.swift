import Foundation
import HushTestSupport
import Testing

@testable import Hush

/// A document of several chunks scores its best chunk blended with the chunk that opens it, on every path that
/// scores documents by meaning: the exact scan, the codes and the graph, and the semantic score a hybrid
/// search gives a document only its keyword arm found.
@Suite struct DocumentScoringTests {
    /// Notes of several paragraphs (with 24-token chunks, several chunks each) beside the one-chunk corpus.
    static let longNotes: [Document] = [
        Document(
            id: "allotment", title: "Allotment diary",
            body: """
                The allotment committee met on Saturday to share out the new plots by the river.
                We were given plot nine, which has a shed, two water butts and a compost bin.

                Later in the spring I planted tomatoes, courgettes and runner beans along the fence.
                The tomatoes need staking and feeding every week once the first flowers appear.

                In August the courgettes were everywhere and the neighbours took bags of them home.
                """),
        Document(
            id: "move", title: "Moving house checklist",
            body: """
                Book the removal van for the last Friday of the month and ask for two people to help.
                Tell the bank, the doctor and the council about the new address before the move.

                Pack the kitchen last: kettle, mugs and tea in one box marked open first.
                Read the gas and electricity meters on the day and photograph them.

                The old flat needs a deep clean so that the deposit comes back in full.
                """),
        Document(
            id: "trip", title: "Trip to the coast",
            body: """
                We drove to the coast on Sunday morning and walked along the cliffs to the lighthouse.
                The wind was strong and the sea was grey, but the sun came out at lunch.

                Fish and chips on the harbour wall, then ice cream while the gulls watched us.
                On the way back we stopped at a farm shop for eggs, honey and strawberries.
                """),
    ]

    static func store(_ strategy: IndexStrategy) async throws -> (HushStore, HashingEmbedder) {
        let embedder = HashingEmbedder()
        let store = try await HushStore.inMemory(
            embedder: embedder,
            options: StoreOptions(indexStrategy: strategy, chunkTokens: 24, chunkOverlapTokens: 4))
        try await store.upsert(Corpus.documents + longNotes)
        return (store, embedder)
    }

    /// The score the rule gives a stored document for `query`: best chunk, blended with the first chunk when
    /// the document has more than one.
    static func expectedScore(_ store: HushStore, id: String, query: [Float]) async throws -> Float {
        let cosines = try await store.vectors(forDocument: id).map { vector in
            zip(vector, query).reduce(Float(0)) { $0 + $1.0 * $1.1 }
        }
        let best = try #require(cosines.max())
        return cosines.count == 1 ? best : 0.75 * best + 0.25 * cosines[0]
    }

    @Test(arguments: IndexStrategy.allCases)
    func semanticScoresBlendTheBestChunkWithTheLead(_ strategy: IndexStrategy) async throws {
        let (store, embedder) = try await Self.store(strategy)
        for id in Self.longNotes.map(\.id) {
            #expect(try await store.vectors(forDocument: id).count >= 3)
        }
        var blended = 0
        for text in ["planting tomatoes by the fence", "gas meter readings on moving day", "ice cream at the harbour"] {
            let query = try embedder.embed(text, role: .query).vector
            let hits = try await store.search(text, mode: .semantic, limit: 20).hits
            #expect(hits.count == Corpus.documents.count + Self.longNotes.count)
            for hit in hits {
                let expected = try await Self.expectedScore(store, id: hit.id, query: query)
                #expect(abs(hit.score - expected) < 1e-5, "\(strategy) \(hit.id): \(hit.score) != \(expected)")
                let vectors = try await store.vectors(forDocument: hit.id)
                let best = vectors.map { zip($0, query).reduce(Float(0)) { $0 + $1.0 * $1.1 } }.max() ?? 0
                if abs(best - expected) > 1e-4 { blended += 1 }
            }
            #expect(zip(hits, hits.dropFirst()).allSatisfy { $0.score >= $1.score })
        }
        #expect(blended > 0)  // some best chunk was not the lead, so the rule was exercised
    }

    @Test func aKeywordOnlyCandidateIsScoredByTheSameRule() async throws {
        // A hybrid search scores a document that only its keyword arm found with `exactBest`: the same rule.
        let (store, embedder) = try await Self.store(.exact)
        for text in ["deposit back in full", "runner beans"] {
            let query = try embedder.embed(text, role: .query).vector
            for id in (Corpus.documents + Self.longNotes).map(\.id) {
                let hit = try store.memory.read { state -> DocumentHit? in
                    guard let slot = state.slot(ofExternalID: id) else { return nil }
                    return try state.exactBest(slot: slot, query: query)
                }
                let score = try #require(hit?.score)
                #expect(abs(score - (try await Self.expectedScore(store, id: id, query: query))) < 1e-5, "\(id)")
            }
        }
    }

    @Test func theLeadIsTheOpeningChunkAfterRewritesAndReuse() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("lead.hush")
        let embedder = HashingEmbedder()
        let options = StoreOptions(indexStrategy: .exact, chunkTokens: 24, chunkOverlapTokens: 4)
        do {
            let store = try await HushStore.open(path: path, embedder: embedder, options: options)
            try await store.upsert(Self.longNotes)
            // Holes at the lowest rows, then a rewrite whose new chunks fill them in another order of rows.
            try await store.delete(ids: ["allotment"])
            var move = Self.longNotes[1]
            move.body = "Ask the neighbours to keep the parking space free on the day of the move.\n\n" + move.body
            try await store.upsert([move])
        }
        // Reopened: the matrix is rebuilt from the file's rows.
        let store = try await HushStore.open(path: path, embedder: embedder, options: options)
        for text in ["parking space for the removal van", "strawberries from the farm shop"] {
            let query = try embedder.embed(text, role: .query).vector
            for hit in try await store.search(text, mode: .semantic, limit: 5).hits {
                let expected = try await Self.expectedScore(store, id: hit.id, query: query)
                #expect(abs(hit.score - expected) < 1e-5, "\(hit.id): \(hit.score) != \(expected)")
            }
        }
    }

    @Test func theLeadRowFollowsTheLowestChunkIDWhateverTheRows() throws {
        var matrix = VectorMatrix(dimension: 2)
        var allocator = matrix.allocator
        for _ in 0..<8 { _ = allocator.allocate() }
        matrix.commit(allocator)
        // One document (slot 0) whose opening chunk (id 10) sits on a higher row than its second (id 11).
        matrix.set(chunkID: 11, slot: 0, row: 2, vector: [0, 1])
        #expect(matrix.leadRow(ofSlot: 0) == nil)  // one chunk: nothing to blend
        matrix.set(chunkID: 10, slot: 0, row: 5, vector: [1, 0])
        matrix.set(chunkID: 12, slot: 0, row: 1, vector: [1, 1])
        #expect(matrix.leadRow(ofSlot: 0) == 5)
        #expect(matrix.rows(ofSlot: 0).first == 5 && Set(matrix.rows(ofSlot: 0)) == [1, 2, 5])
        // The opening chunk removed: the next lowest id leads.
        matrix.remove(chunkID: 10)
        #expect(matrix.leadRow(ofSlot: 0) == 2)
        matrix.remove(chunkID: 12)
        #expect(matrix.leadRow(ofSlot: 0) == nil && matrix.rows(ofSlot: 0) == [2])
        // The maps of a file-backed matrix, rows in any order: the same rule.
        let fileBacked = try VectorMatrix(dimension: 2, fileRows: [21, 20, -1, 22], slots: [3, 3, -1, 3])
        #expect(fileBacked.leadRow(ofSlot: 3) == 1)
    }
}
