import Foundation
import Testing

@testable import Hush

/// Counts how often a token counter is called.
final class CallCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func increment() {
        lock.lock()
        value += 1
        lock.unlock()
    }
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}

/// Words plus the two special tokens, like a tokenizer on plain prose.
let wordTokens: @Sendable (String) -> Int = { text in
    text.split(whereSeparator: { $0.isWhitespace }).count + 2
}

func utf16Slice(_ text: String, _ range: Range<Int>) -> String {
    String(decoding: Array(text.utf16)[range], as: UTF16.self)
}

@Suite struct TextChunkerTests {
    static let essay = """
        The river town woke slowly on market days. Fishermen carried their crates up from the quay, and \
        the baker opened his shutters before the church bell rang six. Children ran between the stalls, \
        counting the coins their grandparents had pressed into their hands.

        By noon the square was loud with bargaining. A woman from the hills sold honey in clay pots, and \
        she let anyone taste it from a wooden spoon. The mayor walked through twice, pretending not to \
        notice the stall that sold cheap wine without a licence. Nobody minded; it had been there longer \
        than he had.

        In the evening the wind turned and brought rain from the sea. The traders packed quickly, wrapping \
        cloth around the baskets and shouting goodbyes across the emptying square.
        """

    @Test func shortTextIsOneChunkWithTheTitlePrefixed() {
        let chunker = Chunker(tokenCounter: wordTokens)
        let text = "Milk, eggs and bread. Also coffee."
        let chunks = chunker.chunk(title: "Groceries", text: text)
        #expect(chunks.count == 1)
        #expect(chunks[0].text == "Groceries\n\nMilk, eggs and bread. Also coffee.")
        #expect(chunks[0].range == 0..<text.utf16.count)
        #expect(chunks[0].tokenCount == 1 + 6 + 2)
        #expect(chunks[0].ordinal == 0)
        #expect(!chunks[0].truncated)
    }

    @Test func titleIsNotPrefixedWhenTurnedOff() {
        let chunker = Chunker(configuration: .init(prefixTitle: false), tokenCounter: wordTokens)
        #expect(chunker.chunk(title: "Groceries", text: "Milk and bread.").map(\.text) == ["Milk and bread."])
    }

    @Test func sentencesArePackedToTheTargetWithWholeSentenceOverlap() {
        // 20 sentences of exactly 10 words: 6 fit a 64-token target (62 content tokens), 2 overlap (20 <= 24).
        let sentences = (0..<20).map { "Sentence number \($0) has exactly ten words in it today." }
        let text = sentences.joined(separator: " ")
        let chunker = Chunker(
            configuration: .init(maxTokens: 128, targetTokens: 64, overlapTokens: 24), tokenCounter: wordTokens)
        let chunks = chunker.chunk(title: nil, text: text)
        let expected = [0..<6, 4..<10, 8..<14, 12..<18, 16..<20]
        #expect(chunks.count == expected.count)
        for (chunk, span) in zip(chunks, expected) {
            #expect(chunk.text == sentences[span].joined(separator: " "))
            #expect(chunk.tokenCount == span.count * 10 + 2)
            #expect(utf16Slice(text, chunk.range) == chunk.text)
        }
    }

    @Test func longProseRespectsLimitsAndRangesPointAtTheSource() {
        let chunker = Chunker(
            configuration: .init(maxTokens: 48, targetTokens: 32, overlapTokens: 8), tokenCounter: wordTokens)
        let text = TextCleaner().clean(Self.essay)
        let chunks = chunker.chunk(title: "Market day", text: text)
        #expect(chunks.count >= 5)
        for (index, chunk) in chunks.enumerated() {
            #expect(chunk.ordinal == index)
            #expect(chunk.tokenCount <= 48)
            #expect(chunk.tokenCount == wordTokens(chunk.text))
            let source = utf16Slice(text, chunk.range)
            #expect(chunk.text == (index == 0 ? "Market day\n\n" + source : source))
        }
        // Every sentence of the text is in some chunk, and chunks follow the text's order.
        for sentence in TextSegmentation.sentences(in: text[...]).map({ String(text[$0]) }) {
            #expect(chunks.contains { $0.text.contains(sentence) }, "lost: \(sentence)")
        }
        #expect(zip(chunks, chunks.dropFirst()).allSatisfy { $0.range.lowerBound < $1.range.lowerBound })
    }

