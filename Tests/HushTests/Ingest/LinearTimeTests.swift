import Foundation
import HushTestSupport
import Testing

@testable import Hush

/// Every reader and text pass runs in time linear in its input, whatever the input holds: a 40 KB Markdown note
/// of 40,000 `[` took 63 s to index. Each case times a pass on an adversarial input of `n` and of `4n` units
/// (the best of seven runs each, taking turns): linear work grows about 4 times, quadratic 16; more than 10 fails.
@Suite struct LinearTimeTests {
    /// The time of one run of `body` on `input`, in seconds.
    static func time(_ input: String, _ body: (String) -> Void) -> Double {
        let elapsed = ContinuousClock().measure { body(input) }
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// Times `body` on `make(n)` and `make(4n)`, growing `n` until the small input takes at least 5 ms, so that
    /// the ratio is not noise; then the best of seven runs of each, the two sizes taking turns, so that a burst of
    /// load on the machine (the other suites run beside this one) slows both alike.
    static func expectLinear(
        _ name: String, n start: Int, _ make: (Int) -> String, _ body: (String) -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var n = start
        while time(make(n), body) < 0.005 && n < start * 64 { n *= 2 }
        let (smallInput, largeInput) = (make(n), make(4 * n))
        var small = Double.infinity
        var large = Double.infinity
        for _ in 0..<7 {
            small = min(small, time(smallInput, body))
            large = min(large, time(largeInput, body))
        }
        #expect(
            large / max(small, 1e-6) < 10, "\(name): \(n) units \(small) s, \(4 * n) units \(large) s",
            sourceLocation: sourceLocation)
    }

    static let markdown: [(String, @Sendable (Int) -> String)] = [
        ("opening brackets", { String(repeating: "[", count: $0) }),
        (
            "links nested by their brackets",
            { String(repeating: "[", count: $0) + String(repeating: "](y)", count: $0) }
        ),
        ("wiki openers without a close", { String(repeating: "[[a] ", count: $0) }),
        ("angle brackets", { String(repeating: "<", count: $0) }),
        ("angle brackets around words", { String(repeating: "<a", count: $0) + ">" }),
        (
            "backtick runs of every length",
            { n in (1...Int(Double(n).squareRoot())).map { String(repeating: "`", count: $0) + " x " }.joined() }
        ),
        ("unpaired backticks", { String(repeating: "`` x ", count: $0) + "`" }),
        ("emphasis of two markers", { String(repeating: "*a _b ", count: $0) + String(repeating: "c_ ", count: $0) }),
        ("underscore openers", { String(repeating: "_a ", count: $0) + String(repeating: "b* ", count: $0) }),
    ]

    @Test func markdownLinesAreReadInLinearTime() {
        for (name, make) in Self.markdown {
            Self.expectLinear("Markdown \(name)", n: 2_000, make) { _ = MarkdownText.line($0, afterText: false) }
        }
    }
}

/// A record longer than a text file may be is skipped as it streams past, never held: one 200 MB JSON line took
/// 2.6 GB and 240 s before it was refused, and a cancel waited for it.
@Suite struct BoundedRecordTests {
    @Test func aLineOverTheLimitIsReportedAndNeverHeld() throws {
        let folder = try TemporaryDirectory()
        let url = URL(fileURLWithPath: folder.path("feed.jsonl"))
        let long = String(repeating: "x", count: 3 << 20)  // three blocks of the reader
        try ("first\n" + long + "\nthird\n" + long).write(to: url, atomically: true, encoding: .utf8)
        var lines: [(Int, Int)] = []
        var overlong: [Int] = []
        try FileByteStream.forEachLine(url, maximumLineBytes: 1 << 20, overlong: { overlong.append($0) }) {
            line, number in
            lines.append((number, line.count))
        }
        #expect(lines.map(\.0) == [1, 3] && lines.map(\.1) == [5, 5])
        #expect(overlong == [2, 4])
    }

