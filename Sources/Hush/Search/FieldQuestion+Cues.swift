import Foundation

extension FieldQuestion {
    /// A text lowercased and its words in order (letters; in a question, `who's` is one word): whether it holds
    /// one of some words or phrases (whole words, or anywhere in scripts written without spaces), and where the
    /// first of them starts.
    struct Cues {
        let text: String
        let ordered: [String]
        let words: Set<String>
        /// Where each of `ordered` starts, in UTF-8 bytes (as every position here).
        private let starts: [Int]
        /// The text's UTF-8, where phrases are looked for.
        private let bytes: [UInt8]

        /// Whether each of `ordered` opens the question or a clause of it (first, or after `,` `:` `;` `-`).
        private let opens: [Bool]
        /// Where "supposed to" or "meant to" starts when a name or a pronoun is supposed to ("What was Aiko
        /// supposed to send?", "What am I supposed to bring?", "what was Tom meant to replace?").
        let personSupposedTo: Int?
        /// Where "is" or "are" starts when a person named after it is doing something now ("is Daniel ordering").
        let personDoing: Int?
        /// Where the question's main clause starts: after a leading clause of time or place
        /// ("After the lease decision, …"), else 0.
        let mainClause: Int
        /// Where each relative clause of "where" or "when" after a noun lies, to the end of its clause ("the
        /// session where we dropped the release train, which room…"): it only says which meeting.
        let relativeClauses: [Range<Int>]
        /// Where the noun a relative "where" follows starts ("the hotel where the leads met").
        let nounsBeforeWhere: [(word: String, at: Int)]

        /// A question's cues (`who's` one word, with where "supposed to" and the main clause are), or a label's.
        init(_ raw: String, question: Bool) {
            let apostrophesInWords = question
            text = FieldQuestion.straightApostrophes(raw.lowercased())
            bytes = Array(text.utf8)
            var ordered: [String] = []
            var starts: [Int] = []
            var opens: [Bool] = []
            var word = ""
            var clause = true
            var offset = 0
            for character in text {
                defer { offset += character.utf8.count }
                if character.isLetter || (apostrophesInWords && character == "'") {
                    if word.isEmpty {
                        starts.append(offset)
                        opens.append(clause)
                        clause = false
                    }
                    word.append(character)
                } else {
                    if !word.isEmpty {
                        ordered.append(word)
                        word = ""
                    }
                    if ",:;-–—".contains(character) { clause = true }
                }
            }
            if !word.isEmpty { ordered.append(word) }
            self.ordered = ordered
            self.starts = starts
            self.opens = opens
            words = Set(ordered)
            guard question else {
                personSupposedTo = nil
                personDoing = nil
                relativeClauses = []
                nounsBeforeWhere = []
                mainClause = 0
                return
            }
            // The subject of "supposed to": a capitalised name or a pronoun, or any one word but a thing's ("it",
            // "this") right after a form of "be" ("what was ravi supposed to ship") or before one at the start of
            // the question or a clause ("lena was meant to schedule it").
            let original = FieldQuestion.straightApostrophes(raw)
                .split(whereSeparator: { !$0.isLetter && !(apostrophesInWords && $0 == "'") }).map(String.init)
            var named: Int?
            if original.count == ordered.count {
                let be: Set<String> = ["is", "are", "was", "were"]
                let things: Set<String> = ["it", "this", "that", "these", "those", "what", "which", "there"]
                func isPerson(_ at: Int, byPlace: Bool) -> Bool {
                    guard at >= 0, !things.contains(ordered[at]), !be.contains(ordered[at]) else { return false }
                    return ["i", "we", "he", "she", "they", "you"].contains(ordered[at])
                        || (original[at].first?.isUppercase ?? false) || (byPlace && ordered[at].count > 1)
                }
                for index in ordered.indices.dropFirst(2)
                where ["supposed", "meant"].contains(ordered[index]) && index + 1 < ordered.count
                    && ordered[index + 1] == "to"
                {
                    let inverted = isPerson(index - 1, byPlace: be.contains(ordered[index - 2]))
                    let leading =
                        be.contains(ordered[index - 1])
                        && isPerson(index - 2, byPlace: index - 2 == 0 || opens[index - 2])
                    if inverted || leading {
                        named = starts[index]
                        break
                    }
                }
            }
            personSupposedTo = named
            // "…is Daniel ordering": a form of "be", a capitalised name, a verb in -ing.
            personDoing =
                original.count != ordered.count
                ? nil
                : ordered.indices.dropFirst().dropLast().first { index in
                    ["is", "are", "was", "were"].contains(ordered[index - 1]) && original[index] != "I"
                        && (original[index].first?.isUppercase ?? false) && ordered[index + 1].count > 4
                        && ordered[index + 1].hasSuffix("ing")
                }.map { starts[$0 - 1] }
            let leads = [
                "after", "before", "during", "since", "at", "in", "on", "for", "from", "nach", "après", "después",
            ]
            if let first = ordered.first, leads.contains(first), let comma = text.firstIndex(of: ",") {
                mainClause = text.utf8.distance(from: text.startIndex, to: comma)
            } else {
                mainClause = 0
            }
            // Where the clause of each word ends: the start of the next word that opens one (one pass, backwards).
            var clauseEnds = [Int](repeating: bytes.count, count: ordered.count)
            var end = bytes.count
            for index in ordered.indices.reversed() {
                clauseEnds[index] = end
                if opens[index] { end = starts[index] }
            }
            var clauses: [Range<Int>] = []
            var nouns: [(word: String, at: Int)] = []
            for index in ordered.indices.dropFirst()
            where ["where", "when"].contains(ordered[index]) && !opens[index]
                && !Self.askingBefore.contains(ordered[index - 1])
            {
                clauses.append(starts[index]..<clauseEnds[index])
                if ordered[index] == "where" { nouns.append((ordered[index - 1], starts[index - 1])) }
            }
            relativeClauses = clauses
            nounsBeforeWhere = nouns
        }