    @Test func overlapStaysWithinAParagraph() {
        let chunker = Chunker(
            configuration: .init(maxTokens: 64, targetTokens: 40, overlapTokens: 16), tokenCounter: wordTokens)
        let text = TextCleaner().clean(Self.essay)
        let paragraphStarts = TextSegmentation.paragraphs(in: text).map { $0.lowerBound.utf16Offset(in: text) }
        let chunks = chunker.chunk(title: nil, text: text)
        var overlaps = 0
        for (previous, next) in zip(chunks, chunks.dropFirst()) where next.range.lowerBound < previous.range.upperBound
        {
            overlaps += 1
            // An overlapping chunk never starts in an earlier paragraph than the one it continues into.
            let paragraphOfPrevious = paragraphStarts.lastIndex { $0 <= previous.range.upperBound - 1 }
            let paragraphOfNext = paragraphStarts.lastIndex { $0 <= next.range.lowerBound }
            #expect(paragraphOfPrevious == paragraphOfNext)
            let shared = utf16Slice(text, next.range.lowerBound..<previous.range.upperBound)
            #expect(wordTokens(shared) - 2 <= 16)
        }
        #expect(overlaps >= 1)
    }

    @Test func aSentenceLongerThanTheWindowIsSplitAtWords() {
        let words = (1...300).map { "word\($0)" }
        let text = words.joined(separator: " ") + "."
        let chunker = Chunker(
            configuration: .init(maxTokens: 128, targetTokens: 100, overlapTokens: 10), tokenCounter: wordTokens)
        let chunks = chunker.chunk(title: nil, text: text)
        // Greedy packing would make 98 + 88 + 88 + 56 new words; the same four chunks are evened out (300
        // words plus three 10-word overlaps in four chunks: 83 content tokens at most).
        #expect(chunks.count == 4)
        #expect(chunks.allSatisfy { $0.tokenCount <= 85 && $0.tokenCount >= 70 && !$0.truncated })
        #expect(chunks[0].text.hasPrefix("word1 word2 "))
        #expect(chunks.last?.text.hasSuffix("word300.") == true)
        // 10 words repeated between consecutive chunks.
        for (previous, next) in zip(chunks, chunks.dropFirst()) {
            let tail = previous.text.split(separator: " ").suffix(10)
            #expect(Array(next.text.split(separator: " ").prefix(10)) == Array(tail))
        }
    }

    @Test func aWordLongerThanTheWindowIsCutIntoPieces() {
        // One token per four characters, like a subword tokenizer on a long identifier.
        let charTokens: @Sendable (String) -> Int = { ($0.count + 3) / 4 + 2 }
        let blob = String(repeating: "abcdefghij", count: 200)  // 2000 characters, ~500 tokens
        let chunker = Chunker(
            configuration: .init(maxTokens: 64, targetTokens: 64, overlapTokens: 0), tokenCounter: charTokens)
        let chunks = chunker.chunk(title: nil, text: "Key: " + blob)
        #expect(chunks.count >= 8)
        #expect(chunks.allSatisfy { $0.tokenCount <= 64 && !$0.truncated })
        #expect(chunks.map(\.text).joined().replacingOccurrences(of: " ", with: "") == "Key:" + blob)
    }

    @Test func onlyAnUnsplittablePieceIsMarkedTruncated() {
        // A tokenizer for which one character is worth 500 tokens.
        let counter: @Sendable (String) -> Int = { text in
            text.reduce(0) { $0 + ($1 == "☃" ? 500 : 1) } + 2
        }
        let chunker = Chunker(
            configuration: .init(maxTokens: 64, targetTokens: 32, overlapTokens: 0), tokenCounter: counter)
        let chunks = chunker.chunk(title: nil, text: "ab ☃ cd")
        #expect(chunks.contains { $0.truncated && $0.text == "☃" })
        #expect(chunks.filter { !$0.truncated }.allSatisfy { $0.tokenCount <= 64 })
    }

