import Foundation

/// Times a query names relative to the day it is asked ("last week", "yesterday", "two weeks ago", "上个月"),
/// and the periods of a year ("at the start of the year", "the end of last year", "in 2025"), as stretches of
/// days.
///
/// ```swift
/// let times = CalendarWords.relativeTimes(in: "what did we decide last week?", language: "en")
/// // [RelativeTime(unit: .week, offset: -1)]: Monday to Sunday of the week before today's
/// ```
extension CalendarWords {
    /// A time named relative to today: the day, week (Monday to Sunday), weekend (its Saturday and Sunday), month
    /// or year `offset` of them from
    /// today's (−1 "last week", 0 "this month", +1 "tomorrow"); `rolling`, the last `-offset` of them up to
    /// today ("the past two weeks"); `part`, only the days of it before or after today ("earlier this month").
    struct RelativeTime: Sendable, Hashable {
        enum Unit: Sendable, Hashable { case day, week, weekend, month, year }
        enum Part: Sendable, Hashable { case whole, beforeToday, afterToday, start, end }

        var unit: Unit
        var offset: Int
        var rolling = false
        var part = Part.whole

        /// The days it covers, as days since 1970 (``RecordDate``), for the day `today`.
        func days(today: Int) -> ClosedRange<Int> {
            if rolling {
                let start: Int
                switch unit {
                case .day: start = today + offset + 1
                case .week, .weekend: start = today + 7 * offset + 1
                case .month: start = CalendarWords.adding(months: offset, to: today) + 1
                case .year: start = CalendarWords.adding(months: 12 * offset, to: today) + 1
                }
                return min(start, today)...today
            }
            let span: ClosedRange<Int>
            switch unit {
            case .day:
                span = (today + offset)...(today + offset)
            case .week, .weekend:
                // 1970-01-01 was a Thursday: day 4 is the first Monday.
                let monday = today - (today - 4).floorModulo(7) + 7 * offset
                span = unit == .week ? monday...(monday + 6) : (monday + 5)...(monday + 6)
            case .month:
                let day = RecordDate.civil(days: today)
                let shifted = CalendarWords.month(day.year, day.month, shiftedBy: offset)
                span = CalendarWords.monthDays(year: shifted.year, month: shifted.month)
            case .year:
                span = CalendarWords.yearDays(RecordDate.civil(days: today).year + offset)
            }
            switch part {
            case .whole: return span
            case .beforeToday: return span.lowerBound...max(span.lowerBound, min(span.upperBound, today - 1))
            case .afterToday: return min(span.upperBound, max(span.lowerBound, today + 1))...span.upperBound
            case .start: return span.lowerBound...min(span.upperBound, span.lowerBound + 58)
            case .end: return max(span.lowerBound, span.upperBound - 60)...span.upperBound
            }
        }
    }

    /// The times relative to today that `query` names, in English, German, French, Spanish, Italian and
    /// Portuguese ("last week", "letzte Woche", "la semaine dernière", "hace dos días", "ieri", "amanhã") and in
    /// Chinese and Japanese ("上周", "昨天", "先月"). `language` (the query's, as the analyzer reads it) decides
    /// the words two languages write alike: French "hier" is yesterday, German "hier" here.
    static func relativeTimes(in query: String, language: String?) -> Set<RelativeTime> {
        relativeTimes(in: words(query), text: query, language: language)
    }

