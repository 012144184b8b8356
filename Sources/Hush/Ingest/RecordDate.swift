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
        guard day <= daysInMonth(year: year, month: month) else { return nil }
        // Proleptic Gregorian arithmetic: Foundation's Gregorian calendar switches to the Julian one before
        // 1582, which would move 0001-01-01 to 0000-12-30.
        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds =
            Double(days) * 86_400 + Double((components.hour ?? 0) * 3600 + (components.minute ?? 0) * 60)
            + Double(components.second ?? 0) + Double(components.nanosecond ?? 0) / 1e9
        return Date(timeIntervalSince1970: seconds - Double(offsetSeconds))
    }

    static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to the given proleptic Gregorian date (negative before it). Counts whole
    /// 400-year eras (146,097 days each) from 0000-03-01, so that the leap day ends a year.
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let monthFromMarch = (month + 9) % 12
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
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
