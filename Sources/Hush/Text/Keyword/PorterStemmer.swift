/// The stemming rule of the keyword index, in Swift: one word becomes exactly the token that SQLite FTS5's
/// `porter unicode61 remove_diacritics 2` tokenizer (the tokenizer of `chunks_fts`) stores for it.
///
/// The query analyzer (``QueryAnalyzer/stem(_:)``, ``QueryAnalysis/keywords``) and the tag and category boosts
/// use this rule, so two words that the keyword index takes for the same word are the same word for them too.
/// It has two parts, as FTS5 has:
///
/// - ``KeywordFolding``: what `unicode61` does to each character before stemming (lower case, diacritics of
///   Latin letters removed, following SQLite's Unicode 6.1 tables).
/// - ``PorterStemmer``: the Porter algorithm as SQLite's `porter` tokenizer runs it, on the folded word's
///   UTF-8 bytes.
///
/// `TextStemmerTests` checks the rule against SQLite itself: it stems a large real word list (with inflected
/// forms) both ways, through a tokenizer made from the `chunks_fts` table's own definition, and folds every
/// assigned code point both ways; any difference fails the test.
///
/// ```swift
/// KeywordStemmer.stem("Cafés")     // "cafe"
/// KeywordStemmer.stem("MP3s")      // "mp3"
/// KeywordStemmer.stem("meetings")  // "meet"
/// ```
enum KeywordStemmer {
    /// The index token of one word (a run of word characters as `WordSplitter` splits them).
    ///
    /// - Complexity: O(n) in the length of the word.
    static func stem(_ word: String) -> String {
        let folded = KeywordFolding.fold(word)
        // Porter only removes or replaces ASCII endings, so the bytes stay UTF-8 (see `PorterStemmer`).
        return String(decoding: PorterStemmer.stem(Array(folded.utf8)), as: UTF8.self)
    }
}

/// The Porter stemmer of SQLite FTS5's `porter` tokenizer, on the bytes of a folded token.
///
/// This is Martin Porter's 1980 algorithm with the two rules of his later reference implementation
/// (`bli` → `ble`, `logi` → `log` in step 2), run the way SQLite runs it, which a textbook version does not
/// always match:
///
/// - a token of fewer than 3 or more than 64 bytes is left as it is;
/// - every byte takes part: digits and the bytes of non-ASCII letters count as consonants, so `mp3s` becomes
///   `mp3` and `straße` becomes `straß`;
/// - a suffix rule applies only when something is left before the suffix (`ies` stays `ie`, `sses` becomes
///   `sse`, `eed` becomes `e`);
/// - `y` is a vowel after a consonant, except in the double-consonant test of step 1b, where it is always a
///   consonant.
///
/// A byte sequence in, a byte sequence out: the steps remove or replace ASCII endings only, so a valid UTF-8
/// token stays valid UTF-8 (save for one case no real word meets: step 1b's double-consonant rule can drop
/// the last byte of a multi-byte letter whose last two bytes are equal, where SQLite stores the broken token).
///
/// ```swift
/// PorterStemmer.stem(Array("relational".utf8))  // "relat"
/// ```
enum PorterStemmer {
    /// Tokens outside these lengths (in bytes) are not stemmed.
    static let stemmedLengths = 3...64

    /// The stem of `token`, a lower-cased, folded token.
    static func stem(_ token: [UInt8]) -> [UInt8] {
        guard stemmedLengths.contains(token.count) else { return token }
        var word = Word(token)
        word.step1a()
        if word.step1b() { word.step1bTidy() }
        word.step1c()
        word.apply(step2Rules, when: { $0.measure($1) > 0 })
        word.apply(step3Rules, when: { $0.measure($1) > 0 })
        word.apply(step4Rules, when: { candidate, stem in candidate.step4Condition(suffixAt: stem) })
        word.step5()
        return word.bytes
    }

    /// A suffix and what replaces it.
    struct Rule {
        let suffix: [UInt8]
        let replacement: [UInt8]

