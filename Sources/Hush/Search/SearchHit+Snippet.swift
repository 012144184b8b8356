import Foundation

extension SearchHit {
    /// A stretch of a hit's passage short enough for a result row, with where the query's words stand in it.
    ///
    /// ```swift
    /// let snippet = hit.snippet(maxLength: 120)
    /// var shown = AttributedString(snippet.text)
    /// for range in snippet.highlights {
    ///     if let marked = Range(range, in: shown) { shown[marked].inlinePresentationIntent = .stronglyEmphasized }
    /// }
    /// ```
    public struct Snippet: Sendable, Hashable {
        /// The stretch as written, with `…` where the passage goes on before or after it.
        public var text: String
        /// Where the query's words stand in ``text`` (``SearchHit/highlights``), in order.
        public var highlights: [Range<String.Index>]
    }

    /// The stretch of the passage to show under the hit's title: the whole passage when it has at most
    /// `maxLength` characters, otherwise the `maxLength` characters (the marks `…` included) that hold the most
    /// of the query's different words, from the start of their sentence or line when it is near, else from a
    /// few words before them. When the words stand only in the labelled fields after the passage (a meeting's
    /// "Decision: Ship on the 14th"), the fields are part of the stretch. A hit that matched by meaning alone
    /// shows the passage's start.
    ///
    /// ```swift
    /// for hit in try await store.search("who writes the privacy notice").hits {
    ///     print(hit.title ?? hit.id)
    ///     print("   ", hit.snippet().text)  // "…Mei will draft the privacy notice. Action items…"
    /// }
    /// ```
    ///
    /// - Parameter maxLength: The most characters the snippet has (at least 16).
    /// - Complexity: O(n + h²) for a passage of n scalars with h highlights.
    public func snippet(maxLength: Int = 160) -> Snippet {
        let units = text.utf16
        var passage =
            !passageRange.isEmpty && passageRange.lowerBound >= 0 && passageRange.upperBound <= units.count
            ? passageRange : 0..<units.count
        // Words found only in the labelled fields after the passage (a meeting's "Decision: …"): those too.
        if !highlights.contains(where: { $0.overlaps(passage) }),
            highlights.contains(where: { $0.lowerBound >= passage.upperBound })
        {
            passage = passage.lowerBound..<units.count
        }
        guard let lower = String.Index(utf16Offset: passage.lowerBound, in: text).samePosition(in: text),
            let upper = String.Index(utf16Offset: passage.upperBound, in: text).samePosition(in: text)
        else { return Snippet(text: text, highlights: []) }
        // Scalars, not characters: no grapheme breaking over the whole passage. A window of n scalars holds at
        // most n characters, and its ends are moved to characters' boundaries.
        let scalars = Array(text.unicodeScalars[lower..<upper])
        // `offsets[i]`: the UTF-16 offset in `text` where scalar i starts (and the passage's end).
        var offsets = [passage.lowerBound]
        offsets.reserveCapacity(scalars.count + 1)
        for scalar in scalars { offsets.append(offsets[offsets.count - 1] + (scalar.value > 0xFFFF ? 2 : 1)) }
        let marked = Self.scalarRanges(of: highlights, offsets: offsets)
        let total = max(16, maxLength)
        var (start, end) = Self.window(scalars, marked: marked, total: total)
        func isBoundary(_ index: Int) -> Bool {
            String.Index(utf16Offset: offsets[index], in: text).samePosition(in: text) != nil
        }
        while start < end, !isBoundary(start) { start += 1 }
        while end > start, !isBoundary(end) { end -= 1 }

        let opening = start > 0 ? "…" : ""
        let closing = end < scalars.count ? "…" : ""
        var shown = opening
        shown.unicodeScalars.append(contentsOf: scalars[start..<end])
        shown += closing
        let base = opening.utf16.count - offsets[start]
        var ranges: [Range<String.Index>] = []
        for range in marked where range.lowerBound < end && range.upperBound > start {
            let from = offsets[max(range.lowerBound, start)] + base
            let to = offsets[min(range.upperBound, end)] + base
            ranges.append(String.Index(utf16Offset: from, in: shown)..<String.Index(utf16Offset: to, in: shown))
        }
        return Snippet(text: shown, highlights: ranges)
    }

