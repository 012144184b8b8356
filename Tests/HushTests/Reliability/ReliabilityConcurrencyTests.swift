import Foundation
import GRDB
import HushTestSupport
import HushToolSupport
import Testing

@testable import Hush

/// Readers searching while one writer upserts, updates and deletes for a bounded time (run under Thread
/// Sanitizer by `make test-tsan`).
@Suite struct ReliabilityConcurrencyTests {
    /// Seconds of mixed writing; `HUSH_RELIABILITY_SECONDS` overrides.
    static var seconds: Double {
        ProcessInfo.processInfo.environment["HUSH_RELIABILITY_SECONDS"].flatMap(Double.init) ?? 2
    }

    @Test func readersSeeCommittedStatesWhileAWriterUpsertsAndDeletes() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("busy.hush")
        let store = try await HushStore.open(
            path: path, embedder: HashingEmbedder(), options: StoreOptions(batchSize: 7))
        try await store.upsert(Corpus.documents)
        let deadline = Date().addingTimeInterval(Self.seconds)
        let sentinels = Set(Corpus.documents.map(\.id))

        let writes = try await withThrowingTaskGroup(of: (writer: Bool, count: Int, live: Set<String>).self) { group in
            group.addTask {
                var random = SplitMix(seed: 3)
                var live = Set<String>()
                var operations = 0
                var round = 0
                while Date() < deadline || operations < 10 {
                    round += 1
                    let documents = (0..<Int.random(in: 1...25, using: &random)).map { _ in
                        let number = Int.random(in: 0..<200, using: &random)
                        return Document(
                            id: "w-\(number)",
                            body: "Round \(round): grocery run for oats, lemons and \(number) cups of coffee.",
                            tags: number % 2 == 0 ? ["errands"] : ["kitchen"])
                    }
                    try await store.upsert(documents)
                    live.formUnion(documents.map(\.id))
                    let doomed = live.shuffled(using: &random).prefix(Int.random(in: 0...10, using: &random))
                    #expect(try await store.delete(ids: Array(doomed)) == doomed.count)
                    live.subtract(doomed)
                    operations += 2
                }
                return (true, operations, live)
            }
            for worker in 0..<4 {
                group.addTask {
                    var searches = 0
                    // At least a few rounds each, however busy the machine is.
                    while Date() < deadline || searches < 12 {
                        let mode = [SearchMode.semantic, .keyword, .hybrid, .reciprocalRankFusion()][searches % 4]
                        let results = try await store.search("coffee lemons oats", mode: mode, limit: 8)
                        #expect(results.hits.allSatisfy { !$0.text.isEmpty && $0.score.isFinite })
                        var filter = SearchFilter()
                        filter.tagsAny = ["errands"]
                        let filtered = try await store.search("coffee", mode: .hybrid, filter: filter, limit: 5)
                        #expect(filtered.hits.allSatisfy { $0.tags.contains("errands") })
                        // The untouched journal is always there.
                        let marathon = try await store.search("sore knee long run", mode: .semantic, limit: 1)
                        #expect(marathon.hits.first?.id == "marathon")
                        if worker == 0 {
                            let stats = try await store.stats()
                            #expect(stats.documents >= sentinels.count)
                            #expect(try await store.document(id: "garden")?.document.id == "garden")
                        }
                        searches += 3
                    }
                    return (false, searches, [])
                }
            }
            var writes = (0, Set<String>())
            var searches = 0
            for try await result in group {
                if result.writer { writes = (result.count, result.live) } else { searches += result.count }
            }
            #expect(searches > 0)
            FileHandle.standardError.write(
                Data("[reliability] in-process: \(writes.0) writes, \(searches) searches in \(Self.seconds) s\n".utf8))
            return writes
        }
        #expect(writes.0 > 0)
        let stats = try await store.stats()
        #expect(stats.documents == sentinels.count + writes.1.count)
        try await expectConsistent(store)
        // A second open of the file sees exactly what the first one wrote.
        let reopened = try await HushStore.open(path: path, embedder: HashingEmbedder())
        #expect(try await reopened.stats().documents == stats.documents)
        for id in writes.1.prefix(20) { #expect(try await reopened.document(id: id) != nil) }
    }

    /// Two connections (as two processes would) migrate the same new file at the same moment, 40 times: both
    /// succeed and each migration is recorded once. The race `StoreSchema.migrate` recovers from (GRDB decides
    /// which migrations to run before taking the write lock, so the later writer can fail on a column the
    /// earlier one just added) was seen once across processes in `twoWriterProcessesOnOneFileLoseNothing`;
    /// in one process the timing rarely reproduces it.
    @Test func concurrentMigrationsOfOneNewFileBothSucceed() throws {
        let folder = try TemporaryDirectory()
        for round in 0..<40 {
            let path = folder.path("race-\(round).hush")
            let pools = try (0..<2).map { _ in
                var configuration = Configuration()
                configuration.busyMode = .timeout(10)
                return try DatabasePool(path: path, configuration: configuration)
            }
            let errors = ErrorList()
            DispatchQueue.concurrentPerform(iterations: 2) { i in
                do {
                    try StoreSchema.migrate(pools[i])
                } catch {
                    errors.append("\(error)")
                }
            }
            #expect(errors.all == [], "round \(round)")
            let version = try pools[0].read { try StoreSchema.recordedVersion($0) }
            #expect(version == StoreSchema.version)
            let applied = try pools[1].read { try StoreSchema.migrator.appliedIdentifiers($0) }
            #expect(applied == Set((1...StoreSchema.version).map { "v\($0)" }))
        }
    }
}

/// Errors collected from concurrent work.
private final class ErrorList: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []

    func append(_ item: String) {
        lock.lock()
        items.append(item)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}
