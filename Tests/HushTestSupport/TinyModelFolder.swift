import Foundation
import HushToolSupport

/// A model folder of the kind `--model PATH` and `ModelChoice.path` load (a sentence-transformers BERT
/// checkpoint: `config.json`, `model.safetensors`, `vocab.txt`, `1_Pooling/config.json`), small enough to write
/// in milliseconds: one layer of width 32 with seeded random weights and a WordPiece vocabulary of the
/// letters. Its name and weights are its own, so Hush knows it neither by name nor by digest: a store made
/// with it opens with it only when the folder is given.
///
/// ```swift
/// let folder = try TinyModelFolder.write(in: directory.url, name: "notes-model")
/// let store = try await HushStore.open(path: path, model: .path(folder.path))
/// ```
public enum TinyModelFolder {
    static let hidden = 32
    static let intermediate = 64
    static let positions = 64

    /// Writes the folder `name` inside `parent` (weights drawn from `seed`) and returns its URL.
    public static func write(in parent: URL, name: String, seed: UInt64 = 33) throws -> URL {
        let folder = parent.appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("1_Pooling"), withIntermediateDirectories: true)
        let letters = "abcdefghijklmnopqrstuvwxyz".map(String.init)
        let vocabulary = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + letters + letters.map { "##" + $0 }
        try Data((vocabulary.joined(separator: "\n") + "\n").utf8).write(to: folder.appendingPathComponent("vocab.txt"))
        let config = """
            {"architectures": ["BertModel"], "model_type": "bert", "hidden_size": \(hidden), "num_hidden_layers": 1,
             "num_attention_heads": 2, "intermediate_size": \(intermediate), "hidden_act": "gelu",
             "layer_norm_eps": 1e-12, "max_position_embeddings": \(positions), "type_vocab_size": 2,
             "vocab_size": \(vocabulary.count)}
            """
        try Data(config.utf8).write(to: folder.appendingPathComponent("config.json"))
        try Data(#"{"word_embedding_dimension": \#(hidden), "pooling_mode_mean_tokens": true}"#.utf8)
            .write(to: folder.appendingPathComponent("1_Pooling/config.json"))
        try Data(#"{"max_seq_length": \#(positions), "do_lower_case": true}"#.utf8)
            .write(to: folder.appendingPathComponent("sentence_bert_config.json"))
        try writeWeights(
            to: folder.appendingPathComponent("model.safetensors"), vocabulary: vocabulary.count, seed: seed)
        return folder
    }

    /// Every tensor of a one-layer BERT as f32: layer norms the identity, the rest small seeded values.
    static func writeWeights(to url: URL, vocabulary: Int, seed: UInt64) throws {
        let (h, i) = (hidden, intermediate)
        let layer = "encoder.layer.0."
        var tensors: [(name: String, shape: [Int])] = [
            ("embeddings.word_embeddings.weight", [vocabulary, h]),
            ("embeddings.position_embeddings.weight", [positions, h]),
            ("embeddings.token_type_embeddings.weight", [2, h]),
            ("embeddings.LayerNorm.weight", [h]), ("embeddings.LayerNorm.bias", [h]),
        ]
        for part in ["query", "key", "value"] {
            tensors += [
                (layer + "attention.self.\(part).weight", [h, h]), (layer + "attention.self.\(part).bias", [h]),
            ]
        }
        tensors += [
            (layer + "attention.output.dense.weight", [h, h]), (layer + "attention.output.dense.bias", [h]),
            (layer + "attention.output.LayerNorm.weight", [h]), (layer + "attention.output.LayerNorm.bias", [h]),
            (layer + "intermediate.dense.weight", [i, h]), (layer + "intermediate.dense.bias", [i]),
            (layer + "output.dense.weight", [h, i]), (layer + "output.dense.bias", [h]),
            (layer + "output.LayerNorm.weight", [h]), (layer + "output.LayerNorm.bias", [h]),
        ]
        var random = SplitMix(seed: seed)
        var header: [String] = []
        var body = Data()
        for (name, shape) in tensors {
            let count = shape.reduce(1, *)
            let values: [Float] =
                name.hasSuffix("LayerNorm.weight")
                ? Array(repeating: 1, count: count)
                : name.hasSuffix("LayerNorm.bias")
                    ? Array(repeating: 0, count: count) : random.floats(count, in: -0.2...0.2)
            header.append(
                #""\#(name)":{"dtype":"F32","shape":\#(shape),"data_offsets":[\#(body.count),\#(body.count + count * 4)]}"#
            )
            values.withUnsafeBytes { body.append(contentsOf: $0) }
        }
        var json = Array(("{" + header.joined(separator: ",") + "}").utf8)
        while json.count % 8 != 0 { json.append(UInt8(ascii: " ")) }
        var file = withUnsafeBytes(of: UInt64(json.count).littleEndian) { Data($0) }
        file.append(contentsOf: json)
        file.append(body)
        try file.write(to: url)
    }
}
