import Foundation
import Testing

@testable import Hush

/// The calendar in questions ([answers] #59): the months a query names put the records dated then first, a
/// question asking when is shown the line that states a date, and a cap on a budget asks for an amount.
@Suite struct CalendarWordsTests {
    static func day(_ text: String) throws -> Date {
        try #require(ISO8601DateFormatter().date(from: text + "T00:00:00Z"))
    }

    @Test func monthsAreNamedInSeveralLanguagesAndNotByWordsThatOnlyLookLikeThem() {
        #expect(CalendarWords.months(in: "what did we decide in March and early may?") == [3, 5])
        #expect(CalendarWords.months(in: "topics for my feb 1:1 with jonas") == [2])
        #expect(CalendarWords.months(in: "which venue did we rent for the january all-hands") == [1])
        #expect(CalendarWords.months(in: "Was haben wir im März beschlossen?") == [3])
        #expect(CalendarWords.months(in: "réunion de décembre") == [12])
        #expect(CalendarWords.months(in: "三月的预算会议") == [3])
        #expect(CalendarWords.months(in: "12月の打ち合わせ") == [12])
        #expect(CalendarWords.months(in: "the jan 14 review, and Sept's") == [1, 9])
        // A modal, a verb, a first name, "this month".
        #expect(CalendarWords.months(in: "What may I bring to the offsite?").isEmpty)
        #expect(CalendarWords.months(in: "May I bring my dog?").isEmpty)
        #expect(CalendarWords.months(in: "when do we march to the new office").isEmpty)
        #expect(CalendarWords.months(in: "what did Jan say about the budget").isEmpty)
        #expect(CalendarWords.months(in: "这个月的会议").isEmpty)
    }

    @Test func aYearBesideAMonthNarrowsIt() throws {
        #expect(CalendarWords.years(in: "the offsite in March 2025, not 1850 or 12025") == [2025])
        #expect(CalendarWords.years(in: "2026年3月的会议") == [2026])
        let march2025 = try Self.day("2025-03-28").timeIntervalSince1970
        let march2026 = try Self.day("2026-03-04").timeIntervalSince1970
        let named = CalendarWords.NamedTimes(in: "offsite planning in March 2025")
        #expect(named.contains(seconds: march2025) && !named.contains(seconds: march2026))
        let anyYear = CalendarWords.NamedTimes(in: "offsite planning in March")
        #expect(anyYear.contains(seconds: march2025) && anyYear.contains(seconds: march2026))
        // A year alone names no month.
        #expect(CalendarWords.NamedTimes(in: "the 2027 plan").isEmpty)
    }

