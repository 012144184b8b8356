import Foundation
import HushEmbedding
import HushTestSupport
import Testing

@testable import Hush

/// ``StoreOptions/fileProtection``: every writable open gives the store file and the `-wal` and `-shm` it has the
/// class asked for (Foundation's call; Linux accepts it and keeps no class, so the calls are recorded here), a
/// read-only open leaves the file alone, and a file that refuses the class fails the open with the file named,
/// the documents already stored kept.
@Suite struct StoreFileProtectionTests {
    /// A journal store at `path` holding one entry, "a".
    static func journal(at path: String, options: StoreOptions = .init()) async throws -> HushStore {
        let store = try await HushStore.open(path: path, embedder: HashingEmbedder(), options: options)
        try await store.upsert([Document(id: "a", body: "Slept badly again; the worry about work kept me up.")])
        return store
    }

    @Test func aWritableOpenProtectsTheFileAndItsCompanions() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("journal.hush")
        let store = try await Self.journal(at: path, options: StoreOptions(fileProtection: .complete))

        let given = Locked<[String: String]>([:])
        try store.database.protect(.completeUntilFirstUserAuthentication) { type, file in
            given.withLock { $0[file] = type.rawValue }
        }
        #expect(given.value.keys.sorted() == [path, path + "-shm", path + "-wal"])
        #expect(Set(given.value.values) == [FileProtectionType.completeUntilFirstUserAuthentication.rawValue])
        try await store.close()
    }

    @Test func aFileThatRefusesTheClassIsNamedAndKeepsItsDocuments() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("journal.hush")
        let store = try await Self.journal(at: path)
        struct Refused: Error {}
        #expect {
            try store.database.protect(.complete) { _, file in if file.hasSuffix("-wal") { throw Refused() } }
        } throws: { error in
            guard case StoreError.readOnly(let named, let operation) = error else { return false }
            return named == path + "-wal" && operation.contains("protection class complete")
        }
        #expect(try await store.document(id: "a") != nil)
        try await store.close()
    }

    @Test func aReadOnlyOpenLeavesTheFileAsItIs() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("shipped.hush")
        try await Self.journal(at: path).close()
        let before = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        let reader = try await HushStore.open(
            path: path, embedder: HashingEmbedder(), readOnly: true, options: StoreOptions(fileProtection: .complete))
        #expect(try await reader.document(id: "a") != nil)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == before)
        try await reader.close()
    }

    @Test func theClassesAreFoundationsAndRoundTripAsOptions() throws {
        #expect(
            StoreFileProtection.allCases.map(\.fileProtectionType.rawValue) == [
                FileProtectionType.complete.rawValue, FileProtectionType.completeUnlessOpen.rawValue,
                FileProtectionType.completeUntilFirstUserAuthentication.rawValue, FileProtectionType.none.rawValue,
            ])
        let decoded = try JSONDecoder().decode(
            StoreFileProtection.self, from: JSONEncoder().encode(StoreFileProtection.completeUnlessOpen))
        #expect(decoded == .completeUnlessOpen)
    }
}
