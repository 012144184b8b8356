/// Builds FTS5 MATCH expressions that are always valid, whatever the user typed, from the words the index
/// holds.
///
/// User input is never passed to FTS5 as syntax. It is split into terms (runs of letters, digits and
/// combining marks); every term becomes a double-quoted string token, so `AND`, `OR`, `NOT`, `NEAR`, `*`,
/// `^`, `:`, `-`, `+`, parentheses and quotes are only ever text. Terms are joined with `OR`; bm25 then
/// ranks documents that match more (and rarer) terms higher. A phrase the user put in double quotes is one
/// more alternative, the phrase of its words (``quotedPhrases(_:)``), so that what says it as written ranks first.
/// A word or quoted phrase after a minus (``exclusion(_:)``) is not searched for: the documents it matches are
/// left out of the search.
///
/// CJK, Thai, Lao, Khmer and Myanmar have no spaces between words, so their runs are indexed as overlapping
/// bigrams plus the run's last character (`東京大学` → `東京 京大 大学 学`, see ``KeywordText/segment(_:)``).
/// Such a run in a query matches each of its bigrams on its own, plus the run as a phrase of bigrams
/// (`"東京 京大 大学" OR "東京" OR "京大" OR "大学"`): a page that has the words in another order or with other
/// words between them is found, and bm25 ranks the pages with the whole run (and the rarer bigrams) first. One
/// letter is a prefix (`"学"*`). This keeps one `porter unicode61` table for every language (see
/// docs/store-schema.md for the trigram comparison). Other scripts keep their words whole, vowel signs
/// included (the table's tokenizer counts marks as letters).
enum FTSQuery {
    /// The terms of `text`: lower-cased runs of letters, digits and marks, in order, without duplicates.
    static func terms(_ text: String) -> [String] {
        var seen = Set<String>()
        return words(text).filter { seen.insert($0).inserted }
    }

    /// The words of `text` as the index holds them (``KeywordText/words(_:)``).
    static func words(_ text: String) -> [String] {
        KeywordText.words(text)
    }

    /// A MATCH expression for `terms`, or `nil` when there is nothing to match. Terms are joined by `OR`
    /// (a CJK run also by its bigrams, see `tokens(_:)`); with `requireAll` each term is one token (a CJK run
    /// its phrase) and they are joined by `AND`.
    static func expression(terms: [String], requireAll: Bool = false) -> FTSExpression? {
        var seen = Set<String>()
        var tokens: [String] = []
        for term in terms {
            let alternatives = Self.tokens(term)
            let chosen = requireAll ? Array(alternatives.prefix(1)) : alternatives
            for token in chosen where seen.insert(token).inserted { tokens.append(token) }
        }
        guard !tokens.isEmpty else { return nil }
        return FTSExpression(
            text: tokens.joined(separator: requireAll ? " AND " : " OR "), alternatives: requireAll ? 1 : tokens.count,
            orTokens: requireAll ? nil : tokens)
    }

    /// A MATCH expression for raw user text.
    static func expression(for text: String, requireAll: Bool = false) -> FTSExpression? {
        expression(terms: terms(text), requireAll: requireAll)
    }

    /// The word being typed at the end of `text`: its last term when the text ends inside it (no space or
    /// punctuation after it), with the text before it, or `nil`. A term of one character, or with CJK in it (its
    /// bigrams already match as it grows, and a lone character is a prefix already), is not one.
    ///
    /// ```swift
    /// FTSQuery.partialLastWord("trouble slee")  // ("slee", "trouble ")
    /// FTSQuery.partialLastWord("trouble ")      // nil
    /// ```
    static func partialLastWord(_ text: String) -> (word: String, before: Substring)? {
        guard let last = text.unicodeScalars.last, WordSplitter.isIndexedCharacter(last) else { return nil }
        var start = text.endIndex
        while start > text.startIndex {
            let previous = text.index(before: start)
            guard text[previous].unicodeScalars.allSatisfy(WordSplitter.isIndexedCharacter) else { break }
            start = previous
        }
        guard let word = terms(String(text[start...])).last, word.count > 1,
            !word.unicodeScalars.contains(where: KeywordText.isBigrammed)
        else { return nil }
        return (word, text[..<start])
    }

