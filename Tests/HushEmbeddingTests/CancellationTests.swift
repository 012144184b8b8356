import Foundation
import HushTestSupport
import Testing

@testable import HushEmbedding

/// Cancellation inside embedding: the flag bound to a thread, the encoder's checkpoints (twice a layer), and the
/// embedders throwing `CancellationError` for a raised flag or a cancelled task.
@Suite struct CancellationTests {
    @Test func aFlagIsCurrentOnlyInsideBoundAndNests() throws {
        let outer = CancellationFlag()
        let inner = CancellationFlag()
        #expect(CancellationFlag.current == nil)
        outer.bound {
            #expect(CancellationFlag.current === outer)
            inner.bound { #expect(CancellationFlag.current === inner) }
            #expect(CancellationFlag.current === outer)
        }
        #expect(CancellationFlag.current == nil)
        // Another thread has its own slot.
        let seen = DispatchQueue.global().sync { outer.bound { CancellationFlag.current === outer } }
        #expect(seen && CancellationFlag.current == nil)
        inner.cancel()
        #expect(throws: CancellationError.self) { try inner.bound { try CancellationFlag.checkCurrent() } }
        try outer.bound { try CancellationFlag.checkCurrent() }
    }

    @Test func theEncoderAsksTwiceALayerAndStopsWhenTold() throws {
        let directory = try TemporaryDirectory()
        let model = try BERTModel(modelDirectory: TinyModelFolder.write(in: directory.url, name: "tiny"), threads: 1)
        let layers = 1  // TinyModelFolder's
        let workspace = model.makeWorkspace(members: 1)
        let ids: [Int32] = [2, 10, 11, 12, 3]
        let output = UnsafeMutablePointer<Float>.allocate(capacity: model.configuration.hiddenSize)
        defer { output.deallocate() }
        var asked = 0
        let finished = try ids.withUnsafeBufferPointer { ids in
            try model.encoder.encode(ids: ids, lengths: [ids.count], workspace: workspace, output: output) {
                asked += 1
                return false
            }
        }
        #expect(finished && asked == 2 * layers)
        asked = 0
        let stopped = try ids.withUnsafeBufferPointer { ids in
            try model.encoder.encode(ids: ids, lengths: [ids.count], workspace: workspace, output: output) {
                asked += 1
                return asked == 2  // before the feed-forward of the first layer
            }
        }
        #expect(!stopped && asked == 2)
    }

    @Test func aRaisedFlagOrACancelledTaskStopsAnEmbedding() async throws {
        let directory = try TemporaryDirectory()
        let folder = try TinyModelFolder.write(in: directory.url, name: "tiny")
        for threads in [1, 2] {
            let embedder = try BERTEmbedder(modelDirectory: folder, threads: threads)
            let texts = (0..<64).map { "note number \($0) about the garden" }
            let expected = try embedder.embed(texts, role: .passage)
            let flag = CancellationFlag()
            #expect(try flag.bound { try embedder.embed(texts, role: .passage) } == expected)
            flag.cancel()
            #expect(throws: CancellationError.self) { try flag.bound { try embedder.embed(texts, role: .passage) } }
            // Unbound again: it embeds.
            #expect(try embedder.embed(texts, role: .passage) == expected)
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try embedder.embed(texts, role: .passage)
            }
            await #expect(throws: CancellationError.self) { try await task.value }
        }
    }
}
