import Foundation

/// What kind of field a question asks for, from its question word, and what kind a field's label names: so
/// that "Where did I meet Priya about her workload?" shows the meeting's `Location` line, although the words
/// and the meaning of the question match its `Purpose` line best (which only says which meeting it was).
///
/// A question's words in English, German, French, Spanish, Chinese or Japanese ask for one or more kinds: its
/// question word ("where", "why", "who", with "who is booking…" asking for a task and "who joined…" for
/// people), and phrases such as "which room", "how many", "the point of" or "have to". A label is of a kind
/// when one of its words names it (`Location`, `Room`, `Venue`, `Ort`, `地点` are places).
/// A record whose best chunk is a field of another kind is shown by its field of the asked kind, when it has
/// one. Labels of no known kind, and questions without a question word, change nothing.
///
/// ```swift
/// FieldQuestion.askedKinds("Where was the Q1 budget review?")  // [.place]
/// FieldQuestion.askedKinds("How many members were charged twice?")  // [.decision]
/// FieldQuestion.kind(ofLabel: "Action items")                 // .task
/// ```
enum FieldQuestion {
    /// What a field holds.
    enum Kind: Sendable, Hashable {
        case place, people, reason, time, decision, task
    }

    /// The kinds of field that answer `query` (empty when it asks for none that a label names): those its first
    /// question word asks for ("Where did we meet when we chose the movers?" asks for a place), or, without one,
    /// those of its first phrase that asks for a kind ("which room", "how many", "anyone").
    static func askedKinds(_ query: String) -> Set<Kind> { asked(query).kinds }

    /// What a question asks for, kept by a search: the kinds of field, and the word that asks, so that a record
    /// whose title holds that word is asked again without it (``kinds(ofTitle:)``).
    struct Asked: Sendable {
        let question: String
        let kinds: Set<Kind>
        /// The word where the deciding cue starts; `nil` when the question asks for no kind.
        let word: String?
        /// Whether it is a question at all: a question word opens it or one of its clauses ("what", "which", "how",
        /// …), or it ends with a question mark. "What was the tagline for the launch?" names no field and still
        /// asks for what came of the meeting, where "launch tagline" looks for the words.
        let isQuestion: Bool
        /// Whether it asks what something cost (``AskedAmount``): a record that states no amount does not answer it.
        let asksForMoney: Bool
        /// What it counts ("how many yubikeys…": "yubikeys"), the word after "how many", "wie viele", "combien de" or
        /// "cuántos"; `nil` when it counts nothing.
        let counted: String?
        /// Whether it asks for a date: "when", or "which month", "what day" and their equivalents. Its answer is a
        /// line that states one (``CalendarWords/statesDate(_:)``).
        let asksForDate: Bool

        init(_ question: String) {
            self.question = question
            let cues = Cues(question, question: true)
            (kinds, word) = FieldQuestion.asked(cues)
            isQuestion = FieldQuestion.isQuestion(question, cues: cues)
            asksForMoney = AskedAmount.isAsked(cues, kinds: kinds)
            counted = FieldQuestion.counted(cues)
            asksForDate = kinds.contains(.time) || FieldQuestion.namesDate(cues)
        }

        /// The kinds of field that answer the question about a record titled `title`: the words of its title only
        /// say which record it is ("offsite venue decision - final price?" asks for the price, not the venue, of the
        /// meeting "Offsite venue decision"), unless "which" or "what" asks for them ("which meeting room" of
        /// "Launch day war room"). The question is read again only when its asking word is in the title.
        func kinds(ofTitle title: String) -> Set<Kind> {
            guard let word, !structureWords.contains(word) else { return kinds }
            var named: Set<String> = []
            forEachWord(in: title.lowercased()) { word in
                if !structureWords.contains(word) { named.insert(word) }
                return word
            }
            guard named.contains(word) else { return kinds }
            var previous: [String] = []
            var blanked = false
            // The question's own letters are kept: a capital says a name ("is Lena looking at").
            let rest = forEachWord(in: question) { word in
                let lowered = word.lowercased()
                defer { previous = Array((previous + [lowered]).suffix(2)) }
                guard named.contains(lowered), !previous.contains(where: { $0 == "which" || $0 == "what" }) else {
                    return word
                }
                blanked = true
                // A name stays a name ("is Lena looking at" of "1:1 with Lena" still has a person doing something).
                let name =
                    word.count > 1 && word.first?.isUppercase == true && word.dropFirst().allSatisfy(\.isLowercase)
                return name ? "Z" : "·"
            }
            return blanked ? askedKinds(rest) : kinds
        }
    }

