import Foundation

/// The steps around a Unigram model in a Hugging Face `tokenizer.json`: added (special) tokens, normalisers,
/// the pre-tokenizer and the post-processor's template. Only what Unigram tokenizers use is supported; any
/// other step is refused by name when the file is read, never ignored. Text is handled scalar by scalar, as
/// Hugging Face handles Rust `char`s (a Swift `Character` would glue a space to a following combining mark).
struct HuggingFaceUnigramPipeline: Sendable {
    /// A token matched in the raw text before anything else (`<s>`, `<mask>` …). Hugging Face matches an added
    /// token marked `normalized` in the normalised text instead; Unigram models' added tokens are special
    /// and unnormalised, and this reader matches every added token in the raw text.
    struct AddedToken: Sendable {
        let content: [Unicode.Scalar]
        let id: Int32
        /// Whitespace before (lstrip) or after (rstrip) the token belongs to it.
        let stripLeft: Bool
        let stripRight: Bool
        /// Matches only when not inside a word.
        let singleWord: Bool
    }

    indirect enum Normalizer: Sendable {
        case precompiled(PrecompiledCharsMap)
        case replaceString(String, with: String)
        case replaceRegex(RegexBox, with: String)
        case nfc, nfd, nfkc, nfkd, lowercase
        case strip(left: Bool, right: Bool)
        case prepend(String)
        case sequence([Normalizer])

        func apply(_ text: String) -> String {
            switch self {
            case .precompiled(let map): return map.normalize(text)
            case .replaceString(let pattern, let content):
                return Self.replace(Array(pattern.unicodeScalars), with: content, in: text)
            case .replaceRegex(let box, let content): return box.replaceAll(in: text, with: content)
            case .nfc: return text.precomposedStringWithCanonicalMapping
            case .nfd: return text.decomposedStringWithCanonicalMapping
            case .nfkc: return text.precomposedStringWithCompatibilityMapping
            case .nfkd: return text.decomposedStringWithCompatibilityMapping
            case .lowercase: return text.lowercased()
            case .strip(let left, let right):
                var scalars = Substring.UnicodeScalarView(text.unicodeScalars)
                if left { while let first = scalars.first, first.properties.isWhitespace { scalars.removeFirst() } }
                if right { while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() } }
                return String(scalars)
            case .prepend(let prefix): return text.isEmpty ? text : prefix + text
            case .sequence(let steps): return steps.reduce(text) { $1.apply($0) }
            }
        }

