// ClientApp: what a journal, a planner and a feed do with Hush, through its public API only.
// Exits with status 1 (and says what differed) when Hush does not behave as an app expects.
import Foundation
import Hush

nonisolated(unsafe) var failures = 0  // top-level code runs on one thread
func check(_ condition: Bool, _ what: String) {
    print((condition ? "ok   " : "FAIL ") + what)
    if !condition { failures += 1 }
}

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hush-client-app-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

// MARK: - A journal (lexical fallback: no model needed)

let journalPath = folder.appendingPathComponent("journal.hush").path
let entries = [
    Document(
        id: "e1", title: "Awake at 3am", body: "Lay awake for hours listening to the rain.", tags: ["insomnia"],
        category: "health", createdAt: Date(timeIntervalSince1970: 1_767_225_600)),
    Document(
        id: "e2", title: "Exam in two weeks", body: "Could not stop thinking about the exam.", tags: ["study"],
        createdAt: Date(timeIntervalSince1970: 1_767_312_000)),
    Document(
        id: "e3", title: "Evening walk",
        body: "A long walk by the river with @sam_w, photos on https://photos.example.com/river",
        tags: ["outdoors"], createdAt: Date(timeIntervalSince1970: 1_767_398_400)),
]
do {
    let journal = try await HushStore.open(path: journalPath, embedder: HashingEmbedder())
    let summary = try await journal.upsert(entries)
    check(summary.added == 3 && summary.errors.isEmpty, "upsert adds three entries")
    var touched = entries[0]
    touched.updatedAt = Date(timeIntervalSince1970: 1_767_484_800)
    let again = try await journal.upsert([touched])
    check(
        again.updated == 1 && again.metadataOnly == 1 && again.chunksEmbedded == 0, "a date-only change embeds nothing")
}

// Reopen without naming the embedder: the store knows it was made with the lexical fallback.
let journal = try await HushStore.open(path: journalPath, readOnly: true)
check(journal.semanticAvailable && journal.readOnly, "open(path:) finds the embedder from the store")
let tagged = try await journal.search("insomnia", mode: .keyword)
check(tagged.hits.first?.id == "e1", "a tag is found by keyword")
let handle = try await journal.search("@sam_w", mode: .keyword)
check(handle.hits.first?.id == "e3", "a mention is found as written")
let site = try await journal.search("photos example", mode: .keyword)
check(site.hits.first?.id == "e3", "a link's words are found")

let calibrated = try await journal.search("awake listening to the rain", mode: .calibrated, explain: true)
if let top = calibrated.hits.first, let explanation = top.explanation {
    check(top.id == "e1", "calibrated search ranks the entry first")
    check(explanation.evidence != nil && explanation.calibration != nil, "explain shows the evidence")
    check((0...1).contains(top.score - explanation.tagBoost - explanation.categoryBoost), "a probability")
} else {
    check(false, "calibrated search returns an explained hit")
}
let unrelated = try await journal.search("quantum chromodynamics lattice gauge", mode: .calibrated)
check((unrelated.hits.first?.score ?? 0) < (calibrated.hits.first?.score ?? 0) / 10, "junk scores far lower")
check(
    journal.analyze("quantum chromodynamics lattice gauge").language == "en", "a short query takes the store's language"
)

let hit = try await journal.search("walk river", limit: 1).hits.first
if let hit {
    // The model read the mention and the link as `@user` and `[link]` (`range` is in that text); the hit shows
    // them as written.
    let cleaned = TextCleaner().clean(entries[2])
    let written = TextCleaner(replaceURLs: false, replaceMentions: false).clean(entries[2])
    let text = Array(hit.text.utf16)
    check(
        hit.range == 0..<cleaned.utf16.count && text[hit.passageRange].elementsEqual(written.utf16)
            && hit.passage == written, "the hit shows the entry as written, and range and passageRange agree")
    // The row an app shows: a stretch of the passage with the query's words marked.
    let snippet = hit.snippet(maxLength: 60)
    check(
        snippet.text.count <= 60 && snippet.highlights.map { snippet.text[$0].lowercased() }.contains("river"),
        "the snippet marks the query's words")
}
let varied = try await journal.diversify(try await journal.search("thinking", limit: 3), lambda: 0.5)
check(varied.hits.count <= 3, "diversify is awaited like the rest")

