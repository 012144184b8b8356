import Foundation
import GRDB
import Testing

@testable import Hush

@Suite struct SearchKeywordTests {
    static let specialQueries: [String] = [
        "\"", "\"\"", "\"unbalanced", "AND", "OR", "NOT", "NEAR", "NEAR(budget travel, 2)", "budget AND",
        "OR travel", "NOT budget", "(", ")", "((budget)", "budget)", "*", "budget*", "*budget", "^", "^budget",
        ":", "title:budget", "text:budget", "-", "-budget", "+", "+budget", "budget -travel", "a + b", "{", "}",
        "[", "]", "'", "'; DROP TABLE chunks_fts; --", "\" OR 1=1 --", "budget\" OR \"x", "\\", "%", "_", "#",
        "@", "!", "?", "$", "&", "|", "~", "`", ",", ".", ";", "=", "<", ">", "/", "🙂", "🙂 budget", "Ωμέγα",
        "ça", "naïve café", "東京", "学", "\u{0}", "\t\n", "", "    ", "budget\u{0}travel", "0", "-1", "1e10",
        "NEAR/3", "budget NEAR/3 travel", "AND OR NOT", "\"budget\" AND \"travel\"", "col : value", "^\"x\"*",
    ]

    @Test(arguments: specialQueries)
    func anyUserStringIsAValidQuery(query: String) async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert(Corpus.documents)
        for mode in [SearchMode.keyword, .hybrid, .semantic] {
            _ = try await store.search(query, mode: mode, limit: 5)
        }
        if let expression = FTSQuery.expression(for: query) {
            // Every token is a quoted string (optionally a prefix), joined by OR: no operator reaches FTS5.
            for token in expression.text.components(separatedBy: " OR ") {
                #expect(token.hasPrefix("\""))
                #expect(token.hasSuffix("\"") || token.hasSuffix("\"*"))
            }
        }
        #expect(try await store.stats().documents == Corpus.documents.count)
    }

    @Test func operatorsAreMatchedAsPlainWords() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert([
            Document(id: "ops", body: "Boolean logic: AND, OR and NOT are operators; NEAR is a proximity word."),
            Document(id: "other", body: "Nothing about logic here, only gardening."),
        ])
        let hits = try await store.search("NOT", mode: .keyword).hits
        #expect(hits.map(\.id) == ["ops"])
        #expect(try await store.search("near", mode: .keyword).hits.map(\.id) == ["ops"])
        #expect(try await store.search("title:logic", mode: .keyword).hits.map(\.id).contains("ops"))
    }

    @Test func englishStemmingAndDiacritics() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert(Corpus.documents)
        // "runs" and "running" share the stem "run".
        #expect(try await store.search("running", mode: .keyword).hits.first?.id == "marathon")
        // "planted" → "plant".
        #expect(try await store.search("planted", mode: .keyword).hits.map(\.id) == ["garden"])
        // Diacritics are folded: "etalez", "pate" find "Étalez la pâte".
        #expect(try await store.search("etalez pate", mode: .keyword).hits.map(\.id) == ["recette"])
    }

    /// The ids of the documents a keyword search for `query` finds among `documents` (at most 5).
    static func keywordHits(_ query: String, in documents: [Document]) async throws -> Set<String> {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert(documents)
        return Set(try await store.search(query, mode: .keyword, limit: 5).hits.map(\.id))
    }

    /// Posts of a social feed in scripts that write vowels as marks (Devanagari, Tamil, Bengali), that write no
    /// spaces between words (Thai, Khmer, Myanmar), and Arabic with and without its short vowels. The index used
    /// to cut a word at each vowel sign ("खाना", food, became "ख" and "न", as did "खून", blood) and held a Thai
    /// line as a few long pieces, so "กาแฟ" (coffee) found nothing.
    static let feed: [Document] = [
        Document(id: "hi-food", body: "आज मैंने अपनी माँ के लिए खाना बनाया। बहुत मज़ा आया।", language: "hi"),
        Document(id: "hi-blood", body: "कल अस्पताल में खून की जाँच करवाई।", language: "hi"),
        Document(id: "ta-coffee", body: "நான் காலையில் காபி குடித்தேன்", language: "ta"),
        Document(id: "ta-milk", body: "குழந்தைக்கு பால் கொடுத்தேன்", language: "ta"),
        Document(id: "bn-rice", body: "আমি ভাত খেতে ভালোবাসি", language: "bn"),
        Document(id: "th-market", body: "วันนี้ไปเที่ยวตลาดนัดกลางคืนที่เชียงใหม่ อาหารอร่อยมาก", language: "th"),
        Document(id: "th-cafe", body: "ร้านกาแฟนี้บรรยากาศดีมาก เหมาะกับการทำงาน", language: "th"),
        Document(id: "km-coffee", body: "ខ្ញុំចូលចិត្តផឹកកាហ្វេនៅពេលព្រឹក", language: "km"),
        Document(id: "my-tea", body: "ကျွန်တော် လက်ဖက်ရည်ဆိုင်မှာ ထိုင်နေတယ်", language: "my"),
        Document(id: "ar-smile", body: "ابْتِسَامَةُ طِفْلٍ تُغَيِّرُ يَوْمِي", language: "ar"),
        Document(id: "ar-sea", body: "اليوم ذهبت إلى البحر مع عائلتي", language: "ar"),
        Document(id: "he-peace", body: "שָׁלוֹם לְכֻלָּם, בֹּקֶר טוֹב", language: "he"),
        Document(id: "hi-repair", body: "कल रात कम्प्यूटरों की मरम्मत हुई।", language: "hi"),
        Document(id: "hi-logic", body: "लॉजिकल ऑपरेटर का उपयोग करें", language: "hi"),
        Document(id: "ta-folders", body: "கோப்புறைகளையும் நகலெடுக்கலாம்", language: "ta"),
    ]

    @Test(arguments: [
        ("खाना", ["hi-food"]), ("खून", ["hi-blood"]), ("காபி", ["ta-coffee"]), ("பால்", ["ta-milk"]),
        ("ভাত", ["bn-rice"]), ("กาแฟ", ["th-cafe"]), ("ตลาด", ["th-market"]), ("ร้านกาแฟ", ["th-cafe"]),
        ("บรรยากาศ", ["th-cafe"]), ("กาแฟ ตลาด", ["th-cafe", "th-market"]), ("កាហ្វេ", ["km-coffee"]),
        ("လက်ဖက်ရည်", ["my-tea"]), ("ابتسامة", ["ar-smile"]), ("ابْتِسَامَة", ["ar-smile"]), ("البحر", ["ar-sea"]),
        ("שלום", ["he-peace"]), ("कम्प्यूटर", ["hi-repair"]), ("ऑपरेटर्स", ["hi-logic"]),
        ("கோப்புறைகளை", ["ta-folders"]),
    ])
    func wordsOfEveryScriptAreFoundWhole(query: String, expected: [String]) async throws {
        #expect(try await Self.keywordHits(query, in: Self.feed) == Set(expected))
    }

    /// Posts say things with emoji; keyword search (the only search without a model) finds them by the emoji, as
    /// written or with another variation selector or skin tone, a flag by both its letters, a family by all its
    /// members, and a symbol stuck to a word leaves the word findable.
    @Test(arguments: [
        ("😂", ["laugh"]), ("☕", ["coffee", "cafe"]), ("☕️", ["coffee", "cafe"]), ("🇹🇭", ["thai"]),
        ("🇹🇷", ["turkey"]), ("👍", ["thumbs"]), ("👍🏽", ["thumbs"]), ("👩‍👩‍👧", ["family"]), ("morning", ["coffee"]),
        ("°", ["weather"]), ("21", ["weather"]),
    ])
    func emojiAndSymbolsAreWordsOfTheirOwn(query: String, expected: [String]) async throws {
        let posts = [
            Document(id: "laugh", body: "My dog ate my new shoes 😂😂"),
            Document(id: "coffee", body: "Morning☕️ before the standup"),
            Document(id: "cafe", body: "Working from the café again ☕ thanks for the tip"),
            Document(id: "thai", body: "Finally in Chiang Mai 🇹🇭 #travel"),
            Document(id: "turkey", body: "Istanbul at night 🇹🇷"),
            Document(id: "thumbs", body: "Shipped it 👍🏾"),
            Document(id: "family", body: "Sunday lunch 👩‍👩‍👧 at grandma's"),
            Document(id: "weather", body: "21°C and sunny"),
        ]
        #expect(try await Self.keywordHits(query, in: posts) == Set(expected))
    }

    @Test func moreMatchedTermsRankHigher() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert([
            Document(id: "both", body: "The disk filled up and the database stopped accepting writes."),
            Document(id: "disk", body: "A new disk arrived for the backup server."),
            Document(id: "db", body: "The database schema gained a column."),
        ])
        let hits = try await store.search("database disk", mode: .keyword).hits
        #expect(hits.first?.id == "both")
        #expect(Set(hits.map(\.id)) == ["both", "disk", "db"])
    }

    @Test func cjkSegmentationMakesSubstringsSearchable() async throws {
        #expect(KeywordText.segment("東京大学") == " 東京 京大 大学 学 ")
        #expect(KeywordText.segment("Tokyo東京") == "Tokyo 東京 京 ")
        #expect(FTSQuery.tokens("東京大学") == ["\"東京 京大 大学\"", "\"東京\"", "\"京大\"", "\"大学\""])
        #expect(FTSQuery.tokens("学") == ["\"学\"*"])
        #expect(FTSQuery.tokens("Tokyo東京") == ["\"Tokyo 東京\"", "\"Tokyo\"", "\"東京\""])
        #expect(FTSQuery.tokens("disk") == ["\"disk\""])
        #expect(FTSQuery.expression(for: "東京大学", requireAll: true)?.text == "\"東京 京大 大学\"")
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert(Corpus.documents)
        for query in ["東京", "大学", "東京大学", "ラーメン", "京都", "新幹線", "旅行", "明日"] {
            let hits = try await store.search(query, mode: .keyword).hits
            #expect(hits.first?.id == "tokyo", "query \(query)")
        }
        #expect(try await store.search("大阪", mode: .keyword).hits.isEmpty)
    }

    /// A CJK query run matches its bigrams one by one, so a page with the same words in another order, or
    /// with other words between them, is found; the page with the whole run ranks first.
    @Test func cjkQueryWordsMatchInAnyOrder() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert([
            Document(id: "exact", body: "cp 命令用于复制文件和目录。"),
            Document(id: "reordered", body: "把目录和其中的文件复制到另一个位置。"),
            Document(id: "apart", body: "复制之前，请先检查文件的权限。"),
            Document(id: "unrelated", body: "今天的天气很好，我们去公园散步。"),
        ])
        let hits = try await store.search("复制文件和目录", mode: .keyword).hits
        #expect(hits.first?.id == "exact")
        #expect(Set(hits.map(\.id)) == ["exact", "reordered", "apart"])
        let japanese = try await store.search("ファイルのコピー", mode: .keyword).hits
        #expect(japanese.isEmpty)
    }

    /// The comparison behind the CJK design: the same Japanese and Chinese texts, queried through a trigram
    /// table and through the bigram-segmented porter table. Two-character words, the most common length in
    /// Chinese and Japanese, never match under trigram; bigrams find all of them and keep English stemming.
    @Test func bigramSegmentationBeatsTrigramOnCJKQueries() throws {
        let texts = [
            "東京大学の近くで美味しいラーメンを食べた。", "明日は京都へ新幹線で行く予定です。",
            "我们明天在北京开会讨论预算。", "这家餐厅的饺子非常好吃。", "서울에서 회의가 있습니다.",
        ]
        let queries: [(String, Int)] = [
            ("東京", 0), ("大学", 0), ("ラーメン", 0), ("京都", 1), ("新幹線", 1), ("北京", 2), ("预算", 2),
            ("饺子", 3), ("餐厅", 3), ("서울", 4), ("회의", 4), ("開会", -1),
        ]
        let queue = try DatabaseQueue()
        let (trigramRecall, bigramRecall) = try queue.write { db -> (Int, Int) in
            try db.execute(sql: "CREATE VIRTUAL TABLE tri USING fts5(text, tokenize = 'trigram')")
            try db.execute(
                sql: "CREATE VIRTUAL TABLE bi USING fts5(text, tokenize = 'porter unicode61 remove_diacritics 2')")
            for (index, text) in texts.enumerated() {
                try db.execute(sql: "INSERT INTO tri (rowid, text) VALUES (?, ?)", arguments: [index, text])
                try db.execute(
                    sql: "INSERT INTO bi (rowid, text) VALUES (?, ?)", arguments: [index, KeywordText.segment(text)])
            }
            var trigram = 0
            var bigram = 0
            for (query, expected) in queries {
                let tri = try Int.fetchAll(
                    db, sql: "SELECT rowid FROM tri WHERE tri MATCH ?", arguments: [FTSQuery.quote(query)])
                let bi = try Int.fetchAll(
                    db, sql: "SELECT rowid FROM bi WHERE bi MATCH ?",
                    arguments: [FTSQuery.expression(for: query)?.text ?? "\"\""])
                if expected < 0 {
                    #expect(tri.isEmpty && bi.isEmpty)
                    continue
                }
                if tri == [expected] { trigram += 1 }
                if bi == [expected] { bigram += 1 }
            }
            return (trigram, bigram)
        }
        #expect(bigramRecall == 11)  // every positive query
        #expect(trigramRecall == 2)  // only ラーメン and 新幹線 (three characters or more)
    }
}

