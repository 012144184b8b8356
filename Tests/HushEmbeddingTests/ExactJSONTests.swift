import Foundation
import Testing

@testable import HushEmbedding

/// The tokenizer.json reader: numbers are the nearest doubles (Swift's parser), strings and structure as JSON
/// says, and malformed text is an error with its byte offset.
@Suite struct ExactJSONTests {
    @Test func numbersAreTheNearestDouble() throws {
        var state: UInt64 = 7
        var texts: [String] = []
        for _ in 0..<5_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let score = -Float(state >> 40) / Float(1 << 20)  // f32 log-probabilities, as a tokenizer stores
            texts.append("\(Double(score))")
        }
        texts += ["0", "-0.0", "1e-7", "3.4028234663852886e+38", "-12", "2.5E3"]
        let parsed = try #require(try ExactJSON.parse(Data(("[" + texts.joined(separator: ",") + "]").utf8)) as? [Any])
        #expect(parsed.count == texts.count)
        for (text, value) in zip(texts, parsed) {
            #expect((value as? NSNumber)?.doubleValue.bitPattern == Double(text)?.bitPattern, "\(text)")
        }
    }

    @Test func stringsAndStructure() throws {
        let json = #"{"a": [true, false, null, {}, []], "s": "q\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00\ud800x", "n": -1}"#
        let object = try #require(try ExactJSON.parse(Data(json.utf8)) as? [String: Any])
        let array = try #require(object["a"] as? [Any])
        #expect(array[0] as? Bool == true && array[1] as? Bool == false && array[2] is NSNull)
        #expect((array[3] as? [String: Any])?.isEmpty == true && (array[4] as? [Any])?.isEmpty == true)
        #expect(object["s"] as? String == "q\"\\/\u{8}\u{C}\n\r\té😀\u{FFFD}x")
        #expect((object["n"] as? NSNumber)?.intValue == -1)
    }

    @Test func malformedTextIsAnErrorWithItsOffset() {
        let cases: [(String, String)] = [
            (#"{"a": 1} x"#, "text after"), (#"{"a": "b"#, "unterminated string"), ("[1, 2", "unterminated array"),
            ("[tru]", "unknown literal"), ("{\"a\": \"\u{1}\"}", "control character"), (#"["\q"]"#, "unknown escape"),
            (#"["\u12"]"#, #"bad \u escape"#), ("[1e999]", "not a JSON value"), ("", "unexpected end"),
            (String(repeating: "[", count: 600), "deeper than 512"), (#"{"a" 1}"#, "expected ':'"),
        ]
        for (text, reason) in cases {
            #expect(throws: ExactJSON.Failure.self, "\(text.prefix(20))") { try ExactJSON.parse(Data(text.utf8)) }
            do {
                _ = try ExactJSON.parse(Data(text.utf8))
            } catch {
                #expect("\(error)".contains(reason), "\(text.prefix(20)): \(error)")
            }
        }
    }
}
