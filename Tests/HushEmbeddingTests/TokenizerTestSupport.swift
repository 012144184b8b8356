import Foundation
import HushTestSupport
import Testing

@testable import HushEmbedding

/// The MiniLM tokenizer and the expected token ids of the parity fixtures.
enum TokenizerTestSupport {
    /// The model's tokenizer; records a test failure naming the fix when the model is missing.
    static func defaultTokenizer() throws -> WordPieceTokenizer {
        do {
            return try WordPieceTokenizer(modelDirectory: TestModels.miniLMDirectory)
        } catch {
            Issue.record(
                "cannot load the tokenizer of \(TestModels.miniLMDirectory.path) (run scripts/fetch-model): \(error)")
            throw error
        }
    }

    struct Expected {
        var id: String
        var text: String
        var ids: [Int32]
        var count: Int
    }

    /// Reads `{"id","text","ids","count"}` lines written by scripts/tokenizer-parity/expected.py.
    static func readExpected(_ url: URL) throws -> [Expected] {
        let data = try Data(contentsOf: url)
        var rows: [Expected] = []
        for line in data.split(separator: UInt8(ascii: "\n")) where !line.isEmpty {
            let object = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] ?? [:]
            guard let id = object["id"] as? String, let text = object["text"] as? String,
                let ids = object["ids"] as? [NSNumber], let count = object["count"] as? NSNumber
            else {
                Issue.record("malformed line in \(url.path): \(String(decoding: line.prefix(200), as: UTF8.self))")
                continue
            }
            rows.append(Expected(id: id, text: text, ids: ids.map(\.int32Value), count: count.intValue))
        }
        return rows
    }

    /// Compares every row; prints mismatches with their text; returns the number of identical rows.
    static func compare(_ rows: [Expected], with tokenizer: WordPieceTokenizer, maxLength: Int = 256) -> Int {
        var identical = 0
        var shown = 0
        for row in rows {
            let got = tokenizer.encode(row.text, maxLength: maxLength)
            if got.ids == row.ids && got.untruncatedCount == row.count
                && got.truncated == (row.count > maxLength)
            {
                identical += 1
            } else if shown < 25 {
                shown += 1
                let firstDiff =
                    zip(got.ids, row.ids).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                    ?? min(got.ids.count, row.ids.count)
                print(
                    "MISMATCH \(row.id) text=\(row.text.debugDescription.prefix(300)) first difference at \(firstDiff)"
                        + " expected=\(row.ids.dropFirst(max(0, firstDiff - 2)).prefix(8))"
                        + " got=\(got.ids.dropFirst(max(0, firstDiff - 2)).prefix(8))"
                        + " count expected \(row.count) got \(got.untruncatedCount)")
            }
        }
        return identical
    }
}