/// A token in at least half of the indexed chunks has no weight in FTS5's bm25: the keyword read leaves its rows
/// out while the other tokens fill the request, and the rows and scores are those of the whole expression.
@Suite struct KeywordCommonTokenTests {
    static let notes = [
        "The garden needs water before the heat of the afternoon.",
        "Planted the tomatoes in the garden beds by the fence.",
        "The meeting moved to Thursday because of the holiday.",
        "Read the chapter on sleep and the body clock.",
        "The train was late again, so the call started without me.",
        "Bought seeds for the herb garden and a new watering can.",
        "Called the dentist about the appointment next week.",
        "The tomatoes are ripening; picked the first ones today.",
        "Walked the dog along the river before work.",
        "Finished the budget review with the finance team.",
        "Insomnia again: awake at three, reading until dawn.",
        "Garden tomatoes with basil and olive oil for dinner.",
    ]

    static func store() async throws -> HushStore {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert(notes.enumerated().map { Document(id: "note-\($0)", body: $1) })
        return store
    }

    @Test func aTokenInHalfTheChunksIsLeftOutAndTheRanksStayTheSame() async throws {
        let store = try await Self.store()
        let expression = try #require(FTSQuery.expression(for: "the garden tomatoes"))
        #expect(expression.orTokens == ["\"the\"", "\"garden\"", "\"tomatoes\""])
        try store.database.readKeywordIndex { reader in
            #expect(try reader.indexedRows() == Self.notes.count)
            #expect(try reader.isUninformative("\"the\""))
            #expect(try !reader.isUninformative("\"garden\""))
            #expect(try !reader.isUninformative("\"tomatoes\""))
            // Three rows asked: the garden and tomato notes fill them, read without "the".
            let pruned = try reader.rows(expression, limit: 3)
            let whole = try reader.rows(expression.text, limit: 3)
            #expect(pruned.rows.map(\.chunkID) == whole.rows.map(\.chunkID))
            for (a, b) in zip(pruned.rows, whole.rows) { #expect(abs(a.score - b.score) < 1e-4) }
            // Ten asked: the five garden or tomato notes run out, so the rows with only "the" follow them.
            let all = try reader.rows(expression, limit: 10)
            #expect(try all.rows == reader.rows(expression.text, limit: 10).rows)
            #expect(all.rows.count == 10)
        }
        // Through a search: the same hits as the expression read whole.
        let hits = try await store.search("the garden tomatoes", mode: .keyword, limit: 3).hits.map(\.id)
        #expect(Set(hits).isSubset(of: ["note-0", "note-1", "note-5", "note-7", "note-11"]))
        #expect(hits.count == 3)
    }

    /// A query of common words only keeps them all (leaving every token out would find nothing).
    @Test func aQueryOfCommonWordsOnlyIsReadWhole() async throws {
        let store = try await Self.store()
        let expression = try #require(FTSQuery.expression(for: "the"))
        let (read, whole) = try store.database.readKeywordIndex { reader in
            (try reader.rows(expression, limit: 5).rows, try reader.rows(expression.text, limit: 5).rows)
        }
        #expect(read == whole)
        #expect(try await store.search("the", mode: .keyword, limit: 5).hits.count == 5)
    }
}
