import Foundation

/// The calendar as people write it: the months a query names ("the offsite in March", "my feb 1:1 with Jonas",
/// "三月的会议") and its other times (``NamedTimes``: "last week", "in 2025"), so that the records dated then come
/// first (``Boosts/namedTime``), and whether a line states a date, so that "When is Amir's Berlin visit?" is shown
/// the line "Lena: schedule his Berlin visit in May".
///
/// ```swift
/// CalendarWords.months(in: "what did we decide in March and early may?")  // [3, 5]
/// CalendarWords.statesDate("Self-reviews due November 6")                  // true
/// CalendarWords.statesDate("Cold start 4.1 s on a Galaxy A12")             // false
/// ```
enum CalendarWords {
    /// The months `query` names, 1…12: a month's name in English, German, French, Spanish, Italian or Portuguese,
    /// or an English abbreviation ("feb", "Sept"), or a month in Chinese or Japanese ("3月", "三月"). A name that
    /// is also a word ("may", "march", "august") names a month next to a word of time or a number ("in may",
    /// "since March", "may 3") or written with a capital where the sentence does not ask for one ("what did we
    /// plan for May?"); "jan" next to them or in small letters ("Jan" is as often a first name).
    static func months(in query: String) -> Set<Int> { months(in: words(query), text: query) }

    /// The months named by `words`, the words of `text` (``words(_:)``).
    static func months(in words: [Word], text: String) -> Set<Int> {
        var found = Set<Int>()
        for (index, word) in words.enumerated() {
            let lowered = word.text.lowercased()
            guard let month = names[lowered] ?? abbreviations[lowered] else { continue }
            if ambiguous.contains(lowered) {
                let (before, after) = neighbours(of: index, in: words)
                let inContext = timeWords.contains(before.lowercased()) || Self.isDayOrYear(after)
                let capital = word.text.first?.isUppercase == true
                // "Jan" with a capital is as often a first name; "May" with one, mid-sentence, a month.
                let written = lowered == "jan" ? !capital : capital && !word.opensSentence
                guard written || inContext else { continue }
            }
            found.insert(month)
        }
        found.formUnion(cjkMonths(in: text))
        return found
    }

    /// Whether `text` states a date or a time of the calendar: a month's name ("in May", "November 6"; an
    /// abbreviation next to a number, "Jan 14"), a weekday, a year from 1900 to 2099, a date in digits
    /// ("2026-03-12", "12/03/2026", "12.3."), a quarter ("Q3"), or a month, a day or a weekday in Chinese or
    /// Japanese.
    static func statesDate(_ text: String) -> Bool {
        let words = Self.words(text)
        for (index, word) in words.enumerated() {
            let lowered = word.text.lowercased()
            if weekdays.contains(lowered) { return true }
            if let year = Int(word.text), word.text.count == 4, yearsWritten.contains(year) { return true }
            if word.text.count == 2, lowered.first == "q", let digit = word.text.last?.wholeNumberValue,
                (1...4).contains(digit)
            {
                return true
            }
            if word.isDigitDate { return true }
            if names[lowered] != nil {
                // "We may move", "march on": only "May", "March" with a capital.
                if ["may", "march"].contains(lowered) && word.text.first?.isUppercase != true { continue }
                return true
            }
            if abbreviations[lowered] != nil {
                let (before, after) = neighbours(of: index, in: words)
                if isDayOrYear(before) || isDayOrYear(after) { return true }
            }
        }
        if !cjkMonths(in: text).isEmpty { return true }
        return cjkDayMarks.contains { text.contains($0) }
    }

    /// The times a query names, and whether a moment falls in them: the months it names (in any year, or in the
    /// years it names beside them: "the offsite in March 2025"); the start or the end of the year ("at the start
    /// of the year": January and February, in any year); and the stretches of days it names relative to today
    /// ("last week", "yesterday", "the end of last year") or by a year alone ("in 2025").
    struct NamedTimes: Sendable, Equatable {
        var months: Set<Int> = []
        var years: Set<Int> = []
        /// Days since 1970 (``RecordDate``), each stretch whole.
        var days: [ClosedRange<Int>] = []

        /// The times `query` names, today being `now`'s day in the device's time zone (read only when the query
        /// names a time relative to it). `language` is the query's (``CalendarWords/relativeTimes(in:language:)``).
        init(in query: String, language: String? = nil, now: @autoclosure () -> Date = Date()) {
            let words = CalendarWords.words(query)
            months = CalendarWords.months(in: words, text: query)
            years = months.isEmpty ? [] : CalendarWords.years(in: words)
            var relative = CalendarWords.relativeTimes(in: words, text: query, language: language)
            for (part, year) in CalendarWords.yearParts(in: words) {
                switch year {
                case nil: months.formUnion(part == .start ? [1, 2] : [11, 12])
                case .written(let year)?:
                    let whole = RelativeTime(unit: .year, offset: 0, part: part)
                    days.append(whole.days(today: RecordDate.daysSinceEpoch(year: year, month: 6, day: 1)))
                case .relative(let offset)?:
                    // "the end of last year" is its last two months, not the whole of it.
                    relative.remove(RelativeTime(unit: .year, offset: offset))
                    relative.insert(RelativeTime(unit: .year, offset: offset, part: part))
                }
            }
            if months.isEmpty {
                days += CalendarWords.yearsAlone(in: words, text: query).sorted().map(CalendarWords.yearDays)
            }
            if !relative.isEmpty {
                let today = CalendarWords.today(now())
                days += relative.map { $0.days(today: today) }.sorted { $0.lowerBound < $1.lowerBound }
            }
        }

