import Foundation
import HushTestSupport
import Testing

@testable import HushEmbedding

/// An app checks a downloaded or bundled model before it uses it: the published bytes pass, a partial download
/// or another file is a typed error saying so.
@Suite struct ModelVerificationTests {
    @Test func aModelFileIsCheckedAgainstItsPublishedDigest() throws {
        let directory = try TemporaryDirectory()
        let bytes = Data("not really a model, but bytes with a known digest".utf8)
        let file = try directory.write("model.bin", bytes)
        let digest = SHA256.hexDigest(bytes)
        try E5Embedder.verify(modelFile: file, expectedSHA256: digest.uppercased())
        let partial = try directory.write("partial.bin", bytes.prefix(20))
        do {
            try E5Embedder.verify(modelFile: partial, expectedSHA256: digest)
            Issue.record("a partial file passed")
        } catch EmbeddingError.corruptModel(let path, let reason) {
            #expect(path == partial.path && reason.contains("partial download") && reason.contains("20 bytes"))
        }
        #expect(throws: EmbeddingError.modelNotFound(path: directory.path("none.bin"))) {
            try E5Embedder.verify(modelFile: directory.url.appendingPathComponent("none.bin"), expectedSHA256: digest)
        }
    }

    @Test(.needsModel) func theInstalledE5ModelIsThePublishedOne() throws {
        try E5Embedder.verify(modelFile: E5Embedder.defaultModelFile)
    }
}