        /// Every non-overlapping occurrence of `pattern`, left to right, replaced by `content`.
        static func replace(_ pattern: [Unicode.Scalar], with content: String, in text: String) -> String {
            guard !pattern.isEmpty else { return text }
            let scalars = Array(text.unicodeScalars)
            var out = String.UnicodeScalarView()
            var index = 0
            while index < scalars.count {
                if scalars.count - index >= pattern.count,
                    scalars[index..<(index + pattern.count)].elementsEqual(pattern)
                {
                    out.append(contentsOf: content.unicodeScalars)
                    index += pattern.count
                } else {
                    out.append(scalars[index])
                    index += 1
                }
            }
            return String(out)
        }
    }

    enum PreTokenizer: Sendable {
        enum Prepend: Sendable { case always, first, never }
        /// Spaces become `replacement`, which is put in front (per `prepend`) and starts every word.
        case metaspace(replacement: Unicode.Scalar, prepend: Prepend, split: Bool)
        /// Words are the runs between whitespace, which is dropped.
        case whitespaceSplit
        indirect case sequence([PreTokenizer])

        /// Splits each of `words` (the first one starting the text when `atStart`).
        func apply(_ words: [String], atStart: Bool) -> [String] {
            switch self {
            case .metaspace(let replacement, let prepend, let split):
                var out: [String] = []
                for (index, word) in words.enumerated() {
                    var scalars = word.unicodeScalars.map { $0 == " " ? replacement : $0 }
                    let first = atStart && index == 0
                    if prepend == .always || (prepend == .first && first), scalars.first != replacement {
                        scalars.insert(replacement, at: 0)
                    }
                    guard split else {
                        out.append(String(String.UnicodeScalarView(scalars)))
                        continue
                    }
                    // Each replacement starts a new word (Hugging Face's MergedWithNext).
                    var current = String.UnicodeScalarView()
                    for scalar in scalars {
                        if scalar == replacement, !current.isEmpty {
                            out.append(String(current))
                            current = String.UnicodeScalarView()
                        }
                        current.append(scalar)
                    }
                    if !current.isEmpty { out.append(String(current)) }
                }
                return out
            case .whitespaceSplit:
                return words.flatMap { word in
                    word.unicodeScalars.split(whereSeparator: \.properties.isWhitespace).map {
                        String(String.UnicodeScalarView($0))
                    }
                }
            case .sequence(let steps):
                return steps.reduce(words) { $1.apply($0, atStart: atStart) }
            }
        }
    }

    let addedTokens: [AddedToken]
    let normalizer: Normalizer?
    let preTokenizer: PreTokenizer?

    /// The text cut into runs to tokenize and added tokens already resolved, in order.
    enum Segment: Equatable {
        case text(String)
        case token(Int32)
    }

    /// Splits the raw text at added tokens (leftmost match, longest first at a position).
    func segments(_ text: String) -> [Segment] {
        guard !addedTokens.isEmpty else { return text.isEmpty ? [] : [.text(text)] }
        let characters = Array(text.unicodeScalars)
        var segments: [Segment] = []
        var pending = String.UnicodeScalarView()
        var position = 0
        func flush() {
            if !pending.isEmpty { segments.append(.text(String(pending))) }
            pending = String.UnicodeScalarView()
        }
        while position < characters.count {
            var matched: AddedToken?
            for token in addedTokens where token.content.count <= characters.count - position {
                if (matched?.content.count ?? 0) >= token.content.count { continue }
                if characters[position..<(position + token.content.count)].elementsEqual(token.content),
                    !token.singleWord || isWordBoundary(characters, position, position + token.content.count)
                {
                    matched = token
                }
            }
            guard let token = matched else {
                pending.append(characters[position])
                position += 1
                continue
            }
            if token.stripLeft {
                while let last = pending.last, last.properties.isWhitespace { pending.removeLast() }
            }
            flush()
            segments.append(.token(token.id))
            position += token.content.count
            if token.stripRight {
                while position < characters.count, characters[position].properties.isWhitespace { position += 1 }
            }
        }
        flush()
        return segments
    }

    private func isWordBoundary(_ characters: [Unicode.Scalar], _ start: Int, _ end: Int) -> Bool {
        func isWord(_ c: Unicode.Scalar) -> Bool {
            c.properties.isAlphabetic || c.properties.numericType != nil || c == "_"
        }
        return (start == 0 || !isWord(characters[start - 1])) && (end == characters.count || !isWord(characters[end]))
    }

    /// One text segment normalised and pre-tokenized into the words the model segments.
    func words(_ text: String, atStart: Bool) -> [String] {
        let normalized = normalizer?.apply(text) ?? text
        guard !normalized.isEmpty else { return [] }
        return preTokenizer?.apply([normalized], atStart: atStart) ?? [normalized]
    }
}

/// An `NSRegularExpression`, which is immutable and safe to share once built.
final class RegexBox: @unchecked Sendable {
    private let expression: NSRegularExpression

    init(_ pattern: String) throws {
        expression = try NSRegularExpression(pattern: pattern)
    }

    func replaceAll(in text: String, with content: String) -> String {
        let range = NSRange(text.startIndex..., in: text)
        return expression.stringByReplacingMatches(
            in: text, range: range, withTemplate: NSRegularExpression.escapedTemplate(for: content))
    }
}
