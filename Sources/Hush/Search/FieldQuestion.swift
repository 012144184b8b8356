import Foundation

/// What kind of field a question asks for, from its question word, and what kind a field's label names: so
/// that "Where did I meet Priya about her workload?" shows the meeting's `Location` line, although the words
/// and the meaning of the question match its `Purpose` line best (which only says which meeting it was).
///
/// A question word in English, German, French, Spanish, Chinese or Japanese asks for one or two kinds; a
/// label is of a kind when one of its words names it (`Location`, `Room`, `Venue`, `Ort`, `地点` are places).
/// A record whose best chunk is a field of another kind is shown by its field of the asked kind, when it has
/// one. Labels of no known kind, and questions without a question word, change nothing.
///
/// ```swift
/// FieldQuestion.askedKinds("Where was the Q1 budget review?")  // [.place]
/// FieldQuestion.kind(ofLabel: "Action items")                 // .task
/// ```
enum FieldQuestion {
    /// What a field holds.
    enum Kind: Sendable, Hashable {
        case place, people, reason, time, decision, task
    }

    /// The kinds of field that answer `query` (empty when it asks for none that a label names).
    static func askedKinds(_ query: String) -> Set<Kind> {
        let cues = Cues(query, apostrophesInWords: true)
        var kinds = Set<Kind>()
        // Words that stand alone in spaced scripts; phrases and scripts written without spaces by substring.
        if cues.has(["where", "wo", "wohin", "où", "dónde", "donde"]) || cues.contains(["哪里", "哪儿", "在哪", "どこ", "何処"]) {
            kinds.insert(.place)
        }
        if cues.has(["who", "whom", "wer", "wem", "wen", "qui", "quién", "quien", "quiénes"])
            || cues.contains(["谁", "誰", "だれ"])
        {
            kinds.formUnion([.people, .task])
        }
        if cues.has(["why", "warum", "wieso", "weshalb", "pourquoi"])
            || cues.contains(["por qué", "为什么", "為什麼", "为何", "なぜ", "どうして"])
        {
            kinds.insert(.reason)
        }
        if cues.has(["when", "wann", "quand", "cuándo", "cuando"]) || cues.contains(["什么时候", "何时", "幾時", "いつ"]) {
            kinds.formUnion([.time, .decision])
        }
        if cues.has([
            "decide", "decided", "decision", "decisions", "agree", "agreed", "outcome", "outcomes", "result",
            "conclude", "concluded", "beschlossen", "entschieden", "décidé", "decidimos", "decidió",
        ])
            || cues.contains(["决定", "決定", "结论", "結論"])
        {
            kinds.insert(.decision)
        }
        if cues.contains([
            "need to do", "to-do", "todo", "follow up", "follow-up", "next step", "action item", "supposed to",
            "responsible for", "in charge of", "assigned", "待办", "负责",
        ]) {
            kinds.insert(.task)
        }
        return kinds
    }

    /// The kind of field `label` names, or `nil`.
    static func kind(ofLabel label: String) -> Kind? {
        let cues = Cues(label, apostrophesInWords: false)
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
            || cues.contains(["next step", "follow-up", "follow up", "to-do", "待办", "行动", "任务"])
        {
            return .task
        }
        return nil
    }

    /// A text lowercased and its words (letters; with `apostrophesInWords`, `who's` is one word): whether it
    /// holds one of some words, or one of some phrases anywhere (scripts written without spaces).
    private struct Cues {
        let text: String
        let words: Set<String>

        init(_ raw: String, apostrophesInWords: Bool) {
            text = raw.lowercased()
            words = Set(text.split { !$0.isLetter && !(apostrophesInWords && $0 == "'") }.map(String.init))
        }

        func has(_ cues: [String]) -> Bool { cues.contains { words.contains($0) } }
        func contains(_ phrases: [String]) -> Bool { phrases.contains { text.contains($0) } }
    }
}