        init() {}

        var isEmpty: Bool { months.isEmpty && days.isEmpty }

        /// Whether a record dated `seconds` since 1970 falls in them (on the day ``CalendarWords/day(ofRecord:)``).
        func contains(seconds: Double) -> Bool { weight(seconds: seconds) > 0 }

        /// How much of the time's nudge (``Boosts/namedTime``) the moment `seconds` gets: 0 outside them; 4 in a
        /// week or a day ("last week's prep", "yesterday"), which point at one or two records as surely as a title
        /// does; 2 in a month relative to today ("last month"); 1 in a month named ("in March") or a year. On the
        /// planner's first 48 relative-time questions, 2× for a week put the right meeting first for 40, 4× for 43,
        /// 6× no more; 2× for a month one more, 3× no more there.
        func weight(seconds: Double) -> Float {
            guard !isEmpty, seconds.isFinite, abs(seconds) < 1e15 else { return 0 }
            let date = Date(timeIntervalSince1970: seconds)
            let utcDay = RecordDate.split(date).days
            let here = weight(day: utcDay)
            guard seconds.truncatingRemainder(dividingBy: 86_400) != 0 else { return here }
            // A moment's day where the device is lies within a day of its day in UTC: the time zone is read only
            // when the days around it weigh differently (near midnight at the edge of a time named).
            if weight(day: utcDay - 1) == here && weight(day: utcDay + 1) == here { return here }
            return weight(day: CalendarWords.today(date))
        }

        /// The nudge's weight for a record on `day` (days since 1970).
        func weight(day: Int) -> Float {
            if let narrowest = days.filter({ $0.contains(day) }).map(\.count).min() {
                return narrowest <= 7 ? 4 : narrowest <= 31 ? 2 : 1
            }
            guard !months.isEmpty else { return 0 }
            let date = RecordDate.civil(days: day)
            return months.contains(date.month) && (years.isEmpty || years.contains(date.year)) ? 1 : 0
        }
    }

    /// The years from 1900 to 2099 that `text` writes in four digits ("2025", "2025年").
    static func years(in text: String) -> Set<Int> { years(in: words(text)) }

    /// The years `words` write in four digits.
    static func years(in words: [Word]) -> Set<Int> {
        Set(
            words.compactMap { word in
                let digits = word.text.prefix(while: \.isNumber)
                guard digits.count == 4, digits.count == word.text.count || word.text.dropFirst(4).first == "年",
                    let year = Int(digits), yearsWritten.contains(year)
                else { return nil }
                return year
            })
    }

    /// The day a record is dated on, as days since 1970: a record dated by its day alone ("2026-03-10", stored at
    /// midnight UTC) is on that day wherever it is read; one dated by a moment (a post written at 23:30 in
    /// California, 07:30 UTC the next day) is on the device's day of it, the day the person calls "today". By the
    /// calendar's arithmetic (``RecordDate``) and the device's time zone. `nil` for a moment no calendar holds.
    /// (``NamedTimes/weight(seconds:)`` weighs records by it, reading the time zone only near a time's edge.)
    static func day(ofRecord seconds: Double) -> Int? {
        guard seconds.isFinite, abs(seconds) < 1e15 else { return nil }
        let date = Date(timeIntervalSince1970: seconds)
        guard seconds.truncatingRemainder(dividingBy: 86_400) != 0 else { return RecordDate.split(date).days }
        return today(date)
    }

    // MARK: - Tables

    /// Months by name, in English, German, French, Spanish, Italian and Portuguese.
    private static let names: [String: Int] = {
        let languages = [
            "january february march april may june july august september october november december",
            "januar februar märz april mai juni juli august september oktober november dezember",
            "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
            "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre",
            "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre",
            "janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro",
        ]
        var names: [String: Int] = [:]
        for language in languages {
            for (index, name) in language.split(separator: " ").enumerated() { names[String(name)] = index + 1 }
        }
        return names
    }()

    /// English abbreviations ("mar", also a word in Spanish and English, is left out).
    private static let abbreviations: [String: Int] = [
        "jan": 1, "feb": 2, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10, "nov": 11,
        "dec": 12,
    ]

    /// The years a four-digit number is read as (a line "for 2027", a query "March 2025"); other numbers are
    /// counts and amounts.
    static let yearsWritten = 1900...2099

    /// Names that are also words or first names.
    private static let ambiguous: Set<String> = ["may", "march", "august", "jan"]

