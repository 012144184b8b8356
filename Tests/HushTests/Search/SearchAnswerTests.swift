import Foundation
import Testing

@testable import Hush

/// Search that answers ([answers] #59): a record's fields as chunks of their own, a hit that shows and names the
/// field that answers, each hit's relevance and the results' good match, summaries and a language model's context
/// made of the good matches alone.
@Suite struct SearchAnswerTests {
    static func day(_ text: String) -> Date? { RecordDate.parse(text) }

    static let meetings: [Document] = [
        Document(
            id: "m-retro", title: "Mobile app v2 retrospective",
            body: "We looked back at the second release of the mobile app and what slowed it down.",
            fields: [
                .init(label: "Attendees", value: "Maria, Jonas, Priya"),
                .init(label: "Outcomes", value: "Launch postponed to July 14 until the security audit is done."),
                .init(label: "Action items", value: "Priya books the security audit."),
                .init(label: "Location", value: "Berlin office"),
            ], sourceType: "meeting", createdAt: day("2026-06-01")),
        Document(
            id: "m-budget", title: "Q1 budget review", body: "Review of the first quarter's spending.",
            fields: [
                .init(label: "Attendees", value: "Maria, Tom"),
                .init(label: "Outcomes", value: "Travel was 18 % over plan; trains for trips under four hours."),
                .init(label: "Action items", value: "Jonas drafts the travel policy by January 30."),
                .init(label: "Location", value: "Room 4B"),
            ], sourceType: "meeting", createdAt: day("2026-01-15")),
    ]

