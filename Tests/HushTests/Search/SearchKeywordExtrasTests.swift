import Foundation
import GRDB
import HushEmbedding
import HushTestSupport
import Testing

@testable import Hush

/// Everything a person wrote can be found by keyword: tags, category, @mentions and links ([scores] #17 items 3
/// and 4).
@Suite struct SearchKeywordExtrasTests {
    static let journal = [
        Document(
            id: "exam", title: "Exam in two weeks", body: "Could not stop thinking about the exam; slept badly again.",
            tags: ["exam", "stress"]),
        Document(
            id: "night", title: "Awake at 3am", body: "Lay awake for hours listening to the rain.",
            tags: ["insomnia"], category: "health"),
        Document(
            id: "walk", title: "Evening walk", body: "A long walk by the river before dinner.", tags: ["outdoors"]),
    ]

    static let posts = [
        Document(
            id: "run", body: "Ran 10k this morning with @alice_runs, new best! https://www.strava.com/activities/42",
            sourceType: "post"),
        Document(id: "reply", body: "@bob_k thanks, see you at the track on Sunday", sourceType: "post"),
        Document(id: "cake", body: "Baked a lemon cake for the neighbours.", sourceType: "post"),
    ]

    /// What a search and a summary show is what the person wrote: the model reads links and @mentions as
    /// `[link]` and `@user`, but a hit's text and passage, and a summary's sentences, give them as written, in
    /// the body, the quote, the title and the fields, and whichever chunk of a long post the hit is.
    @Test func hitsAndSummariesShowLinksAndMentionsAsWritten() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        let filler = (1...40).map { "Sentence \($0) about the long ride along the coast road." }
        try await store.upsert(
            Self.posts + [
                Document(
                    id: "long", title: "Ride with @carol_rides https://ridewithgps.com/routes/7",
                    body: filler.joined(separator: " ")
                        + " Thanks @dave_k for the tandem, photos on https://photos.example.com/ride.",
                    quoted: "Best day @erin!",
                    fields: [
                        .init(label: "Route", value: "github.com/rides/coast @frank"),
                        .init(label: "Lead", value: "@gina"),
                        .init(label: "Sweep", value: "@hal"),
                    ])
            ])
        let run = try #require(try await store.search("strava morning", mode: .keyword).hits.first { $0.id == "run" })
        #expect(run.passage == "Ran 10k this morning with @alice_runs, new best! https://www.strava.com/activities/42")
        #expect(run.text == run.passage)

