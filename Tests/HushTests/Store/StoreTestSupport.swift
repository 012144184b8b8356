import Foundation
import GRDB
import Testing

@testable import Hush

/// Counts texts embedded; optionally fails on texts containing a marker, or returns poisoned vectors.
final class InstrumentedEmbedder: Embedder, @unchecked Sendable {
    enum Poison: Sendable { case none, throwing, nan, infinity, wrongDimension }

    let base: HashingEmbedder
    let poison: Poison
    let marker: String
    private let lock = NSLock()
    private var embeddedCount = 0

    init(dimension: Int = 384, poison: Poison = .none, marker: String = "POISON") {
        base = HashingEmbedder(dimension: dimension)
        self.poison = poison
        self.marker = marker
    }

    var identity: EmbedderIdentity { base.identity }
    var maxTokens: Int { base.maxTokens }
    var embedded: Int { lock.withLock { embeddedCount } }

    struct Failure: Error {}

    func embed(_ texts: [String], role: EmbeddingRole) throws -> [Embedding] {
        var result = try base.embed(texts, role: role)
        for (index, text) in texts.enumerated() where text.contains(marker) {
            switch poison {
            case .none: break
            case .throwing: throw Failure()
            case .nan: result[index].vector[3] = .nan
            case .infinity: result[index].vector[0] = .infinity
            case .wrongDimension: result[index].vector.removeLast()
            }
        }
        lock.withLock { embeddedCount += texts.count }
        return result
    }

    func tokenCount(_ text: String) -> Int { base.tokenCount(text) }
}

/// The progress values a long store operation reported, collected across threads.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [StoreProgress] = []
    func append(_ value: StoreProgress) { lock.withLock { values.append(value) } }
    var entries: [StoreProgress] { lock.withLock { values } }
}

func date(_ text: String) -> Date {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withFullDate]
    return formatter.date(from: text) ?? Date(timeIntervalSince1970: 0)
}

/// A small corpus of real notes, posts and meetings.
enum Corpus {
    static let documents: [Document] = [
        Document(
            id: "budget-review", title: "Quarterly budget review",
            body: "We agreed to cut travel costs by ten percent and move the offsite to a cheaper venue. "
                + "Finance will publish the revised spreadsheet on Friday.",
            sourceType: "meeting", language: "en", tags: ["finance", "budget"], category: "work",
            metadata: ["team": "ops", "room": "B2"], createdAt: date("2024-03-04")),
        Document(
            id: "sourdough", title: "Sourdough starter notes",
            body: "Feed the starter twice a day with equal weights of rye flour and water. "
                + "It doubled in six hours at room temperature, so the bread should rise well tomorrow.",
            sourceType: "note", language: "en", tags: ["baking", "bread"], category: "home",
            createdAt: date("2024-01-15")),
        Document(
            id: "marathon", title: "Marathon training week 12",
            body: "Long run of 32 kilometres at an easy pace, then two recovery runs. "
                + "My left knee felt sore after the hills, so I will stretch and rest on Monday.",
            sourceType: "note", language: "en", tags: ["running", "health"], category: "personal",
            createdAt: date("2024-02-20")),
        Document(
            id: "garden", title: "Spring garden plan",
            body: "Plant tomatoes and basil along the south fence once the frost is over. "
                + "The raised beds need fresh compost and the irrigation hose has a leak.",
            sourceType: "note", language: "en", tags: ["garden"], category: "home", createdAt: date("2024-04-02")),
        Document(
            id: "launch-post", title: "We shipped offline search",
            body: "Our app now searches your notes entirely on the device. Nothing leaves your phone, "
                + "and results appear as you type, even in airplane mode.",
            sourceType: "post", language: "en", tags: ["product", "privacy"], category: "work",
            metadata: ["team": "mobile"], createdAt: date("2024-05-10")),
        Document(
            id: "hiring-sync", title: "Hiring sync",
            body: "Two candidates for the backend role reached the final interview. "
                + "We need feedback from the panel by Wednesday and an offer ready by next week.",
            sourceType: "meeting", language: "en", tags: ["hiring"], category: "work",
            metadata: ["team": "backend"], createdAt: date("2024-03-18")),
        Document(
            id: "vacation", title: "Summer vacation ideas",
            body: "A week of hiking in the Dolomites, or a quiet beach in Portugal with good seafood. "
                + "Book the flights early because prices climb in June.",
            sourceType: "note", language: "en", tags: ["travel"], category: "personal",
            createdAt: date("2024-01-30")),
        Document(
            id: "recette", title: "Recette de la tarte aux pommes",
            body: "Étalez la pâte, disposez les pommes en rosace et enfournez quarante minutes à cent quatre-vingts "
                + "degrés. Servez tiède avec de la crème fraîche.",
            sourceType: "note", language: "fr", tags: ["baking"], category: "home", createdAt: date("2024-02-11")),
        Document(
            id: "tokyo", title: "東京の旅行メモ",
            body: "東京大学の近くで美味しいラーメンを食べた。明日は京都へ新幹線で行く予定です。",
            sourceType: "note", language: "ja", tags: ["travel"], category: "personal", createdAt: date("2024-06-01")),
        Document(
            id: "incident", title: "Database outage postmortem",
            body: "The primary database ran out of disk space at 02:14 and writes failed for forty minutes. "
                + "Action items: alert on disk usage at eighty percent and rotate the audit logs daily.",
            sourceType: "meeting", language: "en", tags: ["incident", "database"], category: "work",
            metadata: ["team": "ops", "severity": "high"], createdAt: date("2024-04-22")),
    ]
}

/// SQLite and memory agree: every chunk has one vector and one FTS row, and the matrix holds them all.
func expectConsistent(_ store: HushStore) async throws {
    let counts = try store.database.read { db in
        (
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM chunks") ?? -1,
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM vectors") ?? -1,
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM chunks_fts") ?? -1,
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM documents") ?? -1,
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM chunks_fts WHERE rowid NOT IN (SELECT id FROM chunks)") ?? -1
        )
    }
    let memory = store.memory.read { ($0.matrix.liveRows, $0.documents.count) }
    #expect(counts.0 == counts.1)
    #expect(counts.0 == counts.2)
    #expect(counts.4 == 0)
    #expect(memory.0 == counts.1)
    #expect(memory.1 == counts.3)
}
