import Foundation

/// Parses the dates found in records: `yyyy-MM-dd`, ISO-8601 date-times (`2024-03-05T14:30:00Z`,
/// `2024-03-05 14:30`, with optional fractional seconds and `±hh:mm` offset; no offset means UTC), and
/// Unix seconds.
enum RecordDate {
    static func parse(_ raw: String) -> Date? {
        let text = raw.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(text), text.allSatisfy({ $0.isNumber || $0 == "." }), text.count >= 9 {
            return Date(timeIntervalSince1970: seconds)
        }
        var scanner = DigitScanner(Array(text.utf8))
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
            let month = scanner.number(digits: 2), scanner.skip("-"),
            let day = scanner.number(digits: 2)
        else { return nil }
        var components = DateComponents(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)
        var offsetSeconds = 0
        if !scanner.atEnd {
            guard scanner.skip("T") || scanner.skip("t") || scanner.skip(" "),
                let hour = scanner.number(digits: 2), scanner.skip(":"), let minute = scanner.number(digits: 2)
            else { return nil }
            components.hour = hour
            components.minute = minute
            if scanner.skip(":") {
                guard let second = scanner.number(digits: 2) else { return nil }
                components.second = second
                if scanner.skip(".") || scanner.skip(",") {
                    var fraction = 0.0
                    var scale = 0.1
                    while let digit = scanner.digit() {
                        fraction += Double(digit) * scale
                        scale /= 10
                    }
                    components.nanosecond = Int(fraction * 1e9)
                }
            }
            if scanner.skip("Z") || scanner.skip("z") {
                offsetSeconds = 0
            } else if !scanner.atEnd {
                let sign: Int
                if scanner.skip("+") {
                    sign = 1
                } else if scanner.skip("-") {
                    sign = -1
                } else {
                    return nil
                }
                guard let hours = scanner.number(digits: 2) else { return nil }
                _ = scanner.skip(":")
                let minutes = scanner.number(digits: 2) ?? 0
                offsetSeconds = sign * (hours * 3600 + minutes * 60)
            }
            guard scanner.atEnd else { return nil }
        }
        guard (1...12).contains(month), (1...31).contains(day), (components.hour ?? 0) < 24,
            (components.minute ?? 0) < 60, (components.second ?? 0) < 61
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        guard let utc = TimeZone(secondsFromGMT: 0) else { return nil }
        calendar.timeZone = utc
        guard let date = calendar.date(from: components),
            calendar.component(.day, from: date) == day
        else { return nil }
        return date.addingTimeInterval(TimeInterval(-offsetSeconds))
    }
}

private struct DigitScanner {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { position >= bytes.count }

    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
        position += 1
        return true
    }

    mutating func digit() -> Int? {
        guard position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 else { return nil }
        defer { position += 1 }
        return Int(bytes[position] - 0x30)
    }

    mutating func number(digits: Int) -> Int? {
        let start = position
        var value = 0
        for _ in 0..<digits {
            guard let next = digit() else {
                position = start
                return nil
            }
            value = value * 10 + next
        }
        return value
    }
}