        /// Words after which "where", "who" or "when" still asks ("remind me where", "so where", "by when").
        static let askingBefore: Set<String> = [
            "remember", "recall", "know", "forgot", "forget", "wonder", "wondering", "me", "idea", "sure", "and", "but",
            "so", "then", "ok", "okay", "hey", "also", "exactly", "by", "until",
        ]

        /// The word that starts at `position`, if one does.
        func word(startingAt position: Int) -> String? { starts.firstIndex(of: position).map { ordered[$0] } }

        /// Whether `position` lies in a relative clause.
        func inRelativeClause(_ position: Int) -> Bool { relativeClauses.contains { $0.contains(position) } }

        /// Whether the word at `index` of `ordered` is joined to the next by a hyphen ("post-mortem").
        func hyphenated(_ index: Int) -> Bool {
            let end = starts[index] + ordered[index].utf8.count
            return end < bytes.count && bytes[end] == UInt8(ascii: "-")
        }

        /// Where the word at `index` of `ordered` starts.
        func start(ofWord index: Int) -> Int { starts[index] }

        /// Where the last word starts.
        var lastWordStart: Int? { starts.last }

        /// Where a person's job starts: "tom's job from the layout meeting", "Clara's task after the status
        /// meeting" (not "sven's job offer" or "the job ad").
        var personsJob: Int? {
            let after: Set<String> = ["offer", "offers", "ad", "ads", "title", "posting", "description", "interview"]
            return ordered.indices.dropFirst().first { index in
                ["job", "jobs", "task"].contains(ordered[index]) && ordered[index - 1].hasSuffix("'s")
                    && (index + 1 == ordered.count || !after.contains(ordered[index + 1]))
            }.map { starts[$0 - 1] }
        }

