import Foundation
import HushEmbedding
import Testing

@testable import Hush

@Suite struct TextLanguageIdentifierTests {
    @Test func latinSentencesAreIdentifiedWithAtLeastNinetyPercentAccuracyPerLanguage() {
        let identifier = LanguageIdentifier()
        var report: [String] = []
        for (language, sentences) in TextLanguageSamples.latin.sorted(by: { $0.key < $1.key }) {
            var correct = 0
            for sentence in sentences {
                #expect(sentence.split(separator: " ").count >= 8, "sample too short: \(sentence)")
                let found = identifier.identify(sentence)
                if found == language {
                    correct += 1
                } else {
                    report.append("\(language) -> \(found): \(sentence)")
                }
            }
            let accuracy = Double(correct) / Double(sentences.count)
            #expect(accuracy >= 0.9, "\(language): \(correct)/\(sentences.count)")
        }
        print("language misses:", report.isEmpty ? "none" : report.joined(separator: "\n"))
    }

    @Test func portableIdentifierMeetsTheSameBarOnEveryPlatform() {
        let identifier = LanguageIdentifier()
        var total = 0
        var correct = 0
        for (language, sentences) in TextLanguageSamples.latin {
            for sentence in sentences {
                total += 1
                if identifier.identifyByScript(sentence) == language { correct += 1 }
            }
        }
        #expect(Double(correct) / Double(total) >= 0.95, "\(correct)/\(total)")
    }

    @Test func heldOutSentencesAreIdentified() {
        let identifier = LanguageIdentifier()
        var misses: [String] = []
        var total = 0
        for (language, sentences) in TextLanguageSamples.heldOut {
            for sentence in sentences {
                total += 1
                let found = identifier.identifyByScript(sentence)
                if found != language { misses.append("\(language) -> \(found ?? "nil"): \(sentence)") }
            }
        }
        print("held-out: \(total - misses.count)/\(total)", misses)
        #expect(Double(total - misses.count) / Double(total) >= 0.9, "\(misses)")
    }

    @Test func shortFragmentsOfFiveWordsAreMostlyRight() {
        let identifier = LanguageIdentifier()
        var total = 0
        var correct = 0
        for (language, sentences) in TextLanguageSamples.latin {
            for sentence in sentences {
                let fragment = sentence.split(separator: " ").prefix(5).joined(separator: " ")
                total += 1
                if identifier.identifyByScript(fragment) == language { correct += 1 }
            }
        }
        print("five-word fragments: \(correct)/\(total)")
        #expect(Double(correct) / Double(total) >= 0.8, "\(correct)/\(total)")
    }

    /// Feeds in many languages: the portable identifier also names Polish, Czech, Slovak, Croatian, Hungarian,
    /// Danish, Norwegian, Swedish, Finnish, Turkish, Romanian, Catalan, Indonesian and Vietnamese, which it
    /// used to file under the seven it knew (Polish as Portuguese or Italian, Danish as English, Finnish and
    /// Swedish as German), and the first seven keep their samples.
    @Test func latinLanguagesOfFeedsInManyLanguagesAreNamed() {
        let identifier = LanguageIdentifier()
        var misses: [String] = []
        for (language, sentences) in TextLanguageSamples.moreLatin.sorted(by: { $0.key < $1.key }) {
            var correct = 0
            for sentence in sentences {
                let found = identifier.identifyByScript(sentence)
                if found == language {
                    correct += 1
                } else {
                    misses.append("\(language) -> \(found ?? "nil"): \(sentence)")
                }
            }
            #expect(correct >= 3, "\(language): \(correct)/\(sentences.count)")
        }
        print("more Latin languages, misses:", misses)
        #expect(misses.count <= 3, "\(misses)")
        // None of them is taken for one of the first seven languages' samples.
        for (language, sentences) in TextLanguageSamples.latin {
            let moved = sentences.filter { identifier.identifyByScript($0) != language }
            #expect(moved.count <= 1, "\(language): \(moved)")
        }
    }

