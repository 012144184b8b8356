import Foundation

extension BERTWeights {
    /// The weights of an E5S1 file: biases, layer norms and position embeddings read as f32, every layer's
    /// matrix read 4-bit and multiplied as it is (against 8-bit activations), and the word table left in the
    /// file, a row read and dequantised when a token looks it up. The model then takes about 13 MB of memory,
    /// not the 85 MB of its f32 layers or the 54 MB of its word table.
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
        func matrix(_ name: String, rows: Int, columns: Int) throws -> Matrix {
            .q4([try file.q4Matrix(name, rows: rows, columns: columns)])
        }
        let words = try file.rowTable("emb.word", rows: c.vocabSize, columns: h)
        let positions = try f32("emb.pos", c.maxPositionEmbeddings * h)
        let types = try f32("emb.type", c.typeVocabSize * h)
        let norm = (gamma: try f32("emb.ln.w", h), beta: try f32("emb.ln.b", h))
        var layers: [Layer] = []
        for index in 0..<c.numHiddenLayers {
            let p = "l\(index)."
            // Query, key and value stacked into one 3H x H matrix, so attention's input is one product.
            let qkv = try ["q", "k", "v"].map { try file.q4Matrix(p + $0 + ".w", rows: h, columns: h) }
            let biases = try ["q", "k", "v"].map { try file.floats(p + $0 + ".b", count: h) }
            let fusedBias = FloatTensor(shape: [3 * h]) { out in
                for (offset, bias) in biases.enumerated() { (out + offset * h).update(from: bias.pointer, count: h) }
            }
            owned.append(fusedBias)
            layers.append(
                Layer(
                    qkvWeight: .q4(qkv), qkvBias: fusedBias.pointer,
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
            wordEmbeddings: words, positionEmbeddings: positions, tokenTypeEmbeddings: types,
            embeddingNorm: norm, layers: layers, owners: [owned])
    }
}
