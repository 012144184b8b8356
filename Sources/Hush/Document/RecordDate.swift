import Foundation

/// The one calendar of Hush: every reader (JSON Lines, CSV, filters) and every printer uses the proleptic
/// Gregorian calendar in UTC, and accepts the years 0001 to 9999 only (``earliest`` to ``latest``).
///
/// Parses `yyyy-MM-dd`, ISO-8601 date-times (`2024-03-05T14:30:00Z`, `2024-03-05 14:30`, with optional
/// fractional seconds and `±hh:mm` offset; no offset means UTC), and Unix seconds. Foundation's
/// `DateFormatter` and `ISO8601DateFormatter` switch to the Julian calendar before 1582 (1500-01-01 would
/// print as 1499-12-23), so none is used for record dates.
///
/// ```swift
/// let date = RecordDate.parse("1500-01-01")        // proleptic Gregorian, UTC
/// RecordDate.format(date!)                          // "1500-01-01T00:00:00Z"
/// ```
package enum RecordDate {
    /// 0001-01-01T00:00:00Z, the earliest date accepted.
    package static let earliest = Date(
        timeIntervalSince1970: Double(daysSinceEpoch(year: 1, month: 1, day: 1)) * 86_400)
    /// The last millisecond of 9999-12-31, the latest date accepted.
    package static let latest = Date(
        timeIntervalSince1970: Double(daysSinceEpoch(year: 10_000, month: 1, day: 1)) * 86_400 - 0.001)
    /// The accepted range, as the readers' messages say it.
    package static let rangeText = "between 0001-01-01 and 9999-12-31"

    /// Whether `date` is in the accepted range.
    package static func accepts(_ date: Date) -> Bool {
        date >= earliest && date <= latest
    }

    /// The date `seconds` after 1970-01-01T00:00:00Z, or `nil` when it is not finite or out of range.
    package static func fromUnixSeconds(_ seconds: Double) -> Date? {
        guard seconds.isFinite else { return nil }
        let date = Date(timeIntervalSince1970: seconds)
        return accepts(date) ? date : nil
    }

    /// `date` as `yyyy-MM-ddTHH:mm:ssZ` (proleptic Gregorian, UTC), as every printer shows it.
    package static func format(_ date: Date) -> String {
        let (days, second) = split(date)
        let (year, month, day) = civil(days: days)
        return String(
            format: "%@-%02d-%02dT%02d:%02d:%02dZ", yearText(year), month, day, second / 3600, second / 60 % 60,
            second % 60)
    }

    /// `date` as ``format(_:)`` writes it, with the fraction of its second when it has one, in as few digits as
    /// ``parse(_:)`` needs to read back the same `Date` (`2026-11-20T09:30:15.25Z`; a time of 2026 keeps 7
    /// digits at most, a double's precision there): what an export writes.
    package static func formatExact(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        let whole = format(date)
        guard seconds.isFinite, abs(seconds) < 1e15 else { return whole }
        // Exact: a double less its floor (within 1 of it) is representable.
        let fraction = seconds - seconds.rounded(.down)
        guard fraction > 0 else { return whole }
        // As `parse` adds it: the whole seconds plus the decimal fraction, rounded once.
        let wholeSeconds = seconds - fraction
        var digits = String(format: "%.17f", fraction)
        for precision in 1...17 {
            let candidate = String(format: "%.\(precision)f", fraction)
            if candidate.hasPrefix("0."), let value = Double(candidate), wholeSeconds + value == seconds {
                digits = candidate
                break
            }
        }
        return String(whole.dropLast()) + digits.dropFirst() + "Z"
    }

    /// `date` as `yyyy-MM-dd` (proleptic Gregorian, UTC).
    package static func formatDay(_ date: Date) -> String {
        let (year, month, day) = civil(days: split(date).days)
        return String(format: "%@-%02d-%02d", yearText(year), month, day)
    }

    private static func yearText(_ year: Int) -> String {
        year < 0 ? "-" + String(format: "%04d", -year) : String(format: "%04d", year)
    }

    /// Whole days since 1970-01-01 and the second of that day.
    static func split(_ date: Date) -> (days: Int, second: Int) {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite, abs(seconds) < 1e15 else { return (0, 0) }
        let whole = Int(seconds.rounded(.down))
        let days = whole >= 0 ? whole / 86_400 : -((-whole + 86_399) / 86_400)
        return (days, whole - days * 86_400)
    }

    /// The proleptic Gregorian date `days` after 1970-01-01 (the inverse of ``daysSinceEpoch(year:month:day:)``).
    static func civil(days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The date `raw` names, or `nil` when it is not a date or is outside ``earliest``...``latest``.
    package static func parse(_ raw: String) -> Date? {
        let text = raw.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(text), text.allSatisfy({ $0.isNumber || $0 == "." }), text.count >= 9 {
            return fromUnixSeconds(seconds)
        }
        var scanner = DigitScanner(Array(text.utf8))
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
            let month = scanner.number(digits: 2), scanner.skip("-"),
            let day = scanner.number(digits: 2)
        else { return nil }
        var components = DateComponents(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)
        var offsetSeconds = 0
        var fraction = 0.0
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
                    // Read as one decimal, added once to the whole seconds below: what `formatExact` wrote
                    // comes back as the same `Date`.
                    var digits = "0."
                    while let digit = scanner.digit() { digits += String(digit) }
                    fraction = Double(digits) ?? 0
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
        guard year >= 1, day <= daysInMonth(year: year, month: month) else { return nil }
        // Proleptic Gregorian arithmetic: Foundation's Gregorian calendar switches to the Julian one before
        // 1582, which would move 0001-01-01 to 0000-12-30.
        let days = daysSinceEpoch(year: year, month: month, day: day)
        // Whole seconds are exact in a double; the fraction is rounded once, when it is added.
        let wholeSeconds =
            days * 86_400 + (components.hour ?? 0) * 3600 + (components.minute ?? 0) * 60 + (components.second ?? 0)
            - offsetSeconds
        let date = Date(timeIntervalSince1970: Double(wholeSeconds) + fraction)
        return accepts(date) ? date : nil
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