    /// Indonesian posts whose function words are chiefly "di" and "dan" (Italian's "di" is the same word): half of
    /// these were filed as Italian before the two most frequent words of Indonesian were among its common words.
    @Test func indonesianPostsAreNotTakenForItalian() {
        let identifier = LanguageIdentifier()
        let posts = [
            "Akhirnya selesai lari maraton pertama saya di Jakarta, capek tapi bangga",
            "Saya tidak bisa tidur semalam karena memikirkan pekerjaan besok pagi",
            "Hari ini hujan deras sekali dan jalanan di depan rumah banjir",
            "Kucing saya tidur di atas keyboard lagi, saya tidak bisa bekerja",
            "Besok ada ujian matematika dan saya belum belajar sama sekali",
            "Saya baru saja mendapat pekerjaan baru di sebuah perusahaan teknologi",
            "Kemarin kami makan malam bersama keluarga di restoran dekat pantai",
            "Apakah kamu sudah menonton film baru itu? Ceritanya sangat bagus",
        ]
        for post in posts { #expect(identifier.identifyByScript(post) == "id", "\(post)") }
        // Italian keeps its "di".
        #expect(identifier.identifyByScript("Domani mattina vado a trovare la nonna di Marco in ospedale") == "it")
    }

    /// A feed in many languages, stored without naming them: each post is filed under its language, the store
    /// says how many it holds of each, and a filter by language finds them (a Polish post used to be filed as
    /// Portuguese or Italian, and a filter for Polish found nothing).
    @Test func aStoreCountsAndFiltersThePostsOfEachLanguage() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        var posts = [Document(id: "en-0", body: TextLanguageSamples.latin["en"]?.first ?? "")]
        for (language, sentences) in TextLanguageSamples.moreLatin where ["pl", "cs", "da", "fi"].contains(language) {
            posts += sentences.enumerated().map { Document(id: "\(language)-\($0.offset)", body: $0.element) }
        }
        posts.append(Document(id: "named", body: "Zítra ráno musím vyzvednout sestru na nádraží.", language: "sk"))
        try await store.upsert(posts)
        let counts = try await store.stats().documentsPerLanguage
        #expect(counts["en"] == 1)
        #expect(counts["sk"] == 1)  // as the app named it
        #expect((counts["pl"] ?? 0) >= 3 && (counts["cs"] ?? 0) >= 3 && (counts["da"] ?? 0) >= 3)
        #expect((counts["fi"] ?? 0) >= 3)
        #expect(counts.values.reduce(0, +) == posts.count)
        let polish = try await store.search(
            "pociąg dworzec siostra", mode: .keyword, filter: SearchFilter(languages: ["pl"]), limit: 10)
        #expect(!polish.hits.isEmpty)
        #expect(polish.hits.allSatisfy { $0.id.hasPrefix("pl-") })
    }

    /// Short notes are filed under the store's language unless their own words or letters say otherwise: of
    /// these six short English notes, letter statistics alone filed five under Finnish, German, Spanish,
    /// Czech or Portuguese; a short Polish, French or German note keeps its language.
    @Test func shortNotesAreWeighedAgainstTheStoresLanguage() async throws {
        let identifier = LanguageIdentifier()
        let english = [
            "Tomatoes, cucumber, olive oil", "Milk, eggs, bread, coffee beans", "Car insurance renewal due next week",
            "Oat milk, bananas, spinach, rice", "Passport expires in March", "Started learning guitar chords",
        ]
        let misfiled = english.filter { identifier.identify($0) != "en" }
        #expect(misfiled.count >= 4, "letter statistics alone: \(misfiled)")
        for note in english {
            #expect(identifier.isShortLatin(note))
            #expect(identifier.settleShort(note, guess: identifier.identify(note), fallback: "en") == "en", "\(note)")
        }
        let others = [
            ("pl", "Zażółć gęślą jaźń, jutro dworzec"), ("fr", "Où est la gare ?"),
            ("de", "Wir treffen uns morgen früh"),
        ]
        for (language, note) in others {
            #expect(identifier.settleShort(note, guess: identifier.identify(note), fallback: "en") == language)
        }
        #expect(!identifier.isShortLatin("失眠怎么办"))
        #expect(!identifier.isShortLatin("We went over the household budget and cut two of the subscriptions."))
        #expect(identifier.settleShort("Tomatoes, cucumber, olive oil", guess: "fi", fallback: nil) == "fi")
        #expect(identifier.settleShort("Tomatoes, cucumber, olive oil", guess: "fi", fallback: "zh") == "fi")

        // In a store: written one by one after an English entry (the store's language), in one batch into an
        // empty store (the batch's), and through the import of precomputed vectors (its batch's).
        let longer = "We went over the household budget and cut two of the subscriptions we never use."
        let oneByOne = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await oneByOne.upsert([Document(id: "long", body: longer)])
        for (index, note) in english.enumerated() {
            try await oneByOne.upsert([Document(id: "n\(index)", body: note)])
        }
        try await oneByOne.upsert([Document(id: "pl", body: others[0].1)])
        let oneByOneCounts = try await oneByOne.stats().documentsPerLanguage
        #expect(oneByOneCounts == ["en": 7, "pl": 1], "\(oneByOneCounts)")

        let batch = try await HushStore.inMemory(embedder: HashingEmbedder())
        let notes = english.enumerated().map { Document(id: "n\($0.offset)", body: $0.element) }
        try await batch.upsert(notes + [Document(id: "long", body: longer), Document(id: "fr", body: others[1].1)])
        let batchCounts = try await batch.stats().documentsPerLanguage
        #expect(batchCounts == ["en": 7, "fr": 1], "\(batchCounts)")
        let englishOnly = try await batch.search(
            "olive oil", mode: .keyword, filter: SearchFilter(languages: ["en"]), limit: 3)
        #expect(englishOnly.hits.map(\.id) == ["n0"], "\(englishOnly.hits.map { ($0.id, $0.language) })")

        let embedder = HashingEmbedder()
        let imported = try await HushStore.inMemory(embedder: embedder)
        let all = notes + [Document(id: "long", body: longer)]
        let vectors = try embedder.embed(all.map(\.body), role: .passage).map(\.vector)
        try await imported.upsert(all, precomputed: vectors)
        let importedCounts = try await imported.stats().documentsPerLanguage
        #expect(importedCounts == ["en": 7], "\(importedCounts)")
    }

