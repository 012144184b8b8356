import Foundation
import HushKernels

/// The tensors of a BERT encoder, checked against its configuration.
///
/// On the AVX2 level, the f32 matrices of a checkpoint are rounded to binary16 and packed in panels of 16 rows
/// at load (``HalfPanels``): half the memory, read front to back by `hush_matmul_f32_f16p`, with f32
/// arithmetic; elsewhere they stay f32, for BLAS.
/// The query, key and value projections are stacked first, so that attention's input projection is a single
/// product. 4-bit matrices (an E5S1 file) stay 4-bit (see ``Matrix``). Everything but the word table is read
/// into memory at load; the word table stays in the file and is read a row at a time (``RowTable``), so that
/// nothing of a loaded model depends on a mapping of a file that may change.
final class BERTWeights: @unchecked Sendable {
    // Sendable: immutable after init; the pointers stay valid as long as `owners` live.

    /// A weight matrix: binary16 panels multiplied with f32 activations (AVX2 CPUs), f32 in place for BLAS
    /// (other CPUs, or a matrix whose rows do not come in sixteens), or 4-bit blocks (several tensors stacked by
    /// rows) multiplied as they are against 8-bit activations, so that 4-bit models stay 4-bit in memory.
    enum Matrix {
        case f32(UnsafePointer<Float>)
        /// An f32 matrix rounded to binary16 and packed in panels of 16 rows (``HalfPanels``).
        case f16(HalfPanels)
        case q4([Q4Matrix])

        /// True for 4-bit weights (multiplied with 8-bit activations), false for f32 and binary16 (f32 activations).
        var isQuantized: Bool {
            if case .q4 = self { true } else { false }
        }
    }

    struct Layer {
        let qkvWeight: Matrix  // 3H x H: query, key, value rows stacked
        let qkvBias: UnsafePointer<Float>  // 3H
        let attentionOutWeight: Matrix  // H x H
        let attentionOutBias: UnsafePointer<Float>  // H
        let attentionNormGamma: UnsafePointer<Float>  // H
        let attentionNormBeta: UnsafePointer<Float>  // H
        let intermediateWeight: Matrix  // I x H
        let intermediateBias: UnsafePointer<Float>  // I
        let outputWeight: Matrix  // H x I
        let outputBias: UnsafePointer<Float>  // H
        let outputNormGamma: UnsafePointer<Float>  // H
        let outputNormBeta: UnsafePointer<Float>  // H
    }

    /// The word-embedding table, left in the model file (see ``RowTable``).
    let wordEmbeddings: RowTable
    let positionEmbeddings: UnsafePointer<Float>  // maxPositions x H
    let tokenTypeEmbeddings: UnsafePointer<Float>  // types x H (row 0 is used: single-segment input)
    let embeddingNormGamma: UnsafePointer<Float>  // H
    let embeddingNormBeta: UnsafePointer<Float>  // H
    let layers: [Layer]

    /// True when the layers' matrices are 4-bit: their products then quantise the activations to 8 bits.
    var isQuantized: Bool { layers.first?.qkvWeight.isQuantized ?? false }

    /// Every tensor read from the file, kept alive.
    private let owners: [Any]

    /// Assembles weights whose storage `owners` keep alive.
    init(
        wordEmbeddings: RowTable, positionEmbeddings: UnsafePointer<Float>,
        tokenTypeEmbeddings: UnsafePointer<Float>,
        embeddingNorm: (gamma: UnsafePointer<Float>, beta: UnsafePointer<Float>),
        layers: [Layer], owners: [Any]
    ) {
        self.wordEmbeddings = wordEmbeddings
        self.positionEmbeddings = positionEmbeddings
        self.tokenTypeEmbeddings = tokenTypeEmbeddings
        (self.embeddingNormGamma, self.embeddingNormBeta) = embeddingNorm
        self.layers = layers
        self.owners = owners
    }

    /// An f32 matrix as binary16 panels when `halfPanels` (``usesHalfPanels``) and its rows come in sixteens (BERT's
    /// always do); else as it is, for BLAS. The panel kernel is written for AVX2 (16 multiply-adds per cycle, where
    /// it beats OpenBLAS at every batch size and is 2-3x faster for a query); OpenBLAS's AVX-512 kernels on a core
    /// that runs 512-bit multiply-adds whole, and Apple's Accelerate, are faster than it for batches, and other
    /// levels only have its scalar reference.
    static func matrix(_ values: UnsafePointer<Float>, rows: Int, columns: Int, halfPanels: Bool) -> Matrix {
        guard rows % 16 == 0, halfPanels else { return .f32(values) }
        return .f16(HalfPanels(values, rows: rows, columns: columns))
    }

    /// Whether f32 checkpoints are packed as binary16 panels: on CPUs whose best level is AVX2, and on those with
    /// AVX-512 that run it as two 256-bit halves (AMD Zen 4: there the panels took half OpenBLAS's time for a query
    /// and as long for batches, docs/benchmarks.md). The best level, not the one in use: a level forced for a test
    /// or by `HUSH_KERNELS` runs the same panels through that level's kernel, with the same bits.
    static var usesHalfPanels: Bool {
        let best = hush_kernels_best_level()
        return best == HUSH_LEVEL_AVX2 || (best == HUSH_LEVEL_AVX512 && hush_kernels_avx512_halved() != 0)
    }