    /// The kinds `query` asks for, with the word that asks (where its deciding cue starts; `nil` when it asks for
    /// none).
    private static func asked(_ query: String) -> (kinds: Set<Kind>, word: String?) {
        asked(Cues(query, question: true))
    }

    /// The kinds the question read into `cues` asks for, with the word that asks.
    private static func asked(_ cues: Cues) -> (kinds: Set<Kind>, word: String?) {
        // A leading clause of time or place ("After the lease decision, what was Oskar on the hook for?") only
        // says which meeting; the phrases that ask come after it.
        // A relative clause ("the session where we dropped the release train, …") says which meeting too.
        let asking = phrases(cues).filter { $0.at >= cues.mainClause && !cues.inRelativeClause($0.at) }
        guard let (at, kinds) = earliest(questionWords(cues)) ?? earliest(asking) else { return ([], nil) }
        return (kinds, cues.word(startingAt: at))
    }

    /// Whether `query` (read into `cues`) is a question: it ends with a question mark, or a question word opens it or
    /// one of its clauses.
    private static func isQuestion(_ query: String, cues: Cues) -> Bool {
        if let last = query.last(where: { !$0.isWhitespace }), "?？".contains(last) { return true }
        return [QuestionWords.what, .where, .who, .why, .when].contains {
            cues.first(words: $0.words, phrases: $0.phrases, opening: true) != nil
        }
    }

    /// The question words of one meaning in the six languages: whole words in spaced scripts, substrings in
    /// scripts written without spaces.
    struct QuestionWords {
        let words: [String]
        let phrases: [String]

        /// Words that ask for no kind of field by themselves ("what", "which", "how", "whose").
        static let what = QuestionWords(
            words: [
                "what", "what's", "which", "how", "whose", "was", "welche", "welcher", "welches", "wie", "quel",
                "quelle",
                "quels", "quelles", "quoi", "comment", "qué", "cuál", "cuáles", "cómo",
            ],
            phrases: ["什么", "哪", "怎么", "何", "どの", "どう"])
        static let `where` = QuestionWords(
            words: ["where", "where's", "wo", "wohin", "où", "dónde", "donde"],
            phrases: ["哪里", "哪儿", "在哪", "什么地方", "どこ", "何処"])
        static let who = QuestionWords(
            words: ["who", "who's", "who'll", "whom", "wer", "wem", "wen", "qui", "quién", "quien", "quiénes"],
            phrases: ["谁", "誰", "だれ"])
        static let why = QuestionWords(
            words: ["why", "warum", "wieso", "weshalb", "wozu", "pourquoi"],
            phrases: ["por qué", "para qué", "为什么", "為什麼", "为何", "なぜ", "どうして", "何のため"])
        static let when = QuestionWords(
            words: ["when", "wann", "quand", "cuándo", "cuando"], phrases: ["什么时候", "何时", "幾時", "いつ"])
    }

    /// The word a question counts: the first after "how many" and its equivalents ("how many hardware keys" counts
    /// "hardware", whose number stands before it in "50 hardware keys").
    private static func counted(_ cues: Cues) -> String? {
        let words = cues.ordered
        for index in words.indices.dropLast() {
            let pair = (words[index], words[index + 1])
            let opens =
                (pair.0 == "how" && pair.1 == "many") || (pair.0 == "wie" && pair.1 == "viele")
                || (pair.0 == "combien" && pair.1 == "de")
            if opens, index + 2 < words.count { return words[index + 2] }
            if ["cuántos", "cuántas", "cuantos", "cuantas"].contains(pair.0) { return pair.1 }
        }
        return nil
    }

    /// Whether the question read into `cues` asks which month, day or date ("which month is the pentest in?", "an
    /// welchem Tag", "哪天").
    private static func namesDate(_ cues: Cues) -> Bool {
        cues.first(
            of: [
                "month", "day", "date", "week", "monat", "tag", "datum", "woche", "mois", "jour", "mes", "día", "fecha",
            ],
            after: ["which", "what", "welche", "welcher", "welchem", "welchen", "quel", "quelle", "qué", "cuál"])
            != nil || cues.first(words: [], phrases: ["哪天", "哪一天", "几号", "几月", "哪个月", "何月", "何日"]) != nil
    }

