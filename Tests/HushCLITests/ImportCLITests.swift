import Foundation
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
}
