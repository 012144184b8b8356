import Foundation
import HushEmbedding

/// Any bytes as an E5S1 model file: a typed error, or a model whose tokenizer and encoder run and give a
/// finite vector or a typed error (the seed is the tiny valid file of scripts/fixtures/make-e5s1-seed.py).
let file = FileManager.default.temporaryDirectory.appendingPathComponent("hush-fuzz-\(getpid()).e5s1")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzE5S1(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    guard (try? Data(bytes: data, count: size).write(to: file)) != nil else { return 0 }
    guard let parsed = try? E5S1File(path: file.path) else { return 0 }
    for (name, info) in parsed.tensors where info.range.lowerBound < 0 || info.range.upperBound > parsed.fileSize {
        fatalError("tensor \(name) outside the file: \(info.range)")
    }
    // Small architectures only: a fuzzed header may describe a huge (valid) model.
    let c = parsed.configuration
    guard c.hiddenSize * (4 * c.hiddenSize + 2 * c.intermediateSize) * c.numHiddenLayers <= 4_000_000 else { return 0 }
    guard let embedder = try? E5Embedder(modelFile: file, threads: 1) else { return 0 }
    for text in [
        "", "ab ab\tＡ", String(decoding: UnsafeBufferPointer(start: data, count: min(size, 64)), as: UTF8.self),
    ] {
        let embedding: Embedding
        do {
            embedding = try embedder.embed(text, role: .query)
        } catch EmbeddingError.corruptModel {
            return 0  // finite weights that overflow: refused, as it should be
        } catch {
            fatalError("embed threw \(error)")
        }
        let norm = embedding.vector.reduce(0) { $0 + $1 * $1 }
        if embedding.vector.count != c.hiddenSize || !(norm.isFinite) {
            fatalError("bad vector: \(embedding.vector.count) values, squared norm \(norm)")
        }
        for id in embedder.windows(text, role: .passage).joined() where Int(id) >= embedder.tokenizer.vocabularySize {
            fatalError("id \(id) outside the vocabulary")
        }
    }
    return 0
}
