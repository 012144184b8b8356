import ArgumentParser
import Foundation
import Hush

/// A reflection journal: a question gets one frame (a way of seeing it) and two pieces of advice.
struct JournalExample: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journal",
        abstract: "Answer a worry with one frame and two pieces of advice from 300 hand-written snippets.")

    @OptionGroup var options: ExampleOptions

    @Flag(name: .long, help: "Show each step: analysis, category guess, candidates and their scores.")
    var explain = false

    @Argument(help: "The question, in your own words.")
    var question: String

    /// Extra cue words per category, beside the category name and its snippets' tags.
    static let cues: [String: String] = [
        "relationships": "partner boyfriend girlfriend husband wife marriage love text message fight",
        "work": "job boss manager office colleague deadline career meeting",
        "health": "body doctor pain anxious anxiety sick tired exercise drink",
        "family": "mother father mom dad parent child kid son daughter brother sister",
        "money": "cash spend spending pay paid bill bills rent afford loan broke salary",
        "grief": "died death loss lost funeral mourning miss",
        "study": "exam test school university class homework grade learn",
        "sleep": "asleep awake bed night insomnia dream",
        "friendship": "friend friends lonely alone party invite",
        "self-worth": "worthless confident confidence myself failure ashamed enough",
    ]

    struct Snippet {
        var id: String
        var kind: String
        var category: String
        var tags: [String]
        var text: String
    }

    static var snippets: [Snippet] {
        var counters: [String: Int] = [:]
        return JournalSnippets.table.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "|", maxSplits: 3).map(String.init)
            guard parts.count == 4 else { return nil }
            let key = parts[0] + "-" + parts[1]
            counters[key, default: 0] += 1
            return Snippet(
                id: "\(key)-\(counters[key] ?? 0)", kind: parts[0], category: parts[1],
                tags: parts[2].split(separator: ",").map(String.init), text: parts[3])
        }
    }

    func run() async throws {
        let (store, lexical) = try await options.open("journal")
        let snippets = Self.snippets
        let summary = try await store.upsert(
            snippets.map {
                Document(
                    id: $0.id, body: $0.text, sourceType: $0.kind, language: "en", tags: $0.tags, category: $0.category)
            })
        if explain {
            say(
                "index: \(snippets.count) snippets (\(summary.added) added, \(summary.unchanged) unchanged), "
                    + (lexical ? "lexical fallback" : "neural model"))
        }

        // 1. Analyse the question.
        let analysis = store.analyze(question)
        let keywords = Set(analysis.keywords)
        if explain {
            say("1. question: \"\(analysis.cleaned)\"  language: \(analysis.language)")
            say("   keywords: \(analysis.keywords.joined(separator: ", "))")
        }

        // 2. Guess the category from the keywords, against each category's name, tags and cue words.
        var scores: [(category: String, matched: [String])] = []
        for category in Set(snippets.map(\.category)).sorted() {
            let words =
                ([category] + snippets.filter { $0.category == category }.flatMap(\.tags)
                + (Self.cues[category] ?? "").split(separator: " ").map(String.init))
                .joined(separator: " ")
            let lexicon = Set(store.analyze(words).keywords)
            let matched = keywords.intersection(lexicon).sorted()
            if !matched.isEmpty { scores.append((category, matched)) }
        }
        scores.sort { ($0.matched.count, $1.category) > ($1.matched.count, $0.category) }

        // 3. Search frames and advice; tags and categories named in the question are boosted by the store.
        let frameHits = try await search(store, kind: "frame")
        let adviceHits = try await search(store, kind: "advice")

        // When no keyword names a category (a question in Chinese, say, against English cue words), the
        // category the best matches agree on is the guess: meaning crosses languages, keywords do not.
        var guess = scores.first?.category
        var votes: [String: Float] = [:]
        if guess == nil {
            for hit in frameHits.prefix(5) + adviceHits.prefix(5) {
                if let category = hit.category { votes[category, default: 0] += hit.score }
            }
            guess = votes.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
        }
        if explain {
            let listed = scores.map { "\($0.category) \($0.matched.count) (\($0.matched.joined(separator: ", ")))" }
            let voted = votes.sorted { $0.value > $1.value }.prefix(3).map { "\($0.key) \(format($0.value))" }
            say(
                "2. category guess: \(guess ?? "none")"
                    + (listed.isEmpty ? "" : "  [" + listed.joined(separator: "; ") + "]")
                    + (voted.isEmpty ? "" : "  [by the best matches: " + voted.joined(separator: ", ") + "]"))
        }

        // 4. The guessed category gets a boost from the journal.
        let frames = rank(frameHits, guess: guess)
        let advice = rank(adviceHits, guess: guess)
        if explain {
            for (label, list) in [("3. frames", frames), ("4. advice", advice)] {
                say("\(label): base + tag + category + guess = final")
                for item in list.prefix(4) {
                    let e = item.hit.explanation
                    say(
                        "   \(format(item.score))  [\(item.hit.id)] base \(format(e?.baseScore ?? item.hit.score)) "
                            + "tag \(format(e?.tagBoost ?? 0)) category \(format(e?.categoryBoost ?? 0)) "
                            + "guess \(format(item.guessBoost))  \(item.hit.text)")
                }
            }
        }

        // 5. Compose the reading.
        guard let frame = frames.first else {
            say("No reading: nothing matched \"\(question)\". Try describing the situation in a sentence.")
            return
        }
        say("Reading for: \(question)")
        say("  Frame:  \(frame.hit.text)")
        for (number, item) in advice.prefix(2).enumerated() { say("  Try \(number + 1): \(item.hit.text)") }
    }

    struct Candidate {
        var hit: SearchHit
        var guessBoost: Float
        var score: Float
    }

    /// The kind's best snippets for the question. The snippets' dates are when they were added, so the times
    /// a worry names ("my dog died last week") nudge none of them.
    func search(_ store: HushStore, kind: String) async throws -> [SearchHit] {
        try await store.search(
            question, mode: .hybrid, filter: SearchFilter(sourceTypes: [kind]), limit: 12,
            boosts: Boosts(namedTime: 0), explain: true
        ).hits
    }

    /// Hits re-ranked with a boost for the guessed category.
    func rank(_ hits: [SearchHit], guess: String?) -> [Candidate] {
        hits.map { hit in
            let boost: Float = hit.category != nil && hit.category == guess ? 0.08 : 0
            return Candidate(hit: hit, guessBoost: boost, score: hit.score + boost)
        }.sorted { ($0.score, $1.hit.id) > ($1.score, $0.hit.id) }
    }
}