    /// The times relative to today named by `words`, the words of `text` (``words(_:)``).
    static func relativeTimes(in words: [Word], text: String, language: String?) -> Set<RelativeTime> {
        let words = words.map { $0.text.lowercased() }
        var found = Set<RelativeTime>()
        for (index, word) in words.enumerated() {
            func at(_ offset: Int) -> String {
                let position = index + offset
                return words.indices.contains(position) ? words[position] : ""
            }
            if let offset = dayWords[word] ?? (language == "fr" && word == "hier" ? -1 : nil) {
                // "the day before yesterday", "avant-hier", "l'altro ieri".
                let before =
                    offset == -1 && (["avant", "altro"].contains(at(-1)) || (at(-1) == "before" && at(-2) == "day"))
                found.insert(RelativeTime(unit: .day, offset: before ? -2 : offset))
                continue
            }
            // "this morning", "this afternoon", "this evening".
            if at(-1) == "this", ["morning", "afternoon", "evening"].contains(word) {
                found.insert(RelativeTime(unit: .day, offset: 0))
                continue
            }
            guard let unit = unitWords[word] else { continue }
            // The count before the unit ("two", "3", "a", "a few", "a couple of") and where the words before it are.
            var counted: (value: Int, before: Int)?
            if at(-1) == "of", at(-2) == "couple" {
                counted = (2, at(-3) == "a" ? -4 : -3)
            } else if let value = Self.count(at(-1)) {
                counted = (value, at(-1) == "few" && at(-2) == "a" ? -3 : -2)
            }
            if let counted {
                let before = at(counted.before)
                // "three days ago", "a couple of weeks ago", "vor zwei Wochen", "il y a 3 jours", "hace un mes",
                // "due settimane fa", "há dois anos".
                if at(1) == "ago" || at(1) == "fa" || at(1) == "atrás" || ["vor", "hace", "há"].contains(before)
                    || (before == "a" && at(counted.before - 1) == "y")
                {
                    found.insert(RelativeTime(unit: unit, offset: -counted.value))
                    continue
                }
                // "the past two weeks", "in the last 3 days", "in den letzten drei Tagen".
                if ["last", "past", "letzten", "vergangenen"].contains(before), counted.value > 1 || at(-1) != "a" {
                    found.insert(RelativeTime(unit: unit, offset: -counted.value, rolling: true))
                    continue
                }
            }
            // "the last week of March" is a week of March; "the last day", "the next day" are not yesterday and
            // tomorrow.
            guard at(1) != "of", unit != .day else { continue }
            var offset: Int?
            // French "an" after a word before it would be English: "is this an issue".
            if let before = modifiersBefore[at(-1)], word != "an" {
                offset = before
            } else if let after = modifiersAfter[at(1)] {
                offset = after
            } else if at(1) == "que", ["viene", "vem"].contains(at(2)) {
                offset = 1
            } else if at(-1) == "past" {
                found.insert(RelativeTime(unit: unit, offset: -1, rolling: true))
                continue
            }
            guard let offset else { continue }
            // "earlier this month", "later this week".
            let part: RelativeTime.Part =
                offset == 0 && at(-2) == "earlier"
                ? .beforeToday : offset == 0 && at(-2) == "later" ? .afterToday : .whole
            found.insert(RelativeTime(unit: unit, offset: offset, part: part))
        }
        for (mark, time) in cjkTimes where text.contains(mark) { found.insert(time) }
        return found
    }

    /// The start or the end of a year the query names ("at the start of the year", "the end of last year",
    /// "beginning of 2025", "early in the year"): the first two or the last two months, of any year (`year` nil)
    /// or of the one named (a year written, or this, last or next year as an offset from today's).
    static func yearParts(in words: [Word]) -> [(part: RelativeTime.Part, year: YearNamed?)] {
        let words = words.map { $0.text.lowercased() }
        var found: [(RelativeTime.Part, YearNamed?)] = []
        for (index, word) in words.enumerated() {
            let part: RelativeTime.Part
            let next = Array(words[(index + 1)...].prefix(3))
            switch (word, next.first) {
            case ("start", "of"), ("beginning", "of"), ("early", "in"): part = .start
            case ("end", "of"), ("late", "in"): part = .end
            default: continue
            }
            let tail = Array(next.dropFirst())
            if let written = tail.first, written.count == 4, let year = Int(written), yearsWritten.contains(year) {
                found.append((part, .written(year)))
            } else if tail.count == 2, tail[1] == "year", let offset = yearOffsets[tail[0]] {
                found.append((part, offset.map(YearNamed.relative)))
            }
        }
        return found
    }

    /// "the year" (any), "this", "last" or "next year".
    private static let yearOffsets: [String: Int?] = ["the": nil, "this": 0, "last": -1, "next": 1]

