import Foundation
import HushEmbedding
import HushTestSupport
import Testing

@testable import Hush

/// A copy of the model folder (symbolic links) in which one file can be replaced.
private func modelCopy(_ directory: TemporaryDirectory, _ model: URL) throws -> URL {
    let copy = directory.url.appendingPathComponent("model")
    try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
    for name in try FileManager.default.contentsOfDirectory(atPath: model.path) where !name.hasPrefix(".") {
        try FileManager.default.createSymbolicLink(
            at: copy.appendingPathComponent(name), withDestinationURL: model.appendingPathComponent(name))
    }
    return copy
}

/// The weights file with its JSON header rewritten by `edit` (the data section unchanged).
private func weightsWithHeader(_ model: URL, _ edit: (inout [String: Any]) -> Void) throws -> Data {
    let data = try Data(contentsOf: model.appendingPathComponent("model.safetensors"), options: .alwaysMapped)
    let length = data.prefix(8).enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
    var header = try #require(
        try JSONSerialization.jsonObject(with: data.subdata(in: 8..<(8 + length))) as? [String: Any])
    edit(&header)
    var json = try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])
    // Keep the data section where it was: pad the header with spaces (allowed by the format).
    if json.count < length { json.append(Data(repeating: 0x20, count: length - json.count)) }
    var result = Data()
    withUnsafeBytes(of: UInt64(json.count).littleEndian) { result.append(contentsOf: $0) }
    result.append(json)
    result.append(data.subdata(in: (8 + length)..<data.count))
    return result
}

/// Damaged model folders: every one is a typed error naming the problem, never a crash, and a store built
/// with the good model is untouched by the attempt.
@Suite(.serialized, .needsModel) struct ReliabilityModelTests {
    enum Damage: String, CaseIterable, Sendable {
        case truncatedWeights, emptyWeights, headerLengthLies, dataOffsetsLie, wrongShape, missingTensor
        case missingVocabulary, garbageConfig
    }

    @Test(arguments: Damage.allCases) func damagedModelIsATypedError(damage: Damage) throws {
        let model = TestModels.miniLMDirectory
        let directory = try TemporaryDirectory()
        let copy = try modelCopy(directory, model)
        let weights = copy.appendingPathComponent("model.safetensors")
        func replace(_ name: String, _ data: Data?) throws {
            try FileManager.default.removeItem(at: copy.appendingPathComponent(name))
            if let data { try data.write(to: copy.appendingPathComponent(name)) }
        }
        let original = try Data(contentsOf: model.appendingPathComponent("model.safetensors"), options: .alwaysMapped)
        switch damage {
        case .truncatedWeights: try replace("model.safetensors", original.prefix(original.count / 2))
        case .emptyWeights: try replace("model.safetensors", Data())
        case .headerLengthLies:
            var data = original.prefix(1 << 20)
            data.replaceSubrange(0..<8, with: [0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0x00])
            try replace("model.safetensors", data)
        case .dataOffsetsLie:
            try replace(
                "model.safetensors",
                try weightsWithHeader(model) { header in
                    header["embeddings.LayerNorm.bias"] = [
                        "dtype": "F32", "shape": [384], "data_offsets": [original.count, original.count + 1536],
                    ]
                })
        case .wrongShape:
            try replace(
                "model.safetensors",
                try weightsWithHeader(model) { header in
                    guard var tensor = header["embeddings.word_embeddings.weight"] as? [String: Any],
                        let shape = tensor["shape"] as? [Int]
                    else { return }
                    tensor["shape"] = [shape[1], shape[0]]  // same byte count, transposed
                    header["embeddings.word_embeddings.weight"] = tensor
                })
        case .missingTensor:
            try replace(
                "model.safetensors", try weightsWithHeader(model) { $0["encoder.layer.3.output.dense.weight"] = nil })
        case .missingVocabulary:
            try replace("vocab.txt", nil)
            try replace("tokenizer.json", nil)
        case .garbageConfig:
            try replace("config.json", Data("{\"hidden_size\": \"large\", ".utf8))
        }
        do {
            let embedder = try BERTEmbedder(modelDirectory: copy)
            _ = try embedder.embed(["should I text my ex?"], role: .query)
            Issue.record("\(damage): the damaged model loaded")
        } catch let error as EmbeddingError {
            let text = String(describing: error)
            switch damage {
            case .wrongShape: #expect(text.contains("shape"), "\(text)")
            case .missingTensor: #expect(text.contains("encoder.layer.3.output.dense.weight"), "\(text)")
            case .missingVocabulary: #expect(text.contains("vocab") || text.contains("tokenizer"), "\(text)")
            case .garbageConfig: #expect(text.contains("config"), "\(text)")
            default: #expect(text.contains(weights.path) && text.contains("unusable"), "\(text)")
            }
            FileHandle.standardError.write(Data("[reliability] model \(damage): \(text)\n".utf8))
        }
        _ = weights
    }
}
