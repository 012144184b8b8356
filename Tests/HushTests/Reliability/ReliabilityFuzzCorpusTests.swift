import Foundation
import FuzzStoreDamage
import GRDB
import HushEmbedding
import HushTestSupport
import Testing

@testable import Hush

/// Replays every input kept under Fuzz/Corpus/ (seeds and any case the fuzzers found) with the same checks
/// as the libFuzzer targets in Fuzz/, so a fixed crash stays fixed in the normal test suite.
@Suite struct ReliabilityFuzzCorpusTests {
    static let root = Repository.root.appendingPathComponent("Fuzz/Corpus")

    static func inputs(_ name: String) throws -> [(name: String, data: Data)] {
        let folder = root.appendingPathComponent(name)
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map {
            ($0, try Data(contentsOf: folder.appendingPathComponent($0)))
        }
    }

    /// FuzzStoreFile's inputs: each damages a copy of a small store, which is then opened, read, searched and
    /// written to. Every error is an answer; a crash or a hang fails the suite.
    @Test func storeFileCorpus() async throws {
        let inputs = try Self.inputs("store-file")
        #expect(inputs.count >= 14)
        let templates = await makeTemplates()
        #expect(templates.count == 2)
        let folder = try TemporaryDirectory()
        var opened = 0
        for (name, data) in inputs {
            let copy = folder.url.appendingPathComponent(name)
            let path = data.withUnsafeBytes { raw in
                damagedCopy(raw.bindMemory(to: UInt8.self), of: templates, in: copy)
            }
            guard let path else {
                Issue.record("\(name): no damaged copy was written")
                continue
            }
            let clock = ContinuousClock()
            let start = clock.now
            opened += await exerciseStore(at: path)
            #expect(clock.now - start < .seconds(30), "\(name)")
        }
        // Most damages leave a store that opens (a damaged identity, image or graph is read around).
        #expect(opened >= inputs.count)
    }

    @Test func tokenizerCorpus() throws {
        let inputs = try Self.inputs("tokenizer")
        #expect(inputs.count >= 3)
        let vocabulary = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "a", "b", "##a", "##b", "the", "##s", "."]
        var tokenizers = [try WordPieceTokenizer(vocabulary: vocabulary, configuration: .init())]
        if let real = try? WordPieceTokenizer(modelDirectory: BERTEmbedder.defaultModelDirectory) {
            tokenizers.append(real)
        }
        for (name, data) in inputs {
            let text = String(decoding: data, as: UTF8.self)
            for tokenizer in tokenizers {
                let limit = 1 + data.count % 300
                let ids = tokenizer.encode(text, maxLength: limit).ids
                #expect(ids.count >= 2 && ids.count <= max(limit, 2) && ids.allSatisfy { $0 >= 0 }, "\(name)")
            }
        }
    }

    @Test func fullTextQueryCorpus() throws {
        let inputs = try Self.inputs("fts-query")
        #expect(inputs.count >= 3)
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(
                sql: "CREATE VIRTUAL TABLE t USING fts5(text, tokenize = 'porter unicode61 remove_diacritics 2')")
            try db.execute(sql: "INSERT INTO t(text) VALUES ('sore knee after the long run')")
        }
        for (name, data) in inputs {
            let text = String(decoding: data, as: UTF8.self)
            for requireAll in [false, true] {
                guard let expression = FTSQuery.expression(for: text, requireAll: requireAll)?.text else { continue }
                #expect(throws: Never.self, "\(name): \(expression)") {
                    _ = try queue.read { db in
                        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t WHERE t MATCH ?", arguments: [expression])
                    }
                }
            }
        }
    }

    @Test func safetensorsCorpus() throws {
        let inputs = try Self.inputs("safetensors")
        #expect(inputs.count >= 5)
        let directory = try TemporaryDirectory()
        var opened: [String] = []
        for (name, data) in inputs {
            let path = directory.path(name)
            try data.write(to: URL(fileURLWithPath: path))
            do {
                let file = try SafeTensors(path: path)
                for (tensor, info) in file.tensors {
                    #expect(info.dataRange.upperBound <= file.fileSize, "\(name): \(tensor)")
                    if let values = try? file.floats(tensor) { #expect(values.count == info.shape.reduce(1, *)) }
                }
                opened.append(name)
            } catch let error as EmbeddingError {
                #expect(!String(describing: error).isEmpty)
            }
        }
        // The well-formed seeds open; the lying ones are refused.
        #expect(opened.contains("valid.safetensors") && opened.contains("half.safetensors"), "\(opened)")
        #expect(!opened.contains("lying-offsets.safetensors") && !opened.contains("overlap.safetensors"))
        #expect(!opened.contains("truncated.safetensors") && !opened.contains("huge-header-length.safetensors"))
    }

    @Test func e5s1Corpus() throws {
        let inputs = try Self.inputs("e5s1")
        #expect(inputs.count >= 4)
        let directory = try TemporaryDirectory()
        var loaded: [String] = []
        for (name, data) in inputs {
            let path = directory.path(name)
            try data.write(to: URL(fileURLWithPath: path))
            do {
                let embedder = try E5Embedder(modelFile: URL(fileURLWithPath: path), threads: 1)
                let vector = try embedder.embed("ab ab", role: .query).vector
                #expect(vector.count == embedder.dimension && vector.allSatisfy(\.isFinite), "\(name)")
                loaded.append(name)
            } catch let error as EmbeddingError {
                #expect(!String(describing: error).isEmpty)
            }
        }
        #expect(loaded.contains("tiny.bin"), "\(loaded)")
        #expect(!loaded.contains("truncated.bin") && !loaded.contains("lying-offset.bin"))
        #expect(!loaded.contains("bad-heads.bin") && !loaded.contains("real-header-4k.bin"))
        #expect(!loaded.contains("nan-scale.bin") && !loaded.contains("tiny-vocabulary.bin"))
    }

    @Test func tokenizerJSONCorpus() throws {
        let inputs = try Self.inputs("tokenizer-json")
        #expect(inputs.count >= 5)
        let directory = try TemporaryDirectory()
        var loaded: [String] = []
        for (name, data) in inputs {
            let url = URL(fileURLWithPath: directory.path(name))
            try data.write(to: url)
            do {
                let tokenizer = try UnigramTokenizer(tokenizerJSON: url)
                let ids = tokenizer.encode("Abc ab  c</s>x A\u{301} 東京", maxLength: 64).ids
                #expect(ids.allSatisfy { $0 >= 0 && Int($0) < tokenizer.vocabularySize }, "\(name)")
                loaded.append(name)
            } catch let error as EmbeddingError {
                #expect(!String(describing: error).isEmpty)
            }
        }
        #expect(Set(["small.json", "roberta-legacy.json", "wild-trie.json"]).isSubset(of: loaded), "\(loaded)")
        #expect(Set(["lying-charsmap.json", "wordpiece.json", "truncated.json"]).isDisjoint(with: loaded))
    }

    @Test(arguments: ["jsonl", "csv"]) func readerCorpus(kind: String) throws {
        let inputs = try Self.inputs(kind)
        #expect(inputs.count >= 2)
        let directory = try TemporaryDirectory()
        for (name, data) in inputs {
            let file = URL(fileURLWithPath: directory.path("input.\(kind)"))
            try data.write(to: file)
            var count = 0
            let skipped = try DocumentReader().read([file], batchSize: 7) { count += $0.count }
            #expect(skipped.allSatisfy { !$0.reason.isEmpty }, "\(name)")
            #expect(count > 0 || !skipped.isEmpty, "\(name): nothing read and nothing reported")
        }
    }
}
