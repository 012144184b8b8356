import Foundation
import HushTestSupport
import Testing

@testable import Hush

/// Ids of files in several folders, what is not a regular file, NUL in ids, CSV columns and dates.
extension IngestReaderTests {
    @Test func filesOfTwoFoldersKeepTheirFolderInTheirIds() throws {
        let root = try TemporaryDirectory()
        try root.write("A/notes.txt", "Notes from folder A.")
        try root.write("B/notes.txt", "Notes from folder B.")
        let a = root.url.appendingPathComponent("A")
        let b = root.url.appendingPathComponent("B")
        #expect(try readAll([a]).documents.map(\.id) == ["A/notes.txt"])
        #expect(try readAll([b]).documents.map(\.id) == ["B/notes.txt"])
        // In one call both are read; neither is dropped as a duplicate.
        #expect(try readAll([a, b]).documents.map(\.id) == ["A/notes.txt", "B/notes.txt"])

        // Two different folders with the same name would still collide: an error that names both files.
        try root.write("x/A/notes.txt", "Another A.")
        let other = root.url.appendingPathComponent("x/A")
        #expect {
            _ = try readAll([a, other])
        } throws: { error in
            guard case IngestError.idCollision(let id, let first, let second) = error else { return false }
            return id == "A/notes.txt" && first.hasSuffix("/A/notes.txt") && second.hasSuffix("/x/A/notes.txt")
        }
    }

    @Test func indexingASecondFolderReplacesNothingOfTheFirst() async throws {
        let root = try TemporaryDirectory()
        try root.write("A/notes.txt", "Buy seeds for the spring garden.")
        try root.write("B/notes.txt", "Renew the passport before the trip.")
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        for folder in ["A", "B"] {
            let summary = try await store.upsert(readAll([root.url.appendingPathComponent(folder)]).documents)
            #expect(summary.added == 1 && summary.updated == 0)
        }
        #expect(try await store.document(id: "A/notes.txt")?.document.body == "Buy seeds for the spring garden.")
        #expect(try await store.document(id: "B/notes.txt")?.document.body == "Renew the passport before the trip.")
    }

    @Test func devicesFIFOsAndLinkCyclesNeverHang() throws {
        let root = try TemporaryDirectory()
        try root.write("docs/good.txt", "A real note.")
        let docs = root.url.appendingPathComponent("docs")
        let manager = FileManager.default
        try manager.createSymbolicLink(
            atPath: docs.appendingPathComponent("zero.csv").path, withDestinationPath: "/dev/zero")
        try manager.createSymbolicLink(
            atPath: docs.appendingPathComponent("random.jsonl").path, withDestinationPath: "/dev/urandom")
        #expect(mkfifo(docs.appendingPathComponent("pipe.jsonl").path, 0o600) == 0)
        try manager.createSymbolicLink(atPath: docs.appendingPathComponent("up").path, withDestinationPath: "..")
        try manager.createSymbolicLink(
            atPath: docs.appendingPathComponent("gone.txt").path, withDestinationPath: "/nonexistent/file.txt")
        try manager.createSymbolicLink(
            atPath: docs.appendingPathComponent("again.txt").path, withDestinationPath: "good.txt")

        let result = try readAll([docs])
        #expect(result.documents.map(\.id) == ["docs/good.txt"])
        let reasons = Dictionary(
            result.skipped.map { (URL(fileURLWithPath: $0.path).lastPathComponent, $0.reason) },
            uniquingKeysWith: { first, _ in first })
        #expect(reasons["zero.csv"]?.contains("device") == true)
        #expect(reasons["random.jsonl"]?.contains("device") == true)
        #expect(reasons["pipe.jsonl"]?.contains("FIFO") == true)
        // docs/up leads to the folder holding docs: docs itself is not entered again there.
        #expect(
            result.skipped.contains { $0.path.hasSuffix("/docs/up/docs") && $0.reason.contains("already read") })
        #expect(reasons["gone.txt"]?.contains("broken symbolic link") == true)
        #expect(reasons["again.txt"]?.contains("same file") == true)

        // Given directly, the same inputs are reported, never opened.
        let direct = try readAll([docs.appendingPathComponent("zero.csv"), docs.appendingPathComponent("pipe.jsonl")])
        #expect(direct.documents.isEmpty && direct.skipped.count == 2)
    }

    @Test func aNULInAnIdSkipsThatRecordOnlyAndIdsRoundTrip() async throws {
        let folder = try TemporaryDirectory()
        var lines: [String] = []
        for index in 0..<60 { lines.append(#"{"id": "post-\#(index)\tx\n", "text": "Post number \#(index)."}"#) }
        lines.insert(#"{"id": "dup\u0000a", "text": "First NUL id."}"#, at: 10)
        lines.insert(#"{"id": "dup\u0000b", "text": "Second NUL id."}"#, at: 20)
        let file = try folder.write("posts.jsonl", lines.joined(separator: "\n"))
        let result = try readAll([file])
        #expect(result.documents.count == 60)
        #expect(result.skipped.map(\.line) == [11, 21])
        #expect(result.skipped.allSatisfy { $0.reason.contains("NUL") })

        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        #expect(try await store.upsert(result.documents).added == 60)
        #expect(try await store.document(id: "post-7\tx\n")?.document.id == "post-7\tx\n")
        // The library refuses such a document by itself too, with the rest stored.
        let summary = try await store.upsert([
            Document(id: "a\u{0}b", body: "x"), Document(id: "ok", body: "Fine."),
            Document(id: "body", body: "cut\u{0}here"),
        ])
        #expect(summary.added == 1 && summary.errors.count == 2)
    }

    @Test func csvDatesAreExactOrReportedAndColumnsNeverShadow() throws {
        let folder = try TemporaryDirectory()
        let csv = try folder.write(
            "events.csv",
            "id,text,date\nold,The first day of the era.,0001-01-01\nbad,A typo in the date.,2026-13-45\n"
                + "leap,Leap day.,2024-02-29\nnoleap,Not a leap day.,2023-02-29\n")
        let result = try readAll([csv])
        #expect(result.documents.map(\.id) == ["old", "leap"])
        #expect(result.documents.first?.createdAt == Date(timeIntervalSince1970: -62_135_596_800))
        #expect(result.documents.last?.createdAt == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(result.skipped.map(\.line) == [3, 5])
        #expect(result.skipped.first?.reason.contains("\"2026-13-45\" is not a date") == true)

        let twoTexts = try folder.write("two.csv", "id,text,body\na,first,second\n")
        let shadowed = try readAll([twoTexts])
        #expect(shadowed.documents.isEmpty)
        #expect(shadowed.skipped.first?.reason.contains("\"text\" and \"body\"") == true)
    }
}

@Suite struct IngestCSVParserTests {
    static let input = "a,b,c\r\n\"x, \"\"y\"\"\",\"line\nbreak\",plain\"quote\n\n\"\",,\"z\"tail\nlast,row,here"

    func parse(blockSize: Int) -> [([String], Int)] {
        var parser = CSVParser()
        var records: [([String], Int)] = []
        let bytes = Array(Self.input.utf8)
        var start = 0
        let collect: ([[UInt8]], Int) -> Void = { fields, line in
            records.append((fields.map { String(decoding: $0, as: UTF8.self) }, line))
        }
        while start < bytes.count {
            let end = min(bytes.count, start + blockSize)
            parser.consume(Array(bytes[start..<end]), record: collect)
            start = end
        }
        #expect(parser.finish(record: collect) == nil)
        return records
    }

    @Test func recordsAreTheSameWhateverTheBlockSize() {
        let expected: [([String], Int)] = [
            (["a", "b", "c"], 1),
            (["x, \"y\"", "line\nbreak", "plain\"quote"], 2),
            (["", "", "ztail"], 5),
            (["last", "row", "here"], 6),
        ]
        for blockSize in [1, 2, 3, 7, 1000] {
            let records = parse(blockSize: blockSize)
            #expect(records.map(\.0) == expected.map(\.0), "block size \(blockSize)")
            #expect(records.map(\.1) == expected.map(\.1), "block size \(blockSize)")
        }
    }
}