    /// `text` with each of its words (letters and apostrophes) replaced by what `replace` returns for it, the
    /// characters between them kept.
    @discardableResult
    private static func forEachWord(in text: String, _ replace: (String) -> String) -> String {
        var result = ""
        var word = ""
        for character in straightApostrophes(text) {
            if character.isLetter || character == "'" {
                word.append(character)
                continue
            }
            if !word.isEmpty { result += replace(word) }
            word = ""
            result.append(character)
        }
        if !word.isEmpty { result += replace(word) }
        return result
    }

    /// `text` with its typographic apostrophes (’) straight ('), as the cues are written; no copy when it has none
    /// (Foundation's replacement costs more than the rest of a question's reading).
    static func straightApostrophes(_ text: String) -> String {
        text.contains("\u{2019}") ? String(text.map { $0 == "\u{2019}" ? "'" : $0 }) : text
    }

    /// Words that a title shares with the questions about it without naming it: question words, articles,
    /// prepositions, and the forms of "be" and "do".
    private static let structureWords: Set<String> = [
        "who", "where", "why", "when", "what", "which", "how", "the", "a", "an", "of", "on", "in", "at", "for", "to",
        "with", "about", "and", "or", "by", "from", "is", "was", "were", "are", "be", "do", "did", "does", "we", "i",
        "our", "my", "me", "us",
    ]

    /// Where the cue found first starts, and its kinds (those of every cue found there).
    private static func earliest(_ found: [(at: Int, kinds: Set<Kind>)]) -> (at: Int, kinds: Set<Kind>)? {
        guard let first = found.map(\.at).min() else { return nil }
        return (first, found.filter { $0.at == first }.reduce(into: []) { $0.formUnion($1.kinds) })
    }

    /// Where the question words are and what each asks for: "where", "who", "why", "when" and their
    /// equivalents. Words that stand alone in spaced scripts; scripts written without spaces by substring.
    private static func questionWords(_ cues: Cues) -> [(at: Int, kinds: Set<Kind>)] {
        var found: [(at: Int, kinds: Set<Kind>)] = []
        // A "where" after a noun only says which meeting ("the status meeting where the waitlists were done").
        if let at = cues.first(
            words: QuestionWords.where.words, phrases: QuestionWords.where.phrases, opening: true,
            orAfter: Cues.askingBefore) ?? (cues.ordered.last == "where" ? cues.lastWordStart : nil)
        {
            found.append((at, whereAsks(cues)))
        }
        if let at = cues.first(
            words: QuestionWords.who.words, phrases: QuestionWords.who.phrases, opening: true,
            orAfter: ["remember", "recall", "know", "forgot", "forget", "wonder", "wondering", "me"])
        {
            found.append((at, whoAsks(cues)))
        }
        if let at = cues.first(words: QuestionWords.why.words, phrases: QuestionWords.why.phrases) {
            found.append((at, whyAsks(cues)))
        }
        // "Was Priya involved when we split the budget?": who was there.
        if let at = cues.presenceAsked { found.append((at, [.people])) }
        // A "when" inside a clause only says which meeting ("Which room were we in when we chose the fairs?").
        if let at = cues.first(
            words: QuestionWords.when.words, phrases: QuestionWords.when.phrases, opening: true,
            orAfter: ["by", "and", "so", "but", "then", "until"])
        {
            // "When does the fix have to be on staging?" asks for a task's deadline.
            found.append((at, taskCue(cues) != nil ? [.task, .time] : [.time, .decision]))
        }
        return found
    }

