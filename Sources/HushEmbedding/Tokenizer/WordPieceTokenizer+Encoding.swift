extension WordPieceTokenizer {
    /// Appends the content ids of `text` (no `[CLS]`/`[SEP]`) to `output`.
    func appendContentIDs(of text: String, to output: inout [Int32]) {
        var text = text
        var state = EncodingState(tokenizer: self)
        text.withUTF8 { utf8 in
            var segmentStart = 0
            var position = 0
            while position < utf8.count {
                if let match = added.match(utf8, at: position) {
                    state.feedSegment(utf8, segmentStart, position, into: &output)
                    output.append(match.id)
                    position += match.length
                    segmentStart = position
                } else {
                    position += 1
                }
            }
            state.feedSegment(utf8, segmentStart, utf8.count, into: &output)
        }
    }
}

/// The normalizer, pre-tokenizer and WordPiece model run as one pass over the scalars of a segment.
struct EncodingState {
    let flags: [UInt8]
    let decompositions: BertUnicode.Mapping
    let combiningClasses: [UInt32: UInt8]
    let lower: BertUnicode.Mapping
    let cleanText: Bool
    let handleChineseChars: Bool
    let stripAccents: Bool
    let lowercase: Bool
    let maxChars: Int
    let unknownID: Int32
    let wordStarts: VocabularyTable
    let wordContinuations: VocabularyTable
    /// UTF-8 bytes of the word being built.
    var word: [UInt8] = []
    /// Unicode scalars in `word`.
    var wordChars = 0
    /// Decomposed scalars with a nonzero combining class waiting for canonical reordering, stored as
    /// `class << 32 | scalar`.
    var marks: [UInt64] = []

    init(tokenizer: WordPieceTokenizer) {
        let configuration = tokenizer.configuration
        flags = BertUnicode.flags
        decompositions = BertUnicode.decompositions
        combiningClasses = BertUnicode.combiningClasses
        lower = BertUnicode.lower
        cleanText = configuration.cleanText
        handleChineseChars = configuration.handleChineseChars
        stripAccents = configuration.stripAccents ?? configuration.lowercase
        lowercase = configuration.lowercase
        maxChars = configuration.maxInputCharsPerWord
        unknownID = tokenizer.unknownID
        wordStarts = tokenizer.wordStarts
        wordContinuations = tokenizer.wordContinuations
        word.reserveCapacity(64)
    }

    /// Normalizes, splits and looks up `utf8[start..<end]`, a stretch between added tokens.
    mutating func feedSegment(_ utf8: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, into output: inout [Int32])
    {
        var index = start
        while index < end {
            let lead = UInt32(utf8[index])
            var scalar: UInt32
            if lead < 0x80 {
                scalar = lead
                index += 1
            } else if lead < 0xE0 {
                scalar = (lead & 0x1F) << 6 | UInt32(utf8[index + 1] & 0x3F)
                index += 2
            } else if lead < 0xF0 {
                scalar = (lead & 0x0F) << 12 | UInt32(utf8[index + 1] & 0x3F) << 6 | UInt32(utf8[index + 2] & 0x3F)
                index += 3
            } else {
                scalar =
                    (lead & 0x07) << 18 | UInt32(utf8[index + 1] & 0x3F) << 12
                    | UInt32(utf8[index + 2] & 0x3F) << 6 | UInt32(utf8[index + 3] & 0x3F)
                index += 4
            }
            normalize(scalar, into: &output)
        }
        flushMarks(into: &output)
        endWord(into: &output)
    }

    /// BertNormalizer on one scalar: clean text, CJK spacing, strip accents, lowercase.
    @inline(__always)
    mutating func normalize(_ input: UInt32, into output: inout [Int32]) {
        var scalar = input
        var flag = flags[Int(scalar)]
        if cleanText {
            if flag & BertUnicode.removed != 0 { return }
            if flag & BertUnicode.cleanToSpace != 0 {
                scalar = 0x20
                flag = flags[0x20]
            }
        }
        if handleChineseChars && flag & BertUnicode.chinese != 0 {
            decomposeThenLower(0x20, flags[0x20], into: &output)
            decomposeThenLower(scalar, flag, into: &output)
            decomposeThenLower(0x20, flags[0x20], into: &output)
        } else {
            decomposeThenLower(scalar, flag, into: &output)
        }
    }

    /// Strip accents: canonical decomposition (NFD, with canonical reordering of combining marks), then
    /// nonspacing marks dropped; the survivors go on to lowercasing.
    @inline(__always)
    mutating func decomposeThenLower(_ scalar: UInt32, _ flag: UInt8, into output: inout [Int32]) {
        guard stripAccents else {
            lowerThenSplit(scalar, into: &output)
            return
        }
        if flag & (BertUnicode.stripChanges | BertUnicode.combining) == 0 {
            flushMarks(into: &output)
            lowerThenSplit(scalar, into: &output)
        } else if scalar >= BertUnicode.hangulFirst && scalar <= BertUnicode.hangulLast {
            let offset = scalar - BertUnicode.hangulFirst
            flushMarks(into: &output)
            lowerThenSplit(0x1100 + offset / 588, into: &output)
            lowerThenSplit(0x1161 + (offset % 588) / 28, into: &output)
            if offset % 28 != 0 { lowerThenSplit(0x11A7 + offset % 28, into: &output) }
        } else if let range = decompositions.ranges[scalar] {
            for index in range { decomposed(decompositions.values[index], into: &output) }
        } else {
            decomposed(scalar, into: &output)
        }
    }

