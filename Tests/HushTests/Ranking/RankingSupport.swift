import Foundation
import HushEmbedding

@testable import Hush

/// A day in 2026, at noon UTC.
func day(_ value: Int, month: Int = 3) -> Date {
    var components = DateComponents()
    components.year = 2026
    components.month = month
    components.day = value
    components.hour = 12
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
    return calendar.date(from: components) ?? Date(timeIntervalSince1970: 0)
}

/// A small social feed: posts on running, baking, gardening, money and sleep, in English, French and German.
enum FeedCorpus {
    static let posts: [Document] = [
        post(
            "run-1",
            "Finished my first half marathon this morning! Kept an even pace for 21 kilometres and sprinted the last hill.",
            2),
        post(
            "run-2",
            "Interval training on the track tonight: eight repeats of four hundred metres with a slow jog between them.",
            9),
        post(
            "run-3",
            "New running shoes arrived. My knees feel much better on long runs with more cushioning under the heel.", 5),
        post(
            "bake-1",
            "Baked a sourdough loaf with a crackly crust. The starter is finally strong enough to make the dough rise overnight.",
            8),
        post("bake-2", "Tried a lemon drizzle cake for my sister's birthday; next time less sugar in the glaze.", 3),
        post(
            "bake-3",
            "Kneaded a brioche dough rich with butter and eggs, then let it prove slowly in the fridge overnight.", 1),
        post(
            "garden-1",
            "Planted tomatoes and basil in the raised beds. The seedlings need shade during the hottest afternoons.", 7),
        post("garden-2", "Slugs ate half of my lettuce again. Trying copper tape around the planters this week.", 6),
        post("money-1", "Made a spreadsheet of every subscription we pay for and cancelled three we never use.", 4),
        post(
            "sleep-1", "Could not fall asleep until three in the morning. Going to stop scrolling on my phone in bed.",
            9),
        post(
            "fr-run",
            "Premier semi-marathon terminé ce matin ! J'ai couru vingt et un kilomètres à un rythme régulier.", 6, "fr"),
        post(
            "fr-bake", "J'ai fait une tarte aux pommes avec une pâte brisée maison, servie tiède avec de la crème.", 8,
            "fr"),
        post(
            "de-garden", "Heute Tomaten und Basilikum ins Hochbeet gepflanzt. Die Schnecken haben den Salat gefressen.",
            4, "de"),
        post("de-run", "Zehn Kilometer gelaufen, trotz Regen. Die neuen Laufschuhe sind sehr bequem.", 7, "de"),
    ]

    static func post(_ id: String, _ body: String, _ dayOfMonth: Int, _ language: String = "en") -> Document {
        Document(id: id, body: body, sourceType: "post", language: language, createdAt: day(dayOfMonth))
    }
}

/// Journal entries and meeting notes long enough to summarise.
enum NotesCorpus {
    static let retro = Document(
        id: "retro", title: "Sprint retrospective",
        body: """
            We shipped the offline search feature two days late because the database migration failed on older phones. \
            The migration bug came from a missing index on the chunks table, which made the upgrade time out. \
            Everyone agreed the design review was useful and caught two privacy problems early. \
            Lunch was pizza again. \
            Next sprint we will test migrations on a copy of a real user database before every release. \
            Priya will write the migration test harness, and Jonas will add a timeout alarm to the upgrade path.
            """,
        sourceType: "meeting", language: "en", createdAt: day(10))

    static let journal = Document(
        id: "journal-sleep", title: "Tuesday",
        body: """
            Another night of bad sleep. I lay awake replaying the argument with my manager about the deadline. \
            The cat knocked a glass off the table at two. \
            I think the real problem is that I check work email in bed, so my mind never switches off. \
            Tomorrow I will leave my phone in the kitchen and read a paper book before sleeping. \
            If I still cannot sleep by the weekend, I will talk to my manager about moving the deadline.
            """,
        sourceType: "journal", language: "en", createdAt: day(11))

    static let thread: [Document] = [
        Document(
            id: "thread-1",
            body: "Should we move the team offsite to May? The venue in April costs twice as much as we budgeted. "
                + "Also my dog had puppies.",
            sourceType: "post", language: "en", createdAt: day(12)),
        Document(
            id: "thread-2",
            body: "May works for me. The cheaper venue has a smaller meeting room but it fits twelve people. "
                + "We would save about four thousand euros on the offsite budget.",
            sourceType: "post", language: "en", createdAt: day(13)),
        Document(
            id: "thread-3",
            body: "Agreed, let's book the May venue for the offsite. I will tell finance the budget is fine now. "
                + "Congratulations on the puppies!",
            sourceType: "post", language: "en", createdAt: day(14)),
    ]
}

/// The centres `DocumentCentres` defines, worked out here from the stored vectors of documents of one chunk each:
/// the store's is the mean chunk vector g shrunk by n / (n + 16) for n documents; a language's adds m / (m + 16)
/// of the difference between its own mean chunk and g, for its m documents.
struct WorkedCentres {
    let store: [Float]
    let language: [String: [Float]]
    /// Each document's (only) chunk vector, by id.
    let vectors: [String: [Float]]

    init(_ documents: [Document], in hush: HushStore) async throws {
        var vectors: [String: [Float]] = [:]
        for document in documents { vectors[document.id] = try await hush.vectors(forDocument: document.id).first }
        let dimension = vectors.values.first?.count ?? 0
        func mean(_ ids: [String]) -> [Float] {
            var sum = [Float](repeating: 0, count: dimension)
            for id in ids { for index in 0..<dimension { sum[index] += vectors[id]?[index] ?? 0 } }
            return sum.map { $0 / Float(ids.count) }
        }
        let g = mean(documents.map(\.id))
        let n = Float(documents.count)
        let store = g.map { $0 * n / (n + 16) }
        var language: [String: [Float]] = [:]
        for code in Set(documents.compactMap(\.language)) {
            let ids = documents.filter { $0.language == code }.map(\.id)
            let share = Float(ids.count) / Float(ids.count + 16)
            language[code] = zip(store, zip(mean(ids), g)).map { $0 + share * ($1.0 - $1.1) }
        }
        self.store = store
        self.language = language
        self.vectors = vectors
    }

    static func dot(_ a: [Float], _ b: [Float]) -> Float { zip(a, b).reduce(0) { $0 + $1.0 * $1.1 } }
}
