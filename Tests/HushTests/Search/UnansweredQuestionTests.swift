import Foundation
import Testing

@testable import Hush

/// What tells a question nothing stored answers ([answers] #59): a name the store never mentions, and a question
/// about a cost over a record that states no amount; and the line that answers one about a cost or a count.
@Suite struct UnansweredQuestionTests {
    static let records: [Document] = [
        Document(
            id: "m-lease", title: "Office lease renewal", body: "Meeting with the landlord's agent about our lease.",
            fields: [
                .init(label: "Outcomes", value: "Lease extended for three years at the Berlin office on Torstraße."),
                .init(label: "Location", value: "Berlin office"),
            ], sourceType: "meeting"),
        Document(
            id: "m-web", title: "Website relaunch kickoff", body: "Briefing the agency on the new website.",
            fields: [
                .init(label: "Attendees", value: "Nora, Tom, Lukas (Pixelwerk agency)"),
                .init(label: "Outcomes", value: "Pixelwerk builds it on Webflow. Launch target April 20."),
            ], sourceType: "meeting"),
        Document(
            id: "m-venue", title: "Offsite venue decision", body: "Choosing where the spring offsite happens.",
            fields: [
                .init(label: "Outcomes", value: "Gut Rehwiese for three days, 36,400 euros with meals."),
                .init(label: "Location", value: "Room 2A"),
            ], sourceType: "meeting"),
    ]

    /// The records above among enough real texts for a good match to be told, and `more`.
    static func store(adding more: [Document] = []) async throws -> HushStore {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert(
            records + SearchAnswerTests.meetings + Corpus.documents + SearchAnswerTests.readings() + more)
        return store
    }

    /// The relevance `hit` has without the rules below: its calibration applied to its own evidence.
    static func plainRelevance(_ hit: SearchHit) throws -> Float {
        let evidence = try #require(hit.explanation?.evidence)
        let coefficients = ScoreCalibration.lexicalHashing.coefficients(forLanguage: "en")
        return ScoreCalibration.sigmoid(coefficients.logit(evidence))
    }

    static func logOdds(_ p: Float) -> Float { log(p / (1 - p)) }

