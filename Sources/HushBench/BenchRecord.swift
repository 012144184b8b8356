import Foundation
import HushToolSupport

/// One measurement as `hush-bench` prints it: named values, in the order the text line shows them; with
/// `--json`, one object (through ``JSONOutput``, keys sorted as in every JSON line of the tools).
///
/// ```swift
/// let record = BenchRecord([("bench", .text("search")), ("p50_ms", .number(0.42)), ("hits", .int(30))])
/// Console.out(try JSONOutput.line(record))  // {"bench":"search","hits":30,"p50_ms":0.42}
/// ```
struct BenchRecord: Encodable {
    /// A measured or given value.
    enum Value: Encodable, CustomStringConvertible {
        case int(Int)
        /// Printed through ``JSONNumber``: six significant digits, null when not finite.
        case number(Double)
        case text(String)
        case flag(Bool)

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .int(let value): try value.encode(to: encoder)
            case .number(let value): try JSONNumber(value).encode(to: encoder)
            case .text(let value): try value.encode(to: encoder)
            case .flag(let value): try value.encode(to: encoder)
            }
        }

        /// The value in a text line (numbers with two decimals).
        var description: String {
            switch self {
            case .int(let value): "\(value)"
            case .number(let value): String(format: "%.2f", value)
            case .text(let value): value
            case .flag(let value): "\(value)"
            }
        }
    }

    /// A key named at run time.
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    var fields: [(key: String, value: Value)]

    init(_ fields: [(key: String, value: Value)]) {
        self.fields = fields
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (key, value) in fields { try container.encode(value, forKey: Key(stringValue: key)) }
    }

    /// The record as `key=value` pairs on one line.
    var text: String {
        fields.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }
}
