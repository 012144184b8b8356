import Foundation
import GRDB
import HushTestSupport
import Testing

/// `hush import` on the Python-built fixture, then `hush search` with the real model.
@Suite(.serialized) struct ImportCLITests {
    static var fixtures: URL {
        Repository.root.appendingPathComponent("Tests/HushTests/Fixtures")
    }

    @Test(.needsModel) func importThenSearchMatchesSentenceTransformers() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("kb.hush").path
        let source = Self.fixtures.appendingPathComponent("python-kb.sqlite").path
        let imported = try CLIRunner.run(["import", "--from", source, "--db", db, "--json"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try imported.json()["added"] as? Int == 60)
        let again = try CLIRunner.run(["import", "--from", source, "--db", db])
        #expect(again.stdout.contains("0 added, 0 updated, 60 unchanged"))

        let expected = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: Self.fixtures.appendingPathComponent("python-kb-expected.json")))
                as? [String: Any])
        let queries = try #require(expected["queries"] as? [[String: Any]])
        for query in queries.prefix(3) {
            let text = try #require(query["query"] as? String)
            // Every document with its raw cosine (explain), so that tag and category boosts do not matter.
            let result = try CLIRunner.run([
                "search", "--db", db, "--mode", "semantic", "--k", "60", "--json", "--explain", text,
            ])
            #expect(result.status == 0, "\(result.stderr)")
            let hits = try #require(try result.json()["results"] as? [[String: Any]])
            let byCosine = hits.compactMap { hit -> (String, Double)? in
                guard let id = hit["id"] as? String,
                    let cosine = (hit["explain"] as? [String: Any])?["semantic_score"] as? Double
                else { return nil }
                return (id, cosine)
            }.sorted { $0.1 > $1.1 }
            #expect(byCosine.prefix(5).map(\.0) == query["top5"] as? [String], "\(text)")
        }
    }

    @Test(.needsModel) func importRefusesAMissingTable() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = Self.fixtures.appendingPathComponent("python-kb.sqlite").path
        let result = try CLIRunner.run([
            "import", "--from", source, "--table", "articles", "--db", folder.appendingPathComponent("kb.hush").path,
        ])
        #expect(result.status != 0)
        #expect(result.stderr.contains("no table articles"))
    }

    /// A Python-style knowledge base: `documents(id, title, content, metadata, embedding)` with `rows`.
    private static func pythonBase(
        at path: String, rows: [(id: Int, content: String, metadata: String?, vector: [Float])]
    )
        throws
    {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql:
                    "CREATE TABLE documents (id INTEGER PRIMARY KEY, title TEXT, content TEXT, metadata TEXT, embedding BLOB)"
            )
            for row in rows {
                let blob = row.vector.withUnsafeBufferPointer { Data(buffer: $0) }
                try db.execute(
                    sql: "INSERT INTO documents (id, title, content, metadata, embedding) VALUES (?, NULL, ?, ?, ?)",
                    arguments: [row.id, row.content, row.metadata, blob])
            }
        }
        try queue.close()
    }

    @Test(.needsModel) func importReportsEveryBadRowAndLeavesNoEmptyStore() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        func vector(_ seed: Int) -> [Float] {
            var values = (0..<384).map { Float(($0 * 31 + seed * 17) % 97) / 97 - 0.5 }
            let norm = values.reduce(0) { $0 + $1 * $1 }.squareRoot()
            values = values.map { $0 / norm }
            return values
        }
        var nan = vector(3)
        nan[7] = .nan
        var infinite = vector(4)
        infinite[0] = .infinity
        let source = folder.appendingPathComponent("py.sqlite").path
        try Self.pythonBase(
            at: source,
            rows: [
                (1, "A good note about sleep.", #"{"tags": ["sleep"]}"#, vector(1)),
                (2, "Metadata that is not JSON.", "not json at all", vector(2)),
                (3, "A NaN vector.", nil, nan),
                (4, "An infinite vector.", nil, infinite),
                (5, "A bad date.", #"{"date": "2024-13-45"}"#, vector(5)),
                (6, "A null value.", #"{"n": null}"#, vector(6)),
                (7, "Another good note about gardens.", #"{"date": "1500-01-01"}"#, vector(7)),
            ])
        let db = folder.appendingPathComponent("kb.hush").path
        let result = try CLIRunner.run(["import", "--json", "--from", source, "--db", db])
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try result.json()
        #expect(summary["added"] as? Int == 2 && summary["rejected"] as? Int == 5, "\(summary)")
        let text = try CLIRunner.run(["import", "--from", source, "--db", db])
        for id in ["2", "3", "4", "5", "6"] {
            #expect(text.stdout.contains("rejected \(id): row \(id):"), "\(text.stdout)")
        }
        let get = try CLIRunner.run(["get", "--db", db, "7"])
        #expect(get.stdout.contains("1500-01-01"), "\(get.stdout)")

        // A source whose every row is refused, or that cannot be read, leaves no new store behind.
        let bad = folder.appendingPathComponent("bad.sqlite").path
        try Self.pythonBase(at: bad, rows: [(1, "Only NaN.", nil, nan)])
        let none = folder.appendingPathComponent("none.hush").path
        let refused = try CLIRunner.run(["import", "--from", bad, "--db", none])
        #expect(refused.stdout.contains("rejected 1"), "\(refused.stdout)")
        #expect(!FileManager.default.fileExists(atPath: none))
        let text16 = folder.appendingPathComponent("text.sqlite").path
        try "not a database".write(toFile: text16, atomically: true, encoding: .utf8)
        #expect(try CLIRunner.run(["import", "--from", text16, "--db", none]).status != 0)
        #expect(!FileManager.default.fileExists(atPath: none))
    }
}