    /// The 120 readings of the journal set (scripts/bench/data/journal): real short texts, so that the store is
    /// large enough for its hits' relevance to tell a good match.
    static func readings() throws -> [Document] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../../scripts/bench/data/journal/readings.jsonl")
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").compactMap { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let id = object["id"] as? String, let text = object["text"] as? String
            else { return nil }
            return Document(
                id: id, title: object["title"] as? String, body: text, category: object["category"] as? String)
        }
    }

    static func store() async throws -> HushStore {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert(meetings + Corpus.documents + readings())
        return store
    }

    @Test func aQuestionAboutAFieldLandsOnItsLine() async throws {
        let store = try await Self.store()
        let hit = try #require(try await store.search("who drafts the travel policy?").hits.first)
        #expect(hit.id == "m-budget" && hit.field == "Action items")
        #expect(hit.passage == "Action items: Jonas drafts the travel policy by January 30.")
        #expect(hit.snippet().text == hit.passage)
        // The record's title and day head the chunk the model read.
        #expect(hit.text == "Q1 budget review (2026-01-15)\n\n" + hit.passage)
        #expect(hit.range.isEmpty)

        let room = try #require(try await store.search("which room for the budget review", mode: .keyword).hits.first)
        #expect(room.field == "Location" && room.snippet().text == "Location: Room 4B")
    }

    @Test func aQuestionWordShowsTheFieldItAsksFor() async throws {
        let store = try await Self.store()
        // The question's words and meaning match the Purpose-like body and Outcomes best; "where" asks for the
        // Location line, "who" for the people.
        let place = try #require(try await store.search("where did we review the first quarter's spending?").hits.first)
        #expect(place.id == "m-budget" && place.field == "Location" && place.snippet().text == "Location: Room 4B")
        let people = try #require(try await store.search("who came to the Q1 budget review?").hits.first)
        #expect(people.id == "m-budget" && people.field == "Attendees")
        // A field that already answers stays: Action items name who does what.
        let task = try #require(try await store.search("who drafts the travel policy?").hits.first)
        #expect(task.field == "Action items")
        // Without a question word, a phrase: "which room" asks for the place, "how much" for the outcome,
        // "anyone" for the people; "who is …ing" for the one with the task.
        let room = try #require(
            try await store.search("which room was the first quarter's spending review in?").hits.first)
        #expect(room.id == "m-budget" && room.field == "Location")
        let figure = try #require(
            try await store.search("how much over plan was the first quarter's spending?").hits.first)
        #expect(figure.id == "m-budget" && figure.field == "Outcomes")
        let anyone = try #require(try await store.search("was anyone from finance at the Q1 budget review?").hits.first)
        #expect(anyone.id == "m-budget" && anyone.field == "Attendees")
        let booking = try #require(try await store.search("who is booking the audit for the mobile app?").hits.first)
        #expect(booking.id == "m-retro" && booking.field == "Action items")
        // Of the fields of the kinds asked for (a plan: the outcome or the task), the one that holds the most of
        // the question's words.
        let drafted = try #require(try await store.search("where will the travel policy be drafted?").hits.first)
        #expect(drafted.id == "m-budget" && drafted.field == "Action items")
        let trains = try #require(try await store.search("where will we use trains for trips?").hits.first)
        #expect(trains.id == "m-budget" && trains.field == "Outcomes")
        // Without a question word, the best-matching chunk.
        let plain = try #require(try await store.search("launch postponed security audit").hits.first)
        #expect(plain.id == "m-retro" && plain.field == "Outcomes")
    }

    @Test func questionWordsAndLabelsNameTheirKinds() {
        #expect(FieldQuestion.askedKinds("Where was the Q1 budget review?") == [.place])
        #expect(FieldQuestion.askedKinds("Wo war das Treffen?") == [.place])
        #expect(FieldQuestion.askedKinds("预算会议在哪里开的？") == [.place])
        #expect(FieldQuestion.askedKinds("Who joined the retro?") == [.people])
        #expect(FieldQuestion.askedKinds("Who is booking the viewings?") == [.task])
        #expect(FieldQuestion.askedKinds("Who's calling the studios back?") == [.task])
        #expect(FieldQuestion.askedKinds("Wer hat die Folien?") == [.people, .task])
        #expect(FieldQuestion.askedKinds("Which room was the board meeting in?") == [.place])
        #expect(FieldQuestion.askedKinds("In welchem Raum war das Treffen?") == [.place])
        #expect(FieldQuestion.askedKinds("Was anyone from QA in the debrief?") == [.people])
        // "How many" people: those there, or a figure in the outcome (the line with more of the words shows).
        #expect(FieldQuestion.askedKinds("How many members were charged twice?") == [.people, .decision])
        #expect(
            FieldQuestion.askedKinds("how many engineers were in the room on planning day") == [.people, .decision])
        #expect(FieldQuestion.askedKinds("How many bookings came through the partner?") == [.decision])
        #expect(FieldQuestion.askedKinds("Are we still launching in June?") == [.decision])
        #expect(FieldQuestion.askedKinds("What was the point of the call with Redline?") == [.reason])
        #expect(FieldQuestion.askedKinds("Point of the Q2 board prep session?") == [.reason])
        #expect(FieldQuestion.askedKinds("point of contact at Redline") == [.people])
        #expect(FieldQuestion.askedKinds("remind me what my November 1:1 with Nora was about") == [.reason])
        #expect(FieldQuestion.askedKinds("what did I take on after the kickoff all-hands") == [.task])
        // Without a question word: the reason or topic of a meeting, what it was about; a contact; a number, what
        // we ended up with; the part of town.
        #expect(FieldQuestion.askedKinds("topic of my 1:1 with nora in november") == [.reason])
        #expect(FieldQuestion.askedKinds("What prompted the backend hiring sync?") == [.reason])
        #expect(FieldQuestion.askedKinds("the cold start meeting was about what exactly") == [.reason])
        #expect(FieldQuestion.askedKinds("urban sports club contact on the beta prep call") == [.people])
        #expect(FieldQuestion.askedKinds("Which removal firm did we end up hiring?") == [.decision])
        #expect(FieldQuestion.askedKinds("MAU number for the september board") == [.decision])
        #expect(FieldQuestion.askedKinds("which part of town was the website kickoff in?") == [.place])
        #expect(FieldQuestion.askedKinds("Grund für das Treffen mit Nora") == [.reason])
        #expect(FieldQuestion.askedKinds("Ansprechpartner bei Urban Sports Club") == [.people])
        #expect(FieldQuestion.askedKinds("sujet de la réunion avec Redline") == [.reason])
        #expect(FieldQuestion.askedKinds("和Nora开会的主题") == [.reason])
        #expect(FieldQuestion.askedKinds("in welchem Viertel war der Workshop") == [.place])
        #expect(FieldQuestion.askedKinds("What did Nora and I talk about?") == [.reason])
        #expect(FieldQuestion.askedKinds("What did I have to write for the board?") == [.task])
        #expect(FieldQuestion.askedKinds("预算花了多少？") == [.decision])
        // The first question word, or without one the first phrase, decides.
        #expect(FieldQuestion.askedKinds("Where did we meet when we chose the movers?") == [.place])
        // "Where" a thing will be done, or is being done, asks for the plan that says so; the past, a place and
        // a meeting ask for the place.
        for plan in [
            "Where will the QA job ads be posted?", "Where is the Lisbon team staying when they visit?",
            "Where do team leads put their goals for the quarter?", "where's Daniel publishing the summary?",
            "where did Lena end up posting the job ad", "where are the leads meant to put their goals",
        ] {
            #expect(FieldQuestion.askedKinds(plan) == [.task, .decision], "\(plan)")
        }
        for place in [
            "Where is the architect's studio?", "Where is the kickoff being held?", "Where do we meet for the retro?",
            "Where did Ravi and I talk about him taking a week off?",
            // Words that share a verb's letters are no verbs: "postponed", "poster", "post-mortem", a store.
            "Where was the launch postponed to?", "Where is the poster for the fair?", "Where was the post-mortem?",
            "Where is the new store?", "Where is the shareholder letter?",
        ] {
            #expect(FieldQuestion.askedKinds(place) == [.place], "\(place)")
        }
        // A "when" inside the question says which meeting; after "by" it asks.
        #expect(FieldQuestion.askedKinds("Which room were we in when we chose the autumn fairs?") == [.place])
        #expect(FieldQuestion.askedKinds("By when does the fix have to be on staging?") == [.task, .time])
        #expect(FieldQuestion.askedKinds("Was anyone from data in the room on launch day?") == [.people])
        #expect(FieldQuestion.askedKinds("backend hiring sync attendees") == [.people])
        #expect(FieldQuestion.askedKinds("What was the new helpdesk supposed to replace?") == [.reason])
        #expect(FieldQuestion.askedKinds("What am I supposed to do after the call?") == [.task])
        // A person's or a place's noun asks for them only right after "which" or "what".
        #expect(FieldQuestion.askedKinds("What did the members decide about the room?") == [.decision])
        #expect(FieldQuestion.askedKinds("What meeting room did we book?") == [.place])
        #expect(FieldQuestion.askedKinds("Pourquoi avons-nous changé de bureau ?") == [.reason])
        #expect(FieldQuestion.askedKinds("What did we decide about travel?") == [.decision])
        #expect(FieldQuestion.askedKinds("What do I need to do after the vendor call?") == [.task])
        // "discuss", a question ending in "for", and what is "left to do".
        #expect(FieldQuestion.askedKinds("What did I want to discuss with Jonas?") == [.reason])
        #expect(FieldQuestion.askedKinds("What was the app launch retro for?") == [.reason])
        #expect(FieldQuestion.askedKinds("What's the budget review for?") == [.reason])
        #expect(FieldQuestion.askedKinds("What did we pay for?") == [])
        #expect(FieldQuestion.askedKinds("What's left to do after the audit?") == [.task])
        #expect(FieldQuestion.askedKinds("Where did we discuss the budget?") == [.place])
        // "why" a choice was made is an outcome; a present-tense "who" a task; "in person", a place.
        #expect(FieldQuestion.askedKinds("Why did we go with that helpdesk tool?") == [.decision])
        #expect(FieldQuestion.askedKinds("Why did we turn down the Factory office?") == [.decision])
        #expect(FieldQuestion.askedKinds("Why did we meet about pricing?") == [.reason])
        #expect(FieldQuestion.askedKinds("Who briefs sales on the new tiers?") == [.task])
        #expect(FieldQuestion.askedKinds("Who was at the retro?") == [.people])
        #expect(FieldQuestion.askedKinds("Who attends the board meetings?") == [.people])
        #expect(FieldQuestion.askedKinds("Was the readiness meeting in person?") == [.place])
        #expect(FieldQuestion.askedKinds("Which lawyer was in on the lease decision?") == [.people])
        #expect(FieldQuestion.askedKinds("What did we need to decide at the retro?") == [.reason])
        // What had to be agreed or confirmed is what the meeting was for ("agree" alone asks for the outcome); a
        // salary is a figure agreed, as a price is.
        #expect(FieldQuestion.askedKinds("what did we need to agree with the testers on their first day") == [.reason])
        #expect(FieldQuestion.askedKinds("what did we need to confirm with the testers") == [.reason])
        #expect(FieldQuestion.askedKinds("What did we agree with the testers?") == [.decision])
        #expect(FieldQuestion.askedKinds("what salary did we offer amir") == [.decision])
        #expect(FieldQuestion.askedKinds("What are we doing about the webhook delay?") == [.task])
        // A relative "who" asks for no one; a person "supposed to" do something, "on the hook", a deadline and
        // "when … have to" ask for a task; "dropped" and "ruled out" for the outcome.
        #expect(FieldQuestion.askedKinds("What's Fatima doing about the members who got charged twice?") == [.task])
        #expect(FieldQuestion.askedKinds("Planning: who is booking the hotel?") == [.task])
        #expect(FieldQuestion.askedKinds("What was Aiko supposed to send the board?") == [.task])
        #expect(FieldQuestion.askedKinds("What was the new helpdesk supposed to replace?") == [.reason])
        // A person written in lower case, after "was" or opening the question; a thing is no one.
        #expect(FieldQuestion.askedKinds("what was ravi supposed to ship after the outage") == [.task])
        #expect(FieldQuestion.askedKinds("lena was meant to schedule what") == [.task])
        #expect(FieldQuestion.askedKinds("what was it supposed to replace") != [.task])
        #expect(FieldQuestion.askedKinds("what the app was meant to replace") != [.task])
        // "who did we meet" asks for the people met; "who was setting up" for a task or who was there.
        #expect(FieldQuestion.askedKinds("who did sam and priya interview at the studio") == [.people])
        #expect(FieldQuestion.askedKinds("who was setting up amir's laptop") == [.people, .task])
        #expect(FieldQuestion.askedKinds("After the lease decision, what was Oskar on the hook for?") == [.task])
        #expect(FieldQuestion.askedKinds("deadline for fixing the booking API leak") == [.task])
        #expect(FieldQuestion.askedKinds("When does the fix have to be on staging?") == [.task, .time])
        #expect(FieldQuestion.askedKinds("When is the retro?") == [.time, .decision])
        #expect(FieldQuestion.askedKinds("Which trade fair did we drop this autumn? We dropped one") == [.decision])
        #expect(FieldQuestion.askedKinds("Why did we rule out the Factory office?") == [.decision])
        #expect(FieldQuestion.askedKinds("travel budget") == [])
        // Phrases match whole words: "in person" is not in "personnel", "is about" not in "this about"; their
        // plurals are listed.
        #expect(FieldQuestion.askedKinds("What changes in personnel did we agree on?") == [.decision])
        #expect(FieldQuestion.askedKinds("Is this about-turn on pricing decided?") == [.decision])
        #expect(FieldQuestion.askedKinds("next steps after the audit") == [.task])
        #expect(FieldQuestion.askedKinds("deadlines for the SOC 2 evidence") == [.task])
        #expect(FieldQuestion.kind(ofLabel: "Next steps") == .task)
        // More places after "which" or "what", but not a place's word before a person's ("which studio owner");
        // a "which" or "what" question that ends in "at" asks where, unless it asks what time or what was looked at.
        #expect(FieldQuestion.askedKinds("remind me which lobby we met in") == [.place])
        #expect(FieldQuestion.askedKinds("what town was the FitHaus visit in") == [.place])
        #expect(FieldQuestion.askedKinds("which Studio Nord owner sits on the board") == [])
        #expect(FieldQuestion.askedKinds("What caused Studio Nord's members to be locked out?") == [])
        #expect(FieldQuestion.askedKinds("which Yoga Loft studio did we kick off the beta at") == [.place])
        #expect(FieldQuestion.askedKinds("What time did the board call start at?") == [])
        // A person by name; what was looked at; homework.
        #expect(FieldQuestion.askedKinds("architect's name for the new office layout") == [.people])
        #expect(FieldQuestion.askedKinds("name of the studio owner who complained") == [.people])
        #expect(FieldQuestion.askedKinds("the lawyer at the lease meeting, what's her name") == [.people])
        #expect(FieldQuestion.askedKinds("What's the name of the new helpdesk tool?") == [])
        #expect(FieldQuestion.askedKinds("what were we looking at in the android review") == [.reason])
        #expect(FieldQuestion.askedKinds("fatima's homework from the design review") == [.task])
        #expect(FieldQuestion.askedKinds("How many testers did Redline bring?") == [.people, .decision])
        // What a person named in the question is doing now is that person's task, a figure too.
        #expect(FieldQuestion.askedKinds("Which review tools is Lena looking at?") == [.task])
        #expect(FieldQuestion.askedKinds("how many hardware keys is Daniel ordering") == [.task])
        #expect(FieldQuestion.askedKinds("How many hardware keys did we order?") == [.decision])
        // "Where" with a verb in -ing anywhere after it; "being" before a verb of putting is the plan.
        #expect(FieldQuestion.askedKinds("where's the lisbon summer party happening") == [.task, .decision])
        #expect(FieldQuestion.askedKinds("Where are the job ads being posted?") == [.task, .decision])
        // The people: "how many of us", a question that opens with a person's noun heading its phrase, a "who" after
        // "remember"; what "we were measuring" is the purpose; a price or a cost the outcome; a promise the task.
        #expect(FieldQuestion.askedKinds("january all-hands, roughly how many of us were there?") == [.people])
        #expect(FieldQuestion.askedKinds("lawyer at the lease decision meeting?") == [.people])
        #expect(FieldQuestion.askedKinds("the aggregator person we interviewed about check-in codes") == [.people])
        #expect(FieldQuestion.askedKinds("junior security engineer hiring - which job board?") == [])
        #expect(FieldQuestion.askedKinds("can't remember who we invited to give a talk") == [.people])
        #expect(FieldQuestion.askedKinds("the android meeting, what exactly were we measuring") == [.reason])
        #expect(FieldQuestion.askedKinds("offsite venue - final price?") == [.place])
        #expect(FieldQuestion.askedKinds("final price of the offsite hotel") == [.decision])
        #expect(FieldQuestion.askedKinds("Sam promised to write something up about the new prices") == [.task])
        // A "where" or "when" after a noun opens a clause that only says which meeting, and asks nothing; "the hotel
        // where…" asks for the place.
        #expect(
            FieldQuestion.askedKinds("the status meeting where the waitlists were done, what was on the agenda") == [
                .reason
            ])
        #expect(
            FieldQuestion.askedKinds("The session where we dropped the release train, which room were we in") == [
                .place
            ])
        #expect(FieldQuestion.askedKinds("I need the hotel where the leadership team drafted the goals") == [.place])
        #expect(FieldQuestion.askedKinds("reason for the chat where we came up with two managers") == [.reason])
        #expect(FieldQuestion.askedKinds("remind me where we met the agency") == [.place])
        #expect(FieldQuestion.askedKinds("the pentest kickoff was where?") == [.place])
        // A person "meant to" do something, as "supposed to"; what "we went through" was the purpose.
        #expect(FieldQuestion.askedKinds("after the site demo, what was Tom meant to replace?") == [.task])
        #expect(FieldQuestion.askedKinds("What was the new booking page meant to fix?") == [.reason])
        #expect(FieldQuestion.askedKinds("what did we go through at the security review") == [.reason])
        #expect(FieldQuestion.kind(ofLabel: "Location") == .place)
        #expect(FieldQuestion.kind(ofLabel: "Meeting room") == .place)
        #expect(FieldQuestion.kind(ofLabel: "Attendees") == .people)
        #expect(FieldQuestion.kind(ofLabel: "Purpose") == .reason)
        #expect(FieldQuestion.kind(ofLabel: "Outcomes") == .decision)
        #expect(FieldQuestion.kind(ofLabel: "Action items") == .task)
        #expect(FieldQuestion.kind(ofLabel: "参会人员") == .people)
        #expect(FieldQuestion.kind(ofLabel: "Mood") == nil)
    }

    @Test func aYesOrNoQuestionWhetherSomeoneWasThereAsksForThePeople() {
        for question in [
            "was priya involved when we split the money between ads and referral rewards",
            "did finance sit in when felix explained why studios cancel",
            "was lena part of organising the week the lisbon folks came over",
            "sven kraus debrief, was jonas one of the people deciding",
            "Did Hanna come in person or dial in?",
        ] {
            #expect(FieldQuestion.askedKinds(question) == [.people], "\(question)")
        }
        // Not someone, or not being there.
        #expect(FieldQuestion.askedKinds("did we come to a decision on the venue?") != [.people])
        #expect(FieldQuestion.askedKinds("did pricing come up in the review?") != [.people])
        #expect(FieldQuestion.askedKinds("was it part of the plan to move in August?") != [.people])
        #expect(FieldQuestion.askedKinds("was priya happy with the outcome?") != [.people])
        #expect(FieldQuestion.askedKinds("was google pay part of the v2 kickoff scope") != [.people])
    }

    @Test func aPersonsJobIsATask() {
        #expect(FieldQuestion.askedKinds("tom's job from the layout meeting with the architect") == [.task])
        #expect(FieldQuestion.askedKinds("Clara’s task after the status meeting") == [.task])
        #expect(FieldQuestion.askedKinds("sven's job offer") != [.task])
        #expect(FieldQuestion.askedKinds("the QA job ads") != [.task])
    }

    @Test func theWordsOfARecordsTitleOnlySayWhichRecordItIs() {
        func asked(_ query: String, of title: String) -> Set<FieldQuestion.Kind> {
            FieldQuestion.Asked(query).kinds(ofTitle: title)
        }
        // "venue" names the meeting "Offsite venue decision": the question asks for the price.
        #expect(FieldQuestion.askedKinds("offsite venue decision - final price?") == [.place])
        #expect(asked("offsite venue decision - final price?", of: "Offsite venue decision") == [.decision])
        // Nothing left that asks: the line that matches best shows (here the Purpose line).
        #expect(FieldQuestion.askedKinds("which offsite was the venue decision for") == [.place])
        #expect(asked("which offsite was the venue decision for", of: "Offsite venue decision") == [])
        // Unless "which" or "what" asks for the word; a name stays a name, an acronym names nothing.
        #expect(asked("launch day war room, which meeting room was it", of: "Launch day war room") == [.place])
        #expect(asked("Which review tools is Lena looking at?", of: "1:1 with Lena") == [.task])
        #expect(
            asked("what was the partner API discovery readout supposed to decide", of: "Partner API: discovery readout")
                == [.reason])
        // No word of the title: the question's own kinds.
        #expect(asked("Where did we meet?", of: "Q1 budget review") == [.place])
    }

    /// The highlighter of a query as a search makes it.
    static func highlighter(_ query: String) -> KeywordHighlighter {
        KeywordHighlighter(terms: Searcher.keywordTerms(QueryAnalyzer().analyze(query), query: query))
    }

    @Test func aBodyGivesWayToTheFieldThatHoldsMoreOfTheQuestionsWords() throws {
        let body = "Planning the campaign for the app v2 launch."
        let fields = [
            FieldChunk(id: 2, field: "Purpose", line: "Purpose: Agree the channels and the budget"),
            FieldChunk(id: 3, field: "Outcomes", line: "Outcomes: Tagline \"Book in two taps\" for the launch ads"),
        ]
        func shown(_ query: String) -> String? {
            let words = Searcher.QueryWords(highlighter: Self.highlighter(query), title: "App v2 launch campaign")
            return words.fieldWithMore(fields, than: words.count(in: body))?.field
        }
        // "launch" is in the title (every chunk of the record says it); "tagline" and "ads" are only in Outcomes.
        #expect(shown("What's the tagline for the launch ads?") == "Outcomes")
        // A field that holds as many of the words as the body leaves the body shown ("planning" against "budget";
        // "campaign" is the title's).
        #expect(shown("planning the campaign budget") == nil)
        // A word said twice counts once, and a stem stands for its forms: "plans" and "planned" are the body's one
        // word.
        #expect(shown("plans planned budget") == nil)
    }

    @Test func aSearchShowsTheFieldThatNamesWhatTheBodyOnlyRepeats() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        let campaign = Document(
            id: "m-campaign", title: "App v2 launch campaign", body: "Planning.",
            fields: [
                .init(
                    label: "Outcomes",
                    value: "Tagline: book in two taps, on posters across Berlin and Lisbon with paid social."),
                .init(label: "Location", value: "Room 4B"),
            ], sourceType: "meeting", createdAt: Self.day("2026-05-04"))
        try await store.upsert(Self.meetings + [campaign] + Corpus.documents)
        // The short body chunk is nearest (the title's words are most of it); the Outcomes line holds "tagline".
        let hit = try #require(try await store.search("app v2 launch campaign tagline", mode: .semantic).hits.first)
        #expect(hit.id == "m-campaign")
        #expect(hit.field == "Outcomes")
    }

    @Test func aQuestionThatNamesNoFieldIsShownWhatWasDecidedRatherThanTheBody() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        let move = Document(
            id: "m-move", title: "Move planning", body: "Picked the movers and the plan for the week.",
            fields: [
                .init(label: "Purpose", value: "Agree the date of the move"),
                .init(label: "Outcomes", value: "Zapf Umzüge chosen at 14,200 euros. Packing on August 3."),
                .init(label: "Location", value: "Kitchen"),
            ], sourceType: "meeting", createdAt: Self.day("2026-07-20"))
        try await store.upsert(Self.meetings + [move] + Corpus.documents)
        // The body holds the question's words and no field does, and the question names no kind of field: it is
        // shown the Outcomes line.
        let question = "Which movers were in the plan for the week?"
        #expect(FieldQuestion.askedKinds(question).isEmpty)
        let asked = try #require(try await store.search(question, mode: .keyword).hits.first)
        #expect(asked.id == "m-move")
        #expect(asked.field == "Outcomes")
        // The same words as a search, not a question: the body that holds them.
        let looked = try #require(try await store.search("movers and the plan for the week", mode: .keyword).hits.first)
        #expect(looked.id == "m-move")
        #expect(looked.field == nil)
        #expect(looked.snippet().text.contains("Picked the movers"))
    }

    @Test func aQuestionIsAskedByAQuestionWordOrAQuestionMark() {
        #expect(FieldQuestion.Asked("what was the tagline for the launch again").isQuestion)
        #expect(FieldQuestion.Asked("Launch day, which movers did we pick").isQuestion)
        #expect(FieldQuestion.Asked("tagline for the launch?").isQuestion)
        #expect(FieldQuestion.Asked("Welche Agentur macht die Kampagne").isQuestion)
        #expect(FieldQuestion.Asked("发布会的口号是什么").isQuestion)
        #expect(!FieldQuestion.Asked("launch campaign tagline").isQuestion)
        #expect(!FieldQuestion.Asked("notes on the showhow").isQuestion)
    }

    @Test func aRecordStoredWithoutADayIsHeadedByTheDayItWasStored() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert([
            Document(id: "m", title: "Standup", body: "", fields: [.init(label: "Location", value: "Kitchen")])
        ])
        let hit = try #require(try await store.search("kitchen", mode: .keyword).hits.first)
        let stored = try #require(try await store.documents(ids: ["m"]).first)
        let created = try #require(stored.document.createdAt)
        #expect(hit.text == "Standup (\(RecordDate.formatDay(created)))\n\nLocation: Kitchen")
    }

    @Test func everyHitCarriesItsRelevanceAndTheBestSaysWhetherItIsAGoodMatch() async throws {
        let store = try await Self.store()
        let answered = try await store.search("when is the mobile app launch", explain: true)
        #expect(answered.hits.first?.id == "m-retro")
        #expect(answered.goodMatchThreshold == ScoreCalibration.lexicalHashing.recommendedMinScore)
        #expect(answered.goodMatch)
        for hit in answered.hits {
            let relevance = try #require(hit.relevance)
            #expect((0...1).contains(relevance))
            #expect(hit.explanation?.evidence != nil && hit.explanation?.calibration != nil)
        }
        // Relevance is the calibrated score, whatever the mode ranked by.
        let calibrated = try await store.search("when is the mobile app launch", mode: .calibrated)
        #expect(calibrated.hits.first?.relevance == calibrated.hits.first?.score)
        #expect(calibrated.hits.first?.relevance == answered.hits.first?.relevance)

        let unanswered = try await store.search("what is the capital of Peru")
        #expect(!unanswered.hits.isEmpty)
        #expect(!unanswered.goodMatch)
        #expect(unanswered.goodMatches.isEmpty)
        // Keyword mode has no vector to estimate from: a hit there counts as a match.
        let keyword = try await store.search("security audit", mode: .keyword)
        #expect(keyword.hits.first?.relevance == nil && keyword.goodMatchThreshold == nil && keyword.goodMatch)
        #expect(try await store.search("zzzz qqqq", mode: .keyword).goodMatch == false)
    }

    @Test func aSmallStoreCountsAnyHitAsAGoodMatch() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert(Self.meetings + Corpus.documents)
        let results = try await store.search("what is the capital of Peru")
        #expect(!results.hits.isEmpty && results.hits.allSatisfy { $0.relevance != nil })
        #expect(results.goodMatchThreshold == nil && results.goodMatch)
        #expect(results.goodMatches == results.hits)
        // The large store tells.
        #expect(try await Self.store().search("what is the capital of Peru").goodMatch == false)
    }

    @Test func minRelevanceKeepsTheHitsThatReachIt() async throws {
        let store = try await Self.store()
        let all = try await store.search("travel policy trains", limit: 12)
        let threshold = try #require(all.goodMatchThreshold)
        let kept = try await store.search("travel policy trains", limit: 12, minRelevance: threshold)
        #expect(!kept.hits.isEmpty && kept.hits.count < all.hits.count)
        #expect(kept.hits.map(\.id) == all.goodMatches.map(\.id))
        #expect(try await store.search("capital of Peru", minRelevance: threshold).hits.isEmpty)
        await #expect(throws: SearchError.self) { try await store.search("travel", minRelevance: 1.5) }
    }

    @Test func summariesAreMadeOfTheGoodMatchesAlone() async throws {
        let store = try await Self.store()
        #expect(try await store.summarize(query: "what is the capital of Peru").sentences.isEmpty)
        let results = try await store.search("when is the mobile app launch postponed", limit: 5)
        let summary = try await store.summarize(results: results, sentences: 2)
        #expect(!summary.sentences.isEmpty)
        #expect(Set(summary.documentIDs).isSubset(of: Set(results.goodMatches.map(\.id))))
        #expect(summary.sentences.contains { $0.text.contains("July 14") })
        #expect(
            try await store.summarize(query: "when is the mobile app launch postponed").documentIDs.contains("m-retro"))
    }

    @Test func theContextNumbersAndCitesTheGoodMatchesWithinItsBudget() async throws {
        let store = try await Self.store()
        let context = try await store.answerContext(for: "when is the mobile app launch postponed", limit: 3)
        #expect(context.goodMatch)
        let first = try #require(context.passages.first)
        #expect(first.number == 1 && first.id == "m-retro" && first.field == "Outcomes")
        #expect(first.citation == "[1] Mobile app v2 retrospective · Outcomes · 2026-06-01")
        #expect(first.text == "Outcomes: Launch postponed to July 14 until the security audit is done.")
        #expect(context.prompt.hasPrefix("Question: when is the mobile app launch postponed\n\n[1] Mobile app v2"))
        #expect(context.passages.map(\.number) == Array(1...context.passages.count))
        #expect(context.tokenCount <= 1_000)

        // A small budget keeps fewer passages and cuts the last at a word, within the budget.
        let words: @Sendable (String) -> Int = { $0.split(whereSeparator: \.isWhitespace).count }
        let results = try await store.search("mobile app launch postponed security audit", limit: 5)
        let roomy = store.answerContext(for: results, tokenBudget: 400, tokenCount: words)
        let tight = store.answerContext(for: results, tokenBudget: 24, tokenCount: words)
        #expect(roomy.passages.first?.isTrimmed == false)
        #expect(tight.passages.count == 1 && tight.passages.count <= roomy.passages.count)
        #expect(tight.passages.first?.isTrimmed == true && tight.passages.first?.text.hasSuffix(" …") == true)
        #expect(words(tight.prompt) <= 24 && tight.tokenCount == words(tight.prompt))

        let nothing = try await store.answerContext(for: "what is the capital of Peru")
        #expect(!nothing.goodMatch && nothing.passages.isEmpty)
        #expect(nothing.prompt == "Question: what is the capital of Peru")
    }

    @Test func aPassageIsCutAtASentenceOrAWord() {
        let words: (String) -> Int = { $0.split(whereSeparator: \.isWhitespace).count }
        let text = "One two three four five. Six seven eight nine ten eleven twelve."
        #expect(AnswerContext.trimmed(text, toTokens: 9, tokenCount: words) == "One two three four five. …")
        #expect(AnswerContext.trimmed(text, toTokens: 4, tokenCount: words) == nil)
        #expect(
            AnswerContext.trimmed("a b c d e f g h i j k l m n", toTokens: 9, tokenCount: words) == "a b c d e f g h …")
    }

    @Test func resultsEncodedBeforeTheyHeldTheirQueryStillDecode() throws {
        let older = #"{"hits": [], "timings": {"embedMs": 1, "searchMs": 2, "totalMs": 3}}"#
        let results = try JSONDecoder().decode(SearchResults.self, from: Data(older.utf8))
        #expect(results.query.isEmpty && results.goodMatchThreshold == nil && !results.goodMatch)
    }
}
