import Foundation
import GRDB
import HushTestSupport
import Testing

@testable import Hush

/// Cancelling a long write: it stops at its next checkpoint, keeps every committed batch (the file whole, each
/// committed document searchable), and the same call again embeds only what was not committed. (How fast it
/// stops with a real model is measured by `hush-bench app cancel`, not timed here.)
@Suite struct StoreCancellationTests {
    /// The lexical embedder, slowed to `delay` per text (a model's pace), counting the texts it embedded.
    final class SlowEmbedder: Embedder, @unchecked Sendable {
        let base: HashingEmbedder
        let delay: Duration
        private let lock = NSLock()
        private var count = 0

        init(dimension: Int = 384, delay: Duration = .milliseconds(2)) {
            base = HashingEmbedder(dimension: dimension)
            self.delay = delay
        }

        var identity: EmbedderIdentity { base.identity }
        var maxTokens: Int { base.maxTokens }
        var embedded: Int { lock.withLock { count } }

        func embed(_ texts: [String], role: EmbeddingRole) throws -> [Embedding] {
            let seconds = Double(delay.components.attoseconds) / 1e18 + Double(delay.components.seconds)
            Thread.sleep(forTimeInterval: seconds * Double(texts.count))
            lock.withLock { count += texts.count }
            return try base.embed(texts, role: role)
        }

        func tokenCount(_ text: String) -> Int { base.tokenCount(text) }
    }

    /// 300 journal-like entries, each with a word of its own (`entry<n>`) to find it by.
    static let entries: [Document] = (0..<300).map { n in
        let source = Corpus.documents[n % Corpus.documents.count]
        return Document(
            id: "entry-\(n)", title: source.title, body: (source.body) + " Marker entry\(n).", tags: source.tags)
    }

    static func open(_ path: String, embedder: any Embedder) async throws -> HushStore {
        try await HushStore.open(
            path: path, embedder: embedder, options: StoreOptions(batchSize: 10, embeddingBatchSize: 4))
    }

    /// Cancels a task from a write's progress callback (on the write's own thread, whatever the test's
    /// threads are doing), once the progress reaches `at`, and remembers the progress then.
    final class Canceller: @unchecked Sendable {
        private let lock = NSLock()
        private var task: Task<Void, any Error>?
        private var firedAt: Int?
        let at: Int

        init(at: Int) { self.at = at }

        func arm(_ task: Task<Void, any Error>) { lock.withLock { self.task = task } }

        /// Called with each progress value.
        func progressed(_ completed: Int) {
            lock.withLock {
                guard firedAt == nil, completed >= at, let task else { return }
                firedAt = completed
                task.cancel()
            }
        }

        var cancelledAt: Int? { lock.withLock { firedAt } }
    }

    @Test func aCancelledUpsertKeepsWhatItCommittedAndTheSameCallResumes() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("journal.hush")
        let slow = SlowEmbedder()
        let store = try await Self.open(path, embedder: slow)
        let log = ProgressLog()
        let canceller = Canceller(at: 30)
        let task = Task {
            _ = try await store.upsert(Self.entries) { step in
                log.append(step)
                canceller.progressed(step.completed)
            }
        }
        canceller.arm(task)
        await #expect(throws: CancellationError.self) { try await task.value }

        // The batch after the cancel stopped at its first checkpoint: nothing after it was written.
        let kept = try await store.stats().documents
        let cancelledAt = try #require(canceller.cancelledAt)
        #expect(kept == cancelledAt && kept < Self.entries.count)
        #expect(kept % 10 == 0, "a batch is all or nothing")
        #expect(log.entries.last?.completed == kept)
        let check = try store.database.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") }
        #expect(check == "ok")
        for n in [0, kept / 2, kept - 1] {
            #expect(try await store.search("entry\(n)", mode: .keyword).hits.first?.id == "entry-\(n)")
            #expect(try await store.search("entry\(n)", mode: .semantic, limit: 1).hits.count == 1)
        }
        #expect(try await store.search("entry\(kept)", mode: .keyword).hits.isEmpty)

