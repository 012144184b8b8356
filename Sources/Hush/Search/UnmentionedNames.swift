import Foundation

/// The names a query gives that nothing in the store mentions: "What did we agree with the landlord about the
/// Munich office?" over a planner that never names Munich. Meaning alone rates such a question close to the
/// records about the other offices; that no chunk holds the name says that none of them answers it. It says so only
/// of the hits written in the Latin alphabet, where the name would be spelt as the query spells it.
///
/// A name is a word of the Latin alphabet written with a capital where the sentence does not ask for one (not its
/// first word, nor the first after a full stop, colon or quotation mark) and small letters after it, not a stop
/// word, its "'s" or other ending after an apostrophe aside. Words in capitals are left out: "ER" and "ADHD" in a
/// worry are as often written otherwise in the notes that answer it. A query in title case (more than two thirds of
/// the words that could be names capitalised), a query in German, which capitalises every noun, and one in a
/// script without capitals have none.
///
/// ```swift
/// UnmentionedNames.candidates(in: "Who is running the Berlin hackathon with Ines?", language: "en")
/// // ["Berlin", "Ines"]
/// ```
enum UnmentionedNames {
    /// How much each unmentioned name divides a hit's odds of relevance by: a hit estimated at 0.43 or more stays a
    /// good match with one (multilingual-e5-small's threshold, 0.089), one below that does not. On the planner set's
    /// questions the names nothing mentions were in 17 of the 46 that nothing answers and in 1 of 649 that a record
    /// answers (docs/benchmarks.md).
    static let oddsDivisor: Float = 8

    /// The words of `query` written as names, in order, each once, possessives without their "'s".
    static func candidates(in query: String, language: String) -> [String] {
        guard !["de", "lb"].contains(LanguageTag.primary(language)) else { return [] }
        let stopWords = StopWords.set(for: language)
        var names: [String] = []
        // The words that could be names by where they stand and how they are spelt, and how many are capitalised.
        var placed = 0
        var capitalised = 0
        var word = ""
        // Whether the word being read opens the query or a sentence of it.
        var opensSentence = true
        var wordOpensSentence = true
        func finish() {
            defer { word = "" }
            var name = FieldQuestion.straightApostrophes(word)
            name = String(name.drop(while: { $0 == "'" || $0 == "-" }))
            while name.last == "'" || name.last == "-" { name.removeLast() }
            // "Priya's", "I'm", "Tom'll": the word before the ending.
            if let apostrophe = name.lastIndex(of: "'"),
                Self.endings.contains(name[name.index(after: apostrophe)...].lowercased())
            {
                name = String(name[..<apostrophe])
            }
            guard !wordOpensSentence, name.count >= 2, let first = name.first, Self.isLatin(first),
                name.dropFirst().contains(where: \.isLowercase), !stopWords.contains(name.lowercased())
            else { return }
            placed += 1
            guard first.isUppercase else { return }
            capitalised += 1
            if !names.contains(name) { names.append(name) }
        }
        for character in query {
            if character.isLetter || character.isNumber || character == "'" || character == "\u{2019}"
                || (character == "-" && !word.isEmpty)
            {
                if word.isEmpty { wordOpensSentence = opensSentence }
                word.append(character)
                opensSentence = false
                continue
            }
            if !word.isEmpty { finish() }
            if ".!?:;\"“”«»¿¡(\n".contains(character) { opensSentence = true }
        }
        if !word.isEmpty { finish() }
        // A query in title case ("Notes From The Quarterly Planning Retro") capitalises its words, not its names.
        return placed >= 3 && capitalised * 3 > placed * 2 ? [] : names
    }

    /// Whether documents in `language` are written in the Latin alphabet, so that a name the query spells in it
    /// would be spelt the same there (a Chinese post writes Beijing 北京): an unmentioned name lowers the relevance
    /// of those hits alone. Undetermined languages count as Latin.
    static func writesLatin(_ language: String) -> Bool {
        !nonLatin.contains(LanguageTag.primary(language).lowercased())
    }

    /// Languages whose writing is not the Latin alphabet.
    private static let nonLatin: Set<String> = [
        "zh", "ja", "ko", "ru", "uk", "be", "bg", "mk", "sr", "kk", "ky", "mn", "tg", "el", "ar", "fa", "ur", "ps",
        "he", "yi", "hi", "mr", "ne", "bn", "as", "ta", "te", "kn", "ml", "gu", "pa", "or", "si", "th", "lo", "km",
        "my", "ka", "hy", "am", "ti", "dv",
    ]

    private static func isLatin(_ character: Character) -> Bool {
        character.unicodeScalars.first.map { ScriptCounts.script(of: $0) == .latin } ?? false
    }

    /// What English writes after an apostrophe onto a word: a possessive or a contraction.
    private static let endings: Set<String> = ["s", "m", "re", "ve", "ll", "d", "t"]

    /// The log-odds to take from each hit's relevance for `count` unmentioned names.
    static func logOddsPenalty(_ count: Int) -> Float {
        Float(count) * log(oddsDivisor)
    }
}