let metrics = journal.metrics
check(metrics.searches.count >= 6 && metrics.queryCache.capacity > 0, "metrics count the searches")
try await journal.warmUp()
check(journal.metrics.searches.count == metrics.searches.count, "warmUp is not a search")

// MARK: - A planner: meeting records with fields, summarised

let planner = try await HushStore.inMemory(embedder: HashingEmbedder())
try await planner.upsert([
    Document(
        id: "m1", title: "Launch review", body: "We reviewed the launch checklist. Marketing needs screenshots.",
        fields: [
            .init(label: "Outcomes", value: "Launch moved to the 14th."),
            .init(label: "Action items", value: "Ana sends the screenshots."),
        ], sourceType: "meeting")
])
let minutes = try await planner.summarize(ids: ["m1"], sentences: 4)
check(minutes.sentences.count == 4, "the summary has the sentences asked for")
check(minutes.sentences.contains { $0.text.hasPrefix("Outcomes:") }, "the summary reads the fields")
let lisbon = try await planner.search("When did Ana review the launch for the Lisbon team?")
check(lisbon.unmentionedNames == ["Lisbon"], "a name the planner never mentions is said (\(lisbon.unmentionedNames))")
check(
    try await planner.search("When did Ana review the launch?").unmentionedNames.isEmpty,
    "a name the planner holds is not")

// Two retros alike but for their day: "in March" and "last week" put March's first, "when" shows the line with
// the date.
let day = ISO8601DateFormatter()
try await planner.upsert(
    ["2026-02-10", "2026-03-10"].enumerated().map { index, date in
        Document(
            id: "retro-\(index)", title: "Sprint retro", body: "What went well and what did not in the sprint.",
            fields: [
                .init(label: "Outcomes", value: "Keep the demo day."),
                .init(label: "Action items", value: "Ana books the demo room for Friday."),
            ], sourceType: "meeting", createdAt: day.date(from: date + "T00:00:00Z"))
    })
let march = try await planner.search("sprint retro in March", limit: 2, explain: true)
check(march.hits.first?.id == "retro-1", "a month named puts the records dated then first (\(march.hits.map(\.id)))")
check(march.hits.first?.explanation?.timeBoost == Boosts.default.namedTime, "the explanation says why")
// "Last week", as of Wednesday 18 March 2026 (noon UTC: that day in every time zone an app runs in).
let lastWeek = try await planner.search(
    "what did we keep from last week's sprint retro", limit: 2,
    boosts: Boosts(today: day.date(from: "2026-03-18T12:00:00Z")))
check(lastWeek.hits.first?.id == "retro-1", "last week puts the retro of March 10 first (\(lastWeek.hits.map(\.id)))")
let demo = try await planner.search("When is the sprint retro demo?", limit: 1)
check(demo.hits.first?.field == "Action items", "a question asking when is shown the line with a date")

// MARK: - The default model, when installed: a Chinese question finds the English entry

do {
    let feed = try await HushStore.open(path: folder.appendingPathComponent("feed.hush").path)
    try await feed.upsert([
        Document(id: "sleep", body: "Lying awake replaying the day? Get up, dim the lights and write the worry down."),
        Document(id: "money", body: "Open all the bills at once with a cup of tea and list the totals."),
    ])
    let found = try await feed.search("失眠怎么办", mode: .semantic, limit: 1)
    check(found.hits.first?.id == "sleep", "\(feed.identity.model): 失眠怎么办 finds the sleep entry")
} catch let error as EmbeddingError {
    print("skip the default model is not installed here (\(error))")
}

print(failures == 0 ? "ClientApp: all checks passed" : "ClientApp: \(failures) check(s) failed")
// `exit` does not run the `defer` above: the stores are removed here.
try? FileManager.default.removeItem(at: folder)
exit(failures == 0 ? 0 : 1)