    @Test func aRecordsDayIsItsOwnOrTheDevicesDayOfItsMoment() throws {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = try #require(TimeZone(identifier: "UTC"))
        var local = Calendar(identifier: .gregorian)
        local.timeZone = .current
        var generator = SystemRandomNumberGenerator()
        // Every moment from 1900 to 2100 is too many; a few thousand, the edges of months and days alone.
        var moments: [Double] = (0..<5_000).map { _ in Double.random(in: -2.2e9...4.1e9, using: &generator) }
        moments += [0, -1, 86_399, 86_400, 951_782_400, 951_868_799, 951_868_800, 4_107_542_399]
        moments += (0..<500).map { _ in Double(Int.random(in: -25_000...47_000, using: &generator)) * 86_400 }
        for seconds in moments {
            let date = Date(timeIntervalSince1970: seconds)
            // A day alone (midnight UTC) is that day; a moment, the device's day of it.
            let calendar = seconds.truncatingRemainder(dividingBy: 86_400) == 0 ? utc : local
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            let day = try #require(CalendarWords.day(ofRecord: seconds))
            let found = RecordDate.civil(days: day)
            #expect(
                found.year == parts.year && found.month == parts.month && found.day == parts.day, "\(seconds)")
        }
        #expect(CalendarWords.day(ofRecord: .nan) == nil)
        // A time's weight for a record is that of the record's day, though it reads the zone only near an edge.
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let times = [
            CalendarWords.NamedTimes(in: "what did we decide yesterday", now: now),
            CalendarWords.NamedTimes(in: "the offsite in November 2026"),
            CalendarWords.NamedTimes(in: "what came up last month", now: now),
        ]
        for named in times {
            for _ in 0..<3_000 {
                let seconds = 1_795_000_000 + Double.random(in: -100 * 86_400...2 * 86_400, using: &generator)
                let day = try #require(CalendarWords.day(ofRecord: seconds))
                #expect(named.weight(seconds: seconds) == named.weight(day: day), "\(seconds)")
            }
        }
    }

    @Test func aLineStatesADateByAMonthAWeekdayAYearOrDigits() {
        for dated in [
            "Self-reviews due November 6", "Lena: schedule his Berlin visit in May.", "Retest on 15.6.",
            "Kickoff 2026-03-12", "Signed on 12/03/2026", "Budget for 2027 agreed", "Q3 focus: the partner API",
            "Jan 14: board call", "every Friday at ten", "周五开会", "Réunion le 3 mars",
        ] {
            #expect(CalendarWords.statesDate(dated), "\(dated)")
        }
        for undated in [
            "Cold start 4.1 s on a Galaxy A12", "We may move later", "Jan: book the room", "Salary band 70-82k",
            "Tom: clickable prototype for the waitlist", "3 of 12 studios",
        ] {
            #expect(!CalendarWords.statesDate(undated), "\(undated)")
        }
    }

    @Test func aQuestionAsksForADateByWhenOrByWhichMonth() {
        #expect(FieldQuestion.Asked("When is Amir's Berlin visit?").asksForDate)
        #expect(FieldQuestion.Asked("v2 retro: which month is next year's pentest supposed to be in?").asksForDate)
        #expect(FieldQuestion.Asked("what day is the retest").asksForDate)
        #expect(!FieldQuestion.Asked("Where did we meet the movers?").asksForDate)
        #expect(!FieldQuestion.Asked("Which room were we in when we chose the fairs?").asksForDate)
    }

    @Test func aCapOnABudgetAsksForAnAmount() {
        #expect(FieldQuestion.Asked("spring offsite budget cap").asksForMoney)
        #expect(FieldQuestion.Asked("what did we cap the budget at?").asksForMoney)
        #expect(FieldQuestion.Asked("spending limit for team dinners").asksForMoney)
        #expect(!FieldQuestion.Asked("we adjusted the second-half budget for what else?").asksForMoney)
        #expect(!FieldQuestion.Asked("who sat in on the budget review?").asksForMoney)
    }

    static let onboarding = Document(
        id: "m-amir", title: "Onboarding Amir", body: "Welcome chat with our new backend engineer.",
        fields: [
            .init(label: "Outcomes", value: "Amir starts April 13 in Lisbon. First project: the webhook work."),
            .init(label: "Action items", value: "Lena: schedule his Berlin visit in May. Miguel: set up his laptop."),
            .init(label: "Location", value: "Video call"),
        ], sourceType: "meeting")
    static let reviews = Document(
        id: "m-reviews", title: "Performance review process kickoff", body: "How we run reviews from now on.",
        fields: [
            .init(label: "Outcomes", value: "Leapsome chosen. Self-assessments due November 6, calibration after."),
            .init(label: "Action items", value: "Leads: nominate two peers per report by October 20."),
        ], sourceType: "meeting")

    @Test func aQuestionAskingWhenIsShownTheDatedLineThatHoldsItsWords() async throws {
        let store = try await UnansweredQuestionTests.store(adding: [Self.onboarding, Self.reviews])
        let visit = try await store.search("When is Amir's Berlin visit?", limit: 3)
        let first = try #require(visit.hits.first)
        #expect(first.id == "m-amir")
        #expect(first.field == "Action items")
        #expect(first.snippet().text.contains("Berlin visit in May"))
        // Of two dated lines, the one that holds the question's words.
        let due = try await store.search("When are self-assessments due?", limit: 3)
        let review = try #require(due.hits.first)
        #expect(review.id == "m-reviews")
        #expect(review.field == "Outcomes")
        // Not a question about a date: the field asked for.
        let laptop = try await store.search("Who is setting up Amir's laptop?", limit: 3)
        #expect(laptop.hits.first?.field == "Action items")
        let place = try await store.search("Where did we meet Amir for his onboarding?", limit: 3)
        #expect(place.hits.first?.field == "Location")
    }

    @Test func aNamedMonthPutsTheRecordsDatedThenFirst() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        let text = "Offsite planning: venue shortlist, budget and the agenda for the three days."
        try await store.upsert([
            Document(id: "feb", title: "Offsite planning", body: text, createdAt: try Self.day("2026-02-10")),
            Document(id: "mar", title: "Offsite planning", body: text, createdAt: try Self.day("2026-03-04")),
            Document(id: "mar-2025", title: "Offsite planning", body: text, createdAt: try Self.day("2025-03-28")),
        ])
        let march = try await store.search("offsite planning in March", limit: 3, explain: true)
        #expect(Set(march.hits.prefix(2).map(\.id)) == ["mar", "mar-2025"])
        #expect(march.hits.last?.id == "feb")
        for hit in march.hits {
            let explanation = try #require(hit.explanation)
            #expect(explanation.timeBoost == (hit.id == "feb" ? 0 : Boosts.default.namedTime))
            #expect(
                abs(
                    explanation.finalScore
                        - (explanation.baseScore + explanation.tagBoost + explanation.categoryBoost
                            + explanation.timeBoost)) < 1e-6)
        }
        // With the year, March of that year alone.
        let only2025 = try await store.search("offsite planning in March 2025", limit: 3, explain: true)
        #expect(only2025.hits.first?.id == "mar-2025")
        #expect(only2025.hits.filter { $0.explanation?.timeBoost != 0 }.map(\.id) == ["mar-2025"])
        // Without the nudge the three tie and keep the order they were stored in.
        let plain = try await store.search("offsite planning in March", limit: 3, boosts: .none)
        #expect(plain.hits.map(\.id) == ["feb", "mar", "mar-2025"])
        // The explanation keeps the month's nudge through JSON.
        let explanation = try #require(march.hits.first?.explanation)
        let decoded = try JSONDecoder().decode(
            SearchHit.Explanation.self, from: try JSONEncoder().encode(explanation))
        #expect(decoded.timeBoost == explanation.timeBoost)
        // Boosts written before the month had its nudge decode with the default one.
        let old = try JSONDecoder().decode(Boosts.self, from: Data(#"{"perTag":0.1,"maxTags":2,"category":0.2}"#.utf8))
        #expect(old.namedTime == Boosts.default.namedTime)
    }
}
