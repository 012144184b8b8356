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

    init(configuration: BERTConfiguration, weights: BERTWeights, pooling: Pooling) {
        self.configuration = configuration
        self.weights = weights
        self.pooling = pooling
    }

    /// Floats of per-thread scratch for dequantising 4-bit weights (0 for an f32 model).
    var weightScratch: Int { weights.scratchCount }

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
        /// One 4-bit matrix dequantised for its product (nil when every weight is f32).
        let weights: UnsafeMutablePointer<Float>?

        init(configuration: BERTConfiguration, capacity: Int, maxSequence: Int, weightScratch: Int = 0) {
            self.capacity = capacity
            self.maxSequence = maxSequence
            let h = configuration.hiddenSize
            x = .allocate(capacity: capacity * h)
            y = .allocate(capacity: capacity * h)
            qkv = .allocate(capacity: capacity * 3 * h)
            context = .allocate(capacity: capacity * h)
            intermediate = .allocate(capacity: capacity * configuration.intermediateSize)
            scores = .allocate(capacity: maxSequence * maxSequence)
            weights = weightScratch > 0 ? .allocate(capacity: weightScratch) : nil
        }

        deinit {
            x.deallocate()
            y.deallocate()
            qkv.deallocate()
            context.deallocate()
            intermediate.deallocate()
            scores.deallocate()
            weights?.deallocate()
        }
    }

    /// Encodes packed sequences. `ids` holds every sequence's tokens back to back; `lengths` their lengths.
    /// Writes `lengths.count` pooled vectors of `H` floats to `output`.
    func encode(
        ids: UnsafeBufferPointer<Int32>, lengths: [Int], workspace: Workspace, output: UnsafeMutablePointer<Float>
    ) {
        let h = configuration.hiddenSize
        let total = ids.count
        precondition(total <= workspace.capacity, "BERTEncoder: \(total) tokens exceed the workspace")
        precondition(lengths.reduce(0, +) == total, "BERTEncoder: lengths do not add up to the token count")
        var x = workspace.x
        var y = workspace.y

        embed(ids: ids, lengths: lengths, into: x)
        for layer in weights.layers {
            // Self-attention: qkv = x Wqkv^T + b  (T x 3H)
            product(x, rows: total, k: h, layer.qkvWeight, columns: 3 * h, into: workspace.qkv, workspace: workspace)
            hush_add_bias_f32(workspace.qkv, total, 3 * h, layer.qkvBias)
            attention(lengths: lengths, workspace: workspace)
            // y = LayerNorm(context Wo^T + bo + x)
            product(
                workspace.context, rows: total, k: h, layer.attentionOutWeight, columns: h, into: y,
                workspace: workspace)
            hush_bias_residual_layernorm_f32(
                y, total, h, layer.attentionOutBias, x, layer.attentionNormGamma, layer.attentionNormBeta,
                configuration.layerNormEps)
            swap(&x, &y)
            // Feed-forward: intermediate = gelu(x Wi^T + bi)  (T x I);  y = LayerNorm(intermediate Wo^T + bo + x)
            let i = configuration.intermediateSize
            product(
                x, rows: total, k: h, layer.intermediateWeight, columns: i, into: workspace.intermediate,
                workspace: workspace)
            hush_bias_gelu_f32(workspace.intermediate, total, i, layer.intermediateBias)
            product(
                workspace.intermediate, rows: total, k: i, layer.outputWeight, columns: h, into: y,
                workspace: workspace)
            hush_bias_residual_layernorm_f32(
                y, total, h, layer.outputBias, x, layer.outputNormGamma, layer.outputNormBeta,
                configuration.layerNormEps)
            swap(&x, &y)
        }
        pool(x, lengths: lengths, output: output)
    }

    /// Batches of at most this many tokens multiply 4-bit weights directly (each row dequantised once into
    /// L1 and dotted with every token); larger ones dequantise the matrix for one BLAS product.
    static let directQ4Tokens = 32

    /// c (rows x columns, row stride `columns`) = a (rows x k) Wᵀ, for W columns x k in f32 or 4-bit.
    private func product(
        _ a: UnsafePointer<Float>, rows: Int, k: Int, _ weights: BERTWeights.Matrix, columns: Int,
        into c: UnsafeMutablePointer<Float>, workspace: Workspace
    ) {
        if case .q4(let parts) = weights, rows <= Self.directQ4Tokens, k <= 4096 {
            var column = 0
            for part in parts {
                hush_matmul_q4_0_f32(a, rows, k, k, part.blocks, part.rows, c + column, columns)
                column += part.rows
            }
            return
        }
        BLAS.gemmNT(
            m: rows, n: columns, k: k, a: a, lda: k, b: weights.values(scratch: workspace.weights), ldb: k, c: c,
            ldc: columns)
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