    @Test func nonAdditiveCountsStillNeverExceedTheWindow() {
        // Joining sentences costs extra tokens here (one per space), which per-sentence sums miss.
        let counter: @Sendable (String) -> Int = { text in
            text.split(whereSeparator: { $0.isWhitespace }).count + text.filter { $0 == " " }.count + 2
        }
        let text = (0..<40).map { "Short sentence \($0) here." }.joined(separator: " ")
        let chunker = Chunker(
            configuration: .init(maxTokens: 40, targetTokens: 38, overlapTokens: 6), tokenCounter: counter)
        let chunks = chunker.chunk(title: "Title words", text: text)
        #expect(!chunks.isEmpty)
        #expect(chunks.allSatisfy { $0.tokenCount <= 40 && $0.tokenCount == counter($0.text) })
        #expect(chunks.last?.text.hasSuffix("Short sentence 39 here.") == true)
    }

    @Test func eachFieldIsAChunkUnderTheTitleAndDay() {
        let chunker = Chunker(tokenCounter: wordTokens)
        let chunks = chunker.chunk(
            title: "Standup", text: "We shipped the importer.",
            fields: [
                .init(label: "Attendees", value: "Ana, Bo"), .init(label: "Room", value: " 4B "),
                .init(label: "Notes", value: "  "),
            ], date: "2026-03-02")
        #expect(
            chunks.map(\.text) == [
                "Standup\n\nWe shipped the importer.", "Standup (2026-03-02)\n\nAttendees: Ana, Bo",
                "Standup (2026-03-02)\n\nRoom: 4B",
            ])
        #expect(chunks.map(\.field) == [nil, "Attendees", "Room"])
        #expect(chunks.map(\.ordinal) == [0, 1, 2])
        #expect(chunks[0].range == 0..<24)
        // A field chunk's passage is its line: from its start to the end of the text.
        #expect(chunks[1].range == 24..<24)
        let line = chunks[1].text.utf16.dropFirst(chunks[1].passageStart)
        #expect(String(decoding: Array(line), as: UTF16.self) == "Attendees: Ana, Bo")
    }

    @Test func fieldsWithoutTitleOrDayAreTheirLinesAlone() {
        let chunker = Chunker(tokenCounter: wordTokens)
        let chunks = chunker.chunk(title: nil, text: "", fields: [.init(label: "", value: "just a value")])
        #expect(chunks.map(\.text) == ["just a value"])
        #expect(chunks[0].field == "" && chunks[0].passageStart == 0)
    }

    @Test func fieldsGetTheirOwnChunkAfterALongBody() throws {
        let chunker = Chunker(
            configuration: .init(maxTokens: 48, targetTokens: 32, overlapTokens: 0), tokenCounter: wordTokens)
        let text = TextCleaner().clean(Self.essay)
        let chunks = chunker.chunk(
            title: nil, text: text,
            fields: [.init(label: "Place", value: "Harbour square"), .init(label: "Season", value: "late autumn")])
        #expect(chunks.suffix(2).map(\.text) == ["Place: Harbour square", "Season: late autumn"])
        let last = try #require(chunks.last)
        #expect(last.range == text.utf16.count..<text.utf16.count)
        #expect(chunks.dropLast(2).allSatisfy { $0.field == nil })
    }

    @Test func aLongFieldIsSplitAndEachPieceKeepsItsLabel() {
        let chunker = Chunker(
            configuration: .init(maxTokens: 24, targetTokens: 20, overlapTokens: 0), tokenCounter: wordTokens)
        let names = (1...40).map { "person\($0)" }.joined(separator: " ")
        let chunks = chunker.chunk(title: nil, text: "", fields: [.init(label: "Attendees", value: names)])
        #expect(chunks.count >= 3)
        #expect(chunks.allSatisfy { $0.text.hasPrefix("Attendees: ") && $0.tokenCount <= 24 })
        #expect(chunks.map { $0.text.dropFirst("Attendees: ".count) }.joined(separator: " ") == names)
    }

    @Test func aVeryLongTitleIsCutToHalfTheWindow() {
        let chunker = Chunker(
            configuration: .init(maxTokens: 22, targetTokens: 22, overlapTokens: 0), tokenCounter: wordTokens)
        let title = (1...30).map { "t\($0)" }.joined(separator: " ")
        let chunks = chunker.chunk(title: title, text: "Body sentence one. Body sentence two.")
        // 20 content tokens: the title keeps 10 words, the body (6 words) fits beside it.
        #expect(chunks.count == 1)
        #expect(chunks[0].text == "t1 t2 t3 t4 t5 t6 t7 t8 t9 t10\n\nBody sentence one. Body sentence two.")
        #expect(chunks[0].tokenCount == 18)
    }

    @Test func emptyBodyWithTitleGivesOneTitleChunk() {
        let chunker = Chunker(tokenCounter: wordTokens)
        let chunks = chunker.chunk(title: "  Ideas for the  weekend ", text: "")
        #expect(chunks.count == 1)
        #expect(chunks[0].text == "Ideas for the weekend")
        #expect(chunks[0].range == 0..<0)
        #expect(chunks[0].tokenCount == 6)
        #expect(chunker.chunk(title: nil, text: " \n ").isEmpty)
    }

    @Test func rangesAreUTF16OffsetsWithEmojiAndAccents() {
        let text = "Café ☕️ first. Então 👩‍👩‍👧 segundo.\n\nÜber drittes."
        let chunker = Chunker(
            configuration: .init(maxTokens: 8, targetTokens: 6, overlapTokens: 0), tokenCounter: wordTokens)
        let chunks = chunker.chunk(title: nil, text: text)
        #expect(chunks.map(\.text) == ["Café ☕️ first.", "Então 👩‍👩‍👧 segundo.", "Über drittes."])
        for chunk in chunks { #expect(utf16Slice(text, chunk.range) == chunk.text) }
    }

    @Test func chineseAndJapaneseSentencesSplitWithoutSpaces() {
        let text = "我们明天出发。路上车很多！你去吗？"
        let perCharacter: @Sendable (String) -> Int = { $0.filter { !$0.isWhitespace }.count + 2 }
        let chunker = Chunker(
            configuration: .init(maxTokens: 10, targetTokens: 9, overlapTokens: 0), tokenCounter: perCharacter)
        #expect(chunker.chunk(title: nil, text: text).map(\.text) == ["我们明天出发。", "路上车很多！", "你去吗？"])
    }

    @Test func abbreviationsAndDecimalsDoNotEndSentences() {
        let paragraph = "Dr. Smith paid 3.50 euros, e.g. for coffee. Then J. R. Tolkien arrived! Was it late? Yes."
        let sentences = TextSegmentation.sentences(in: paragraph[...]).map { String(paragraph[$0]) }
        #expect(
            sentences == [
                "Dr. Smith paid 3.50 euros, e.g. for coffee.", "Then J. R. Tolkien arrived!", "Was it late?", "Yes.",
            ])
    }

    @Test func tokenCounterIsCalledLinearlyNotQuadratically() {
        let calls = CallCounter()
        let counter: @Sendable (String) -> Int = { text in
            calls.increment()
            return text.split(whereSeparator: { $0.isWhitespace }).count + 2
        }
        let paragraph = (0..<50).map { "This is sentence \($0) of a long and fairly dull paragraph." }.joined(
            separator: " ")
        let text = Array(repeating: paragraph, count: 20).joined(separator: "\n\n")  // 1000 sentences
        let chunks = Chunker(tokenCounter: counter).chunk(title: "Long", text: text)
        // One count per sentence, one per chunk, plus the title and the special-token probe.
        #expect(calls.count <= 1000 + chunks.count + 2)
        #expect(chunks.allSatisfy { $0.tokenCount <= 256 })
    }
}
