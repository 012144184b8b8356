import Foundation
import HushTestSupport
import Testing

/// `hush related`, `rank`, `summarize`, `prune`, `compact` and `search --diverse/--explain` on the samples,
/// with the real binary and model.
@Suite(.serialized) struct RankingCLITests {
    static func indexedSamples() throws -> (folder: URL, db: String) {
        let folder = try CLIRunner.temporaryDirectory()
        let db = folder.appendingPathComponent("samples.hush").path
        let indexed = try CLIRunner.run(["index", "--db", db, "--json", CLIRunner.samples.path])
        #expect(indexed.status == 0, "\(indexed.stderr)")
        return (folder, db)
    }

    static func ids(_ output: CLIRunner.Output, key: String = "results") throws -> [String] {
        let list = try #require(try output.json()[key] as? [[String: Any]])
        return list.compactMap { $0["id"] as? String }
    }

    /// Posts have no title: `related` and `rank` show their opening words, as `hush list` does, not a bare id.
    @Test func untitledDocumentsAreShownByTheirOpeningWords() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let posts = folder.appendingPathComponent("posts.jsonl")
        try """
        {"id": "p1", "text": "Morning run along the river, legs heavy but the sunrise was worth it."}
        {"id": "p2", "text": "Evening run by the river again; the legs felt lighter tonight."}
        {"id": "p3", "text": "Tried the new ramen place downtown, the broth was excellent."}
        {"id": "p4", "title": "Race day", "text": "Ten kilometres along the river in under an hour."}
        """.write(to: posts, atomically: true, encoding: .utf8)
        let db = folder.appendingPathComponent("feed.hush").path
        #expect(try CLIRunner.run(["index", "--db", db, "--lexical", "--quiet", posts.path]).status == 0)
        let related = try CLIRunner.run(["related", "--db", db, "--lexical", "--k", "3", "p1"])
        #expect(related.status == 0, "\(related.stderr)")
        #expect(related.stdout.contains("[p2] Evening run by the river again; the legs felt lighter tonig…"))
        #expect(related.stdout.contains("[p4] Race day"))
        let ranked = try CLIRunner.run(["rank", "--db", db, "--lexical", "--liked", "p2", "--k", "3"])
        #expect(ranked.status == 0, "\(ranked.stderr)")
        #expect(ranked.stdout.contains("[p1] Morning run along the river, legs heavy but the sunrise was…"))
    }

    @Test(.needsModel) func relatedRankAndSummarize() throws {
        let (folder, db) = try Self.indexedSamples()
        defer { try? FileManager.default.removeItem(at: folder) }

        let related = try CLIRunner.run(["related", "--db", db, "--json", "--k", "3", "r-breakup"])
        #expect(related.status == 0, "\(related.stderr)")
        let relatedIDs = try Self.ids(related)
        #expect(relatedIDs.count == 3 && !relatedIDs.contains("r-breakup"))
        #expect(relatedIDs.contains("r-ex") || relatedIDs.contains("r-friends"))
        let scores = try #require(try related.json()["results"] as? [[String: Any]]).compactMap {
            $0["score"] as? Double
        }
        #expect(scores == scores.sorted(by: >))

        let french = try CLIRunner.run(["related", "--db", db, "--json", "--same-language", "r-fr"])
        #expect(try Self.ids(french).isEmpty)  // the only French sample

        let missing = try CLIRunner.run(["related", "--db", db, "no-such-id"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no-such-id"))

        let rank = try CLIRunner.run([
            "rank", "--db", db, "--json", "--liked", "r-sleep,r-news", "--now", "2026-04-01", "--per-language",
        ])
        #expect(rank.status == 0, "\(rank.stderr)")
        let ranked = try #require(try rank.json()["results"] as? [[String: Any]])
        let rankedIDs = ranked.compactMap { $0["id"] as? String }
        #expect(rankedIDs.count == 25)
        #expect(!rankedIDs.contains("r-sleep") && !rankedIDs.contains("r-news"))
        // Per language, German and French have no liked item: kept at the end, newest first, unscored.
        #expect(Array(rankedIDs.suffix(2)) == ["r-de", "r-fr"])
        #expect(ranked.suffix(2).allSatisfy { $0["score"] is NSNull })
        // The default model is multilingual: one interest for all languages scores every document.
        let across = try CLIRunner.run([
            "rank", "--db", db, "--json", "--liked", "r-sleep,r-news", "--now", "2026-04-01",
        ])
        let acrossResults = try #require(try across.json()["results"] as? [[String: Any]])
        #expect(acrossResults.count == 25 && acrossResults.allSatisfy { $0["score"] is Double })
        let position = Dictionary(uniqueKeysWithValues: rankedIDs.enumerated().map { ($1, $0) })
        #expect((position["r-exam"] ?? 99) < (position["m-hiring"] ?? -1))

        let summary = try CLIRunner.run([
            "summarize", "--db", db, "--json", "--sentences", "2", "samples/notes/budget-review.md",
        ])
        #expect(summary.status == 0, "\(summary.stderr)")
        let sentences = try #require(try summary.json()["sentences"] as? [[String: Any]])
        #expect(sentences.count == 2)
        let positions = sentences.compactMap { $0["position"] as? Int }
        #expect(positions == positions.sorted())

        let byQuery = try CLIRunner.run(["summarize", "--db", db, "--query", "money worries", "--k", "2"])
        #expect(byQuery.status == 0, "\(byQuery.stderr)")
        #expect(byQuery.stdout.split(separator: "\n").count == 3)
    }

    @Test(.needsModel) func searchExplainShowsTheAnalysisAndDiverseKeepsTheCount() throws {
        let (folder, db) = try Self.indexedSamples()
        defer { try? FileManager.default.removeItem(at: folder) }
        let explained = try CLIRunner.run([
            "search", "--db", db, "--json", "--explain", "--k", "2", "Meetings about the running budget",
        ])
        #expect(explained.status == 0, "\(explained.stderr)")
        let analysis = try #require(try explained.json()["analysis"] as? [String: Any])
        #expect(analysis["keywords"] as? [String] == ["meet", "run", "budget"])
        #expect(analysis["language"] as? String == "en")
        let plain = try CLIRunner.run(["search", "--db", db, "--json", "--k", "2", "budget"])
        #expect(try plain.json()["analysis"] == nil)
        let text = try CLIRunner.run(["search", "--db", db, "--explain", "--k", "1", "running budget"])
        #expect(text.stdout.hasPrefix("query: \"running budget\"  language: "))

        let diverse = try CLIRunner.run(["search", "--db", db, "--json", "--diverse", "--k", "4", "worried at night"])
        #expect(diverse.status == 0, "\(diverse.stderr)")
        #expect(try Set(Self.ids(diverse)).count == 4)
        let bad = try CLIRunner.run(["search", "--db", db, "--lambda", "3", "x"])
        #expect(bad.status != 0)
    }

    @Test(.needsModel) func pruneThenCompact() throws {
        let (folder, db) = try Self.indexedSamples()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pruned = try CLIRunner.run(["prune", "--db", db, "--json", "--max-documents", "5"])
        #expect(pruned.status == 0, "\(pruned.stderr)")
        #expect(try pruned.json()["deleted"] as? Int == 22)
        #expect(try pruned.json()["documents"] as? Int == 5)
        let stats = try CLIRunner.run(["stats", "--db", db, "--json"])
        let counts = try stats.json()
        #expect(counts["documents"] as? Int == 5)
        #expect(counts["chunks"] as? Int == counts["vectors"] as? Int)
        // The newest five are the three notes (dated when indexed) and the two newest journal entries.
        let search = try CLIRunner.run(["search", "--db", db, "--json", "--k", "10", "sleep"])
        #expect(
            Set(try Self.ids(search)).isSubset(of: [
                "samples/notes/budget-review.md", "samples/notes/garden.md", "samples/notes/onboarding.md", "r-de",
                "r-fr",
            ]))

        let compact = try CLIRunner.run(["compact", "--db", db, "--json"])
        #expect(compact.status == 0, "\(compact.stderr)")
        let report = try compact.json()
        let before = try #require(report["bytes_before"] as? Int)
        let after = try #require(report["bytes_after"] as? Int)
        #expect(after < before)
        #expect(try CLIRunner.run(["prune", "--db", db]).status != 0)  // nothing to prune by
    }
}