    /// Where the phrases of a question without a question word are and what each asks for: a place or people
    /// after "which" ("which room", "which investors") or named by a label's word ("venue", "attendees"),
    /// "anyone", a purpose ("the point of", "talk about", "discuss", "meant to", "what was it for", "what … was about"), a decision or
    /// a figure ("decide", "how many", "still"), a task ("have to", "need to do", "left to do").
    private static func phrases(_ cues: Cues) -> [(at: Int, kinds: Set<Kind>)] {
        var found: [(at: Int, kinds: Set<Kind>)] = []
        let which = ["which", "what", "welche", "welcher", "welchem", "welchen", "quel", "quelle", "qué", "cuál"]
        let place = [
            cues.first(
                words: ["location", "venue", "address", "adresse", "dirección"],
                phrases: ["in person", "part of town", "哪个房间", "哪个会议室", "地点", "どの部屋", "場所"]),
            // "which studio", not "which studio owner" or "what caused Studio Nord's members".
            cues.first(of: placeNouns, after: which, notBefore: personNouns),
            // "soc2 status meeting october room", "room for the board meeting?", not "who was in the room".
            cues.holds("in the room") ? nil : cues.first(words: ["room", "raum", "salle"], phrases: ["会议室", "会議室"]),
        ].compactMap { $0 }.min()
        if let at = place { found.append((at, [.place])) }
        // "the hotel where the leads met": the place.
        if let noun = cues.nounsBeforeWhere.first(where: {
            placeNouns.contains($0.word) || ["hotel", "office"].contains($0.word)
        }) {
            found.append((noun.at, [.place]))
        }
        let people = [
            cues.first(
                words: [
                    "anyone", "anybody", "someone", "somebody", "attendees", "participants", "contact", "contacts",
                    "jemand", "teilnehmer", "ansprechpartner", "kontakt", "quelqu'un", "alguien", "asistentes",
                    "contacto",
                ],
                phrases: ["有人", "誰か", "参会", "出席", "联系人"]),
            cues.first(of: personNouns, after: which),
            personsName(cues),
        ].compactMap { $0 }.min()
        if let at = people { found.append((at, [.people])) }
        // A question that opens with a person's noun heading its phrase: "lawyer at the lease decision meeting?",
        // "the aggregator person we interviewed" (but "junior security engineer hiring" asks about the hiring).
        let heads: Set<String> = ["at", "from", "in", "on", "for", "of", "with", "who", "that", "we", "i", "you"]
        if let index = cues.ordered.prefix(3).firstIndex(where: singularPersonNouns.contains),
            index + 1 == cues.ordered.count || heads.contains(cues.ordered[index + 1])
        {
            found.append((cues.start(ofWord: index), [.people]))
        }
        // "How many engineers were there?": the people, or a figure in the outcome.
        if let at = cues.first(words: [], phrases: ["how many"]), cues.first(of: personNouns, after: ["many"]) != nil {
            found.append((at, [.people, .decision]))
        }
        if let at = cues.first(
            words: [
                "purpose", "agenda", "discuss", "discussed", "reason", "topic", "topics", "prompted", "worum", "zweck",
                "grund", "thema", "besprechen", "discuter", "raison", "sujet", "discutir", "motivo", "tema",
            ],
            phrases: [
                "point of", "what for", "talk about", "talked about", "meet about", "met about", "trying to",
                "find out", "need to decide", "needed to decide", "need to agree", "needed to agree",
                "need to confirm", "needed to confirm", "was about", "were about", "is about",
                "go through", "went through", "going through",
                "goal of", "look at", "looking at", "looked at", "look into", "looking into", "looked into",
                "dans quel but", "à quoi", "目的", "原因", "主题", "話題", "理由", "テーマ",
            ] + (cues.holds("supposed to do") || cues.personSupposedTo != nil ? [] : ["supposed to", "meant to"])),
            !cues.holds("point of contact")
        {
            found.append((at, [.reason]))
        }
        // "What was the retro for?": "what's" or "what was" (is, were, are), and "for" as the last word; "what my
        // 1:1 with Nora was about".
        let words = cues.ordered
        if words.count > 2, words.last == "for",
            words[0] == "what's" || (words[0] == "what" && ["was", "is", "were", "are"].contains(words[1])),
            let at = cues.lastWordStart
        {
            found.append((at, [.reason]))
        }
        // "what were we measuring", "what was I preparing": what the meeting was for.
        if words.contains(where: { $0 == "what" || $0 == "what's" }),
            let index = words.indices.dropLast(2).first(where: { index in
                ((words[index] == "were" && words[index + 1] == "we")
                    || (words[index] == "was" && words[index + 1] == "i"))
                    && words[index + 2].count > 4 && words[index + 2].hasSuffix("ing")
                    && !["doing", "going", "getting"].contains(words[index + 2])
            })
        {
            found.append((cues.start(ofWord: index), [.reason]))
        }
        if words.count > 3, words.last == "about",
            words.dropLast(2).contains(where: { $0 == "what" || $0 == "what's" }),
            ["was", "is", "were", "are", "be"].contains(words[words.count - 2]), let at = cues.lastWordStart
        {
            found.append((at, [.reason]))
        }
        if let at = cues.first(
            words: [
                "decide", "decided", "decision", "decisions", "agree", "agreed", "outcome", "outcomes", "result",
                "results", "conclude", "concluded", "pick", "picked", "choose", "chose", "chosen", "dropped", "still",
                "number", "figure", "price", "prices", "cost", "costs", "salary", "salaries", "zahl", "chiffre",
                "cifra", "preis", "kosten", "gehalt",
                "prix", "coût", "precio", "coste",
                "beschlossen", "entschieden", "noch", "combien", "décidé", "encore", "decidimos", "decidió", "cuánto",
                "cuánta", "cuántos", "cuántas", "todavía",
            ],
            phrases: [
                "how much", "how many", "how often", "go with", "went with", "settle on", "settled on", "rule out",
                "end up", "ended up",
                "ruled out", "wie viel", "wie oft", "决定", "決定", "结论", "結論", "多少", "いくら", "何人", "まだ",
            ])
        {
            found.append((at, [.decision]))
        }
        if let at = taskCue(cues) { found.append((at, [.task])) }
        // "how many of us were there": the people, not a figure.
        if let at = cues.first(words: [], phrases: ["how many of us", "how many of them"]) {
            found.removeAll { $0.at == at }
            found.append((at, [.people]))
        }
        // "Which tools is Lena looking at?", "How many keys is Daniel ordering?": what a person named in the question
        // is doing now is that person's task, a figure too.
        if let doing = cues.personDoing {
            if let at = cues.first(words: [], phrases: ["how many", "how much"]) { found.removeAll { $0.at == at } }
            found.append((doing, [.task]))
        }
        // "Which studio did we kick the beta off at?": a place ("what were we looking at" asks what for, "what time
        // … at" when, "what did we cap the budget at" an amount).
        if words.count > 3, words.last == "at", ["which", "what"].contains(words[0]),
            !["look", "looking", "looked", "good", "bad", "aimed", "aiming"].contains(words[words.count - 2]),
            !words.contains(where: {
                ["time", "hour", "price", "rate", "cost", "level", "stage", "cap", "capped"].contains(
                    $0)
            }),
            let at = cues.lastWordStart
        {
            found.append((at, [.place]))
        }
        return found
    }

