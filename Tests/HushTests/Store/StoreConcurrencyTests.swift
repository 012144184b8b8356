import Foundation
import HushTestSupport
import Testing

@testable import Hush

/// Searches beside a writer in one store, also run under Thread Sanitizer (`make test-tsan`, and `make test`).
@Suite struct StoreConcurrencyTests {
    @Test func concurrentSearchesDuringIndexingSeeConsistentStates() async throws {
        let directory = try TemporaryDirectory()
        let store = try await HushStore.open(
            path: directory.path("c.hush"), embedder: HashingEmbedder(), options: StoreOptions(batchSize: 8))
        try await store.upsert(Corpus.documents)
        let extra = (0..<120).map {
            Document(id: "extra-\($0)", body: "Shopping list \($0): apples, oats, coffee and \($0 % 5) lemons.")
        }
        try await withThrowingTaskGroup(of: Int.self) { group in
            group.addTask {
                for start in stride(from: 0, to: extra.count, by: 20) {
                    try await store.upsert(Array(extra[start..<(start + 20)]))
                    if start == 60 { try await store.delete(ids: ["extra-0", "extra-1"]) }
                }
                return 0
            }
            for worker in 0..<3 {
                group.addTask {
                    var checked = 0
                    for round in 0..<25 {
                        let query = ["sore knee", "coffee lemons", "disk space", "sourdough"][(worker + round) % 4]
                        let results = try await store.search(query, limit: 5)
                        for hit in results.hits { #expect(!hit.text.isEmpty) }
                        let marathon = try await store.search("sore knee long run", mode: .semantic, limit: 1)
                        #expect(marathon.hits.first?.id == "marathon")
                        checked += 1
                    }
                    return checked
                }
            }
            var total = 0
            for try await count in group { total += count }
            #expect(total == 75)
        }
        #expect(try await store.stats().documents == Corpus.documents.count + extra.count - 2)
        try await expectConsistent(store)
    }
}