        // Again: only what was not committed is embedded.
        let before = slow.embedded
        let summary = try await store.upsert(Self.entries)
        #expect(summary.unchanged == kept)
        #expect(summary.added == Self.entries.count - kept)
        #expect(slow.embedded - before == summary.chunksEmbedded)
        #expect(try await store.stats().documents == Self.entries.count)
        try await store.close()
    }

    @Test func aWriteCancelledBeforeItStartsDoesNothing() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await store.upsert(Corpus.documents)
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try await store.stats().documents == 0)
        #expect(try await store.upsert(Corpus.documents).added == Corpus.documents.count)
    }

    @Test func aCancelledReembedResumesWhereItStopped() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("journal.hush")
        let first = try await Self.open(path, embedder: HashingEmbedder())
        try await first.upsert(Self.entries)
        try await first.close()

        let slow = SlowEmbedder(dimension: 256)
        let store = try await HushStore.open(
            path: path, embedder: slow, options: StoreOptions(allowEmbedderMismatch: true))
        let canceller = Canceller(at: 40)
        let task = Task { try await store.reembed(batchSize: 8) { canceller.progressed($0.completed) } }
        canceller.arm(task)
        await #expect(throws: CancellationError.self) { try await task.value }
        let stopped = try #require(try await store.stats().unfinishedReembed)
        #expect(stopped.completed == canceller.cancelledAt && stopped.completed < stopped.total)
        // The old vectors still answer until it finishes.
        #expect(try await store.search("entry7", mode: .keyword).hits.first?.id == "entry-7")

        let before = slow.embedded
        try await store.reembed(batchSize: 8)
        #expect(slow.embedded - before == stopped.total - stopped.completed)
        #expect(try await store.stats().unfinishedReembed == nil)
        #expect(try await store.stats().embedder == slow.identity)
        try await store.close()
    }

    /// A prune deletes in transactions of 500 documents: cancelled after the first, it keeps that one (the
    /// oldest documents gone, every other one searchable, the file whole) and the same call deletes the rest.
    @Test func aCancelledPruneKeepsWhatItDeletedAndTheSameCallDeletesTheRest() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("feed.hush")
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let posts = (0..<1_300).map { n in
            Document(id: "post-\(n)", body: "Post number \(n), marker post\(n).", createdAt: start + Double(n) * 60)
        }
        let store = try await HushStore.open(path: path, embedder: HashingEmbedder(dimension: 64))
        try await store.upsert(posts)
        let canceller = Canceller(at: 1)
        let task = Task { _ = try await store.prune(maxDocuments: 100) { canceller.progressed($0.completed) } }
        canceller.arm(task)
        await #expect(throws: CancellationError.self) { try await task.value }

        #expect(canceller.cancelledAt == StoreWriter.pruneBatchSize)
        #expect(try await store.stats().documents == posts.count - StoreWriter.pruneBatchSize)
        let check = try store.database.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") }
        #expect(check == "ok")
        #expect(try await store.search("post0", mode: .keyword).hits.isEmpty)
        #expect(try await store.search("post499", mode: .keyword).hits.isEmpty)
        #expect(try await store.search("post500", mode: .keyword).hits.first?.id == "post-500")
        #expect(try await store.document(id: "post-499") == nil)

        let log = ProgressLog()
        #expect(try await store.prune(maxDocuments: 100) { log.append($0) } == posts.count - 500 - 100)
        #expect(log.entries.map(\.completed) == [500, 700] && log.entries.allSatisfy { $0.total == 700 })
        #expect(try await store.stats().documents == 100)
        #expect(try await store.search("post1199", mode: .keyword).hits.isEmpty)
        #expect(try await store.search("post1200", mode: .keyword).hits.first?.id == "post-1200")
        #expect(try await store.search("post number", mode: .semantic, limit: 200).hits.count == 100)

        // A compaction hears its write's flag (inside its VACUUM too: see the test below): cancelled, it leaves
        // the file as it was; then it runs.
        let flag = CancellationFlag()
        flag.cancel()
        let before = try store.database.storageBytes()
        #expect(throws: CancellationError.self) { try flag.bound { try store.writer.compact() } }
        #expect(try store.database.storageBytes() == before)
        #expect(try await store.compact().reclaimedBytes > 0)
        #expect(try await store.stats().documents == 100)
        try await store.close()
    }

    /// A statement that runs long on its own (a VACUUM, here a query of ten million steps) stops inside SQLite
    /// once its flag is raised, with `CancellationError`, and the connection works on.
    @Test func aLongStatementStopsInsideSQLiteWhenItsFlagIsRaised() throws {
        let queue = try DatabaseQueue()
        let flag = CancellationFlag()
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { flag.cancel() }
        let started = Date()
        #expect(throws: CancellationError.self) {
            try queue.read { db in
                try db.interruptible(by: flag) {
                    try Int.fetchOne(
                        db,
                        sql: """
                            WITH RECURSIVE steps(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM steps WHERE n < 1e9)
                            SELECT count(*) FROM steps
                            """)
                }
            }
        }
        #expect(Date().timeIntervalSince(started) < 30, "a billion steps were not run to their end")
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT 1") } == 1)
        // Without a flag, or with one never raised, the statement runs to its end.
        #expect(
            try queue.read { db in
                try db.interruptible(by: CancellationFlag()) { try Int.fetchOne(db, sql: "SELECT 2") }
            } == 2)
    }
}
