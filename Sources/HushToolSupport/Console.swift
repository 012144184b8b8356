import Foundation

/// Standard output and error, unbuffered enough for progress lines.
package enum Console {
    /// A line of text for a person: bidirectional overrides and isolates (U+202A...U+202E, U+2066...U+2069) are
    /// written as `\u{202E}`, so a stored id or title can never reorder what the terminal shows
    /// (`evil\u{202E}exe.txt` showed as "eviltxt.exe").
    package static func out(_ line: String) {
        FileHandle.standardOutput.write(Data((visible(line) + "\n").utf8))
    }

    /// A line of JSON, written exactly (JSON readers get every character as stored).
    package static func json(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    package static func error(_ line: String) {
        FileHandle.standardError.write(Data((visible(line) + "\n").utf8))
    }

    /// `text` with its bidirectional formatting controls written out (see ``out(_:)``).
    package static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isBidiControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isBidiControl(scalar) {
                result += unicodeEscape(scalar)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `\u{202E}`: a scalar written out as Swift spells it.
    private static func unicodeEscape(_ scalar: Unicode.Scalar) -> String {
        "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    }

    private static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
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
            case _ where needsEscape(scalar): result += unicodeEscape(scalar)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\\" || isBidiControl(scalar)
    }
}
