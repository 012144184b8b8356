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

/// The model an app ships in its bundle, found by name among the bundle's resources and checked once.
@Suite struct BundledModelTests {
    @Test(.needsModel) func theModelInAnAppsBundleIsFoundCheckedAndADamagedCopyRefused() throws {
        let directory = try TemporaryDirectory()
        let app = directory.url.appendingPathComponent("Journal.app")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        let shipped = app.appendingPathComponent(E5Embedder.fileName)
        try FileManager.default.copyItem(at: E5Embedder.defaultModelFile, to: shipped)
        let bundle = try #require(Bundle(path: app.path))
        let choice = try ModelChoice.bundled(in: bundle)
        #expect(URL(fileURLWithPath: choice.description).resolvingSymlinksInPath() == shipped.resolvingSymlinksInPath())
        #expect(try choice.describe().identity.weightsSHA256 == E5Embedder.knownSHA256)

        // A copy damaged after it was checked (its size and time change): checked again, and refused.
        let handle = try FileHandle(forWritingTo: shipped)
        try handle.truncate(atOffset: 1_000_000)
        try handle.close()
        do {
            _ = try ModelChoice.bundled(in: bundle)
            Issue.record("a damaged bundled model passed")
        } catch EmbeddingError.corruptModel(_, let reason) {
            #expect(reason.contains("partial download, a damaged copy or another file"))
        }
        // No model in the bundle: named, with what to do.
        try FileManager.default.removeItem(at: shipped)
        do {
            _ = try ModelChoice.bundled(in: bundle)
            Issue.record("an empty bundle gave a model")
        } catch let error as EmbeddingError {
            #expect(error == .modelNotFound(path: shipped.path) || error.description.contains(E5Embedder.fileName))
            #expect(error.description.contains("app's bundle"))
        }
    }
}
