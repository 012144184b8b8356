import Testing

@testable import HushEmbedding

/// The word rules' ASCII shortcut says what the Unicode properties say, for every ASCII scalar, and words split
/// as before in mixed scripts.
@Suite struct WordSplitterTests {
    @Test func theASCIIShortcutAgreesWithTheUnicodeProperties() throws {
        for value in UInt32(0)..<0x80 {
            let scalar = try #require(Unicode.Scalar(value))
            let properties = scalar.properties
            let letterOrDigit = properties.isAlphabetic || properties.numericType != nil
            #expect(WordSplitter.isLetterOrDigit(scalar) == letterOrDigit, "U+\(String(value, radix: 16))")
            #expect(WordSplitter.isIndexedCharacter(scalar) == letterOrDigit, "U+\(String(value, radix: 16))")
        }
    }

    @Test func wordsOfMixedScriptsSplitAsBefore() {
        #expect(
            WordSplitter.words("Can't sleep — 失眠怎么办? Schlaflosigkeit/naïve café, 3am #insomnia_2")
                == ["can", "t", "sleep", "失眠怎么办", "schlaflosigkeit", "naïve", "café", "3am", "insomnia", "2"])
        // A combining mark stays inside its word for the index; the lexical rule splits at it.
        #expect(WordSplitter.words("ne\u{301}e") == ["ne\u{301}e"])
        #expect(WordSplitter.words("ne\u{301}e", isWordCharacter: WordSplitter.isLetterOrDigit) == ["ne", "e"])
    }

    @Test func theLexicalTokenCountIsTheNumberOfWords() {
        let embedder = HashingEmbedder()
        for text in ["", "one", "İstanbul'da kar yağıyor", "Can't sleep — 失眠怎么办?", "ne\u{301}e x", "  spaced   out  "] {
            #expect(embedder.tokenCount(text) == HashingEmbedder.words(text).count + 2, "\(text)")
        }
    }
}