    /// A year named in four digits, or relative to today's.
    enum YearNamed: Hashable, Sendable {
        case written(Int)
        case relative(Int)
    }

    /// The years a query names on their own, after a word of time ("what did we decide in 2025", "im Jahr 2025",
    /// "en 2025", "2025年"), when it names no month: the whole of each. `words` are those of `text`.
    static func yearsAlone(in words: [Word], text: String) -> Set<Int> {
        var found = Set<Int>()
        for (index, word) in words.enumerated() {
            guard word.text.count == 4, let year = Int(word.text), yearsWritten.contains(year) else { continue }
            let before = index > 0 ? words[index - 1].text.lowercased() : ""
            if yearPrepositions.contains(before) { found.insert(year) }
        }
        for year in years(in: words) where text.contains("\(year)年") { found.insert(year) }
        return found
    }

    /// The day `now` is in the device's time zone, as days since 1970: the day the person means by "today".
    static func today(_ now: Date) -> Int {
        let local = now.addingTimeInterval(TimeInterval(TimeZone.current.secondsFromGMT(for: now)))
        return RecordDate.split(local).days
    }

    // MARK: - Arithmetic

    /// The days of a month, as days since 1970.
    static func monthDays(year: Int, month: Int) -> ClosedRange<Int> {
        let first = RecordDate.daysSinceEpoch(year: year, month: month, day: 1)
        return first...(first + RecordDate.daysInMonth(year: year, month: month) - 1)
    }

    /// The days of a year, as days since 1970.
    static func yearDays(_ year: Int) -> ClosedRange<Int> {
        monthDays(year: year, month: 1).lowerBound...monthDays(year: year, month: 12).upperBound
    }

    /// The day `months` months from `day` (the same day of the month, or the month's last when it has fewer).
    static func adding(months: Int, to day: Int) -> Int {
        let date = RecordDate.civil(days: day)
        let (year, month) = Self.month(date.year, date.month, shiftedBy: months)
        return RecordDate.daysSinceEpoch(
            year: year, month: month, day: min(date.day, RecordDate.daysInMonth(year: year, month: month)))
    }

    /// The year and month `months` months from `month` of `year` (−1 from January 2026 is December 2025).
    static func month(_ year: Int, _ month: Int, shiftedBy months: Int) -> (year: Int, month: Int) {
        let index = year * 12 + (month - 1) + months
        return (index.floorDivided(by: 12), index.floorModulo(12) + 1)
    }

    // MARK: - Tables

    /// A count written in digits (1…99) or as a word of one of the six languages ("a", "two", "zwei", "trois").
    private static func count(_ word: String) -> Int? {
        if let number = Int(word), (1...99).contains(number) { return number }
        return countWords[word]
    }

    private static let countWords: [String: Int] = [
        "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "couple": 2, "few": 3,
        "ein": 1, "eine": 1, "einem": 1, "einer": 1, "einen": 1, "zwei": 2, "drei": 3, "vier": 4,
        "un": 1, "une": 1, "deux": 2, "trois": 3, "quatre": 4,
        "una": 1, "dos": 2, "tres": 3, "cuatro": 4,
        "uno": 1, "due": 2, "tre": 3, "quattro": 4,
        "um": 1, "uma": 1, "dois": 2, "duas": 2, "três": 3, "quatro": 4,
    ]

    /// Days named by one word: today, yesterday, tomorrow (French "hier" only in French: see ``relativeTimes``).
    private static let dayWords: [String: Int] = [
        "today": 0, "tonight": 0, "yesterday": -1, "tomorrow": 1,
        "heute": 0, "gestern": -1, "vorgestern": -2, "übermorgen": 2,
        "aujourd": 0, "demain": 1,
        "hoy": 0, "ayer": -1, "anteayer": -2,
        "oggi": 0, "ieri": -1, "domani": 1,
        "hoje": 0, "ontem": -1, "anteontem": -2, "amanhã": 1,
    ]

