import Foundation

/// Writes compact JSON by hand: fast for long float arrays, and keys in a fixed order.
package struct JSONLine {
    package init() {}

    package private(set) var text = "{"
    private var first = true

    package mutating func key(_ name: String) {
        if !first { text += "," }
        first = false
        text += JSONLine.quote(name) + ":"
    }

    package mutating func add(_ name: String, _ value: String) {
        key(name)
        text += JSONLine.quote(value)
    }

    package mutating func add(_ name: String, _ value: Bool) {
        key(name)
        text += value ? "true" : "false"
    }

    package mutating func add(_ name: String, _ value: Int) {
        key(name)
        text += String(value)
    }

    package mutating func add(_ name: String, _ value: Double) {
        key(name)
        text += JSONLine.number(value)
    }

    package mutating func add(_ name: String, raw: String) {
        key(name)
        text += raw
    }

    package mutating func add<S: Sequence>(_ name: String, floats: S) where S.Element == Float {
        key(name)
        text += "[" + floats.map { $0.isFinite ? "\($0)" : "null" }.joined(separator: ",") + "]"
    }

    package mutating func add<S: Sequence>(_ name: String, ints: S) where S.Element: BinaryInteger {
        key(name)
        text += "[" + ints.map { "\($0)" }.joined(separator: ",") + "]"
    }

    package func finish() -> String { text + "}" }

    package static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(format: "%.6g", value)
    }

    package static func quote(_ string: String) -> String {
        var out = "\""
        out.reserveCapacity(string.utf8.count + 2)
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

/// Standard output and error, unbuffered enough for progress lines.
package enum Console {
    package static func out(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    package static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// A value for one line of text output: control characters (newlines, tabs, escapes, DEL) are written
    /// as `\n`, `\t` or `\u{1B}`, and a backslash as `\\`, so an id or a path can never break a line or
    /// send the terminal a command. JSON output escapes by JSON's rules instead.
    package static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\\": result += "\\\\"
            case _ where needsEscape(scalar): result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\\"
    }
}