        let hits = try await store.search("tandem photos", mode: .keyword, limit: 1).hits
        let last = try #require(hits.first)
        #expect(last.id == "long" && last.chunkOrdinal > 0)
        #expect(last.passage.contains("Thanks @dave_k for the tandem, photos on https://photos.example.com/ride."))
        #expect(last.passage.contains("Quoted: Best day @erin!"))
        // Each field's own mention, though all three were cleaned to `@user` (each field is a chunk of its own,
        // under the title as written).
        for (query, label, line) in [
            ("route", "Route", "Route: github.com/rides/coast @frank"), ("lead", "Lead", "Lead: @gina"),
            ("sweep", "Sweep", "Sweep: @hal"),
        ] {
            let fieldHit = try #require(try await store.search(query, mode: .keyword, limit: 1).hits.first)
            #expect(fieldHit.field == label && fieldHit.passage == line, "\(fieldHit.text)")
            #expect(fieldHit.text.hasPrefix("Ride with @carol_rides https://ridewithgps.com/routes/7 ("))
            #expect(fieldHit.snippet().text == line)
        }
        for hit in try await store.search("ride coast sentence", mode: .keyword, limit: 10).hits {
            #expect(!hit.text.contains("[link]") && !hit.text.contains("@user"))
            let units = Array(hit.text.utf16)
            #expect(String(decoding: units[hit.passageRange], as: UTF16.self) == hit.passage)
        }
        let first = try #require(
            try await store.search("sentence 1 about", mode: .keyword, limit: 3).hits.first { $0.chunkOrdinal == 0 })
        #expect(first.text.hasPrefix("Ride with @carol_rides https://ridewithgps.com/routes/7\n\nSentence 1 about"))
        #expect(first.passage.hasPrefix("Sentence 1 about"))

        let summary = try await store.summarize(ids: ["run", "reply"], sentences: 3)
        #expect(summary.sentences.map(\.text).contains("@bob_k thanks, see you at the track on Sunday"))
        #expect(summary.text.contains("@alice_runs") && summary.text.contains("https://www.strava.com/activities/42"))
        let fields = try await store.summarize(ids: ["long"], sentences: 50)
        #expect(fields.sentences.map(\.text).contains("Route: github.com/rides/coast @frank"))
        #expect(!fields.text.contains("[link]") && !fields.text.contains("@user"))
    }

    /// A phrase in quotes ranks the entries that say it as written above those that only hold its words; its
    /// stop words count inside the quotes.
    @Test func aQuotedPhraseRanksTheEntryThatSaysItFirst() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert([
            Document(
                id: "phrase",
                body: "Since the storm last spring I have been afraid of flying, and I cancelled the trip to Lisbon."),
            Document(id: "fish", body: "Flying fish jumped next to the ferry. I was not afraid."),
            Document(id: "heights", body: "Afraid of heights, not of flying."),
            Document(id: "shoes", body: "Bought new running shoes."),
            Document(id: "dinner", body: "Dinner with Ana and Bo; we talked about the garden."),
            Document(id: "river", body: "Long walk by the river; the ducks were loud."),
        ])
        let words = try await store.search("afraid of flying", mode: .keyword, boosts: .none)
        #expect(words.hits.first?.id != "phrase", "\(words.hits.map(\.id))")
        for query in [#""afraid of flying""#, "\u{201C}afraid of flying\u{201D} again"] {
            let quoted = try await store.search(query, mode: .keyword, boosts: .none)
            #expect(quoted.hits.first?.id == "phrase", "\(query): \(quoted.hits.map(\.id))")
            #expect(Set(quoted.hits.map(\.id)) == ["phrase", "fish", "heights"])
        }
        #expect(FTSQuery.quotedPhrases(#"a "one" b "fear of flying" "unclosed"#) == [#""fear of flying""#])
        #expect(FTSQuery.quotedPhrases(#""失眠 怎么办""#).isEmpty)
    }

    /// A word or a quoted phrase after a minus leaves out the documents that hold it, in every mode; a minus
    /// inside a word is text.
    @Test func aMinusLeavesOutTheEntriesThatHoldTheWord() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert([
            Document(id: "phrase", body: "Since the storm I have been afraid of flying; I cancelled the trip."),
            Document(id: "fish", body: "Flying fish jumped next to the ferry. I was not afraid."),
            Document(id: "kite", body: "The kids were flying a kite on the beach; the fish market was closed."),
            Document(id: "heights", body: "Afraid of heights, not of flying.", tags: ["fear"]),
            Document(id: "email", body: "Sent the e-mail about flying to Lisbon."),
        ])
        for mode in [SearchMode.keyword, .semantic, .hybrid] {
            let all = try await store.search("flying", mode: mode, limit: 10)
            #expect(Set(all.hits.map(\.id)).isSuperset(of: ["fish", "kite"]), "\(mode)")
            let without = try await store.search("flying -fish", mode: mode, limit: 10)
            #expect(!without.hits.contains { ["fish", "kite"].contains($0.id) }, "\(mode): \(without.hits.map(\.id))")
            #expect(without.hits.contains { $0.id == "phrase" }, "\(mode)")
            let phrase = try await store.search(#"flying -"flying fish""#, mode: mode, limit: 10)
            #expect(!phrase.hits.contains { $0.id == "fish" } && phrase.hits.contains { $0.id == "kite" }, "\(mode)")
            let filtered = try await store.search(
                "flying -fish", mode: mode, filter: SearchFilter(tagsAny: ["fear"]), limit: 10)
            #expect(filtered.hits.map(\.id) == ["heights"], "\(mode)")
        }
        #expect(FTSQuery.exclusion("e-mail about covid-19 - me").excluded == nil)
        #expect(FTSQuery.exclusion("git commit --amend at -5 degrees").excluded == nil)
        #expect(FTSQuery.exclusion("flying -fish -Fish").kept == "flying  ")
        #expect(FTSQuery.exclusion("flying -fish -Fish").excluded?.text == #""fish""#)
        #expect(FTSQuery.exclusion("睡眠 -失眠").excluded?.text == #""失眠""#)
    }

    @Test func tagsAndCategoriesAreSearchableByKeyword() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert(Self.journal)
        let byTag = try await store.search("insomnia", mode: .keyword, boosts: .none)
        #expect(byTag.hits.map(\.id) == ["night"])
        let hybrid = try await store.search("insomnia", boosts: .none)
        #expect(hybrid.hits.first?.id == "night")
        let byCategory = try await store.search("health", mode: .keyword, boosts: .none)
        #expect(byCategory.hits.map(\.id) == ["night"])
    }

    @Test func mentionsAndLinksAreSearchableAsWritten() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert(Self.posts)
        let handle = try await store.search("@alice_runs", mode: .keyword, boosts: .none)
        #expect(handle.hits.map(\.id) == ["run"])
        let hybridHandle = try await store.search("@alice_runs", boosts: .none)
        #expect(hybridHandle.hits.first?.id == "run")
        let site = try await store.search("strava", mode: .keyword, boosts: .none)
        #expect(site.hits.map(\.id) == ["run"])
        let path = try await store.search("activities", mode: .keyword, boosts: .none)
        #expect(path.hits.map(\.id) == ["run"])
        // The model embedded `@user` and `[link]`; the hit shows what was written.
        #expect(
            handle.hits.first?.text
                == "Ran 10k this morning with @alice_runs, new best! https://www.strava.com/activities/42")
    }

    /// A note's front matter and a spreadsheet's other columns are kept as metadata; their values are found by
    /// keyword like tags (the model does not read them), and a change of metadata alone changes what is found.
    @Test func metadataValuesAreFoundByKeyword() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        var trip = Document(
            id: "trip", body: "Packed the night before; the flight left at six.",
            metadata: ["location": "Lisbon", "mood": "anxious", "companions": "Ana, Bo"])
        try await store.upsert(Self.journal + [trip])
        #expect(try await store.search("lisbon", mode: .keyword).hits.map(\.id) == ["trip"])
        #expect(try await store.search("anxious", mode: .keyword).hits.map(\.id) == ["trip"])
        #expect(try await store.search("Bo", mode: .keyword).hits.map(\.id) == ["trip"])
        #expect(try await store.search("location", mode: .keyword).hits.isEmpty)
        trip.metadata["location"] = "Porto"
        #expect(try await store.upsert([trip]).metadataOnly == 1)
        #expect(try await store.search("lisbon", mode: .keyword).hits.isEmpty)
        #expect(try await store.search("porto", mode: .keyword).hits.map(\.id) == ["trip"])
    }

    @Test func changingOnlyTheTagsChangesWhatKeywordsFind() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert(Self.journal)
        var retagged = Self.journal[2]
        retagged.tags = ["insomnia"]
        let summary = try await store.upsert([retagged])
        #expect(summary.updated == 1)
        let found = try await store.search("insomnia", mode: .keyword, boosts: .none)
        #expect(Set(found.hits.map(\.id)) == ["night", "walk"])
        let old = try await store.search("outdoors", mode: .keyword, boosts: .none)
        #expect(old.hits.isEmpty)
    }

    @Test func cleaningOptionsComeFromStoreOptions() async throws {
        let store = try await HushStore.inMemory(
            embedder: HashingEmbedder(), options: StoreOptions(cleaner: TextCleaner(replaceURLs: false)))
        try await store.upsert(Self.posts)
        let hit = try #require(try await store.search("strava", mode: .keyword).hits.first)
        // The chunk was cut from the body with its link kept and its mention replaced: its range is that text's.
        let cut = TextCleaner(replaceURLs: false).clean(Self.posts[0].body)
        #expect(cut.contains("https://www.strava.com/activities/42") && cut.contains("@user"))
        #expect(hit.range == 0..<cut.utf16.count)
        #expect(hit.text == Self.posts[0].body)
        #expect(
            TextCleaner().replacedSpans(in: "Ran with @alice_runs (https://strava.com/a/1).")
                == ["@alice_runs", "https://strava.com/a/1"])
    }

    /// A file written before extras existed (no marker), or before they held the metadata's values (marker
    /// "1"), gets them on its first writable open, and stays as it is read-only.
    @Test(arguments: [nil, "1"] as [String?])
    func anOlderFileIsUpgradedOnItsFirstWritableOpen(marker: String?) async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("old.hush")
        let trip = Document(id: "trip", body: "The flight left at six.", metadata: ["location": "Lisbon"])
        do {
            let store = try await HushStore.open(path: path, embedder: HashingEmbedder())
            try await store.upsert(Self.journal + [trip])
        }
        // Make it look like an older file: cleaned text only.
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(
                sql: "UPDATE chunks_fts SET text = (SELECT text FROM chunks WHERE chunks.id = chunks_fts.rowid)")
            try StoreSchema.setMeta(db, StoreSchema.Key.keywordExtras, marker)
        }
        try queue.close()
        let readOnly = try await HushStore.open(path: path, embedder: HashingEmbedder(), readOnly: true)
        #expect(try await readOnly.search("insomnia", mode: SearchMode.keyword).hits.isEmpty)
        #expect(try await readOnly.search("lisbon", mode: SearchMode.keyword).hits.isEmpty)
        let writable = try await HushStore.open(path: path, embedder: HashingEmbedder())
        #expect(try await writable.search("insomnia", mode: SearchMode.keyword).hits.map(\.id) == ["night"])
        #expect(try await writable.search("lisbon", mode: SearchMode.keyword).hits.map(\.id) == ["trip"])
    }
}

