import Foundation
import HushTestSupport
import Testing

@testable import HushEmbedding

/// Exact agreement with Hugging Face `tokenizers` on real text (scripts/tokenizer-parity/).
@Suite struct TokenizerParityTests {
    /// The committed fixture: about 2,600 texts covering docstrings, man pages, /usr/share/doc, edge cases
    /// and seeded random mixed-script strings, with ids computed by `tokenizers`.
    @Test(.needsModel) func fixtureMatchesReferenceTokenizer() throws {
        let tokenizer = try TokenizerTestSupport.defaultTokenizer()
        let url = try #require(
            Bundle.module.url(forResource: "tokenizer-parity", withExtension: "jsonl", subdirectory: "Fixtures"))
        let rows = try TokenizerTestSupport.readExpected(url)
        #expect(rows.count > 2000)
        #expect(rows.contains { $0.id.hasPrefix("edge:") } && rows.contains { $0.id.hasPrefix("man:") })
        let identical = TokenizerTestSupport.compare(rows, with: tokenizer)
        print("tokenizer parity fixture: \(identical)/\(rows.count) identical")
        #expect(identical == rows.count)
    }

    /// The full corpus built by scripts/tokenizer-parity/run.sh, when HUSH_TOKENIZER_CORPUS names it.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["HUSH_TOKENIZER_CORPUS"] != nil))
    func fullCorpusMatchesReferenceTokenizer() throws {
        let path = ProcessInfo.processInfo.environment["HUSH_TOKENIZER_CORPUS"] ?? ""
        let tokenizer = try TokenizerTestSupport.defaultTokenizer()
        let rows = try TokenizerTestSupport.readExpected(URL(fileURLWithPath: path))
        let identical = TokenizerTestSupport.compare(rows, with: tokenizer)
        print("\(identical)/\(rows.count) identical")
        #expect(identical == rows.count)

        // Throughput: every text tokenized without truncation limits, three passes, best one reported.
        let texts = rows.map(\.text)
        var best = Double.infinity
        var tokens = 0
        for _ in 0..<3 {
            let clock = ContinuousClock()
            var count = 0
            let elapsed = clock.measure {
                for text in texts { count += tokenizer.encode(text, maxLength: Int.max).ids.count }
            }
            tokens = count
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            best = min(best, seconds)
        }
        let bytes = texts.reduce(0) { $0 + $1.utf8.count }
        print(
            "tokenizer throughput: \(tokens) tokens, \(bytes) bytes in \(String(format: "%.3f", best)) s = "
                + "\(Int(Double(tokens) / best)) tokens/s, \(String(format: "%.1f", Double(bytes) / best / 1e6)) MB/s")
    }
}