        init(_ suffix: String, _ replacement: String) {
            self.suffix = Array(suffix.utf8)
            self.replacement = Array(replacement.utf8)
        }
    }

    /// Step 2, measure > 0. Rules are tried in order; the first whose suffix the word ends with (with
    /// something before it) decides, whether or not its condition holds.
    static let step2Rules = [
        Rule("ational", "ate"), Rule("tional", "tion"), Rule("enci", "ence"), Rule("anci", "ance"),
        Rule("izer", "ize"), Rule("logi", "log"), Rule("bli", "ble"), Rule("alli", "al"), Rule("entli", "ent"),
        Rule("eli", "e"), Rule("ousli", "ous"), Rule("ization", "ize"), Rule("ation", "ate"), Rule("ator", "ate"),
        Rule("alism", "al"), Rule("iveness", "ive"), Rule("fulness", "ful"), Rule("ousness", "ous"),
        Rule("aliti", "al"), Rule("iviti", "ive"), Rule("biliti", "ble"),
    ]

    /// Step 3, measure > 0.
    static let step3Rules = [
        Rule("ical", "ic"), Rule("ness", ""), Rule("icate", "ic"), Rule("iciti", "ic"), Rule("ful", ""),
        Rule("ative", ""), Rule("alize", "al"),
    ]

    /// Step 4, measure > 1 (and for `ion`, a stem ending in `s` or `t`): the suffix is removed.
    static let step4Rules = [
        "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou", "ism", "ate",
        "iti", "ous", "ive", "ize",
    ].map { Rule($0, "") }

    /// The word being stemmed: its bytes, shortened and rewritten step by step.
    struct Word {
        private(set) var bytes: [UInt8]

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        private static let a = UInt8(ascii: "a"), e = UInt8(ascii: "e"), i = UInt8(ascii: "i")
        private static let o = UInt8(ascii: "o"), u = UInt8(ascii: "u"), y = UInt8(ascii: "y")
        private static let s = UInt8(ascii: "s"), t = UInt8(ascii: "t"), l = UInt8(ascii: "l")
        private static let z = UInt8(ascii: "z"), w = UInt8(ascii: "w"), x = UInt8(ascii: "x")

        private static func isVowelLetter(_ byte: UInt8) -> Bool {
            byte == a || byte == e || byte == i || byte == o || byte == u
        }

        /// Whether each of the first `length` bytes is a consonant: `y` is a vowel after a consonant.
        private func consonants(_ length: Int) -> [Bool] {
            var result: [Bool] = []
            result.reserveCapacity(length)
            var previousIsConsonant = false
            for index in 0..<length {
                let byte = bytes[index]
                let isConsonant = !(Self.isVowelLetter(byte) || (byte == Self.y && previousIsConsonant))
                result.append(isConsonant)
                previousIsConsonant = isConsonant
            }
            return result
        }

        /// m in [C](VC){m}[V], for the first `length` bytes.
        func measure(_ length: Int) -> Int {
            var count = 0
            var previousIsConsonant = true
            for isConsonant in consonants(length) {
                if isConsonant && !previousIsConsonant { count += 1 }
                previousIsConsonant = isConsonant
            }
            return count
        }

        /// *v*: the first `length` bytes hold a vowel.
        private func hasVowel(_ length: Int) -> Bool {
            consonants(length).contains(false)
        }

        /// *o: the first `length` bytes end consonant-vowel-consonant, the last not `w`, `x` or `y`.
        private func endsCVC(_ length: Int) -> Bool {
            guard length >= 3 else { return false }
            let last = bytes[length - 1]
            guard last != Self.w && last != Self.x && last != Self.y else { return false }
            let kinds = consonants(length)
            return kinds[length - 3] && !kinds[length - 2] && kinds[length - 1]
        }

        /// Where `suffix` starts when the word ends with it and something comes before it.
        private func start(of suffix: [UInt8]) -> Int? {
            guard bytes.count > suffix.count, bytes.suffix(suffix.count).elementsEqual(suffix) else { return nil }
            return bytes.count - suffix.count
        }