/// `SearchHit.range` says where the passage lies in the document's body, `passageRange` where it lies in
/// `hit.text`, which also holds the title and the fields ([scores] #17 item 6).
@Suite struct SearchHitRangeTests {
    @Test func rangeAndPassageRangeAgreeWithTheBodyAndTheText() async throws {
        let meeting = Document(
            id: "standup", title: "Weekly standup",
            body: "We  shipped the importer.\n\n\nNext: the exporter, see https://example.com/plan",
            fields: [
                .init(label: "Outcomes", value: "Importer released to beta users"),
                .init(label: "Action items", value: "Ana writes the exporter spec"),
            ], sourceType: "meeting")
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert([meeting, Corpus.documents[0]])
        let hit = try #require(try await store.search("importer exporter", limit: 1).hits.first)
        #expect(hit.id == "standup")
        let cleaned = TextCleaner().clean(meeting)
        let shown = TextCleaner(replaceURLs: false, replaceMentions: false).clean(meeting)
        let text = Array(hit.text.utf16)
        // `range` is the passage's place in the cleaned body (the link as `[link]`); the text shows the link.
        #expect(hit.range == 0..<cleaned.utf16.count)
        #expect(text[hit.passageRange].elementsEqual(shown.utf16))
        // The text holds more than the passage: the title before it. The fields are chunks of their own.
        #expect(hit.text == "Weekly standup\n\n" + shown)
        #expect(hit.field == nil)
        #expect(hit.passageRange.lowerBound == "Weekly standup\n\n".utf16.count)
        #expect(hit.passageRange.upperBound == text.count)
        let spec = try #require(try await store.search("spec", mode: .keyword, limit: 1).hits.first)
        #expect(spec.id == "standup" && spec.field == "Action items" && spec.range.isEmpty)
        #expect(spec.passage == "Action items: Ana writes the exporter spec")
        #expect(spec.text.hasPrefix("Weekly standup (") && spec.text.hasSuffix("\n\n" + spec.passage))
        // `passage` is that part of the text: what to show under the title, neither repeated.
        #expect(hit.passage == shown)
        #expect(hit.passage.hasSuffix("see https://example.com/plan"))
        #expect(!hit.passage.contains("Weekly standup"))
    }