    /// The tokens that match `word` as the start of a longer word: `"word"*`, and, since the index holds
    /// Porter stems (which can be shorter than what was typed: `happines` is on its way to `happiness`, stored
    /// as `happi`), the shorter beginnings of `word` that a stem could be, as whole tokens: down to 3
    /// characters and at most 4 shorter than `word`, and only those that are their own stem (the index stems
    /// a query token too: `ins` would become the word `in`).
    ///
    /// ```swift
    /// FTSQuery.prefixTokens("happines")  // ["\"happines\"*", "\"happin\"", "\"happi\"", "\"happ\""]
    /// ```
    static func prefixTokens(_ word: String) -> [String] {
        let characters = Array(word)
        var tokens = [quote(word) + "*"]
        let shortest = max(3, characters.count - 4)
        if characters.count > shortest {
            for length in stride(from: characters.count - 1, through: shortest, by: -1) {
                let start = String(characters[..<length])
                if KeywordStemmer.stem(start) == start { tokens.append(quote(start)) }
            }
        }
        return tokens
    }

    /// `base` (the expression of the words typed before) joined by `OR` with `extra` tokens.
    static func expression(_ base: FTSExpression?, adding extra: [String]) -> FTSExpression? {
        var seen = Set<String>()
        let added = extra.filter { seen.insert($0).inserted }
        let tokens = (base.map { [$0.text] } ?? []) + added
        guard !tokens.isEmpty else { return nil }
        // An AND base is one unit, of which nothing can be left out.
        let orTokens = base.map { $0.orTokens.map { $0 + added } } ?? added
        return FTSExpression(
            text: tokens.joined(separator: " OR "), alternatives: (base?.alternatives ?? 0) + added.count,
            orTokens: orTokens)
    }

    /// One term as safe FTS5 tokens, the whole term first: a quoted string; for a term with a run of a script
    /// written without spaces, the phrase of its indexed parts (bigrams, and words of other scripts), followed
    /// by each part alone (a Han, kana or Hangul bigram) or each three letters (two bigrams as a phrase: Thai,
    /// Lao, Khmer and Myanmar bigrams, of an alphabet's letters, are too common to match alone: "าก" is in
    /// "มาก", very, and in "บรรยากาศ", atmosphere); a single letter as a quoted prefix; a word of the scripts
    /// of India and Sri Lanka also as the prefixes of its inflected forms (``KeywordText/inflectionPrefixes(_:)``);
    /// a run of symbols (an emoji sequence, a flag) as the phrase of them only.
    static func tokens(_ term: String) -> [String] {
        var parts: [String] = []  // as indexed, in order
        var alternatives: [String] = []  // matched alone, prefixes with a "*"
        var symbols = 0  // symbols are matched only together: 🇹🇭 is not 🇹 alone
        for piece in KeywordText.pieces(term) {
            switch piece {
            case .text(let other):
                parts.append(String(other))
                alternatives.append(quote(String(other)))
                alternatives += KeywordText.inflectionPrefixes(String(other)).map { quote($0) + "*" }
            case .run(let letters) where letters.count == 1:
                parts.append(String(letters[0]))
                alternatives.append(quote(String(letters[0])) + "*")
            case .symbol(let symbol):
                parts.append(String(symbol))
                symbols += 1
            case .run(let letters):
                let bigrams = (0..<(letters.count - 1)).map { String(letters[$0] + letters[$0 + 1]) }
                parts += bigrams
                let alone = bigrams.count == 1 || letters[0].first.map(KeywordText.isCJK) == true
                alternatives +=
                    alone
                    ? bigrams.map(quote)
                    : (0..<(bigrams.count - 1)).map {
                        quote(bigrams[$0] + " " + bigrams[$0 + 1])
                    }
            }
        }
        guard !parts.isEmpty else { return [] }
        if symbols == 1 && parts.count == 1 { return [quote(parts[0])] }
        if parts.count == 1 { return alternatives }
        var tokens = [quote(parts.joined(separator: " "))]
        var seen = Set(tokens)
        for token in alternatives where seen.insert(token).inserted { tokens.append(token) }
        return tokens
    }