        /// Where a yes-or-no question whether someone was there starts: a form of "be" or "do" opening the question
        /// or a clause, someone in one word (a name, a pronoun, a team: not "it" or "this"), then a word of being
        /// there ("was priya involved…", "did finance sit in…", "was lena part of organising…", "sven kraus
        /// debrief, was jonas one of the people deciding", "did hanna come in person or dial in"). In English.
        var presenceAsked: Int? {
            let asking: Set<String> = ["was", "were", "is", "are", "did", "does", "do"]
            // Not someone: "did we come to a decision", "was it part of the plan".
            let notSomeone: Set<String> = [
                "it", "this", "that", "these", "those", "there", "the", "a", "an", "any", "we",
            ]
            let present: Set<String> = [
                "involved", "part", "there", "present", "attend", "attended", "attending", "join", "joined", "joining",
                "sit", "sat", "sitting", "come", "came", "coming", "dial", "dialled", "dialed", "invited", "along",
            ]
            func isPresent(_ at: Int) -> Bool {
                let next = at + 1 < ordered.count ? ordered[at + 1] : ""
                // "did pricing come up", "was jonas one of the people deciding".
                if ordered[at] == "one" { return next == "of" }
                return present.contains(ordered[at]) && !["up", "back", "out", "through"].contains(next)
            }
            for index in ordered.indices.dropLast(2)
            where opens[index] && asking.contains(ordered[index]) && !notSomeone.contains(ordered[index + 1]) {
                if isPresent(index + 2) { return starts[index] }
            }
            return nil
        }

        func has(_ cues: [String]) -> Bool { cues.contains { words.contains($0) } }
        func contains(_ phrases: [String]) -> Bool { phrases.contains(where: holds) }

        /// Whether the text holds `phrase` (the standard library's search: Foundation's goes through a
        /// locale-aware comparison many times slower, and labels are read for every hit).
        func holds(_ phrase: String) -> Bool { start(of: phrase) != nil }

        /// Where `phrase` first starts in the text: bytes compared, with no allocation (labels are read for every
        /// hit, and a question is matched against a few hundred phrases). A phrase that begins or ends with a Latin
        /// letter matches whole words there ("is about" is not in "this about", "in person" not in "in
        /// personnel"); one in a script written without spaces matches anywhere.
        func start(of phrase: String) -> Int? {
            var phrase = phrase
            return phrase.withUTF8 { needle -> Int? in
                guard let first = needle.first, let last = needle.last, needle.count <= bytes.count else {
                    return nil
                }
                let wholeStart = Self.isLatinLetter(first), wholeEnd = Self.isLatinLetter(last)
                for start in 0...(bytes.count - needle.count) where bytes[start] == first {
                    var matched = 1
                    while matched < needle.count && bytes[start + matched] == needle[matched] { matched += 1 }
                    guard matched == needle.count else { continue }
                    let end = start + needle.count
                    if wholeStart && start > 0 && Self.inWord(bytes[start - 1]) { continue }
                    if wholeEnd && end < bytes.count && Self.inWord(bytes[end]) { continue }
                    return start
                }
                return nil
            }
        }

        private static func isLatinLetter(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        }

        /// Whether a byte next to a match continues a word: a Latin letter, or any byte of a character beyond
        /// ASCII ("é").
        private static func inWord(_ byte: UInt8) -> Bool { isLatinLetter(byte) || byte >= 0x80 }

        /// Where the first of `nouns` starts that follows one of `determiners` within two words ("which room",
        /// "what meeting room", "in welchem Raum"), or nil.
        func first(of nouns: [String], after determiners: [String], notBefore others: [String] = []) -> Int? {
            ordered.indices.first { index in
                nouns.contains(ordered[index])
                    && ordered[max(0, index - 2)..<index].contains { determiners.contains($0) }
                    && !ordered.dropFirst(index + 1).prefix(2).contains { others.contains($0) }
            }.map { starts[$0] }
        }

        /// Where the first of `words` (whole words; with `opening`, only where they open the question or a clause
        /// of it, or follow one of `orAfter`: "the members who got charged" asks for no one) or `phrases`
        /// (anywhere) starts, or nil.
        func first(words cues: [String], phrases: [String], opening: Bool = false, orAfter: Set<String> = []) -> Int? {
            let word = ordered.indices.first { index in
                cues.contains(ordered[index])
                    && (!opening || opens[index] || (index > 0 && orAfter.contains(ordered[index - 1])))
            }.map { starts[$0] }
            let phrase = phrases.compactMap { phrase in
                start(of: phrase)
            }.min()
            return [word, phrase].compactMap { $0 }.min()
        }
    }
}