    /// Every chunk of the samples stores where its passage starts, and it is where comparing the text with the
    /// cleaned body finds it (what a search did before schema version 4, and still does for older files).
    @Test func theStoredPassageStartIsWhereTheCleanedBodySaysItIs() async throws {
        var documents: [Document] = []
        _ = try DocumentReader().read([Repository.samples]) { documents += $0 }
        #expect(documents.count > 20)
        let folder = try TemporaryDirectory()
        let path = folder.path("samples.hush")
        do {
            let store = try await HushStore.open(
                path: path, embedder: HashingEmbedder(), options: StoreOptions(chunkTokens: 48, chunkOverlapTokens: 8))
            try await store.upsert(documents)
        }
        let byID = Dictionary(documents.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let queue = try DatabaseQueue(path: path)
        let rows = try queue.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT d.external_id, c.ordinal, c.text, c.range_start, c.range_end, c.passage_start
                    FROM chunks c JOIN documents d ON d.id = c.document_id
                    """)
        }
        var titled = 0
        for row in rows {
            let id: String = row[0]
            let ordinal: Int = row[1]
            let text: String = row[2]
            let range = (row[3] as Int)..<(row[4] as Int)
            let start: Int? = row[5]
            let stored = try #require(start, "\(id) #\(ordinal) has no passage start")
            guard !range.isEmpty, let document = byID[id] else { continue }
            let found = TextChunk.passageRange(text: text, range: range, cleanedBody: TextCleaner().clean(document))
            #expect(stored == found.lowerBound, "\(id) #\(ordinal)")
            #expect(found.count == range.count, "\(id) #\(ordinal)")
            if stored > 0 { titled += 1 }
        }
        #expect(titled > 0, "some first chunks start with their title")
    }

    /// A file written before schema version 4 has no stored passage starts: a read-only open finds them by
    /// comparison, a writable open upgrades the file and new chunks store theirs.
    @Test func aFileFromBeforeSchemaFourStillGivesPassageRanges() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("v3.hush")
        let meeting = Document(
            id: "standup", title: "Weekly standup", body: "We  shipped the importer.\n\nNext: the exporter.",
            fields: [.init(label: "Outcomes", value: "Importer released")])
        do {
            let store = try await HushStore.open(path: path, embedder: HashingEmbedder())
            try await store.upsert([meeting, Corpus.documents[0]])
        }
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(
                sql: """
                    ALTER TABLE chunks DROP COLUMN passage_start;
                    ALTER TABLE chunks DROP COLUMN field;
                    DROP INDEX documents_listing;
                    DELETE FROM grdb_migrations WHERE identifier IN ('v4', 'v5', 'v6', 'v7');
                    UPDATE meta SET value = '3' WHERE key = 'schema_version';
                    """)
        }
        try queue.close()
        let expected =
            "Weekly standup\n\n".utf16
            .count..<("Weekly standup\n\n".utf16.count
            + TextCleaner().clean(meeting).utf16.count)

        let shipped = try await HushStore.open(path: path, embedder: HashingEmbedder(), readOnly: true)
        let old = try #require(try await shipped.search("importer exporter", limit: 1).hits.first)
        #expect(old.id == "standup" && old.passageRange == expected)

        let upgraded = try await HushStore.open(path: path, embedder: HashingEmbedder())
        let after = try #require(try await upgraded.search("importer exporter", limit: 1).hits.first)
        #expect(after.passageRange == expected)
        try await upgraded.upsert([Document(id: "retro", title: "Retro", body: "The exporter slipped a week.")])
        let retro = try #require(try await upgraded.search("slipped", mode: .keyword, limit: 1).hits.first)
        #expect(retro.id == "retro" && retro.passageRange.lowerBound == "Retro\n\n".utf16.count)
        let starts = try await DatabaseQueue(path: path).read { db in
            try Int?.fetchAll(db, sql: "SELECT passage_start FROM chunks ORDER BY id")
        }
        // The meeting's body and its Outcomes field, the other document, then the retro.
        #expect(starts.count == 4 && starts.prefix(3).allSatisfy { $0 == nil })
        #expect(starts.last == "Retro\n\n".utf16.count)
    }

    @Test func aChunkWithoutTitleStartsItsPassageAtZero() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert([Document(id: "n", body: "Buy oat milk and coffee beans.")])
        let hit = try #require(try await store.search("coffee", limit: 1).hits.first)
        #expect(hit.passageRange == 0..<hit.text.utf16.count)
        #expect(hit.range == hit.passageRange)
    }
}

/// Summaries read a record's labelled fields and return as many sentences as asked when the documents hold
/// them ([scores] #17 item 5).
@Suite struct SummaryFieldsTests {
    static let meeting = Document(
        id: "m-launch", title: "Launch review",
        body:
            "We reviewed the launch checklist with the whole team. Marketing needs the final screenshots by Thursday.",
        fields: [
            .init(label: "Outcomes", value: "Launch moved to the 14th. The beta stays open until then."),
            .init(label: "Action items", value: "Ana sends the screenshots; Bo updates the release notes."),
        ], sourceType: "meeting")

    @Test func fieldsAreSummarisedWithTheirLabels() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert([Self.meeting])
        let summary = try await store.summarize(ids: ["m-launch"], sentences: 5)
        #expect(summary.sentences.count == 5)
        let texts = summary.sentences.map(\.text)
        #expect(texts.contains("Outcomes: Launch moved to the 14th."))
        #expect(texts.contains("Action items: Ana sends the screenshots; Bo updates the release notes."))
        #expect(summary.sentences.map(\.position) == [0, 1, 2, 3, 4])  // original order: body, then fields
        let three = try await store.summarize(ids: ["m-launch"], sentences: 3)
        #expect(three.sentences.count == 3)
    }

    @Test func shortSentencesCountWhenThereAreNoOthers() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert([
            Document(id: "n", body: "Budget approved. Ship it. We meet on Friday to plan the launch.")
        ])
        let summary = try await store.summarize(ids: ["n"], sentences: 3)
        #expect(
            summary.sentences.map(\.text) == ["Budget approved.", "Ship it.", "We meet on Friday to plan the launch."])
        let one = try await store.summarize(ids: ["n"], sentences: 1)
        #expect(one.sentences.map(\.text) == ["We meet on Friday to plan the launch."])
    }
}