    @Test func nonLatinScriptsAreIdentified() {
        let identifier = LanguageIdentifier()
        for (language, sentence) in TextLanguageSamples.otherScripts {
            #expect(identifier.identify(sentence) == language, "\(sentence)")
        }
    }

    /// A short query in a script other than Latin is named by its script (a Chinese question is often five
    /// characters); one letter, or short Latin text, still gets the default.
    @Test func shortTextInAnotherScriptIsNamedByItsScript() {
        let identifier = LanguageIdentifier(defaultLanguage: "und")
        let cases = [
            ("失眠怎么办", "zh"), ("复制文件和目录", "zh"), ("ファイルをコピー", "ja"), ("서울 회의", "ko"),
            ("копировать файлы", "ru"), ("नमस्ते", "hi"), ("สวัสดี", "th"),
        ]
        for (text, language) in cases {
            #expect(identifier.identify(text) == language, "\(text)")
        }
        #expect(identifier.identify("睡") == "und")
        #expect(identifier.identify("copy files") == "und")
    }

    /// Chinese and Japanese technical text names programs in Latin letters; a CJK character writes about a
    /// word, so it outweighs a Latin letter, and a name in Han characters does not turn English into Chinese.
    @Test func mixedScriptTextIsNamedByWhatMostOfItSays() {
        let identifier = LanguageIdentifier()
        let cases = [
            ("Apache HTTP 服务器性能测试工具", "zh"), ("Linux的ARP核心模块", "zh"), ("ASCII 兼容的多字节 Unicode 编码", "zh"),
            ("GNU Emacs のための Lisp プログラミング入門", "ja"),
            ("I met 王伟 at the conference yesterday to talk about the budget", "en"),
            ("Wir haben 北京 im Sommer besucht und viel gesehen", "de"),
        ]
        for (text, language) in cases {
            #expect(identifier.identify(text) == language, "\(text)")
        }
    }

    @Test func shortTextGetsTheDefaultLanguage() {
        #expect(LanguageIdentifier().identify("ok cool") == "und")
        #expect(LanguageIdentifier().identify("") == "und")
        #expect(LanguageIdentifier(defaultLanguage: "en").identify("lol") == "en")
        #expect(LanguageIdentifier(minimumLetters: 100).identify("Das ist ein kurzer deutscher Satz.") == "und")
    }

    @Test func linksAndMentionsAreNotEvidence() {
        // Only placeholders and a URL: nothing to go on.
        #expect(LanguageIdentifier().identify("@user [link] https://example.com/über/straße") == "und")
        #expect(LanguageIdentifier().identify("@user merci beaucoup pour la soirée d'hier soir [link]") == "fr")
    }

    @Test func numbersAndSymbolsAloneAreUndetermined() {
        #expect(LanguageIdentifier().identify("12345 67890 !!! ??? 3.14159 2024-03-05") == "und")
    }

    /// The byte paths for ASCII texts give exactly what the character paths give: the same evidence words and
    /// letter count, and the same score for every language, on every ASCII sample and on texts made of each
    /// kind of ASCII white space, punctuation, digits, links and addresses.
    @Test func asciiFastPathsAgreeWithTheCharacterPaths() {
        var texts = (Array(TextLanguageSamples.latin.values.joined()) + TextLanguageSamples.heldOut.values.joined())
            .filter { $0.utf8.allSatisfy { $0 < 0x80 } }
        texts += [
            "Line one\r\nline two\u{0B}tab\there\u{0C}feed  double   spaces ",
            "  mail ana@example.com or see https://example.com/x and www.site.org, [link] @user ",
            "C3-PO's R2D2 -- 42 apples; (the) end...", "", " ", "a", "don't stop-believing it's 3:15pm",
        ]
        #expect(texts.count > 60)
        for text in texts {
            let fast = LanguageIdentifier.asciiEvidenceText(text)
            let reference = LanguageIdentifier.evidenceTextByCharacters(text)
            #expect(fast.text == reference.text && fast.letterCount == reference.letterCount, "\(text)")
            let lower = text.lowercased()
            #expect(LatinProfiles.asciiScore(lower) == LatinProfiles.scoreByCharacters(lower), "\(text)")
        }
    }
}
