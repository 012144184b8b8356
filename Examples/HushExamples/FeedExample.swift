import ArgumentParser
import Foundation
import Hush

/// A social feed: search, related posts, a "Relevant" sort from likes and recency, and pruning.
struct FeedExample: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract: "A multilingual feed with quotes, links and mentions: search, related, Relevant sort, pruning.")

    @OptionGroup var options: ExampleOptions

    @Option(name: .long, help: "What to search the feed for.")
    var query = "tips for running in the rain"

    @Option(name: .long, help: "Posts you liked (comma-separated ids), for the Relevant sort.")
    var liked = "p-run-rain,p-marathon"

    @Option(name: .long, help: "Today, yyyy-MM-dd (fixed so runs repeat).")
    var now = "2026-03-31"

    @Option(name: .long, help: "Keep at most this many posts when pruning.")
    var capacity = 16

    @Option(name: .long, help: "Delete posts older than this many days when pruning.")
    var ttlDays = 60

    /// (id, date, language, author, likes, text, quoted post id, tags)
    static let posts: [(String, String, String, String, Int, String, String?, [String])] = [
        (
            "p-run-rain", "2026-03-29", "en", "@mila", 42,
            "Ran 10 km in the pouring rain this morning. A cap keeps the water out of your eyes, trust me.", nil,
            ["running"]
        ),
        (
            "p-marathon", "2026-03-20", "en", "@jo", 88,
            "Signed up for my first marathon! Training plan from https://example.org/plan starts Monday.", nil,
            ["running"]
        ),
        (
            "p-shoes", "2026-03-27", "en", "@sam", 15,
            "Which running shoes survive wet trails? Mine fall apart after two months. @mila any advice?", nil,
            ["running", "gear"]
        ),
        (
            "p-shoes-reply", "2026-03-28", "en", "@mila", 23,
            "Trail shoes with a rock plate, and dry them with newspaper, never on the heater.", "p-shoes",
            ["running", "gear"]
        ),
        (
            "p-fr-course", "2026-03-26", "fr", "@lea", 31,
            "Courir sous la pluie, c'est finalement libérateur. Dix kilomètres ce matin !", nil, ["course"]
        ),
        (
            "p-de-lauf", "2026-03-25", "de", "@jonas", 19,
            "Heute im Regen gelaufen. Mit Mütze und Windjacke war es richtig schön.", nil, ["laufen"]
        ),
        (
            "p-es-correr", "2026-03-24", "es", "@ana", 12,
            "Salir a correr con lluvia me pone de buen humor todo el día.", nil, ["correr"]
        ),
        (
            "p-bread", "2026-03-30", "en", "@tom", 54,
            "My sourdough finally rose! Feeding the starter twice a day made the difference. Recipe: https://example.org/bread",
            nil, ["baking"]
        ),
        (
            "p-bread-quote", "2026-03-30", "en", "@kim", 8, "Saving this for the weekend, thanks @tom", "p-bread",
            ["baking"]
        ),
        (
            "p-fr-pain", "2026-03-22", "fr", "@lea", 27,
            "Mon levain a enfin doublé en six heures. Le pain du dimanche est sauvé.", nil, ["pain"]
        ),
        (
            "p-garden", "2026-03-18", "en", "@ravi", 20,
            "First tomatoes planted on the balcony. Deep watering at the base in the morning.", nil, ["garden"]
        ),
        (
            "p-de-garten", "2026-03-15", "de", "@jonas", 11,
            "Tomaten auf dem Balkon gepflanzt, jetzt nur noch auf Sonne warten.", nil, ["garten"]
        ),
        (
            "p-budget", "2026-03-12", "en", "@jo", 33,
            "Cancelled four subscriptions I never used. That's 40 euros a month back.", nil, ["money"]
        ),
        ("p-budget-quote", "2026-03-13", "en", "@sam", 5, "Doing this tonight.", "p-budget", ["money"]),
        (
            "p-sleep", "2026-03-10", "en", "@ana", 61,
            "Phone out of the bedroom for a week and I fall asleep twice as fast.", nil, ["sleep"]
        ),
        (
            "p-es-dormir", "2026-03-08", "es", "@ana", 14, "Dejar el móvil fuera del dormitorio cambió mis noches.",
            nil, ["dormir"]
        ),
        (
            "p-coffee", "2026-03-05", "en", "@tom", 9, "No coffee after lunch for two weeks: nights are calmer.", nil,
            ["sleep"]
        ),
        (
            "p-cycling", "2026-02-25", "en", "@ravi", 17, "Cycling to work in the rain is fine with proper mudguards.",
            nil, ["cycling"]
        ),
        (
            "p-interval", "2026-02-20", "en", "@mila", 29,
            "Interval sessions on the track: 6 x 800 m with 2 minutes rest. Legs are done.", nil, ["running"]
        ),
        (
            "p-old-run", "2026-01-10", "en", "@jo", 40, "New year, new running log. Goal: 1,000 km this year.", nil,
            ["running"]
        ),
        (
            "p-old-bread", "2026-01-05", "en", "@tom", 12, "Burnt my first loaf. Oven thermometers exist for a reason.",
            nil, ["baking"]
        ),
        (
            "p-old-garden", "2025-12-20", "en", "@ravi", 6, "Planning next year's vegetable beds with graph paper.",
            nil, ["garden"]
        ),
    ]

    static func documents() -> [Document] {
        let texts = Dictionary(uniqueKeysWithValues: posts.map { ($0.0, $0.5) })
        return posts.map { post in
            Document(
                id: post.0, body: post.5, quoted: post.6.flatMap { texts[$0] }, sourceType: "post", language: post.2,
                tags: post.7, metadata: ["author": post.3, "likes": String(post.4)], createdAt: exampleDate(post.1))
        }
    }

    func run() async throws {
        let (store, lexical) = try await options.open("feed")
        let summary = try await store.upsert(Self.documents())
        let today = exampleDate(now)
        say(
            "feed: \(Self.posts.count) posts (\(summary.added) added, \(summary.unchanged) unchanged), "
                + (lexical ? "lexical fallback" : "neural model"))

        say("\nSearch \"\(query)\":")
        for hit in try await store.search(query, mode: .hybrid, filter: SearchFilter(sourceTypes: ["post"]), limit: 4)
            .hits
        {
            say("  \(format(hit.score))  [\(hit.id)] (\(hit.language)) \(hit.text)")
        }

        let likedIDs = liked.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if let first = likedIDs.first {
            say("\nRelated to \(first):")
            for item in try await store.related(to: first, limit: 3) {
                say("  \(format(item.score ?? 0))  [\(item.id)] (\(item.language))")
            }
        }

        say("\nRelevant (liked: \(likedIDs.joined(separator: ", ")); 70 % likes, 30 % recency, half-life 7 days):")
        let ranked = try await store.rank(
            liked: likedIDs,
            options: InterestOptions(alpha: 0.7, halfLife: 7 * 86_400, ignoreUnknownIDs: true, now: today), limit: 5)
        for item in ranked {
            let score = item.score.map(format) ?? "  -  "
            say(
                "  \(score)  [\(item.id)] (\(item.language), cos \(item.similarity.map(format) ?? "-"), recency \(item.recency.map(format) ?? "-"))"
            )
        }

        let cutoff = today.addingTimeInterval(-Double(ttlDays) * 86_400)
        let expired = try await store.prune(olderThan: cutoff)
        let trimmed = try await store.prune(maxDocuments: capacity)
        let left = try await store.stats().documents
        say(
            "\nPrune: \(expired) older than \(ttlDays) days, \(trimmed) over the capacity of \(capacity); \(left) posts left"
        )
    }
}
