import Foundation

extension BERTWeights {
    /// The weights of an E5S1 file: biases, layer norms and position embeddings read in place, the layer
    /// matrices dequantised to f32 (21 M values, 85 MB, so that every projection is one BLAS product), and
    /// the word table left 4-bit, a row dequantised when a token looks it up.
    ///
    /// - Throws: `EmbeddingError.missingTensor` / `.shapeMismatch` when a tensor is absent or has the wrong
    ///   size for the header's architecture.
    convenience init(file: E5S1File) throws {
        let c = file.configuration
        let h = c.hiddenSize
        let i = c.intermediateSize
        var owned: [FloatTensor] = []
        func f32(_ name: String, _ count: Int) throws -> UnsafePointer<Float> {
            let tensor = try file.floats(name, count: count)
            owned.append(tensor)
            return tensor.pointer
        }
        func matrix(_ name: String, rows: Int, columns: Int) throws -> UnsafePointer<Float> {
            let tensor = FloatTensor(
                shape: [rows, columns], values: try file.q4Matrix(name, rows: rows, columns: columns).dequantized())
            owned.append(tensor)
            return tensor.pointer
        }
        let words = try file.q4Matrix("emb.word", rows: c.vocabSize, columns: h)
        let positions = try f32("emb.pos", c.maxPositionEmbeddings * h)
        let types = try f32("emb.type", c.typeVocabSize * h)
        let norm = (gamma: try f32("emb.ln.w", h), beta: try f32("emb.ln.b", h))
        var layers: [Layer] = []
        for index in 0..<c.numHiddenLayers {
            let p = "l\(index)."
            var qkvWeight: [Float] = []
            var qkvBias: [Float] = []
            qkvWeight.reserveCapacity(3 * h * h)
            qkvBias.reserveCapacity(3 * h)
            for part in ["q", "k", "v"] {
                qkvWeight += try file.q4Matrix(p + part + ".w", rows: h, columns: h).dequantized()
                qkvBias += try file.floats(p + part + ".b", count: h).values
            }
            let fusedWeight = FloatTensor(shape: [3 * h, h], values: qkvWeight)
            let fusedBias = FloatTensor(shape: [3 * h], values: qkvBias)
            owned += [fusedWeight, fusedBias]
            layers.append(
                Layer(
                    qkvWeight: fusedWeight.pointer, qkvBias: fusedBias.pointer,
                    attentionOutWeight: try matrix(p + "ao.w", rows: h, columns: h),
                    attentionOutBias: try f32(p + "ao.b", h),
                    attentionNormGamma: try f32(p + "aln.w", h), attentionNormBeta: try f32(p + "aln.b", h),
                    intermediateWeight: try matrix(p + "fi.w", rows: i, columns: h),
                    intermediateBias: try f32(p + "fi.b", i),
                    outputWeight: try matrix(p + "fo.w", rows: h, columns: i),
                    outputBias: try f32(p + "fo.b", h),
                    outputNormGamma: try f32(p + "oln.w", h), outputNormBeta: try f32(p + "oln.b", h)))
        }
        self.init(
            wordEmbeddings: .q4(words), positionEmbeddings: positions, tokenTypeEmbeddings: types,
            embeddingNorm: norm, layers: layers, owners: [file, owned])
    }
}