    /// Where a question asks for a person by name: "what's her name", "the architect's name", "name of the
    /// studio owner" (a person's noun within three words after "of").
    private static func personsName(_ cues: Cues) -> Int? {
        let words = cues.ordered
        return words.indices.first { index in
            guard words[index] == "name" || words[index] == "names" else { return false }
            if index > 0 {
                let before = words[index - 1]
                let owner = before.hasSuffix("'s") ? String(before.dropLast(2)) : before
                if ["her", "his", "their", "whose"].contains(before) || personNouns.contains(owner) { return true }
            }
            return words.count > index + 1 && words[index + 1] == "of"
                && words.dropFirst(index + 2).prefix(3).contains(where: personNouns.contains)
        }.map { cues.start(ofWord: $0) }
    }

    /// Where the first phrase that asks for a task is: "have to", "need to do", "left to do", "on the hook",
    /// "deadline", or "supposed to" said of a person ("What was Aiko supposed to send?").
    private static func taskCue(_ cues: Cues) -> Int? {
        let phrases = [
            "need to do", "to-do", "to-dos", "follow up", "follow ups", "follow-up", "follow-ups", "next step",
            "next steps", "action item", "action items", "deadlines", "supposed to do",
            "left to do", "still to do", "to be done", "doing about", "on the hook", "deadline", "responsible for",
            "in charge of", "assigned", "have to", "has to", "had to", "take on", "took on", "taken on", "taking on",
            "promised to", "promise to", "offered to", "volunteered to",
            "待办", "负责",
        ]
        let named = [cues.personSupposedTo, cues.personsJob].compactMap { $0 }
        let words = ["tasks", "todo", "todos", "due", "owe", "owes", "homework", "assignment", "assignments"]
        return ([cues.first(words: words, phrases: phrases)] + named)
            .compactMap { $0 }.min()
    }

