import Foundation
import HushTestSupport
import Testing

@testable import HushEmbedding

@Suite struct TokenizerTests {
    /// A tiny vocabulary where every id is known, so the WordPiece rules are checked without the model.
    static let tinyVocabulary = [
        "[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "un", "##aff", "##able", "hello", ",", "!", "cafe", "中",
    ]

    @Test func greedyLongestMatchWithContinuationPieces() throws {
        let tokenizer = try WordPieceTokenizer(vocabulary: Self.tinyVocabulary, configuration: .init())
        #expect(tokenizer.vocabularySize == 13)
        #expect((tokenizer.padID, tokenizer.unknownID, tokenizer.clsID, tokenizer.sepID) == (0, 1, 2, 3))
        // "unaffable" splits into three pieces; "xyz" has no piece so the whole word is [UNK].
        #expect(tokenizer.encode("unaffable hello xyz", maxLength: 64).ids == [2, 5, 6, 7, 8, 1, 3])
        // Punctuation is its own word; accents are stripped and text lowercased before lookup.
        #expect(tokenizer.encode("Hello, CAFÉ!", maxLength: 64).ids == [2, 8, 9, 11, 10, 3])
        // "unaffablex": pieces exist for the prefix but not the tail, so the whole word becomes [UNK].
        #expect(tokenizer.encode("unaffablex", maxLength: 64).ids == [2, 1, 3])
        // CJK ideographs are split off even without spaces.
        #expect(tokenizer.encode("hello中hello", maxLength: 64).ids == [2, 8, 12, 8, 3])
        #expect(tokenizer.token(for: 6) == "##aff")
        #expect(tokenizer.token(for: 13) == nil)
        #expect(tokenizer.token(for: -1) == nil)
    }

    @Test func casedConfigurationKeepsCaseAndAccents() throws {
        var configuration = WordPieceTokenizer.Configuration()
        configuration.lowercase = false
        let tokenizer = try WordPieceTokenizer(
            vocabulary: Self.tinyVocabulary + ["Hello", "café"],
            configuration: configuration)
        #expect(tokenizer.encode("Hello hello café", maxLength: 64).ids == [2, 13, 8, 14, 3])
    }

    @Test func missingUnknownTokenIsReported() {
        #expect(throws: EmbeddingError.self) {
            _ = try WordPieceTokenizer(vocabulary: ["[CLS]", "[SEP]", "[PAD]", "hello"], configuration: .init())
        }
    }

    @Test(.needsModel) func knownTokenizationsOfTheDefaultModel() throws {
        let tokenizer = try TokenizerTestSupport.defaultTokenizer()
        #expect(tokenizer.vocabularySize == 30522)
        #expect(tokenizer.encode("Hello, world!", maxLength: 256).ids == [101, 7592, 1010, 2088, 999, 102])
        // Special tokens are matched literally in the raw text, not after lowercasing.
        #expect(tokenizer.encode("hello [SEP] x", maxLength: 256).ids == [101, 7592, 102, 1060, 102])
        #expect(tokenizer.encode("x[MASK]y", maxLength: 256).ids == [101, 1060, 103, 1061, 102])
        #expect(tokenizer.encode("[sep]", maxLength: 256).ids == [101, 1031, 19802, 1033, 102])
        #expect(tokenizer.encode("Ångström café naïve", maxLength: 256).ids == [101, 17076, 15687, 7668, 15743, 102])
        #expect(tokenizer.encode("中文", maxLength: 256).ids == [101, 1746, 1861, 102])
        // Per-character lowercasing: no final-sigma rule, so "Σ" maps to "σ" like the Rust library.
        #expect(
            tokenizer.encode("ΟΔΟΣ σοφός", maxLength: 256).ids
                == [101, 1169, 29722, 29730, 29733, 1173, 29730, 29736, 15297, 102])
        // Words longer than 100 scalars are [UNK]; control characters vanish; empty text is [CLS] [SEP].
        #expect(tokenizer.encode(String(repeating: "a", count: 101), maxLength: 256).ids == [101, 100, 102])
        #expect(tokenizer.encode("\u{FFFD} x \u{0} \u{7F}", maxLength: 256).ids == [101, 1060, 102])
        #expect(tokenizer.encode("", maxLength: 256).ids == [101, 102])
        #expect(tokenizer.encode(" \t\n ", maxLength: 256).ids == [101, 102])
        #expect(tokenizer.token(for: 7592) == "hello")
    }

    @Test(.needsModel) func truncationKeepsTheFirstTokensAndEndsWithSeparator() throws {
        let tokenizer = try TokenizerTestSupport.defaultTokenizer()
        let long = tokenizer.encode(String(repeating: "word ", count: 400), maxLength: 256)
        #expect(long.ids.count == 256)
        #expect(long.ids.first == 101 && long.ids.last == 102)
        #expect(long.ids[1..<255].allSatisfy { $0 == 2773 })
        #expect(long.truncated)
        #expect(long.untruncatedCount == 402)

        let exact = tokenizer.encode(String(repeating: "word ", count: 254), maxLength: 256)
        #expect(exact.ids.count == 256 && !exact.truncated && exact.untruncatedCount == 256)
    }

    @Test(.needsModel) func batchIsPaddedWithMask() throws {
        let tokenizer = try TokenizerTestSupport.defaultTokenizer()
        let batch = tokenizer.encodeBatch(["Hello, world!", "hi", ""], maxLength: 256)
        #expect(batch.count == 3)
        #expect(batch.sequenceLength == 6)
        #expect(batch.lengths == [6, 3, 2])
        #expect(batch.truncated == [false, false, false])
        #expect(
            batch.ids == [
                101, 7592, 1010, 2088, 999, 102,
                101, 7632, 102, 0, 0, 0,
                101, 102, 0, 0, 0, 0,
            ])
        #expect(batch.attentionMask == [1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0])
        let empty = tokenizer.encodeBatch([], maxLength: 256)
        #expect(empty.ids.isEmpty && empty.sequenceLength == 0)
    }

    @Test(.needsModel) func vocabTextFallbackMatchesTokenizerJSON() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hush-tok-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = TestModels.miniLMDirectory
        for name in ["vocab.txt", "tokenizer_config.json"] {
            try FileManager.default.copyItem(
                at: model.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        let fromVocab = try WordPieceTokenizer(modelDirectory: folder)
        let fromJSON = try TokenizerTestSupport.defaultTokenizer()
        #expect(fromVocab.configuration == fromJSON.configuration)
        for text in ["Hello, world!", "naïve [MASK] 日本語 🤖", "Straße İstanbul", String(repeating: "long ", count: 300)] {
            #expect(fromVocab.encode(text, maxLength: 256) == fromJSON.encode(text, maxLength: 256))
        }
    }

    @Test func missingOrBrokenFilesAreReported() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hush-tok-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let vocabPath = folder.appendingPathComponent("vocab.txt").path
        #expect(throws: EmbeddingError.modelNotFound(path: vocabPath)) {
            _ = try WordPieceTokenizer(modelDirectory: folder)
        }
        let json = folder.appendingPathComponent("tokenizer.json")
        try Data("{\"model\": ".utf8).write(to: json)
        #expect(throws: EmbeddingError.corruptModel(path: json.path, reason: "not valid JSON")) {
            _ = try WordPieceTokenizer(modelDirectory: folder)
        }
        try Data("{\"model\": {\"type\": \"WordPiece\"}}".utf8).write(to: json)
        #expect(throws: EmbeddingError.corruptModel(path: json.path, reason: "no model.vocab object")) {
            _ = try WordPieceTokenizer(modelDirectory: folder)
        }
    }
}
