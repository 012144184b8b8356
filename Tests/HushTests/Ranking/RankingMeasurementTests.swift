import Foundation
import HushTestSupport
import Testing

@testable import Hush

/// Which document similarity should `related` use? A measurement on real multi-chunk text: manual pages
/// (`/usr/share/man/man1`) each cut into two halves stored as separate documents; the better measure ranks a
/// half's sibling higher. Opt in with `HUSH_RANKING_MEASURE=1` (it embeds about a thousand chunks).
@Suite(.serialized) struct RankingMeasurementTests {
    static let enabled = ProcessInfo.processInfo.environment["HUSH_RANKING_MEASURE"] == "1"

    /// Readable text of a roff manual page: macro lines dropped (their arguments kept for text macros),
    /// font and character escapes removed.
    static func plainText(roff: String) -> String {
        var lines: [String] = []
        for raw in roff.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = String(raw)
            if line.hasPrefix(".") || line.hasPrefix("'") {
                let parts = line.split(separator: " ", maxSplits: 1)
                let macro = parts.first.map(String.init) ?? ""
                if [".B", ".I", ".BR", ".IR", ".RB", ".RI", ".BI", ".IB"].contains(macro), parts.count > 1 {
                    line = String(parts[1]).replacingOccurrences(of: "\"", with: "")
                } else {
                    if [".PP", ".P", ".LP", ".TP", ".SH", ".SS", ".IP"].contains(macro) { lines.append("") }
                    continue
                }
            }
            for pattern in [#"\\f\[[^\]]*\]"#, #"\\f\(.."#, #"\\f."#, #"\\\(.."#, #"\\\*."#, #"\\[&|^%]"#] {
                line = line.replacingOccurrences(of: pattern, with: "", options: .regularExpression)
            }
            line = line.replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\\e", with: "\\")
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    static func manualPages(limit: Int, minimumWords: Int) throws -> [(name: String, text: String)] {
        let folder = URL(fileURLWithPath: "/usr/share/man/man1")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".1.gz") }
            .sorted()
        var pages: [(String, String)] = []
        for name in names where pages.count < limit {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/gzip")
            process.arguments = ["-dc", folder.appendingPathComponent(name).path]
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let text = plainText(roff: String(decoding: data, as: UTF8.self))
            if text.split(whereSeparator: \.isWhitespace).count >= minimumWords { pages.append((name, text)) }
        }
        return pages
    }

    @Test(.enabled(if: enabled)) func meanVectorAgainstBestChunkPairOnSplitManualPages() async throws {
        let pages = try Self.manualPages(limit: 100, minimumWords: 500)
        var documents: [Document] = []
        for (index, page) in pages.enumerated() {
            // Two halves of at most 400 words each, cut at a paragraph break near the middle of the first 800.
            let paragraphs = page.text.components(separatedBy: "\n\n").map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            .filter { !$0.isEmpty }
            var halves = ["", ""]
            var words = 0
            for paragraph in paragraphs {
                let count = paragraph.split(whereSeparator: \.isWhitespace).count
                if words >= 800 { break }
                halves[words < 400 ? 0 : 1] += paragraph + "\n\n"
                words += count
            }
            guard !halves[1].isEmpty else { continue }
            documents.append(Document(id: "\(index)-a", body: halves[0], language: "en"))
            documents.append(Document(id: "\(index)-b", body: halves[1], language: "en"))
        }
        let store = try await HushStore.inMemory(embedder: try TestModels.miniLMEmbedder())
        try await store.upsert(documents)
        let stats = try await store.stats()
        print("measure: \(documents.count) documents, \(stats.chunks) chunks")

        var results: [DocumentSimilarity: (reciprocal: Double, top1: Int)] = [:]
        for similarity in DocumentSimilarity.allCases {
            var reciprocal = 0.0
            var top1 = 0
            for document in documents {
                let sibling =
                    document.id.hasSuffix("-a")
                    ? String(document.id.dropLast()) + "b" : String(document.id.dropLast()) + "a"
                let related = try store.ranker.relatedDocuments(
                    to: document.id, limit: 10, minCosine: nil, sameLanguage: false, filter: .init(),
                    similarity: similarity)
                #expect(!related.contains { $0.id == document.id })
                if let rank = related.firstIndex(where: { $0.id == sibling }) {
                    reciprocal += 1 / Double(rank + 1)
                    if rank == 0 { top1 += 1 }
                }
            }
            results[similarity] = (reciprocal / Double(documents.count), top1)
            print(
                "measure: \(similarity.rawValue): MRR@10 \(String(format: "%.3f", reciprocal / Double(documents.count))), "
                    + "sibling first \(top1)/\(documents.count)")
        }
        let mean = try #require(results[.meanVector])
        let pairs = try #require(results[.bestChunkPair])
        #expect(mean.reciprocal >= pairs.reciprocal)
    }
}
