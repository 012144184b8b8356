import Foundation
import HushTestSupport
import Testing

@testable import HushEmbedding

@Suite struct SHA256Tests {
    @Test func knownDigests() {
        #expect(SHA256.hexDigest(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            SHA256.hexDigest(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let long = Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(SHA256.hexDigest(long) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func streamingInOddPiecesMatchesOneShot() {
        let bytes = Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        var hasher = SHA256()
        var start = 0
        for size in [1, 63, 64, 65, 127, 1000, 3] where start < bytes.count {
            let end = min(bytes.count, start + size)
            hasher.update(bytes[start..<end])
            start = end
        }
        hasher.update(bytes[start...])
        #expect(SHA256.hex(hasher.finalize()) == SHA256.hexDigest(bytes))
    }

    @Test(.needsModel) func weightsOfTheDefaultModel() throws {
        let path = TestModels.miniLMDirectory.appendingPathComponent("model.safetensors").path
        #expect(
            try SHA256.hexDigest(ofFileAt: path) == "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db")
    }

    /// A weights digest is remembered beside the file, or in the shared folder when the file's folder cannot be
    /// written (a model in an app's bundle), and read again once the file changes.
    @Test func weightsDigestsAreRememberedWhereTheyCanBe() throws {
        let directory = try TemporaryDirectory()
        let shared = directory.url.appendingPathComponent("digests")
        let weights = directory.path("model.safetensors")
        try Data("first weights".utf8).write(to: URL(fileURLWithPath: weights))
        let first = SHA256.hexDigest(Data("first weights".utf8))
        #expect(try WeightsDigest.sha256(ofFileAt: weights, sharedFolder: shared) == first)
        let beside = WeightsDigest.beside(weights)
        #expect(FileManager.default.fileExists(atPath: beside.path))
        #expect(!FileManager.default.fileExists(atPath: shared.path))

        // The record is what is read: a record of another digest for the same stamp is believed.
        let fake = String(repeating: "a", count: 64)
        let record = try String(contentsOf: beside, encoding: .utf8)
        let stamp = try #require(record.split(separator: "\n").first)
        try "\(stamp)\n\(fake)".write(to: beside, atomically: true, encoding: .utf8)
        #expect(try WeightsDigest.sha256(ofFileAt: weights, sharedFolder: shared) == fake)

        // A folder that cannot take the record (here a directory stands where it would go): the shared folder.
        try FileManager.default.removeItem(at: beside)
        try FileManager.default.createDirectory(at: beside, withIntermediateDirectories: false)
        #expect(try WeightsDigest.sha256(ofFileAt: weights, sharedFolder: shared) == first)
        let sharedRecord = WeightsDigest.shared(weights, in: shared)
        let text = try String(contentsOf: sharedRecord, encoding: .utf8)
        #expect(text.hasSuffix("\n" + first) && text.contains(weights))

        // Changed weights are read again.
        try Data("second weights, longer".utf8).write(to: URL(fileURLWithPath: weights))
        #expect(
            try WeightsDigest.sha256(ofFileAt: weights, sharedFolder: shared)
                == SHA256.hexDigest(Data("second weights, longer".utf8)))
    }
}
