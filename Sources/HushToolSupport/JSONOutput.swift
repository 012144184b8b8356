import Foundation
import Hush

/// The JSON the command lines print: `Encodable` values, encoded by `JSONEncoder` as one compact line.
///
/// Keys are sorted (an encoder's keyed containers keep no order, so sorting is what makes every run print
/// the same line), `/` is written as is, and dates as ``RecordDate`` writes them (`2026-01-04T00:00:00Z`,
/// proleptic Gregorian, UTC, exact back to year 1). Numbers measured or computed go through ``JSONNumber``.
///
/// ```swift
/// Console.out(try JSONOutput.line(["deleted": 3, "documents": 24]))  // {"deleted":3,"documents":24}
/// ```
package enum JSONOutput {
    /// `value` as one line of JSON (no newline).
    ///
    /// ```swift
    /// let line = try JSONOutput.line(summary)
    /// ```
    ///
    /// - Throws: `EncodingError` when `value` cannot be encoded (a float that is not finite outside a
    ///   ``JSONNumber``).
    package static func line(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(RecordDate.format(date))
        }
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// `text` as a JSON string, quotes included: a value shown exactly in a message, whatever it holds.
    ///
    /// ```swift
    /// Console.error("no document with id \(JSONOutput.quoted(id))")  // "two\nlines"
    /// ```
    package static func quoted(_ text: String) -> String {
        (try? line(text)) ?? "\"" + Console.escaped(text) + "\""
    }
}

/// A measured or computed number as the command lines print it: six significant digits (a whole number in
/// full), and `null` when it is not finite, which JSON cannot hold.
///
/// ```swift
/// try JSONOutput.line(["score": JSONNumber(Float(0.97712345))])  // {"score":0.977123}
/// ```
package struct JSONNumber: Encodable, Sendable, Hashable {
    /// The number.
    package var value: Double

    /// A number to print.
    ///
    /// ```swift
    /// let seconds = JSONNumber(Date().timeIntervalSince(start))
    /// ```
    package init(_ value: Double) {
        self.value = value
    }

    /// A single-precision number to print (a score, a cosine).
    ///
    /// ```swift
    /// let score = JSONNumber(hit.score)
    /// ```
    package init(_ value: Float) {
        self.value = Double(value)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if !value.isFinite {
            try container.encodeNil()
        } else if value == value.rounded(), abs(value) < 1e15 {
            try container.encode(Int64(value))
        } else {
            try container.encode(Double(String(format: "%.6g", value)) ?? value)
        }
    }
}
