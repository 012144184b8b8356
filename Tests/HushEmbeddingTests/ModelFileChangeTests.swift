import Foundation
import HushTestSupport
import Testing

@testable import HushEmbedding

/// A model file changed under a running model (truncated, or rewritten in place) is an
/// `EmbeddingError.modelChanged` naming the file, never SIGBUS: the file is read, never mapped, and every batch
/// checks that it is still the file loaded. Before, the weights were mapped, and a truncated file ended the
/// process with SIGBUS at the next read of a page it had lost.
@Suite struct ModelFileChangeTests {
    /// The tiny MiniLM-shaped folder's model, loaded with one thread.
    static func tinyModel(in directory: TemporaryDirectory) throws -> (BERTModel, weights: URL) {
        let folder = try TinyModelFolder.write(in: directory.url, name: "tiny")
        let model = try BERTModel(modelDirectory: folder, threads: 1)
        return (model, folder.appendingPathComponent("model.safetensors"))
    }

    static func truncate(_ url: URL, to size: Int) throws {
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: UInt64(size))
        try handle.close()
    }

    static func expectChanged(_ path: String, mentioning needle: String, _ body: () throws -> Void) {
        do {
            try body()
            Issue.record("no error for a changed model file")
        } catch EmbeddingError.modelChanged(let changed, let reason) {
            #expect(changed == path)
            #expect(reason.contains(needle), "\(reason)")
        } catch {
            Issue.record("unexpected error: \(error)")
        }
    }

    @Test func aTruncatedWeightsFileIsAnErrorNamingItOnEveryPath() throws {
        let directory = try TemporaryDirectory()
        let folder = try TinyModelFolder.write(in: directory.url, name: "tiny")
        let weights = folder.appendingPathComponent("model.safetensors")
        let model = try BERTModel(modelDirectory: folder, threads: 2, batchTokens: 64)
        let query: [[Int32]] = [[2, 10, 11, 12, 3]]
        let batches = [[Int32]](repeating: [2, 10, 11, 12, 13, 14, 3], count: 40)
        _ = try model.embed(tokenIDs: query)
        _ = try model.embed(tokenIDs: batches)
        try Self.truncate(weights, to: 64)
        // A query (on the team of threads) and batches (each on its own thread) alike.
        Self.expectChanged(weights.path, mentioning: "now has 64 bytes") { _ = try model.embed(tokenIDs: query) }
        Self.expectChanged(weights.path, mentioning: "now has 64 bytes") { _ = try model.embed(tokenIDs: batches) }
        #expect(throws: EmbeddingError.self) { try BERTModel(modelDirectory: folder, threads: 1) }
    }

    @Test func aFileRewrittenInPlaceIsAnErrorAndOneRenamedOverIsNot() throws {
        let directory = try TemporaryDirectory()
        let folder = try TinyModelFolder.write(in: directory.url, name: "tiny")
        let weights = folder.appendingPathComponent("model.safetensors")
        let model = try BERTModel(modelDirectory: folder, threads: 1)
        let query: [[Int32]] = [[2, 10, 11, 12, 3]]
        let before = try model.embed(tokenIDs: query)

        // Replaced the documented way: a new file renamed over the old. The model keeps the file it opened.
        let bytes = try Data(contentsOf: weights)
        let fresh = folder.appendingPathComponent("model.safetensors.new")
        try bytes.write(to: fresh)
        #expect(rename(fresh.path, weights.path) == 0)
        #expect(try model.embed(tokenIDs: query) == before)

        // Rewritten in place (the same bytes, a new modification time): the model cannot trust it.
        let reloaded = try BERTModel(modelDirectory: folder, threads: 1)
        let handle = try FileHandle(forWritingTo: weights)
        try handle.write(contentsOf: bytes)
        try handle.close()
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(120)], ofItemAtPath: weights.path)
        Self.expectChanged(weights.path, mentioning: "rewritten") { _ = try reloaded.embed(tokenIDs: query) }
        #expect(
            EmbeddingError.modelChanged(path: weights.path, reason: "x").description.contains("rename it over the old"))
    }

    @Test func aWordRowPastTheNewEndIsAnError() throws {
        let directory = try TemporaryDirectory()
        let copy = directory.url.appendingPathComponent("tiny.bin")
        try FileManager.default.copyItem(at: try E5EmbedderTests.fixture("e5s1-tiny.bin"), to: copy)
        let file = try E5S1File(path: copy.path)
        let words = try file.rowTable("emb.word", rows: 10, columns: 32)
        var row = [Float](repeating: 0, count: 32)
        try row.withUnsafeMutableBufferPointer { out in try words.copy(row: 9, into: try #require(out.baseAddress)) }
        let expected = row
        var dequantized = [Float](repeating: 0, count: 32)
        try dequantized.withUnsafeMutableBufferPointer { out in
            try file.q4Matrix("emb.word", rows: 10, columns: 32).dequantize(row: 9, into: try #require(out.baseAddress))
        }
        #expect(expected == dequantized)
        try Self.truncate(copy, to: 72)
        Self.expectChanged(copy.path, mentioning: "now has 72 bytes") {
            try row.withUnsafeMutableBufferPointer { out in
                try words.copy(row: 9, into: try #require(out.baseAddress))
            }
        }
    }
}
