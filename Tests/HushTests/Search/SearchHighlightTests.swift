import Foundation
import Testing

@testable import Hush

/// A hit marks the words its query matched, as the keyword index matched them, and shows the stretch of its
/// passage that holds them.
@Suite struct SearchHighlightTests {
    /// The marked stretches of `text`, as strings.
    static func marked(_ highlighter: KeywordHighlighter, _ text: String) -> [String] {
        highlighter.ranges(in: text).map { range in
            let units = Array(text.utf16)[range]
            return String(decoding: units, as: UTF16.self)
        }
    }

    @Test func wordsAreMarkedAsTheIndexMatchesThem() {
        let english = KeywordHighlighter(terms: ["running", "cafe", "budgets"])
        #expect(
            Self.marked(english, "I run to the Café after the budget run; runner's BUDGET")
                == ["run", "Café", "budget", "run", "BUDGET"])
        // Chinese: the stretches made of the query's letter pairs; a lone letter wherever it stands.
        #expect(Self.marked(KeywordHighlighter(terms: ["失眠"]), "最近总是失眠，失眠症又犯了") == ["失眠", "失眠"])
        #expect(Self.marked(KeywordHighlighter(terms: ["失眠症"]), "失眠症和失眠") == ["失眠症", "失眠"])
        #expect(Self.marked(KeywordHighlighter(terms: ["睡"]), "半夜醒来就睡不着") == ["睡"])
        // Thai letters keep their marks; Arabic is found without its optional vowels, shown with them.
        #expect(Self.marked(KeywordHighlighter(terms: ["กาแฟ"]), "ร้านกาแฟนี้") == ["กาแฟ"])
        #expect(Self.marked(KeywordHighlighter(terms: ["كتاب"]), "قرأت كِتَاب اليوم") == ["كِتَاب"])
        // An inflected Hindi word by its beginning; an emoji by itself; the word being typed as a prefix.
        #expect(Self.marked(KeywordHighlighter(terms: ["कम्प्यूटर"]), "मेरे कम्प्यूटरों में") == ["कम्प्यूटरों"])
        #expect(Self.marked(KeywordHighlighter(terms: ["😂"]), "that meeting 😂😂 honestly") == ["😂😂"])
        // A flag or a family is marked only whole, as the index matches it; a skin tone or joiner goes with it.
        #expect(Self.marked(KeywordHighlighter(terms: ["🇹🇭"]), "from 🇹🇷 to 🇹🇭, then 🇹🇷🇹🇭") == ["🇹🇭", "🇹🇭"])
        #expect(Self.marked(KeywordHighlighter(terms: ["👩‍👧"]), "us 👩‍👧 and 👩 alone, 👍🏽") == ["👩‍👧"])
        #expect(Self.marked(KeywordHighlighter(terms: ["👍"]), "great 👍🏽!") == ["👍🏽"])
        #expect(Self.marked(KeywordHighlighter(terms: [], typing: "insom"), "Insomnia again") == ["Insomnia"])
        #expect(KeywordHighlighter(terms: []).ranges(in: "anything").isEmpty)
    }

    static let note = """
        Standup: Apollo launch. The budget for Q1 is frozen until finance signs off, and nobody knows when that \
        will be. Raj is blocked on the App Store review and resubmitted on Friday afternoon. Mei will draft the \
        privacy notice before the launch. Action items: Anna emails finance; Raj resubmits; book the retro room.
        """

    @Test func aSnippetShowsTheSentenceThatHoldsTheQuerysWords() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert([
            Document(id: "standup", title: "Standup", body: Self.note),
            Document(id: "dentist", title: "Dentist", body: "Appointment moved to Thursday, Dr. Okafor."),
        ])
        let hit = try #require(try await store.search("privacy notice", mode: .keyword).hits.first)
        #expect(hit.id == "standup")
        let snippet = hit.snippet(maxLength: 80)
        #expect(snippet.text.count <= 80)
        #expect(snippet.text.hasPrefix("…Mei will draft the privacy notice"))
        #expect(snippet.text.hasSuffix("…"))
        #expect(snippet.highlights.map { String(snippet.text[$0]) } == ["privacy", "notice"])
        // In the hit's text, whatever the snippet shows.
        let units = Array(hit.text.utf16)
        #expect(hit.highlights.map { String(decoding: units[$0], as: UTF16.self) } == ["privacy", "notice"])

        // The stretch with the most different words wins over the first match.
        let both = try #require(try await store.search("finance retro", mode: .keyword).hits.first)
        let shown = both.snippet(maxLength: 60)
        #expect(Set(shown.highlights.map { String(shown.text[$0]).lowercased() }) == ["finance", "retro"])

        // A passage that fits is shown whole; a hit by meaning alone shows its passage's start.
        let dentist = try #require(try await store.search("Okafor", mode: .keyword).hits.first)
        #expect(dentist.snippet().text == "Appointment moved to Thursday, Dr. Okafor.")
        let semantic = try #require(try await store.search("zzz unrelated", mode: .semantic).hits.first)
        #expect(semantic.highlights.isEmpty)
        #expect(semantic.snippet(maxLength: 40).text.hasSuffix("…"))
        #expect(semantic.snippet(maxLength: 40).text.count <= 40)
    }

    @Test func wordsFoundOnlyInTheFieldsShowTheFields() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert([
            Document(
                id: "m1", title: "Launch review",
                body: "We reviewed the launch checklist. Marketing needs screenshots by Friday.",
                fields: [
                    .init(label: "Attendees", value: "Anna, Raj"), .init(label: "Decision", value: "Ship on the 14th"),
                ])
        ])
        let hit = try #require(try await store.search("ship decision", mode: .keyword).hits.first)
        let snippet = hit.snippet()
        #expect(snippet.text.hasSuffix("Decision: Ship on the 14th"))
        #expect(snippet.highlights.map { String(snippet.text[$0]) } == ["Decision", "Ship"])
        // Words in the passage keep the snippet to the passage.
        let checklist = try #require(try await store.search("checklist", mode: .keyword).hits.first).snippet()
        #expect(checklist.text == "We reviewed the launch checklist. Marketing needs screenshots by Friday.")
    }

    @Test func aChineseMatchNearTheEndStartsAtItsSentence() async throws {
        let post = """
            今天终于把拖了三个月的报告写完了。早上六点起床，先去公园跑了五公里，然后在咖啡店坐了一整天。中午吃了一碗牛肉面，\
            下午又改了两遍结论部分。晚上回家的路上下起了大雨，没带伞，全身湿透。不过心情很好，因为老板说这份报告是今年写得最好的\
            一份。明天打算休息一天，去看看外婆，她最近总是失眠，晚上睡不着，我想带她去看看医生。
            """
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert([Document(id: "zh", body: post)])
        let hit = try #require(try await store.search("失眠", mode: .keyword).hits.first)
        let snippet = hit.snippet(maxLength: 80)
        #expect(snippet.text.hasPrefix("…不过心情很好，"), "\(snippet.text)")
        #expect(snippet.text.hasSuffix("我想带她去看看医生。"))
        #expect(snippet.highlights.map { String(snippet.text[$0]) } == ["失眠"])
    }

    @Test func aHitEncodedBeforeHighlightsStillDecodes() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert([Document(id: "standup", body: Self.note)])
        let hit = try #require(try await store.search("retro room", mode: .keyword).hits.first)
        let data = try JSONEncoder().encode(hit)
        #expect(try JSONDecoder().decode(SearchHit.self, from: data) == hit)
        var older = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(older.removeValue(forKey: "highlights") != nil)
        let decoded = try JSONDecoder().decode(SearchHit.self, from: JSONSerialization.data(withJSONObject: older))
        #expect(decoded.highlights.isEmpty && decoded.id == hit.id && decoded.text == hit.text)
    }

    /// One JSON shape for a hit, the library's and `hush search --json`'s (docs/cli.md); a hit written before
    /// 0.3, in camel case with its explanation, still decodes.
    @Test func aHitHasOneJSONShapeAndOlderHitsDecode() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert([Document(id: "standup", body: Self.note, tags: ["team"])])
        let hit = try #require(try await store.search("retro room", explain: true).hits.first)
        let data = try JSONEncoder().encode(hit)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "id", "score", "title", "text", "chunk", "range", "passage_range", "highlights", "snippet",
                "language", "tags", "created", "relevance", "explain",
            ])
        #expect(object["snippet"] as? String == hit.snippet().text)
        let explain = try #require(object["explain"] as? [String: Any])
        #expect(explain["semantic_rank"] as? Int == 1 && explain["final_score"] != nil)
        let evidence = try #require(explain["evidence"] as? [String: Any])
        #expect(evidence["calibration"] as? String == hit.explanation?.calibration)
        #expect(try JSONDecoder().decode(SearchHit.self, from: data) == hit)

        let older = #"""
            {"id": "a", "score": 0.5, "text": "Book the retro room.", "chunkOrdinal": 2, "range": [0, 20],
             "passageRange": [0, 20], "sourceType": "note", "language": "en", "tags": ["team"],
             "createdAt": 0, "explanation": {"semanticRank": 3, "semanticScore": 0.25, "keywordRank": null,
             "evidence": {"cosine": 0.25, "standing": 1.5, "keyword": 0}, "calibration": "table",
             "baseScore": 0.5, "matchedTags": [], "tagBoost": 0, "categoryBoost": 0, "finalScore": 0.5}}
            """#
        let decoded = try JSONDecoder().decode(SearchHit.self, from: Data(older.utf8))
        #expect(decoded.chunkOrdinal == 2 && decoded.passageRange == 0..<20 && decoded.sourceType == "note")
        #expect(decoded.createdAt == Date(timeIntervalSinceReferenceDate: 0))
        #expect(decoded.explanation?.semanticRank == 3 && decoded.explanation?.calibration == "table")
        #expect(decoded.explanation?.evidence?.standing == 1.5 && decoded.explanation?.finalScore == 0.5)
    }

    @Test func aMatchNearTheEndShowsWhatComesBeforeIt() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert([Document(id: "standup", body: Self.note)])
        let hit = try #require(try await store.search("retro room", mode: .keyword).hits.first)
        let snippet = hit.snippet(maxLength: 100)
        #expect(snippet.text.hasSuffix("book the retro room."))
        #expect(snippet.text.count >= 80)
        #expect(snippet.text.hasPrefix("…"))
    }
}