    @Test func namesAreWordsCapitalisedWhereTheSentenceDoesNotAskForIt() {
        #expect(
            UnmentionedNames.candidates(in: "Who is running the Berlin hackathon with Ines?", language: "en") == [
                "Berlin", "Ines",
            ])
        // The first word of the query and of each sentence, stop words, a possessive's "'s", a contraction and a
        // word in capitals are no names.
        #expect(
            UnmentionedNames.candidates(
                in: "Where is the IPO roadshow? The Priya’s deck. Since I'm at the ER, Tom'll go", language: "en")
                == ["Priya", "Tom"])
        #expect(UnmentionedNames.candidates(in: "what did we decide about company cars", language: "en").isEmpty)
        // Title case capitalises words, not names.
        #expect(UnmentionedNames.candidates(in: "Notes From The Quarterly Planning Retro", language: "en").isEmpty)
        #expect(UnmentionedNames.candidates(in: "Notes from the planning retro with Ines", language: "en") == ["Ines"])
        // German capitalises every noun.
        #expect(UnmentionedNames.candidates(in: "Wo ist die Weihnachtsfeier?", language: "de").isEmpty)
        #expect(UnmentionedNames.candidates(in: "失眠怎么办", language: "zh").isEmpty)
    }

    @Test func aNameTheStoreNeverMentionsLowersEveryHitsOdds() async throws {
        let store = try await Self.store()
        let munich = try await store.search(
            "What did we agree with the landlord about the Munich office?", explain: true)
        #expect(munich.unmentionedNames == ["Munich"])
        #expect(munich.hits.first?.id == "m-lease")
        for hit in munich.hits {
            let relevance = try #require(hit.relevance)
            let plain = try Self.plainRelevance(hit)
            let expected = Self.logOdds(plain) - log(UnmentionedNames.oddsDivisor)
            #expect(abs(Self.logOdds(relevance) - expected) < 1e-3)
        }
        // The calibrated score is the same estimate.
        let calibrated = try await store.search(
            "What did we agree with the landlord about the Munich office?", mode: .calibrated)
        #expect(calibrated.hits.first?.score == calibrated.hits.first?.relevance)
        #expect(calibrated.hits.first?.relevance == munich.hits.first?.relevance)

        // A name the store holds (any case) changes nothing.
        let berlin = try await store.search(
            "What did we agree with the landlord about the Berlin office?", explain: true)
        #expect(berlin.unmentionedNames.isEmpty)
        let top = try #require(berlin.hits.first)
        let plainTop = try Self.plainRelevance(top)
        #expect(top.id == "m-lease" && top.relevance == plainTop)
        #expect(try await store.search("the landlord about the munich office", explain: true).unmentionedNames.isEmpty)
        // As you type, the word being typed is no name yet.
        let typing = try await store.search("the landlord about the Mun", mode: .hybrid.whileTyping)
        #expect(typing.unmentionedNames.isEmpty)
    }

    /// A post in Chinese writes Beijing 北京: a name spelt in the Latin alphabet lowers only the hits written in it.
    @Test func aNameLowersOnlyTheHitsWrittenInItsAlphabet() async throws {
        let store = try await Self.store(adding: [
            Document(
                id: "zh-food", body: "北京的烤鸭店排队两个小时，但是真的值得 (worth the queue)。", sourceType: "post", language: "zh"),
            Document(
                id: "en-food", body: "The best noodle bar in town has a queue every evening.", sourceType: "post",
                language: "en"),
        ])
        let results = try await store.search(
            "Which Beijing restaurants were worth the queue?", limit: 20, explain: true)
        #expect(results.unmentionedNames == ["Beijing"])
        let chinese = try #require(results.hits.first { $0.id == "zh-food" })
        let english = try #require(results.hits.first { $0.id == "en-food" })
        let plainChinese = try Self.plainRelevance(chinese)
        #expect(chinese.relevance == plainChinese)
        let plainEnglish = try Self.plainRelevance(english)
        let expected = Self.logOdds(plainEnglish) - log(UnmentionedNames.oddsDivisor)
        #expect(abs(Self.logOdds(try #require(english.relevance)) - expected) < 1e-3)
        #expect(UnmentionedNames.writesLatin("en") && UnmentionedNames.writesLatin("und"))
        #expect(!UnmentionedNames.writesLatin("zh-Hans") && !UnmentionedNames.writesLatin("ru"))
    }

    @Test func aQuestionAboutACostIsNotAnsweredByARecordWithoutAnAmount() async throws {
        let store = try await Self.store()
        let charged = try await store.search("How much did Pixelwerk charge for the website?", explain: true)
        let web = try #require(charged.hits.first { $0.id == "m-web" })
        let plainWeb = try Self.plainRelevance(web)
        let lowered = Self.logOdds(plainWeb) - log(AskedAmount.oddsDivisor)
        let relevance = try #require(web.relevance)
        #expect(abs(Self.logOdds(relevance) - lowered) < 1e-2)
        #expect(charged.goodMatches.allSatisfy { $0.id != "m-web" })

        // A record that states an amount keeps its relevance.
        let cost = try await store.search("What did Gut Rehwiese cost for the offsite?", explain: true)
        let venue = try #require(cost.hits.first)
        let plainVenue = try Self.plainRelevance(venue)
        #expect(venue.id == "m-venue" && venue.relevance == plainVenue)
        // The same record, asked for something else, keeps its relevance too.
        let who = try await store.search("Who came from Pixelwerk to the website kickoff?", explain: true)
        let attendees = try #require(who.hits.first { $0.id == "m-web" })
        let plainAttendees = try Self.plainRelevance(attendees)
        #expect(attendees.relevance == plainAttendees)
    }

    /// The line that states an amount answers a question about a cost, whatever field it is.
    @Test func aQuestionAboutACostIsShownTheLineWithTheAmount() async throws {
        let store = try await Self.store(adding: [
            Document(
                id: "m-soc", title: "SOC 2 readiness", body: "Where we stand on the audit.",
                fields: [
                    .init(label: "Outcomes", value: "SOC 2 Type I with Vanta. Audit firm: Schellman."),
                    .init(label: "Action items", value: "Daniel: set up Vanta. Aiko: budget 42,000 euros."),
                ], sourceType: "meeting")
        ])
        let hit = try #require(
            try await store.search("How much money did we put aside for SOC 2 tooling and the audit?").hits.first)
        #expect(hit.id == "m-soc" && hit.field == "Action items")
        // The line with the amount stays, though "how much" asks for what was decided.
        let kept = try #require(try await store.search("How much budget did Aiko set up for Vanta?").hits.first)
        #expect(kept.id == "m-soc" && kept.field == "Action items")
        let firm = try #require(try await store.search("Which audit firm for SOC 2 with Vanta?").hits.first)
        #expect(firm.id == "m-soc" && firm.field == "Outcomes")
    }

    /// "How many" is answered by the line that gives the number of what it counts.
    @Test func aQuestionThatCountsIsShownTheLineWithTheNumber() async throws {
        let store = try await Self.store(adding: [
            Document(
                id: "m-keys", title: "Quarterly security review", body: "The quarter's incidents and risks.",
                fields: [
                    .init(label: "Outcomes", value: "Hardware security keys required for every admin by April 30."),
                    .init(label: "Action items", value: "Daniel: order 50 YubiKeys. Miguel: rotate credentials."),
                ], sourceType: "meeting")
        ])
        let hit = try #require(try await store.search("how many yubikeys were we ordering for the admins").hits.first)
        #expect(hit.id == "m-keys" && hit.field == "Action items")
        #expect(FieldQuestion.Asked("How many YubiKeys?").counted == "yubikeys")
        #expect(FieldQuestion.Asked("what did we order").counted == nil)
        #expect(Searcher.statesCount(of: "yubikeys", in: "Daniel: order 50 YubiKeys."))
        #expect(Searcher.statesCount(of: "months", in: "Runway of 14 months"))
        #expect(!Searcher.statesCount(of: "keys", in: "Hardware security keys required by April 30."))
    }

    @Test func questionsThatAskForAnAmount() {
        let asked = [
            "what did the YubiKeys cost", "hannah vogt salary offer", "How much did Pixelwerk charge for the website?",
            "rent per square metre at the new office", "Wie viel kostet die Miete?", "¿Cuánto cuesta el alquiler?",
            "这个场地多少钱", "会場の料金はいくら", "How much money did we put aside for the audit?",
            "How much money did we put aside for SOC 2 tooling and the audit?",
        ]
        for question in asked {
            #expect(FieldQuestion.Asked(question).asksForMoney, "\(question): \(FieldQuestion.askedKinds(question))")
        }
        let notAsked = [
            "How much faster did we answer tickets?", "Who is paying the advance to the movers?",
            "which venue did we rent for the all-hands", "how many members got charged twice",
        ]
        for question in notAsked { #expect(!FieldQuestion.Asked(question).asksForMoney, "\(question)") }
    }

    @Test func amountsOfMoney() {
        let amounts = [
            "Fixed price of 18,500 euros.", "Salary band raised to 70-82k.", "Total 1.42 million euros approved.",
            "Budget: €50 a head", "USD 1,200 per seat", "0.40 euros per booking", "预算5000元的活动", "会費は3万円です",
        ]
        for text in amounts { #expect(AskedAmount.holdsMoney(text), "\(text)") }
        let none = [
            "Retest on June 15-16, included in the original price.", "Room 2A", "Order 50 YubiKeys by 2026-04-30.",
            "484 paying studios", "A 10 m² room", "Q1 review at 9:30",
        ]
        for text in none { #expect(!AskedAmount.holdsMoney(text), "\(text)") }
    }
}