    /// Nouns that ask for a place right after "which" or "what": "Which room was the board meeting in?".
    private static let placeNouns = [
        "room", "hall", "place", "city", "town", "street", "building", "floor", "lobby", "park", "café", "cafe",
        "restaurant", "studio", "district", "neighbourhood", "neighborhood", "raum", "saal", "ort", "stadt", "straße",
        "strasse", "viertel", "stadtteil", "salle", "lieu", "ville", "rue", "quartier", "sala", "lugar", "ciudad",
        "calle", "parque", "barrio",
    ]

    /// Nouns that ask for people right after "which" or "what": "Which investors came?".
    private static let personNouns = [
        "people", "person", "engineer", "engineers", "investor", "investors", "colleague", "colleagues", "member",
        "members", "lawyer", "lawyers", "designer", "designers", "developer", "developers", "manager", "managers",
        "candidate", "candidates", "speaker", "speakers", "architect", "architects", "owner", "owners", "agent",
        "agents", "tester", "testers", "auditor", "auditors", "consultant", "consultants", "recruiter", "recruiters",
        "contractor", "contractors", "leute", "personnes", "personas",
    ]

    /// A person's noun in the singular, which opening a question asks who that was.
    private static let singularPersonNouns: Set<String> = [
        "person", "lawyer", "architect", "agent", "designer", "developer", "engineer", "manager", "candidate",
        "speaker", "investor", "colleague", "tester", "auditor", "consultant", "recruiter", "contractor", "owner",
    ]

    /// What a "who" question asks for: in English, the people there when it asks about the past ("Who joined
    /// the retro?"), the one with a task when it asks who is doing or will do something ("Who is booking the
    /// viewings?"); either otherwise, and in the other languages.
    private static func whoAsks(_ cues: Cues) -> Set<Kind> {
        let words = cues.ordered
        guard let at = words.firstIndex(where: { ["who", "who's", "who'll"].contains($0) }) else {
            return [.people, .task]
        }
        if words[at] == "who'll" { return [.task, .decision] }
        let next = words.dropFirst(at + 1).first ?? ""
        let after = words.dropFirst(at + 2).first ?? ""
        // "who did we interview", "who did Oskar meet": the people met.
        if next == "did" { return [.people] }
        // "who was setting up the laptop": a task, or who was there ("who was presenting").
        if next == "was" || next == "were", after.count > 4, after.hasSuffix("ing") { return [.people, .task] }
        if words[at] == "who's" || next == "is" || next == "are" {
            // "who is booking", "who's going to": a task; "who is the agent": either.
            let verb = words[at] == "who's" ? next : after
            return verb.count > 4 && verb.hasSuffix("ing") ? [.task] : [.people, .task]
        }
        if ["will", "should", "has", "have", "needs", "must", "can"].contains(next) { return [.task, .decision] }
        // "who briefs sales", "who books the room": a task, done now or from now on; "who attends" the people.
        if ["attends", "joins", "comes", "sits", "participates"].contains(next) { return [.people] }
        if next.count > 3, next.hasSuffix("s"), !next.hasSuffix("ss") { return [.task] }
        let past = [
            "was", "were", "from", "else", "came", "went", "met", "sat", "saw", "showed", "gave", "led", "took",
        ]
        if past.contains(next) || (next.count > 3 && next.hasSuffix("ed")) { return [.people] }
        // "who we invited", "who I met": the people.
        if ["we", "i", "you", "they"].contains(next), past.contains(after) || (after.count > 3 && after.hasSuffix("ed"))
        {
            return [.people]
        }
        return [.people, .task]
    }

    /// What a "where" question asks for: in English, the meeting's place when it asks about the past or about
    /// a place ("Where did we brief the agency?", "Where is the architect's studio?"), but the plan that says
    /// where, an outcome or a task, when it asks where something will be done or is being done ("Where will the
    /// job ads be posted?", "Where is the Lisbon team staying?", "Where do the leads put their goals?").
    private static func whereAsks(_ cues: Cues) -> Set<Kind> {
        let words = cues.ordered
        guard let at = words.firstIndex(where: { $0 == "where" || $0 == "where's" }) else { return [.place] }
        let auxiliaries: Set<String> = ["did", "was", "were", "will", "do", "does", "is", "are", "should"]
        let verb = words[at] == "where's" ? at : words[(at + 1)...].firstIndex(where: auxiliaries.contains)
        guard let verb else { return [.place] }
        // Where a thing is put, posted or published, or where someone stays, whatever the tense ("post-mortem"
        // is no verb); where someone is meant to, going to or has to do something.
        let placed = words.indices.dropFirst(at + 1).contains {
            placingVerbs.contains(words[$0]) && !cues.hyphenated($0)
        }
        let intended = ["meant to", "supposed to", "going to", "have to", "has to", "need to"].contains {
            cues.holds($0)
        }
        if placed || intended { return [.task, .decision] }
        let following = words.dropFirst(verb + 1)
        // "Where do we meet…", "Where is the kickoff being held?": still the meeting's place.
        if following.contains(where: { ["meet", "meeting", "being", "held"].contains($0) }) { return [.place] }
        switch words[verb] {
        case "will", "do", "does", "should":
            return [.task, .decision]
        case "is", "are", "where's":
            let doing = following.contains { $0.count > 4 && $0.hasSuffix("ing") }
            return doing ? [.task, .decision] : [.place]
        default:
            return [.place]
        }
    }