    @Test func aJSONLinesRecordOverTheLimitIsSkippedWithItsLine() throws {
        let folder = try TemporaryDirectory()
        let url = URL(fileURLWithPath: folder.path("posts.jsonl"))
        let huge = String(repeating: "a", count: FileByteStream.maximumRecordBytes + 10)
        try
            (#"{"id": "a", "text": "A walk by the harbour."}"# + "\n" + #"{"id": "b", "text": ""# + huge + "\"}\n"
            + #"{"id": "c", "text": "Rain all day."}"#).write(to: url, atomically: true, encoding: .utf8)
        let (documents, _, skipped) = try readAll([url])
        #expect(documents.map(\.id) == ["a", "c"], "\(documents.map(\.id))")
        #expect(skipped.count == 1 && skipped.first?.line == 2 && skipped.first?.reason.contains("too large") == true)
    }

    @Test func aCSVRecordOverTheLimitIsDroppedWholeAndReported() {
        var parser = CSVParser(maximumRecordBytes: 100)
        let text =
            "a,b\n" + String(repeating: "x", count: 300) + ",y\n\"" + String(repeating: "q\n", count: 80)
            + "\",z\nc,d\n" + String(repeating: ",", count: 500) + "\ne,f\n"
        var records: [[String]] = []
        let bytes = Array(text.utf8)
        // Fed in blocks of 7 bytes, so that the long fields span blocks.
        for start in stride(from: 0, to: bytes.count, by: 7) {
            parser.consume(Array(bytes[start..<min(start + 7, bytes.count)])) { fields, _ in
                records.append(fields.map { String(decoding: $0, as: UTF8.self) })
            }
        }
        _ = parser.finish { fields, _ in records.append(fields.map { String(decoding: $0, as: UTF8.self) }) }
        #expect(records == [["a", "b"], ["c", "d"], ["e", "f"]])
        #expect(parser.takeOverlong() == [2, 3, 85])
    }

    @Test func aCancelledReadStopsBetweenBlocks() async throws {
        let folder = try TemporaryDirectory()
        let url = URL(fileURLWithPath: folder.path("big.jsonl"))
        try String(repeating: "y", count: 8 << 20).write(to: url, atomically: true, encoding: .utf8)
        let reading = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try FileByteStream.forEachLine(url) { _, _ in }
        }
        let outcome = await reading.result
        #expect(throws: CancellationError.self) { try outcome.get() }
    }
}

extension LinearTimeTests {
    /// The passes a document's text goes through when it is indexed, and a summary's, on inputs that made them
    /// quadratic (found by reading every pass for loops over the same text).
    @Test func textPassesRunInLinearTime() throws {
        let cleaner = TextCleaner()
        Self.expectLinear(
            "a link word followed by closing brackets", n: 2_000, { "a.b" + String(repeating: ")", count: $0) }
        ) {
            _ = cleaner.clean($0)
        }
        Self.expectLinear(
            "mentions after a character beyond ASCII", n: 1_000, { "é" + String(repeating: " @a", count: $0) }
        ) {
            _ = cleaner.cleanWithReplacements(Document(id: "post", body: $0))
        }
        Self.expectLinear(
            "sentences of mentions restored one by one", n: 500, { String(repeating: "Thanks @ana. ", count: $0) }
        ) {
            text in
            let (cleaned, replacements) = cleaner.cleanWithReplacements(Document(id: "post", body: text))
            var start = 0
            for sentence in cleaned.components(separatedBy: ". ") {
                let count = sentence.utf16.count
                _ = TextCleaner.restore(sentence, at: start..<(start + count), from: replacements)
                start += count + 2
            }
        }
        let tokenizer = try WordPieceTokenizer(
            vocabulary: ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "a", "##a"], configuration: .init())
        Self.expectLinear(
            "combining marks of two classes", n: 2_000,
            {
                "a" + String(repeating: "\u{301}", count: $0) + String(repeating: "\u{316}", count: $0)
            }
        ) { _ = tokenizer.encode($0, maxLength: 16) }
        let chunker = Chunker(tokenCounter: wordTokens)
        Self.expectLinear("a field whose label is longer than a chunk", n: 500, { String(repeating: "a ", count: $0) })
        {
            label in
            let chunks = chunker.chunk(title: nil, text: "", fields: [.init(label: label, value: label)])
            #expect(chunks.reduce(0) { $0 + $1.text.count } <= 4 * (2 * label.count + 100))
        }
    }

    /// A Markdown note of blank lines and headings, and a CSV file with a long column name, read whole.
    @Test func readersRunInLinearTime() throws {
        let folder = try TemporaryDirectory()
        var file = 0
        func read(_ name: String, _ text: String) {
            file += 1
            let url = URL(fileURLWithPath: folder.path("\(file)-\(name)"))
            try? text.write(to: url, atomically: true, encoding: .utf8)
            _ = try? readAll([url])
        }
        Self.expectLinear(
            "headings after blank lines", n: 1_000,
            {
                "# a\n" + String(repeating: "\n", count: 4 * $0) + String(repeating: "# b\n", count: $0)
            }
        ) { read("note.md", $0) }
        Self.expectLinear(
            "a CSV column name as long as the file", n: 2_000,
            {
                "text," + String(repeating: "n", count: $0) + "\n" + String(repeating: "a,b\n", count: $0)
            }
        ) { read("rows.csv", $0) }
    }
}