    /// The highlights that fall in the passage, as ranges of its scalars.
    private static func scalarRanges(of highlights: [Range<Int>], offsets: [Int]) -> [Range<Int>] {
        guard let first = offsets.first, let last = offsets.last else { return [] }
        // The first index whose offset is not below `offset` (`offsets` rises).
        func firstIndex(notBelow offset: Int) -> Int {
            var low = 0
            var high = offsets.count - 1
            while low < high {
                let middle = (low + high) / 2
                if offsets[middle] < offset { low = middle + 1 } else { high = middle }
            }
            return low
        }
        return highlights.compactMap { range in
            guard range.upperBound > first, range.lowerBound < last else { return nil }
            // From the scalar the range starts in to the first scalar at or after its end.
            let start = max(range.lowerBound, first)
            let atStart = firstIndex(notBelow: start)
            let lower = offsets[atStart] == start ? atStart : atStart - 1
            let upper = firstIndex(notBelow: min(range.upperBound, last))
            return lower < upper ? lower..<upper : nil
        }
    }

    /// The scalars to show, `start..<end`: all of them when they fit in `total`; else `total` less the two
    /// `…`, around the most different highlighted words.
    private static func window(_ scalars: [Unicode.Scalar], marked: [Range<Int>], total: Int) -> (Int, Int) {
        let count = scalars.count
        guard count > total else { return (0, count) }
        let budget = total - 2
        var anchor = 0
        if !marked.isEmpty {
            // The highlight whose window holds the most different words (then the most words), earliest first;
            // each highlight's word numbered.
            var numbers: [String: Int] = [:]
            let words = marked.map { range in
                let word = String(String.UnicodeScalarView(scalars[range])).lowercased()
                if let number = numbers[word] { return number }
                numbers[word] = numbers.count
                return numbers.count - 1
            }
            var best = (-1, -1)  // different words, words
            for (first, range) in marked.enumerated() {
                var last = first
                while last + 1 < marked.count, marked[last + 1].upperBound <= range.lowerBound + budget { last += 1 }
                let inside = (Set(words[first...last]).count, last - first + 1)
                if inside > best {
                    best = inside
                    anchor = range.lowerBound
                }
            }
        }
        var start = leadIn(scalars, before: anchor, reach: budget / 3)
        if count - start < budget {
            // Near the end: as much before it as fits, from a sentence's start if one is near, else a word's
            // (in Chinese or Japanese, a clause's).
            let from = count - budget
            let near = from..<min(count, from + 24)
            let sentence = near.first { endsSentence(scalars, at: $0, before: count) }
            let next = sentence ?? near.first { isSpace(scalars[$0]) || "；，、".unicodeScalars.contains(scalars[$0]) }
            start = min(start, next.map { $0 + 1 } ?? from)
        }
        while start < count, isSpace(scalars[start]) { start += 1 }
        var end = min(count, start + budget)
        if end < count, let space = scalars[max(start, end - 20)..<end].lastIndex(where: isSpace),
            space > anchor
        {
            end = space
        }
        while end > start, isSpace(scalars[end - 1]) { end -= 1 }
        return (start, end)
    }

    /// Where to start a snippet whose first highlight is at `anchor`: the start of its sentence or line when
    /// that is at most `reach` scalars before it, else a few words before it.
    private static func leadIn(_ scalars: [Unicode.Scalar], before anchor: Int, reach: Int) -> Int {
        guard anchor > 0 else { return 0 }
        var index = anchor - 1
        while index >= max(0, anchor - reach) {
            if endsSentence(scalars, at: index, before: anchor) || scalars[index] == "；" { return index + 1 }
            index -= 1
        }
        if anchor <= reach { return 0 }
        // No sentence start near: a few words of context.
        let from = anchor - min(reach, 24)
        return scalars[from..<anchor].firstIndex(where: isSpace).map { $0 + 1 } ?? anchor
    }

    /// Whether a sentence or line ends at `index`: a line's end, `。！？`, or `.!?` with white space after it
    /// (before `limit`).
    private static func endsSentence(_ scalars: [Unicode.Scalar], at index: Int, before limit: Int) -> Bool {
        let scalar = scalars[index]
        return isNewline(scalar) || "。！？".unicodeScalars.contains(scalar)
            || (".!?".unicodeScalars.contains(scalar) && index + 1 < limit && isSpace(scalars[index + 1]))
    }

    /// White space (a space, a tab, a line's end, …).
    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII ? scalar == " " || (0x09...0x0D).contains(scalar.value) : scalar.properties.isWhitespace
    }

    /// A line's end.
    private static func isNewline(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return true
        default: return false
        }
    }
}