    /// The forms of the verbs of putting a thing somewhere ("Where will the job ads be posted?"), listed whole so
    /// that no other word shares their letters ("postponed", "poster", "savings"). "Store", "share" and "save"
    /// are nouns as often, so only their other forms count ("Where is the store?" asks for a place); with "do" or
    /// "will" ("Where do we store…") the auxiliary already asks for the plan.
    private static let placingVerbs: Set<String> = [
        "post", "posts", "posted", "posting", "publish", "publishes", "published", "publishing", "put", "puts",
        "putting", "stay", "stays", "stayed", "staying", "upload", "uploads", "uploaded", "uploading", "advertise",
        "advertises", "advertised", "advertising", "send", "sends", "sending", "sent", "stores", "stored", "storing",
        "shares", "shared", "sharing", "saves", "saved", "saving",
    ]

    /// What a "why" question asks for: the reason a meeting was held, or, when it asks why a choice was made
    /// ("Why did we go with that tool?", "Why did we turn down the office?"), the outcome that says so.
    private static func whyAsks(_ cues: Cues) -> Set<Kind> {
        let words = cues.ordered
        guard let at = words.firstIndex(of: "why") else { return [.reason] }
        let choices: Set<String> = [
            "choose", "chose", "pick", "picked", "go", "went", "turn", "turned", "decide", "decided", "drop",
            "dropped", "reject", "rejected", "cancel", "cancelled", "switch", "switched", "settle", "settled", "rule",
            "ruled",
        ]
        return words.dropFirst(at + 1).prefix(3).contains(where: choices.contains) ? [.decision] : [.reason]
    }

    /// The kind of field `label` names, or `nil`.
    static func kind(ofLabel label: String) -> Kind? {
        let cues = Cues(label, question: false)
        if cues.has([
            "location", "place", "room", "venue", "where", "address", "ort", "raum", "lieu", "salle", "lugar", "sala",
        ])
            || cues.contains(["地点", "地址", "场所", "場所", "会場"])
        {
            return .place
        }
        if cues.has([
            "attendees", "attendee", "participants", "people", "present", "guests", "who", "with", "teilnehmer",
            "asistentes", "participantes",
        ])
            || cues.contains(["参会", "参加", "出席", "与会"])
        {
            return .people
        }
        if cues.has([
            "purpose", "goal", "goals", "reason", "why", "agenda", "objective", "objectives", "zweck", "ziel",
            "objet", "objetivo", "motivo",
        ])
            || cues.contains(["目的", "议程", "議題"])
        {
            return .reason
        }
        if cues.has(["date", "time", "when", "day", "datum", "zeit", "termin", "heure", "fecha", "hora"])
            || cues.contains(["日期", "时间", "時間", "日時"])
        {
            return .time
        }
        if cues.has([
            "outcome", "outcomes", "decision", "decisions", "result", "results", "conclusion", "conclusions",
            "ergebnis", "ergebnisse", "entscheidung", "beschluss", "décision", "décisions", "résultat", "resultado",
            "decisión", "decisiones",
        ])
            || cues.contains(["结论", "决定", "結果", "決定"])
        {
            return .decision
        }
        if cues.has([
            "action", "actions", "tasks", "task", "todo", "todos", "owner", "owners", "aufgaben", "tâches",
            "tareas", "acciones",
        ])
            || cues.contains([
                "next step", "next steps", "follow-up", "follow-ups", "follow up", "follow ups", "to-do", "to-dos",
                "待办", "行动", "任务",
            ])
        {
            return .task
        }
        return nil
    }
}