    /// - Parameter halfPanels: pack the matrices as binary16 panels (default: ``usesHalfPanels``) or keep them
    ///   f32 for BLAS.
    convenience init(file: SafeTensors, configuration c: BERTConfiguration, halfPanels: Bool = usesHalfPanels) throws {
        let prefix = file.tensors["bert.embeddings.word_embeddings.weight"] != nil ? "bert." : ""
        var kept: [FloatTensor] = []
        func load(_ name: String, _ shape: [Int]) throws -> FloatTensor {
            let tensor = try file.floats(prefix + name, shape: shape)
            kept.append(tensor)
            return tensor
        }
        /// A matrix, packed (the f32 tensor is then not needed after) or kept as it is.
        func matrix(_ tensor: FloatTensor, rows: Int, columns: Int) -> Matrix {
            let matrix = withExtendedLifetime(tensor) {
                Self.matrix(tensor.pointer, rows: rows, columns: columns, halfPanels: halfPanels)
            }
            if case .f32 = matrix { kept.append(tensor) }
            return matrix
        }
        func packed(_ name: String, rows: Int, columns: Int) throws -> Matrix {
            matrix(try file.floats(prefix + name, shape: [rows, columns]), rows: rows, columns: columns)
        }
        /// Layer norms are `weight`/`bias` in recent checkpoints and `gamma`/`beta` in old ones.
        func norm(_ name: String) throws -> (gamma: UnsafePointer<Float>, beta: UnsafePointer<Float>) {
            if file.tensors[prefix + name + ".gamma"] != nil {
                return (
                    try load(name + ".gamma", [c.hiddenSize]).pointer, try load(name + ".beta", [c.hiddenSize]).pointer
                )
            }
            return (
                try load(name + ".weight", [c.hiddenSize]).pointer, try load(name + ".bias", [c.hiddenSize]).pointer
            )
        }
        let h = c.hiddenSize
        let i = c.intermediateSize
        let wordEmbeddings = try file.rowTable(prefix + "embeddings.word_embeddings.weight", shape: [c.vocabSize, h])
        let positionEmbeddings = try load("embeddings.position_embeddings.weight", [c.maxPositionEmbeddings, h]).pointer
        let tokenTypeEmbeddings = try load("embeddings.token_type_embeddings.weight", [c.typeVocabSize, h]).pointer
        let embeddingNorm = try norm("embeddings.LayerNorm")

        var layers: [Layer] = []
        for index in 0..<c.numHiddenLayers {
            let p = "encoder.layer.\(index)."
            var qkvWeight: [Float] = []
            var qkvBias: [Float] = []
            qkvWeight.reserveCapacity(3 * h * h)
            for part in ["query", "key", "value"] {
                qkvWeight += try file.floats(prefix + p + "attention.self.\(part).weight", shape: [h, h]).values
                qkvBias += try load(p + "attention.self.\(part).bias", [h]).values
            }
            let fusedWeight = FloatTensor(shape: [3 * h, h], values: qkvWeight)
            let fusedBias = FloatTensor(shape: [3 * h], values: qkvBias)
            kept.append(fusedBias)
            let attentionNorm = try norm(p + "attention.output.LayerNorm")
            let outputNorm = try norm(p + "output.LayerNorm")
            layers.append(
                Layer(
                    qkvWeight: matrix(fusedWeight, rows: 3 * h, columns: h),
                    qkvBias: fusedBias.pointer,
                    attentionOutWeight: try packed(p + "attention.output.dense.weight", rows: h, columns: h),
                    attentionOutBias: try load(p + "attention.output.dense.bias", [h]).pointer,
                    attentionNormGamma: attentionNorm.gamma, attentionNormBeta: attentionNorm.beta,
                    intermediateWeight: try packed(p + "intermediate.dense.weight", rows: i, columns: h),
                    intermediateBias: try load(p + "intermediate.dense.bias", [i]).pointer,
                    outputWeight: try packed(p + "output.dense.weight", rows: h, columns: i),
                    outputBias: try load(p + "output.dense.bias", [h]).pointer,
                    outputNormGamma: outputNorm.gamma, outputNormBeta: outputNorm.beta))
        }
        self.init(
            wordEmbeddings: wordEmbeddings, positionEmbeddings: positionEmbeddings,
            tokenTypeEmbeddings: tokenTypeEmbeddings, embeddingNorm: embeddingNorm, layers: layers, owners: [kept])
    }
}

/// An n x k f32 matrix rounded to binary16 and packed in panels of 16 rows (`hush_pack_f16_panels`): what every
/// product of the encoder multiplies against on AVX2 CPUs, half the bytes of the f32 matrix and read front to
/// back.
final class HalfPanels: @unchecked Sendable {
    // Sendable: written once in init, read-only after.
    let pointer: UnsafeMutablePointer<UInt16>
    let columns: Int

    init(_ values: UnsafePointer<Float>, rows: Int, columns: Int) {
        precondition(rows % 16 == 0, "HalfPanels: \(rows) rows is not a multiple of 16")
        self.columns = columns
        pointer = .allocate(capacity: rows * columns)
        hush_pack_f16_panels(values, rows, columns, pointer)
    }

    deinit { pointer.deallocate() }

    /// The panels of rows from `row` (a multiple of 16) on.
    func panels(from row: Int) -> UnsafePointer<UInt16> { UnsafePointer(pointer + row * columns) }
}
