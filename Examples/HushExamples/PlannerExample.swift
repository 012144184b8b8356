import ArgumentParser
import Foundation
import Hush

/// A planner: meeting records as structured fields, notes in paragraph chunks, filters and a summary.
struct PlannerExample: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "planner",
        abstract: "Meetings and notes: incremental indexing, date and type filters, a minimum score, a summary.")

    @OptionGroup var options: ExampleOptions

    @Option(name: .long, help: "What to look for.")
    var query = "what did we decide about the budget and travel costs"

    @Option(name: .long, help: "Only this type: meeting or note.")
    var type: String?

    @Option(name: .long, help: "Only records on or after this day (yyyy-MM-dd).")
    var after: String?

    @Option(name: .long, help: "Only records before this day (yyyy-MM-dd).")
    var before: String?

    @Option(name: .long, help: "Drop hits scoring below this.")
    var minScore: Float?

    @Option(name: .long, help: "Append text to one meeting's outcomes (ID=TEXT), to see only it re-indexed.")
    var amend: String?

    /// (id, date, title, attendees, purpose, outcomes, action items, location)
    static let meetings: [(String, String, String, String, String, String, String, String)] = [
        (
            "m-budget", "2026-01-15", "Q1 budget review", "Maria, Jonas, Priya", "review first-quarter spending",
            "travel 18 % over plan; book flights three weeks ahead; trains for trips under four hours",
            "Jonas drafts the travel policy by Jan 30", "Room 4B"
        ),
        (
            "m-hiring", "2026-02-03", "Hiring sync", "Priya, Tom", "agree on the backend role",
            "one senior backend engineer; interviews start in March", "Tom posts the job ad", "video call"
        ),
        (
            "m-offsite", "2026-02-10", "Spring offsite planning", "Maria, Jonas, Priya", "plan the spring offsite",
            "venue shortlist of three; budget capped at 12,000", "Maria calls the venues", "Café Lindner"
        ),
        (
            "m-launch", "2026-02-17", "Launch go/no-go", "product, engineering, support",
            "decide on the version 2 launch",
            "launch postponed two weeks until the security review is done", "Priya books the security review",
            "Room 2A"
        ),
        (
            "m-retro", "2026-03-02", "Sprint retrospective", "engineering team", "look back on sprint 14",
            "too many meetings; no-meeting Wednesdays from next sprint", "Tom updates the calendar", "Room 4B"
        ),
        (
            "m-travel", "2026-03-09", "Conference travel", "Maria, Tom", "plan travel to the Berlin conference",
            "train instead of flights; shared apartment near the venue", "Maria books the train tickets",
            "video call"
        ),
    ]

    /// (id, date, title, paragraphs of 50-200 words)
    static let notes: [(String, String, String, [String])] = [
        (
            "n-travel-policy", "2026-01-28", "Travel policy draft",
            [
                "Travel costs rose faster than any other line of the budget last quarter. Most of the overrun came from flights booked less than two weeks before departure, when fares are at their highest, and from two conferences that were added to the calendar late. Hotels were close to plan, and local transport was below it.",
                "The draft policy asks everyone to book flights at least three weeks ahead and to prefer trains for any trip under four hours door to door. Trains are usually cheaper on those routes, produce far less carbon, and let people work during the journey. Exceptions need a short note to the team lead explaining why.",
                "We will review the numbers again at the end of the second quarter. If travel is back within two percent of plan, the policy stays as it is; if not, we will add a monthly travel budget per team and a shared calendar of conferences so that late bookings become rare.",
            ]
        ),
        (
            "n-onboarding", "2026-02-12", "Onboarding checklist",
            [
                "New engineers should have a laptop, accounts and a buddy on their first day. The buddy is someone from a neighbouring team who answers the questions people are shy to ask in public, such as where the build scripts live, who owns which service, and how to request time off.",
                "During the first week the new person ships one small change to production with their buddy. The goal is not the change itself but walking once through review, continuous integration, deployment and monitoring, so that nothing about the process is mysterious later.",
            ]
        ),
        (
            "n-offsite-ideas", "2026-02-20", "Offsite ideas",
            [
                "People asked for fewer presentations and more time to talk. A good offsite day could start with a walk, continue with two working sessions on problems the teams chose themselves, and end with a shared dinner. The budget allows one night at a venue within two hours by train.",
                "For the working sessions we will use small groups of five, each with a clear question and a note taker. Results are shared as one page per group the following week, so decisions from the offsite do not disappear once everyone is back at their desks.",
            ]
        ),
    ]

    func documents() -> [Document] {
        var amended: (id: String, text: String)?
        if let amend, let split = amend.firstIndex(of: "=") {
            amended = (String(amend[..<split]), String(amend[amend.index(after: split)...]))
        }
        let meetings = Self.meetings.map { m -> Document in
            let outcomes = m.0 == amended?.id ? m.5 + "; " + (amended?.text ?? "") : m.5
            return Document(
                id: m.0, title: m.2, body: "Meeting on \(m.1): \(m.4).",
                fields: [
                    .init(label: "Attendees", value: m.3), .init(label: "Purpose", value: m.4),
                    .init(label: "Outcomes", value: outcomes), .init(label: "Action items", value: m.6),
                    .init(label: "Location", value: m.7),
                ],
                sourceType: "meeting", language: "en", metadata: ["location": m.7], createdAt: exampleDate(m.1))
        }
        // Each paragraph of a note is its own chunk-sized document with the note's title prefixed, so a
        // changed paragraph re-indexes only itself.
        let notes = Self.notes.flatMap { n in
            n.3.enumerated().map { number, paragraph in
                Document(
                    id: "\(n.0)#\(number + 1)", title: n.2, body: paragraph, sourceType: "note", language: "en",
                    metadata: ["note": n.0], createdAt: exampleDate(n.1))
            }
        }
        return meetings + notes
    }

    func run() async throws {
        // Paragraphs of 50-200 words fit one chunk of up to 256 tokens: no overlap needed.
        let (store, lexical) = try await options.open(
            "planner", chunking: ChunkingConfiguration(maxTokens: 256, targetTokens: 256, overlapTokens: 0))
        let summary = try await store.upsert(documents())
        say(
            "index: \(summary.added) added, \(summary.updated) updated, \(summary.unchanged) unchanged; "
                + "\(summary.chunksEmbedded) chunks embedded (" + (lexical ? "lexical fallback)" : "neural model)"))

        let filter = SearchFilter(
            sourceTypes: type.map { [$0] } ?? [], createdAfter: after.map(exampleDate),
            createdBefore: before.map(exampleDate))
        var described: [String] = []
        if let type { described.append("type \(type)") }
        if let after { described.append("from \(after)") }
        if let before { described.append("before \(before)") }
        if let minScore { described.append("score ≥ \(format(minScore))") }
        say("\nSearch \"\(query)\"" + (described.isEmpty ? "" : " (" + described.joined(separator: ", ") + ")") + ":")
        let results = try await store.search(query, mode: .hybrid, filter: filter, limit: 5, minScore: minScore)
        for hit in results.hits {
            let day = ISO8601DateFormatter().string(from: hit.createdAt).prefix(10)
            say("  \(format(hit.score))  [\(hit.id)] \(hit.title ?? "") (\(hit.sourceType ?? "-"), \(day))")
            // A meeting's field that answers shows as its line ("Outcomes: …"), a note's passage as its stretch.
            say("      " + hit.snippet(maxLength: 100).text.replacingOccurrences(of: "\n", with: " "))
        }
        guard !results.hits.isEmpty else {
            say("  nothing above the minimum score")
            return
        }
        if !results.goodMatch { say("  (no good match: nothing here answers that well)") }
        say("\nSummary of the top hits:")
        let digest = try await store.summarize(results: results, sentences: 3)
        for sentence in digest.sentences { say("  [\(sentence.documentID)] \(sentence.text)") }
    }
}
