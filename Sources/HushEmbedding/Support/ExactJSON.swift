import Foundation

/// A strict JSON reader whose numbers are exactly the nearest `Double` (Swift's own correctly rounded parser).
///
/// Foundation's `JSONSerialization` on Linux rounds some 17-digit numbers to a neighbouring `Double` (about
/// 3 in 10 of the f32 scores a `tokenizer.json` stores), and a Unigram tokenizer breaks exact ties between
/// segmentations by those scores, so a one-ulp error changes ids. Values come back as Foundation's types:
/// `[String: Any]`, `[Any]`, `String`, `NSNumber` (numbers), `Bool` and `NSNull`.
enum ExactJSON {
    struct Failure: Error, CustomStringConvertible {
        let offset: Int
        let reason: String
        var description: String { "\(reason) at byte \(offset)" }
    }

    /// Parses one JSON document (nesting at most 512 deep).
    static func parse(_ data: Data) throws -> Any {
        try data.withUnsafeBytes { raw in
            var parser = Parser(bytes: raw.bindMemory(to: UInt8.self))
            parser.skipSpace()
            let value = try parser.value(depth: 0)
            parser.skipSpace()
            guard parser.position == parser.bytes.count else { throw parser.failure("text after the JSON value") }
            return value
        }
    }

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        func failure(_ reason: String) -> Failure { Failure(offset: position, reason: reason) }

        mutating func skipSpace() {
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        }

        mutating func expect(_ byte: UInt8) throws {
            guard position < bytes.count, bytes[position] == byte else {
                throw failure("expected '\(Character(Unicode.Scalar(byte)))'")
            }
            position += 1
        }

        mutating func value(depth: Int) throws -> Any {
            guard depth < 512 else { throw failure("nested deeper than 512") }
            guard position < bytes.count else { throw failure("unexpected end") }
            switch bytes[position] {
            case UInt8(ascii: "{"):
                position += 1
                var object: [String: Any] = [:]
                var count = 0
                while try more(closing: UInt8(ascii: "}"), first: count == 0) {
                    let key = try string()
                    skipSpace()
                    try expect(UInt8(ascii: ":"))
                    skipSpace()
                    object[key] = try value(depth: depth + 1)
                    count += 1
                }
                return object
            case UInt8(ascii: "["):
                position += 1
                var array: [Any] = []
                while try more(closing: UInt8(ascii: "]"), first: array.isEmpty) {
                    array.append(try value(depth: depth + 1))
                }
                return array
            case UInt8(ascii: "\""):
                return try string()
            case UInt8(ascii: "t"):
                try word("true")
                return true
            case UInt8(ascii: "f"):
                try word("false")
                return false
            case UInt8(ascii: "n"):
                try word("null")
                return NSNull()
            default:
                return try number()
            }
        }

        /// Before an element of an array or object: true when one follows (after its comma, unless it is the
        /// first), false at the closing bracket, which is consumed.
        mutating func more(closing: UInt8, first: Bool) throws -> Bool {
            skipSpace()
            guard position < bytes.count else {
                throw failure(closing == UInt8(ascii: "]") ? "unterminated array" : "unterminated object")
            }
            if bytes[position] == closing {
                position += 1
                return false
            }
            if !first {
                try expect(UInt8(ascii: ","))
                skipSpace()
            }
            return true
        }

        mutating func word(_ text: StaticString) throws {
            let count = text.utf8CodeUnitCount
            guard bytes.count - position >= count,
                UnsafeBufferPointer(start: text.utf8Start, count: count).elementsEqual(
                    bytes[position..<(position + count)])
            else { throw failure("unknown literal") }
            position += count
        }

        mutating func number() throws -> NSNumber {
            let start = position
            while position < bytes.count,
                let c = Optional(bytes[position]),
                (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".")
                    || c == UInt8(ascii: "e") || c == UInt8(ascii: "E")
            {
                position += 1
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
            guard !text.isEmpty, let value = Double(text), value.isFinite else {
                position = start
                throw failure("not a JSON value")
            }
            return NSNumber(value: value)
        }

        mutating func string() throws -> String {
            try expect(UInt8(ascii: "\""))
            var out: [UInt8] = []
            while true {
                guard position < bytes.count else { throw failure("unterminated string") }
                let c = bytes[position]
                position += 1
                switch c {
                case UInt8(ascii: "\""):
                    return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard position < bytes.count else { throw failure("unterminated escape") }
                    let e = bytes[position]
                    position += 1
                    switch e {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"):
                        var unit = try hex4()
                        if (0xD800..<0xDC00).contains(unit), bytes.count - position >= 6,
                            bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
                        {
                            position += 2
                            let low = try hex4()
                            if (0xDC00..<0xE000).contains(low) {
                                unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                            } else {
                                position -= 6  // not a pair: the first half alone, then this escape again
                            }
                        }
                        let scalar = Unicode.Scalar(unit) ?? "\u{FFFD}"
                        out.append(contentsOf: String(scalar).utf8)
                    default:
                        throw failure("unknown escape")
                    }
                case 0..<0x20:
                    throw failure("control character in a string")
                default:
                    out.append(c)
                }
            }
        }

        mutating func hex4() throws -> UInt32 {
            guard bytes.count - position >= 4 else { throw failure("short \\u escape") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let c = bytes[position]
                position += 1
                let digit: UInt32
                switch c {
                case 0x30...0x39: digit = UInt32(c - 0x30)
                case 0x41...0x46: digit = UInt32(c - 0x41 + 10)
                case 0x61...0x66: digit = UInt32(c - 0x61 + 10)
                default: throw failure("bad \\u escape")
                }
                value = value << 4 | digit
            }
            return value
        }
    }
}