    /// The phrases `text` puts in double quotes (`"…"`, `“…”` or `„…“`) of two words or more, as FTS5 phrase
    /// tokens of their words in order (stop words included: the index holds every word). A phrase with CJK in
    /// it is left out: each CJK run already matches as the phrase of its bigrams (``tokens(_:)``).
    ///
    /// ```swift
    /// FTSQuery.quotedPhrases(#"trips "fear of flying" lately"#)  // ["\"fear of flying\""]
    /// ```
    static func quotedPhrases(_ text: String) -> [String] {
        var phrases: [String] = []
        var current: String?
        for character in text {
            guard quoteMarks.contains(character) else {
                current?.append(character)
                continue
            }
            if let inside = current {
                let words = Self.words(inside)
                if words.count > 1, !inside.unicodeScalars.contains(where: KeywordText.isBigrammed) {
                    let token = phrase(words)
                    if !phrases.contains(token) { phrases.append(token) }
                }
                current = nil
            } else {
                current = ""
            }
        }
        return phrases
    }

    /// What opens and closes a phrase: straight and typographic double quotes (`"…"`, `“…”`, `„…“`).
    static let quoteMarks: Set<Character> = ["\"", "\u{201C}", "\u{201D}", "\u{201E}"]

    /// One FTS5 token for a run of words: the word's own token (``tokens(_:)``) for one, the phrase of the words
    /// for several, and, for several with CJK among them (indexed as bigrams), each word's whole token joined by
    /// `AND`.
    static func phrase(_ words: [String]) -> String {
        if words.count == 1 { return tokens(words[0]).first ?? quote(words[0]) }
        if words.contains(where: { $0.unicodeScalars.contains(where: KeywordText.isBigrammed) }) {
            return "(" + words.compactMap { tokens($0).first }.joined(separator: " AND ") + ")"
        }
        return quote(words.joined(separator: " "))
    }

    /// What `text` excludes with a minus at the start of a word (`flying -fish`, `-"flying fish"`): `text`
    /// without it, and the FTS5 expression that matches the excluded words and phrases (`nil` when there are
    /// none). A minus inside a word (`e-mail`, `covid-19`), alone, or before a digit or another minus (`-5`,
    /// `git --amend`) is text.
    ///
    /// ```swift
    /// FTSQuery.exclusion("flying -fish").kept           // "flying "
    /// FTSQuery.exclusion("flying -fish").excluded?.text // "\"fish\""
    /// ```
    static func exclusion(_ text: String) -> (kept: String, excluded: FTSExpression?) {
        let characters = Array(text)
        let quotes = quoteMarks
        var kept = ""
        var tokens: [String] = []
        var index = 0
        while index < characters.count {
            let character = characters[index]
            let startsWord = index == 0 || characters[index - 1].isWhitespace
            // Only before a letter or a quote: `--amend` is an option's name, `-5` a number.
            guard character == "-" || character == "\u{2212}", startsWord, index + 1 < characters.count,
                characters[index + 1].isLetter || quotes.contains(characters[index + 1])
            else {
                kept.append(character)
                index += 1
                continue
            }
            // The excluded part: a quoted phrase, or the rest of the word.
            var end = index + 1
            var part: ArraySlice<Character>
            if quotes.contains(characters[end]) {
                end += 1
                while end < characters.count, !quotes.contains(characters[end]) { end += 1 }
                part = characters[(index + 2)..<end]
                end = min(end + 1, characters.count)
            } else {
                while end < characters.count, !characters[end].isWhitespace { end += 1 }
                part = characters[(index + 1)..<end]
            }
            let words = Self.words(String(part))
            guard !words.isEmpty else {
                kept.append(character)
                index += 1
                continue
            }
            let token = phrase(words)
            if !tokens.contains(token) { tokens.append(token) }
            index = end
        }
        guard !tokens.isEmpty else { return (text, nil) }
        return (kept, FTSExpression(text: tokens.joined(separator: " OR "), alternatives: tokens.count, orTokens: nil))
    }

    /// `"…"` with inner quotes doubled, the FTS5 string syntax.
    static func quote(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// An FTS5 MATCH expression made by ``FTSQuery``, with what calibration needs to know of it.
struct FTSExpression: Hashable, Sendable {
    /// The expression, for `MATCH ?`.
    var text: String
    /// How many tokens an `OR` expression joins (1 for an `AND` expression): the number of terms whose bm25
    /// contributions one match can add up.
    var alternatives: Int
    /// The tokens an `OR` expression joins, in order (`nil` for an `AND` expression): what a keyword read
    /// leaves out when a token is too common to change the ranking (see `KeywordIndexReader.rows`).
    var orTokens: [String]?
    /// Whether an `OR` expression is read token by token, each token's rows kept for the next search (a search
    /// as you type, where every keystroke repeats the words before it); the ranking is the same.
    var readsTokensApart = false
}