    private static let unitWords: [String: RelativeTime.Unit] = {
        var units: [String: RelativeTime.Unit] = [:]
        let table: [(RelativeTime.Unit, String)] = [
            (.day, "day days tage tagen jour jours día días dia dias giorno giorni"),
            (.week, "week weeks woche wochen semaine semaines semana semanas settimana settimane"),
            (.weekend, "weekend wochenende"),
            (.month, "month months monat monate monaten mois mes meses mese mesi mês"),
            (.year, "year years jahr jahre jahren an ans année années año años anno anni ano anos"),
        ]
        for (unit, words) in table {
            for word in words.split(separator: " ") { units[String(word)] = unit }
        }
        return units
    }()

    /// Words before a unit that name the one before, this one or the next ("last week", "diese Woche", "cette
    /// année", "esta semana", "questo mese", "próximo mês").
    private static let modifiersBefore: [String: Int] = [
        "last": -1, "previous": -1, "this": 0, "current": 0, "next": 1, "coming": 1,
        "letzte": -1, "letzten": -1, "letztes": -1, "vorige": -1, "vorigen": -1, "voriges": -1, "vergangene": -1,
        "vergangenen": -1, "vergangenes": -1, "diese": 0, "diesen": 0, "dieses": 0, "nächste": 1, "nächsten": 1,
        "nächstes": 1, "kommende": 1, "kommenden": 1, "kommendes": 1,
        "ce": 0, "cet": 0, "cette": 0,
        "este": 0, "esta": 0, "próximo": 1, "próxima": 1,
        "questo": 0, "questa": 0, "quest": 0, "prossimo": 1, "prossima": 1,
        "neste": 0, "nesta": 0,
    ]

    /// Words after a unit that name the one before or the next ("la semaine dernière", "el mes pasado", "l'anno
    /// scorso", "o ano passado", "le mois prochain").
    private static let modifiersAfter: [String: Int] = [
        "dernier": -1, "dernière": -1, "passé": -1, "passée": -1, "prochain": 1, "prochaine": 1,
        "pasado": -1, "pasada": -1, "scorso": -1, "scorsa": -1, "passato": -1, "passata": -1, "prossimo": 1,
        "prossima": 1, "passado": -1, "passada": -1,
    ]

    /// Words before a year written alone that make it a time ("in 2025", "im Jahr 2025", "en 2025").
    private static let yearPrepositions: Set<String> = [
        "in", "during", "throughout", "since", "jahr", "im", "en", "durante", "nel", "em", "no", "année",
    ]

    /// Times in Chinese and Japanese, found anywhere in the text.
    private static let cjkTimes: [(String, RelativeTime)] = {
        var times: [(String, RelativeTime)] = []
        let table: [(RelativeTime.Unit, Int, String)] = [
            (.day, 0, "今天 今日"), (.day, -1, "昨天 昨日"), (.day, -2, "前天 一昨日"), (.day, 1, "明天 明日"),
            (.week, -1, "上周 上星期 上个星期 上礼拜 上週 先週"), (.week, 0, "本周 这周 这个星期 这星期 本星期 今週"),
            (.week, 1, "下周 下星期 下个星期 下礼拜 来週"), (.month, -1, "上个月 上月 先月"), (.month, 0, "这个月 本月 今月"),
            (.month, 1, "下个月 下月 来月"), (.year, -1, "去年 昨年"), (.year, 0, "今年"), (.year, 1, "明年 来年"),
        ]
        for (unit, offset, marks) in table {
            for mark in marks.split(separator: " ") {
                times.append((String(mark), RelativeTime(unit: unit, offset: offset)))
            }
        }
        return times
    }()
}

extension Int {
    /// The quotient rounded down (−1 for −1 / 12), where `/` rounds towards zero.
    fileprivate func floorDivided(by divisor: Int) -> Int {
        (self - floorModulo(divisor)) / divisor
    }

    /// The remainder from 0 to `divisor − 1`, also for a negative `self`.
    fileprivate func floorModulo(_ divisor: Int) -> Int {
        ((self % divisor) + divisor) % divisor
    }
}