        private mutating func replace(from stem: Int, with replacement: [UInt8]) {
            bytes.replaceSubrange(stem..., with: replacement)
        }

        /// Step 1a: plurals. `sses` → `ss`, `ies` → `i`, `ss` stays, `s` goes.
        mutating func step1a() {
            let count = bytes.count
            guard bytes[count - 1] == Self.s else { return }
            if bytes[count - 2] == Self.e {
                let sses = count > 4 && bytes[count - 4] == Self.s && bytes[count - 3] == Self.s
                let ies = count > 3 && bytes[count - 3] == Self.i
                bytes.removeLast(sses || ies ? 2 : 1)
            } else if bytes[count - 2] != Self.s {
                bytes.removeLast()
            }
        }

        /// Step 1b: `eed` → `ee` (m > 0); `ed`, `ing` removed after a vowel. True when `ed` or `ing` went.
        mutating func step1b() -> Bool {
            if let stem = start(of: Array("eed".utf8)) {
                if measure(stem) > 0 { replace(from: stem, with: [Self.e, Self.e]) }
                return false
            }
            for suffix in ["ed", "ing"] {
                guard let stem = start(of: Array(suffix.utf8)) else { continue }
                guard hasVowel(stem) else { return false }
                bytes.removeLast(bytes.count - stem)
                return true
            }
            return false
        }

        /// After step 1b removed `ed` or `ing`: `at`, `bl`, `iz` take an `e`; a double consonant other than
        /// `l`, `s`, `z` loses one; a short word (m = 1, *o) takes an `e`.
        mutating func step1bTidy() {
            for ending in ["at", "bl", "iz"] {
                if let stem = start(of: Array(ending.utf8)) {
                    replace(from: stem, with: Array((ending + "e").utf8))
                    return
                }
            }
            let count = bytes.count
            let last = bytes[count - 1]
            // Here `y` counts as a consonant, as in SQLite. A single byte left is always a vowel.
            if count >= 2, !Self.isVowelLetter(last), last != Self.l, last != Self.s, last != Self.z,
                last == bytes[count - 2]
            {
                bytes.removeLast()
            } else if measure(count) == 1 && endsCVC(count) {
                bytes.append(Self.e)
            }
        }

        /// Step 1c: a final `y` after a vowel becomes `i`.
        mutating func step1c() {
            let count = bytes.count
            if bytes[count - 1] == Self.y && hasVowel(count - 1) { bytes[count - 1] = Self.i }
        }

        /// The first rule whose suffix the word ends with decides: replaced when `condition(word, stem length)`.
        mutating func apply(_ rules: [Rule], when condition: (Word, Int) -> Bool) {
            for rule in rules {
                guard let stem = start(of: rule.suffix) else { continue }
                if condition(self, stem) { replace(from: stem, with: rule.replacement) }
                return
            }
        }

        /// Step 4's condition for the suffix starting at `stem`: m > 1, and for `ion` a stem ending in `s` or `t`.
        func step4Condition(suffixAt stem: Int) -> Bool {
            if bytes[stem...].elementsEqual("ion".utf8) {
                let before = bytes[stem - 1]
                guard before == Self.s || before == Self.t else { return false }
            }
            return measure(stem) > 1
        }

        /// Step 5: a final `e` goes when m > 1, or m = 1 and not *o; a final `ll` becomes `l` when m > 1.
        mutating func step5() {
            var count = bytes.count
            if bytes[count - 1] == Self.e {
                let m = measure(count - 1)
                if m > 1 || (m == 1 && !endsCVC(count - 1)) {
                    bytes.removeLast()
                    count -= 1
                }
            }
            if count > 1 && bytes[count - 1] == Self.l && bytes[count - 2] == Self.l && measure(count - 1) > 1 {
                bytes.removeLast()
            }
        }
    }
}
