import Foundation

/// What a language model needs to answer a question from a person's own notes: the search's good matches as
/// numbered passages, each with its citation (document id, title, field, day), trimmed to a token budget.
///
/// Hush finds and cites; the model writes the answer. ``prompt`` is the text to hand it (the question, then
/// the passages), and ``passages`` say what each `[n]` in its answer points to.
///
/// ```swift
/// let context = try await store.answerContext(for: "When is the mobile app launching?", tokenBudget: 800)
/// guard context.goodMatch else { return "Nothing in your notes answers that." }
/// print(context.prompt)
/// // Question: When is the mobile app launching?
/// //
/// // [1] Mobile app v2 retrospective · Outcomes · 2026-06-01
/// // Outcomes: launch postponed to July 14 until the security audit is done
/// ```
public struct AnswerContext: Sendable, Hashable, Codable {
    /// One numbered passage and where it comes from.
    public struct Passage: Sendable, Hashable, Codable {
        /// Its number, from 1, as the prompt cites it (`[1]`).
        public var number: Int
        /// The document's id.
        public var id: String
        /// The document's title.
        public var title: String?
        /// The labelled field the passage is (`Outcomes`), or `nil` for a passage of the body.
        public var field: String?
        /// The document's date (``SearchHit/createdAt``).
        public var date: Date
        /// The passage as written: a field's `Label: value` line, or the hit's passage; cut at a sentence or
        /// word when the budget ends inside it (``isTrimmed``).
        public var text: String
        /// Whether ``text`` is shorter than the passage found.
        public var isTrimmed: Bool
        /// The hit's estimated relevance (``SearchHit/relevance``).
        public var relevance: Float?

        /// The passage's header line in the prompt: `[1] Title · Field · yyyy-MM-dd` (the parts it has).
        public var citation: String {
            let parts = [title ?? id, field.flatMap { $0.isEmpty ? nil : $0 }, AnswerContext.day(date)].compactMap {
                $0
            }
            return "[\(number)] " + parts.joined(separator: " · ")
        }
    }

    /// The question.
    public var query: String
    /// Whether the search's best hit is a good match (``SearchResults/goodMatch``). When it is not,
    /// ``passages`` is empty: there is nothing to ground an answer in.
    public var goodMatch: Bool
    /// The passages, best first.
    public var passages: [Passage]
    /// The tokens ``prompt`` takes, as the budget counted them.
    public var tokenCount: Int

    /// The question and the numbered passages, each under its citation, separated by blank lines: what to pass
    /// to a language model with instructions to answer from them alone and cite them as `[n]`.
    public var prompt: String {
        Self.prompt(query: query, passages: passages)
    }

    static func prompt(query: String, passages: [Passage]) -> String {
        var blocks = ["Question: " + query]
        for passage in passages { blocks.append(passage.citation + "\n" + passage.text) }
        return blocks.joined(separator: "\n\n")
    }

    /// `date` as `yyyy-MM-dd` (UTC), as the citations show it.
    static func day(_ date: Date) -> String { RecordDate.formatDay(date) }

    /// The context for `results`: its good matches in order, numbered, each as long as the budget still
    /// allows (a passage that does not fit whole is cut at a sentence or a word if at least a few words of it
    /// fit, else left out with those after it).
    static func make(_ results: SearchResults, tokenBudget: Int, tokenCount: (String) -> Int) -> AnswerContext {
        var context = AnswerContext(query: results.query, goodMatch: results.goodMatch, passages: [], tokenCount: 0)
        var used = tokenCount(prompt(query: results.query, passages: []))
        guard results.goodMatch else {
            context.tokenCount = used
            return context
        }
        for hit in results.goodMatches {
            var passage = Passage(
                number: context.passages.count + 1, id: hit.id, title: hit.title, field: hit.field, date: hit.createdAt,
                text: hit.passage.trimmingCharacters(in: .whitespacesAndNewlines), isTrimmed: false,
                relevance: hit.relevance)
            let header = tokenCount("\n\n" + passage.citation + "\n")
            let room = tokenBudget - used - header
            guard room > 0 else { break }
            let cost = tokenCount(passage.text)
            if cost > room {
                guard let cut = trimmed(passage.text, toTokens: room, tokenCount: tokenCount) else { break }
                passage.text = cut
                passage.isTrimmed = true
            }
            used += header + tokenCount(passage.text)
            context.passages.append(passage)
        }
        context.tokenCount = tokenCount(context.prompt)
        return context
    }

    /// The longest start of `text` that ends a sentence, else a word, within `limit` tokens, followed by `…`;
    /// `nil` when fewer than 8 tokens of it would fit.
    static func trimmed(_ text: String, toTokens limit: Int, tokenCount: (String) -> Int) -> String? {
        guard limit >= 8 else { return nil }
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        // The most words that fit, found by halving.
        var low = 0
        var high = words.count
        while low < high {
            let middle = (low + high + 1) / 2
            if tokenCount(words.prefix(middle).joined(separator: " ") + " …") <= limit {
                low = middle
            } else {
                high = middle - 1
            }
        }
        guard low > 0 else { return nil }
        var kept = words.prefix(low)
        // Back to the last sentence's end when one is in the second half of what fits.
        if let end = kept.lastIndex(where: { $0.last.map { ".!?。！？".contains($0) } ?? false }), end >= low / 2 {
            kept = kept.prefix(through: end)
        }
        return kept.joined(separator: " ") + " …"
    }
}
