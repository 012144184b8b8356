import Foundation
import HushTestSupport
import Testing

@testable import Hush

/// Timings, not assertions about speed: run with `HUSH_BENCH=1 swift test -c release -Xswiftc -enable-testing
/// --filter StoreBenchmarkTests` and read the printed lines.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["HUSH_BENCH"] == "1"))
struct StoreBenchmarkTests {
    @Test func exactScanOf100kBy384() {
        let rows = 100_000
        let dimension = 384
        let identity = EmbedderIdentity(
            model: "bench", weightsSHA256: "none", dimension: dimension, pooling: .mean, normalized: true)
        let memory = StoreMemory(identity: identity, gap: nil)
        var generator = SystemRandomNumberGenerator()
        memory.write { state in
            state.matrix.reserve(rows: rows)
            var vector = [Float](repeating: 0, count: dimension)
            for row in 0..<rows {
                if row % 4 == 0 {
                    state.documents.upsert(
                        DocumentRecord(
                            rowid: Int64(row / 4), externalID: "d\(row / 4)", language: "en", sourceType: "note",
                            tags: row % 400 == 0 ? ["rare"] : ["common"], category: nil, createdAt: 0, metadata: [:]))
                }
                for c in 0..<dimension { vector[c] = Float.random(in: -1...1, using: &generator) }
                let slot = state.documents.slot(ofRowid: Int64(row / 4)) ?? 0
                state.matrix.set(chunkID: Int64(row), slot: slot, row: Int32(row), vector: vector)
            }
        }
        let query = (0..<dimension).map { _ in Float.random(in: -1...1, using: &generator) }
        let clock = ContinuousClock()
        for label in ["no filter", "1% filter"] {
            var best = Duration.seconds(10)
            for _ in 0..<10 {
                let start = clock.now
                let top = memory.read { state -> [(id: Int, score: Float)] in
                    let mask = label == "no filter" ? nil : state.documents.mask(for: SearchFilter(tagsAny: ["rare"]))
                    return state.scoreDocuments(query: query, mask: mask).top(10)
                }
                best = min(best, clock.now - start)
                #expect(top.count == 10)
            }
            print("BENCH exact scan \(rows)x\(dimension) (\(label)): best \(Searcher.milliseconds(best)) ms")
        }
    }

    @Test func upsertThroughput() async throws {
        let directory = try TemporaryDirectory()
        let store = try await HushStore.open(path: directory.path("bench.hush"), embedder: HashingEmbedder())
        let documents = (0..<5_000).map {
            Document(
                id: "doc-\($0)", title: "Note \($0)",
                body:
                    "Meeting \($0) about the quarterly plan, hiring, travel budget and the launch of feature \($0 % 37).",
                tags: ["t\($0 % 11)"], category: "c\($0 % 3)")
        }
        let clock = ContinuousClock()
        let start = clock.now
        let summary = try await store.upsert(documents)
        let total = Searcher.milliseconds(clock.now - start)
        let embedStart = clock.now
        let preparer = DocumentPreparer(embedder: HashingEmbedder())
        for document in documents {
            _ = try HashingEmbedder().embed(preparer.prepare(document).chunks.map(\.text), role: .passage)
        }
        let prepareAndEmbed = Searcher.milliseconds(clock.now - embedStart)
        print(
            "BENCH upsert \(summary.added) docs: \(total) ms total, \(prepareAndEmbed) ms of it preparing+embedding "
                + "(hashing embedder)")
        for mode in [SearchMode.hybrid, .semantic, .keyword] {
            let searchStart = clock.now
            for index in 0..<50 { _ = try await store.search("travel budget plan \(index)", mode: mode, limit: 10) }
            let each = Searcher.milliseconds(clock.now - searchStart) / 50
            print("BENCH \(mode.kind) search over 5k docs (query matching every doc): \(each) ms each")
        }
    }
}
