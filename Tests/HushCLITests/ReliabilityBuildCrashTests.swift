import Foundation
import HushTestSupport
import HushToolSupport
import Testing

/// `hush build` killed (SIGKILL) at random points, many times: the shipped file is always the last complete
/// build (byte for byte, and whole), and the next build finishes the work and removes the dead builds'
/// temporary files.
@Suite(.serialized, .killsOrRaces) struct ReliabilityBuildCrashTests {
    @Test func buildSurvivesRepeatedSIGKILL() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let names = ["a", "b"]
        let corpora = names.map { folder.appendingPathComponent($0) }
        let totals = [
            try ReliabilityCorpus.write(count: 3_000, prefix: "a", seed: 21, into: corpora[0]),
            try ReliabilityCorpus.write(count: 3_000, prefix: "b", seed: 22, into: corpora[1]),
        ]
        let output = folder.appendingPathComponent("kb.sqlite")
        func arguments(_ corpus: URL) -> [String] {
            ["build", "--lexical", "--quiet", "--from", corpus.path, "--out", output.path]
        }
        func audit() throws -> StoreAudit {
            // Audit a copy: the shipped file itself must stay byte-identical.
            let copy = folder.appendingPathComponent("audit-\(UUID().uuidString).sqlite")
            defer { ReliabilityProcess.removeStore(copy.path) }
            try FileManager.default.copyItem(at: output, to: copy)
            return try StoreAudit.read(copy.path)
        }

        // A first complete build of corpus a: the file every killed build must leave in place.
        let first = try ReliabilityProcess.timed(arguments(corpora[0]))
        try #require(first.status == 0)
        var shipped = try Data(contentsOf: output)
        var current = 0
        #expect(try audit().documents == totals[0])

        var random = SplitMix(seed: 0xB111D)
        var killed = 0
        var publishedLate = 0
        var attempts = 0
        let kills = 10
        while killed < kills, attempts < kills * 4 {
            attempts += 1
            let next = 1 - current
            let delay = Double.random(in: 0.02...max(0.05, first.seconds * 1.2), using: &random)
            guard try ReliabilityProcess.kill(arguments(corpora[next]), after: delay) else {
                // The build finished first: it shipped the other corpus; kill the next one going back.
                shipped = try Data(contentsOf: output)
                current = next
                #expect(try audit().documents == totals[current])
                continue
            }
            killed += 1
            let state = try audit()
            if try Data(contentsOf: output) != shipped {
                // The kill landed after the publishing rename (the build was done, the process was still
                // syncing the folder or removing its temporary files): the file must be that whole new build.
                #expect(
                    state.isWhole && state.documents == totals[next] && state.idPrefixes == [names[next]],
                    "kill \(killed) after \(delay) s changed the shipped file to something other than the next build: \(state)"
                )
                shipped = try Data(contentsOf: output)
                current = next
                publishedLate += 1
                continue
            }
            #expect(
                state.isWhole && state.documents == totals[current] && state.idPrefixes == [names[current]],
                "kill \(killed): \(state)")
        }
        #expect(killed == kills, "only \(killed) of \(kills) builds were killed before they finished")

        // The next build completes the work and leaves no temporary file behind.
        let next = 1 - current
        let finished = try ReliabilityProcess.timed(arguments(corpora[next]))
        #expect(finished.status == 0)
        let final = try audit()
        #expect(final.isWhole && final.documents == totals[next], "\(final)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.contains(".building-")
        }
        #expect(leftovers.isEmpty, "temporary files left: \(leftovers)")
        #expect(publishedLate < kills / 2, "\(publishedLate) of \(kills) kills came after the build had published")
        reliabilityLog(
            "build lexical: \(killed) SIGKILLs (\(attempts) starts), shipped file unchanged after each "
                + "(\(publishedLate) landed after the publishing rename: the new build, whole)")
    }
}
