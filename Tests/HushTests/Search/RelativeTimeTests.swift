import Foundation
import Testing

@testable import Hush

/// Times named relative to the day a question is asked ("last week", "yesterday", "上个月"), the start and the end
/// of a year, and a year alone ([answers] #59): the records dated then come first.
@Suite struct RelativeTimeTests {
    typealias Time = CalendarWords.RelativeTime

    static func day(_ year: Int, _ month: Int, _ day: Int) -> Int {
        RecordDate.daysSinceEpoch(year: year, month: month, day: day)
    }

    static func times(_ query: String, _ language: String? = "en") -> Set<Time> {
        CalendarWords.relativeTimes(in: query, language: language)
    }

    @Test func relativeTimesAreReadInSeveralLanguages() {
        #expect(Self.times("what did we decide last week?") == [Time(unit: .week, offset: -1)])
        #expect(Self.times("agenda for my 1:1 with Jonas next week") == [Time(unit: .week, offset: 1)])
        #expect(
            Self.times("who came yesterday, and what's on tomorrow") == [
                Time(unit: .day, offset: -1), Time(unit: .day, offset: 1),
            ])
        #expect(Self.times("the beta went live this morning") == [Time(unit: .day, offset: 0)])
        #expect(Self.times("numbers from the check-in the day before yesterday") == [Time(unit: .day, offset: -2)])
        #expect(Self.times("the escalation 5 days ago") == [Time(unit: .day, offset: -5)])
        #expect(Self.times("the status two weeks ago") == [Time(unit: .week, offset: -2)])
        #expect(Self.times("what did Priya and I agree a month ago") == [Time(unit: .month, offset: -1)])
        #expect(Self.times("notes from the past two weeks") == [Time(unit: .week, offset: -2, rolling: true)])
        #expect(Self.times("the review a couple of weeks ago") == [Time(unit: .week, offset: -2)])
        #expect(Self.times("what came up a few days ago") == [Time(unit: .day, offset: -3)])
        #expect(Self.times("over the past couple of months") == [Time(unit: .month, offset: -2, rolling: true)])
        #expect(Self.times("the party last weekend") == [Time(unit: .weekend, offset: -1)])
        #expect(Self.times("Was machen wir dieses Wochenende?", "de") == [Time(unit: .weekend, offset: 0)])
        #expect(Self.times("anything in the past week") == [Time(unit: .week, offset: -1, rolling: true)])
        #expect(
            Self.times("what did we move earlier this month") == [
                Time(unit: .month, offset: 0, part: .beforeToday)
            ])
        #expect(Self.times("Was haben wir letzte Woche festgelegt?", "de") == [Time(unit: .week, offset: -1)])
        #expect(
            Self.times("vor zwei Wochen, gestern", "de") == [
                Time(unit: .week, offset: -2), Time(unit: .day, offset: -1),
            ])
        #expect(Self.times("on a choisi quel bureau la semaine dernière", "fr") == [Time(unit: .week, offset: -1)])
        #expect(Self.times("qu'est-ce qu'on a décidé hier", "fr") == [Time(unit: .day, offset: -1)])
        #expect(
            Self.times("il y a 3 jours, le mois prochain", "fr") == [
                Time(unit: .day, offset: -3), Time(unit: .month, offset: 1),
            ])
        #expect(Self.times("¿qué pusimos la semana pasada?", "es") == [Time(unit: .week, offset: -1)])
        #expect(Self.times("hace dos meses", "es") == [Time(unit: .month, offset: -2)])
        #expect(Self.times("l'anno scorso", "it") == [Time(unit: .year, offset: -1)])
        #expect(Self.times("o mês que vem", "pt") == [Time(unit: .month, offset: 1)])
        #expect(Self.times("上周SOC 2的会上定了哪家审计公司？", "zh") == [Time(unit: .week, offset: -1)])
        #expect(Self.times("上个月讨论春季团建", "zh") == [Time(unit: .month, offset: -1)])
        #expect(Self.times("先週の会議", "ja") == [Time(unit: .week, offset: -1)])
    }

    @Test func wordsThatOnlyLookLikeARelativeTimeNameNone() {
        for query in [
            "what happened on the last day of the offsite", "the last week of March", "what did we do the next day",
            "posts with this tag", "who is the next hire", "the year-end all-hands", "what's the plan for 2027",
            "is this an issue for the launch", "what is the next an option",
        ] {
            #expect(Self.times(query).isEmpty, "\(query)")
        }
        // German "hier" is here, French "hier" yesterday; French "mes" is "my", not Spanish "month".
        #expect(Self.times("Was ist hier passiert?", "de").isEmpty)
        #expect(Self.times("mes dernières réunions", "fr").isEmpty)
        #expect(Self.times("l'an dernier", "fr") == [Time(unit: .year, offset: -1)])
        #expect(Self.times("il y a deux ans", "fr") == [Time(unit: .year, offset: -2)])
    }

    @Test func stretchesAreTheCalendarsWeeksAndMonths() throws {
        let sunday = Self.day(2026, 11, 29)
        #expect(Time(unit: .week, offset: -1).days(today: sunday) == Self.day(2026, 11, 16)...Self.day(2026, 11, 22))
        #expect(Time(unit: .week, offset: 0).days(today: sunday) == Self.day(2026, 11, 23)...sunday)
        #expect(Time(unit: .week, offset: 1).days(today: sunday) == Self.day(2026, 11, 30)...Self.day(2026, 12, 6))
        #expect(Time(unit: .weekend, offset: -1).days(today: sunday) == Self.day(2026, 11, 21)...Self.day(2026, 11, 22))
        #expect(Time(unit: .weekend, offset: 0).days(today: sunday) == Self.day(2026, 11, 28)...sunday)
        #expect(Time(unit: .month, offset: -1).days(today: sunday) == Self.day(2026, 10, 1)...Self.day(2026, 10, 31))
        #expect(
            Time(unit: .month, offset: 0, part: .beforeToday).days(today: sunday)
                == Self.day(2026, 11, 1)...Self.day(2026, 11, 28))
        #expect(Time(unit: .week, offset: -2, rolling: true).days(today: sunday) == Self.day(2026, 11, 16)...sunday)
        #expect(
            Time(unit: .month, offset: -1).days(today: Self.day(2026, 1, 5)) == Self.day(
                2025, 12, 1)...Self.day(2025, 12, 31))
        #expect(
            Time(unit: .year, offset: -1, part: .end).days(today: sunday) == Self.day(
                2025, 11, 1)...Self.day(2025, 12, 31))
        #expect(
            Time(unit: .year, offset: 0, part: .start).days(today: sunday) == Self.day(
                2026, 1, 1)...Self.day(2026, 2, 28))

        // Against Foundation's ISO 8601 calendar in UTC, on days spread over three centuries.
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let today = Int.random(in: -25_000...50_000, using: &generator)
            let date = Date(timeIntervalSince1970: Double(today) * 86_400)
            func days(_ interval: DateInterval?) throws -> ClosedRange<Int> {
                let interval = try #require(interval)
                let start = Int((interval.start.timeIntervalSince1970 / 86_400).rounded(.down))
                return start...(start + Int((interval.duration / 86_400).rounded()) - 1)
            }
            for offset in -2...1 {
                let week = try #require(calendar.date(byAdding: .weekOfYear, value: offset, to: date))
                let month = try #require(calendar.date(byAdding: .month, value: offset, to: date))
                #expect(
                    try Time(unit: .week, offset: offset).days(today: today)
                        == days(calendar.dateInterval(of: .weekOfYear, for: week)))
                #expect(
                    try Time(unit: .month, offset: offset).days(today: today)
                        == days(calendar.dateInterval(of: .month, for: month)))
            }
        }
    }

    @Test func theStartAndEndOfAYearAndAYearAlone() throws {
        let start = CalendarWords.NamedTimes(in: "where did we hold the all-hands at the start of the year?")
        #expect(start.months == [1, 2] && start.days.isEmpty)
        #expect(CalendarWords.NamedTimes(in: "what's due by the end of the year").months == [11, 12])
        #expect(CalendarWords.NamedTimes(in: "early in the year").months == [1, 2])
        let sunday = try #require(RelativeTimeTests.midnight(2026, 11, 29))
        let lastYear = CalendarWords.NamedTimes(in: "the audit at the end of last year", now: sunday)
        #expect(lastYear.months.isEmpty && lastYear.days == [Self.day(2025, 11, 1)...Self.day(2025, 12, 31)])
        let written = CalendarWords.NamedTimes(in: "plans made at the beginning of 2025")
        #expect(written.days == [Self.day(2025, 1, 1)...Self.day(2025, 2, 28)])
        #expect(
            CalendarWords.NamedTimes(in: "what did we decide in 2025").days == [
                Self.day(2025, 1, 1)...Self.day(2025, 12, 31)
            ])
        #expect(CalendarWords.NamedTimes(in: "2025年的会议").days == [Self.day(2025, 1, 1)...Self.day(2025, 12, 31)])
        // A year that names a plan, the end of something else, a year beside a month (that month alone).
        for query in ["the 2027 plan", "the end of the month", "the year-end survey"] {
            #expect(CalendarWords.NamedTimes(in: query).isEmpty, "\(query)")
        }
        let march = CalendarWords.NamedTimes(in: "the offsite in March 2025")
        #expect(march.months == [3] && march.years == [2025] && march.days.isEmpty)
    }

    /// Midnight of a day in the device's time zone, the zone "today" is read in.
    static func midnight(_ year: Int, _ month: Int, _ day: Int) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        return calendar.date(from: DateComponents(year: year, month: month, day: day))
    }

    @Test func todayIsTheDevicesDay() throws {
        let evening = try #require(Self.midnight(2026, 3, 1)).addingTimeInterval(23 * 3_600 + 59 * 60)
        #expect(CalendarWords.today(evening) == Self.day(2026, 3, 1))
        #expect(CalendarWords.today(try #require(Self.midnight(2024, 2, 29))) == Self.day(2024, 2, 29))
    }

    @Test func aRelativeTimePutsTheRecordsDatedThenFirst() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        let text = "Board prep: the deck, the ask and the hiring plan for the next quarter."
        func dated(_ id: String, _ day: Int) -> Document {
            Document(
                id: id, title: "Board prep", body: text, createdAt: Date(timeIntervalSince1970: Double(day) * 86_400))
        }
        try await store.upsert([
            dated("june", Self.day(2026, 6, 2)), dated("september", Self.day(2026, 9, 10)),
            dated("march", Self.day(2026, 3, 12)),
        ])
        let asked = try #require(Self.midnight(2026, 9, 15))
        let lastWeek = try await store.search(
            "what ask did we settle on in last week's board prep", limit: 3, boosts: Boosts(today: asked),
            explain: true)
        #expect(lastWeek.hits.first?.id == "september")
        // A week names one or two records as a title does: four times the month's nudge.
        #expect(lastWeek.hits.first?.explanation?.timeBoost == 4 * Boosts.default.namedTime)
        #expect(lastWeek.hits.dropFirst().allSatisfy { $0.explanation?.timeBoost == 0 })
        let july = try #require(Self.midnight(2026, 7, 1))
        let lastMonth = try await store.search(
            "board prep last month", limit: 3, boosts: Boosts(today: july), explain: true)
        #expect(lastMonth.hits.first?.id == "june")
        // A month relative to today: twice the nudge of a month named; a month named, once.
        #expect(lastMonth.hits.first?.explanation?.timeBoost == 2 * Boosts.default.namedTime)
        let june = try await store.search("board prep in June", limit: 3, explain: true)
        #expect(june.hits.first?.id == "june" && june.hits.first?.explanation?.timeBoost == Boosts.default.namedTime)
        // Without the nudge they tie and keep the order they were stored in; without `today`, today's.
        let plain = try await store.search(
            "last week's board prep", limit: 3, boosts: Boosts(namedTime: 0, today: asked))
        #expect(plain.hits.map(\.id) == ["june", "september", "march"])
        try await store.upsert([dated("yesterday", CalendarWords.today(Date()) - 1)])
        let now = try await store.search("board prep yesterday", limit: 4, explain: true)
        #expect(now.hits.first?.id == "yesterday")
        // `today` travels with the boosts through JSON.
        let boosts = Boosts(today: asked)
        #expect(try JSONDecoder().decode(Boosts.self, from: try JSONEncoder().encode(boosts)) == boosts)
    }
}
