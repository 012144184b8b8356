import Foundation

#if canImport(NaturalLanguage)
    import NaturalLanguage
#elseif canImport(_FoundationICU)
    // The ICU that Foundation carries off Apple platforms (its word break iterator segments Chinese, Japanese and
    // Thai with ICU's dictionaries).
    import _FoundationICU
#endif

/// The words of a text as a person reads them, in the scripts written without spaces too ("我最近总是睡不着" →
/// 我 最近 总是 睡 不着): NaturalLanguage's word tokenizer on Apple platforms, ICU's dictionary-based word
/// break iterator elsewhere. What ``QueryAnalysis/words`` shows; the keyword index never depends on it (it
/// cuts those scripts into letter pairs, the same on every platform).
///
/// ```swift
/// WordSegmenter.words(in: "東京大学で勉強") ?? []  // ["東京", "大学", "で", "勉強"]
/// ```
enum WordSegmenter {
    /// The words (letters and digits; punctuation and spaces left out), or `nil` where no segmenter is
    /// available.
    ///
    /// - Complexity: O(n) in the length of the text.
    static func words(in text: String) -> [String]? {
        #if canImport(NaturalLanguage)
            let tokenizer = NLTokenizer(unit: .word)
            tokenizer.string = text
            return tokenizer.tokens(for: text.startIndex..<text.endIndex).map { String(text[$0]) }
        #elseif canImport(_FoundationICU)
            let units = Array(text.utf16)
            guard !units.isEmpty else { return [] }
            var status = U_ZERO_ERROR
            guard let breaker = swift_ubrk_open(UBRK_WORD, "", units, Int32(units.count), &status),
                status.rawValue <= U_ZERO_ERROR.rawValue
            else { return nil }
            defer { swift_ubrk_close(breaker) }
            var words: [String] = []
            var start = swift_ubrk_first(breaker)
            var end = swift_ubrk_next(breaker)
            while end != UBRK_DONE {
                // A rule status of 0 (UBRK_WORD_NONE) is spaces and punctuation.
                if swift_ubrk_getRuleStatus(breaker) != 0, start >= 0, end <= units.count {
                    words.append(String(decoding: units[Int(start)..<Int(end)], as: UTF16.self))
                }
                start = end
                end = swift_ubrk_next(breaker)
            }
            return words
        #else
            return nil
        #endif
    }
}