    /// One scalar of a full decomposition: a combining mark waits for reordering, anything else flushes.
    @inline(__always)
    mutating func decomposed(_ scalar: UInt32, into output: inout [Int32]) {
        let flag = flags[Int(scalar)]
        if flag & BertUnicode.combining != 0, let value = combiningClasses[scalar] {
            // A mark strip-accents drops is dropped now: the kept marks are ordered by class alone, so leaving it
            // out changes nothing but the work.
            if flag & BertUnicode.stripChanges == 0 { marks.append(UInt64(value) << 32 | UInt64(scalar)) }
            return
        }
        flushMarks(into: &output)
        // A decomposition-stable scalar that strip-accents changes is a nonspacing mark: dropped.
        if flag & BertUnicode.stripChanges == 0 { lowerThenSplit(scalar, into: &output) }
    }

    /// Emits the pending combining marks in canonical order (stable by class), nonspacing ones dropped.
    mutating func flushMarks(into output: inout [Int32]) {
        if marks.isEmpty { return }
        if marks.count > 32 {
            // Stable by class, in O(m log m) (insertion sort below is for the usual one or two marks).
            marks = marks.enumerated().sorted { ($0.element >> 32, $0.offset) < ($1.element >> 32, $1.offset) }
                .map(\.element)
        } else if marks.count > 1 {
            for index in 1..<marks.count {
                let mark = marks[index]
                var position = index
                while position > 0 && marks[position - 1] >> 32 > mark >> 32 {
                    marks[position] = marks[position - 1]
                    position -= 1
                }
                marks[position] = mark
            }
        }
        for mark in marks {
            let scalar = UInt32(truncatingIfNeeded: mark)
            if flags[Int(scalar)] & BertUnicode.stripChanges == 0 { lowerThenSplit(scalar, into: &output) }
        }
        marks.removeAll(keepingCapacity: true)
    }

    @inline(__always)
    mutating func lowerThenSplit(_ scalar: UInt32, into output: inout [Int32]) {
        if lowercase && flags[Int(scalar)] & BertUnicode.lowerChanges != 0, let range = lower.ranges[scalar] {
            for index in range { split(lower.values[index], into: &output) }
        } else {
            split(scalar, into: &output)
        }
    }

    /// BertPreTokenizer on one normalized scalar: whitespace ends a word, punctuation is a word of its own.
    @inline(__always)
    mutating func split(_ scalar: UInt32, into output: inout [Int32]) {
        let flag = flags[Int(scalar)]
        if flag & BertUnicode.splitSpace != 0 {
            endWord(into: &output)
        } else if flag & BertUnicode.punctuation != 0 {
            endWord(into: &output)
            append(scalar)
            endWord(into: &output)
        } else {
            append(scalar)
        }
    }

    @inline(__always)
    mutating func append(_ scalar: UInt32) {
        wordChars += 1
        if scalar < 0x80 {
            word.append(UInt8(scalar))
        } else if scalar < 0x800 {
            word.append(UInt8(0xC0 | scalar >> 6))
            word.append(UInt8(0x80 | scalar & 0x3F))
        } else if scalar < 0x1_0000 {
            word.append(UInt8(0xE0 | scalar >> 12))
            word.append(UInt8(0x80 | (scalar >> 6) & 0x3F))
            word.append(UInt8(0x80 | scalar & 0x3F))
        } else {
            word.append(UInt8(0xF0 | scalar >> 18))
            word.append(UInt8(0x80 | (scalar >> 12) & 0x3F))
            word.append(UInt8(0x80 | (scalar >> 6) & 0x3F))
            word.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// WordPiece on the current word: greedy longest match first, the whole word unknown if a piece is missing.
    mutating func endWord(into output: inout [Int32]) {
        guard !word.isEmpty else { return }
        defer {
            word.removeAll(keepingCapacity: true)
            wordChars = 0
        }
        if wordChars > maxChars {
            output.append(unknownID)
            return
        }
        let mark = output.count
        let known = word.withUnsafeBufferPointer { bytes -> Bool in
            let count = bytes.count
            var start = 0
            while start < count {
                let table = start == 0 ? wordStarts : wordContinuations
                var end = min(count, start + table.longestKey)
                while end > start && end < count && bytes[end] & 0xC0 == 0x80 { end -= 1 }
                var found: Int32?
                while end > start {
                    if let id = table.lookup(bytes, start, end) {
                        found = id
                        break
                    }
                    end -= 1
                    while end > start && bytes[end] & 0xC0 == 0x80 { end -= 1 }
                }
                guard let id = found else { return false }
                output.append(id)
                start = end
            }
            return true
        }
        if !known {
            output.removeSubrange(mark...)
            output.append(unknownID)
        }
    }
}