    /// Words after which an ambiguous name is a month ("in may", "since march", "early May").
    private static let timeWords: Set<String> = [
        "in", "since", "until", "till", "by", "from", "of", "early", "late", "mid", "end", "before", "after", "during",
        "last", "next", "this", "through", "throughout", "to",
    ]

    private static let weekdays: Set<String> = [
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "montag", "dienstag",
        "mittwoch", "donnerstag", "freitag", "samstag", "sonntag", "lundi", "mardi", "mercredi", "jeudi",
        "vendredi", "samedi", "dimanche", "lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo",
    ]

    /// A day or a weekday in Chinese or Japanese.
    private static let cjkDayMarks = [
        "星期", "周一", "周二", "周三", "周四", "周五", "周六", "周日", "月曜", "火曜", "水曜", "木曜", "金曜", "土曜", "日曜",
    ]

    // MARK: - Reading

    struct Word {
        let text: String
        /// Whether it opens the text or a sentence of it.
        let opensSentence: Bool
        /// A date in digits: "2026-03-12", "12/03/2026", "12.3." or "12.03.2026".
        let isDigitDate: Bool
    }

    /// The words of `text` (letters, or digits with the separators of a date between them), in order.
    static func words(_ text: String) -> [Word] {
        var words: [Word] = []
        var current = ""
        var opens = true
        var wordOpens = true
        func finish() {
            guard !current.isEmpty else { return }
            var text = current
            let trailingDot = text.hasSuffix(".")
            while let last = text.last, "./-".contains(last) { text.removeLast() }
            let parts = text.split(whereSeparator: { "./-".contains($0) })
            let isDigitDate =
                parts.count >= 2 && parts.allSatisfy { $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
                && Self.isDigitDate(
                    parts.map(String.init), separator: text.first { "./-".contains($0) } ?? ".",
                    trailingDot: trailingDot)
            words.append(
                Word(
                    text: isDigitDate ? text : String(text.prefix { !"./-".contains($0) }),
                    opensSentence: wordOpens, isDigitDate: isDigitDate))
            current = ""
        }
        for character in text {
            if character.isLetter || character.isNumber
                || (!current.isEmpty && current.last?.isNumber == true && "./-".contains(character))
            {
                if current.isEmpty { wordOpens = opens }
                current.append(character)
                opens = false
                continue
            }
            finish()
            if ".!?:;\n".contains(character) { opens = true }
        }
        finish()
        return words
    }

    /// The words before and after `words[index]`, empty at either end.
    private static func neighbours(of index: Int, in words: [Word]) -> (before: String, after: String) {
        (index > 0 ? words[index - 1].text : "", index + 1 < words.count ? words[index + 1].text : "")
    }

    /// Whether digits split by `separator` are a date: year-month(-day) with dashes, day/month/year with
    /// slashes, day.month. or day.month.year with dots.
    private static func isDigitDate(_ parts: [String], separator: Character, trailingDot: Bool) -> Bool {
        let numbers = parts.compactMap { Int($0) }
        guard numbers.count == parts.count else { return false }
        switch separator {
        case "-":
            return parts[0].count == 4 && (1...12).contains(numbers[1])
                && (numbers.count < 3 || (1...31).contains(numbers[2]))
        case "/":
            return numbers.count == 3 && (1...31).contains(numbers[0]) && (1...31).contains(numbers[1])
        default:
            guard (1...31).contains(numbers[0]), (1...12).contains(numbers[1]) else { return false }
            return numbers.count == 3 ? parts[2].count >= 2 : trailingDot
        }
    }

    /// Whether `word` is a day of the month (1-31, "14th") or a year (1900-2099).
    private static func isDayOrYear(_ word: String) -> Bool {
        let digits = word.prefix(while: \.isNumber)
        guard let number = Int(digits),
            digits.count == word.count
                || ["st", "nd", "rd", "th"].contains(
                    word.dropFirst(digits.count).lowercased())
        else { return false }
        return (1...31).contains(number) || yearsWritten.contains(number)
    }

    /// The months `text` names in Chinese or Japanese: a number from 1 to 12 in digits or in Chinese numerals
    /// right before 月 ("3月", "十二月"; not "这个月", this month).
    private static func cjkMonths(in text: String) -> Set<Int> {
        let characters = Array(text)
        var found = Set<Int>()
        for (index, character) in characters.enumerated() where character == "月" && index > 0 {
            var start = index
            while start > 0, characters[start - 1].isNumber || chineseDigits[characters[start - 1]] != nil {
                start -= 1
            }
            let number = String(characters[start..<index])
            if let month = Int(number) ?? chineseNumber(number), (1...12).contains(month) { found.insert(month) }
        }
        return found
    }

    private static let chineseDigits: [Character: Int] = [
        "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10,
    ]

    /// "三" 3, "十" 10, "十一" 11, "十二" 12; nil for anything else.
    private static func chineseNumber(_ text: String) -> Int? {
        let values = text.compactMap { chineseDigits[$0] }
        guard values.count == text.count, !values.isEmpty else { return nil }
        switch values.count {
        case 1: return values[0]
        case 2 where values[0] == 10: return 10 + values[1]
        default: return nil
        }
    }
}
