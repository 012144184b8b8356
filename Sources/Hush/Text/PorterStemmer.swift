/// Martin Porter's 1980 suffix-stripping algorithm for English, on lower-case ASCII bytes.
///
/// `end` is the index one past the last letter of the current word; `stemEnd` marks where a matched suffix
/// begins (the "j" of the original description).
struct PorterStemmer {
    private var word: [UInt8]
    private var end: Int
    private var stemEnd = 0

    init(_ word: [UInt8]) {
        self.word = word
        self.end = word.count
    }

    mutating func run() -> String {
        guard end > 2 else { return String(decoding: word[0..<end], as: UTF8.self) }
        step1a()
        step1b()
        step1c()
        step2()
        step3()
        step4()
        step5()
        return String(decoding: word[0..<end], as: UTF8.self)
    }

    // MARK: - Letters and measure

    private func isConsonant(_ index: Int) -> Bool {
        switch word[index] {
        case UInt8(ascii: "a"), UInt8(ascii: "e"), UInt8(ascii: "i"), UInt8(ascii: "o"), UInt8(ascii: "u"):
            return false
        case UInt8(ascii: "y"):
            return index == 0 ? true : !isConsonant(index - 1)
        default:
            return true
        }
    }

    /// The number of vowel-consonant sequences in `word[0..<length]`: [C](VC){m}[V].
    private func measure(_ length: Int) -> Int {
        var count = 0
        var index = 0
        while index < length, isConsonant(index) { index += 1 }
        while index < length {
            while index < length, !isConsonant(index) { index += 1 }
            guard index < length else { break }
            count += 1
            while index < length, isConsonant(index) { index += 1 }
        }
        return count
    }

    private func hasVowel(_ length: Int) -> Bool {
        (0..<length).contains { !isConsonant($0) }
    }

    private func endsWithDoubleConsonant(_ length: Int) -> Bool {
        length >= 2 && word[length - 1] == word[length - 2] && isConsonant(length - 1)
    }

    /// consonant-vowel-consonant at the end of `word[0..<length]`, the last not w, x or y.
    private func endsWithCVC(_ length: Int) -> Bool {
        guard length >= 3, isConsonant(length - 1), !isConsonant(length - 2), isConsonant(length - 3) else {
            return false
        }
        let last = word[length - 1]
        return last != UInt8(ascii: "w") && last != UInt8(ascii: "x") && last != UInt8(ascii: "y")
    }

    // MARK: - Suffixes

    private mutating func ends(_ suffix: String) -> Bool {
        let bytes = Array(suffix.utf8)
        guard bytes.count <= end else { return false }
        guard word[(end - bytes.count)..<end].elementsEqual(bytes) else { return false }
        stemEnd = end - bytes.count
        return true
    }

    private mutating func setSuffix(_ replacement: String) {
        let bytes = Array(replacement.utf8)
        word.replaceSubrange(stemEnd..<word.count, with: bytes)
        end = stemEnd + bytes.count
    }

    /// Replaces the first matching suffix of `rules` when the stem's measure exceeds `minimumMeasure`.
    private mutating func replaceFirst(_ rules: [(String, String)], minimumMeasure: Int) {
        for (suffix, replacement) in rules where ends(suffix) {
            if measure(stemEnd) > minimumMeasure { setSuffix(replacement) }
            return
        }
    }

    // MARK: - Steps

    private mutating func step1a() {
        if ends("sses") {
            setSuffix("ss")
        } else if ends("ies") {
            setSuffix("i")
        } else if ends("ss") {
            return
        } else if ends("s") {
            setSuffix("")
        }
    }

    private mutating func step1b() {
        if ends("eed") {
            if measure(stemEnd) > 0 { setSuffix("ee") }
            return
        }
        guard (ends("ed") || ends("ing")), hasVowel(stemEnd) else { return }
        setSuffix("")
        if ends("at") {
            setSuffix("ate")
        } else if ends("bl") {
            setSuffix("ble")
        } else if ends("iz") {
            setSuffix("ize")
        } else if endsWithDoubleConsonant(end) {
            let last = word[end - 1]
            if last != UInt8(ascii: "l") && last != UInt8(ascii: "s") && last != UInt8(ascii: "z") {
                end -= 1
                word.removeLast(word.count - end)
            }
        } else if measure(end) == 1 && endsWithCVC(end) {
            stemEnd = end
            setSuffix("e")
        }
    }

    private mutating func step1c() {
        if ends("y"), hasVowel(stemEnd) { setSuffix("i") }
    }

    private static let step2Rules: [(String, String)] = [
        ("ational", "ate"), ("tional", "tion"), ("enci", "ence"), ("anci", "ance"), ("izer", "ize"),
        ("bli", "ble"), ("alli", "al"), ("entli", "ent"), ("eli", "e"), ("ousli", "ous"), ("ization", "ize"),
        ("ation", "ate"), ("ator", "ate"), ("alism", "al"), ("iveness", "ive"), ("fulness", "ful"),
        ("ousness", "ous"), ("aliti", "al"), ("iviti", "ive"), ("biliti", "ble"), ("logi", "log"),
    ]

    private mutating func step2() {
        replaceFirst(Self.step2Rules.sorted { $0.0.count > $1.0.count }, minimumMeasure: 0)
    }

    private static let step3Rules: [(String, String)] = [
        ("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"), ("ical", "ic"), ("ful", ""),
        ("ness", ""),
    ]

    private mutating func step3() {
        replaceFirst(Self.step3Rules, minimumMeasure: 0)
    }

    private static let step4Suffixes = [
        "ement", "ance", "ence", "able", "ible", "ment", "ant", "ent", "ism", "ate", "iti", "ous", "ive", "ize",
        "ion", "al", "er", "ic", "ou",
    ]

    private mutating func step4() {
        for suffix in Self.step4Suffixes where ends(suffix) {
            if suffix == "ion" {
                guard stemEnd > 0, word[stemEnd - 1] == UInt8(ascii: "s") || word[stemEnd - 1] == UInt8(ascii: "t")
                else { return }
            }
            if measure(stemEnd) > 1 { setSuffix("") }
            return
        }
    }

    private mutating func step5() {
        if ends("e") {
            let m = measure(stemEnd)
            if m > 1 || (m == 1 && !endsWithCVC(stemEnd)) { setSuffix("") }
        }
        if end >= 2, word[end - 1] == UInt8(ascii: "l"), endsWithDoubleConsonant(end), measure(end) > 1 {
            end -= 1
            word.removeLast(word.count - end)
        }
    }
}
