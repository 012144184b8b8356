import Foundation

extension HushStore {
    /// Searches `question` and turns its good matches into ``AnswerContext``: numbered passages with their
    /// citations, within `tokenBudget` tokens, for an on-device language model to answer from.
    ///
    /// ```swift
    /// let context = try await store.answerContext(for: "Who is booking the train tickets?", limit: 5)
    /// for passage in context.passages { print(passage.citation, passage.text) }
    /// ```
    ///
    /// - Parameters:
    ///   - question: The person's question.
    ///   - limit: The most passages.
    ///   - mode: The search's mode.
    ///   - filter: Which documents may answer.
    ///   - tokenBudget: The most tokens the prompt may take, counted by `tokenCount` (by default the store's
    ///     model's tokenizer, an estimate of a language model's: leave it room for its instructions and answer).
    ///   - tokenCount: Counts a text's tokens; `nil` for the store's model's tokenizer.
    public func answerContext(
        for question: String, limit: Int = 5, mode: SearchMode = .hybrid, filter: SearchFilter = .init(),
        tokenBudget: Int = 1_000, tokenCount: (@Sendable (String) -> Int)? = nil
    ) async throws -> AnswerContext {
        let results = try await search(question, mode: mode, filter: filter, limit: limit)
        return answerContext(for: results, tokenBudget: tokenBudget, tokenCount: tokenCount)
    }

    /// ``AnswerContext`` for results already shown: their good matches, numbered, within `tokenBudget`.
    ///
    /// ```swift
    /// let results = try await store.search("what did we decide about travel?", limit: 5)
    /// let context = store.answerContext(for: results, tokenBudget: 600)
    /// ```
    public func answerContext(
        for results: SearchResults, tokenBudget: Int = 1_000, tokenCount: (@Sendable (String) -> Int)? = nil
    ) -> AnswerContext {
        let embedder = self.embedder
        return AnswerContext.make(
            results, tokenBudget: tokenBudget, tokenCount: tokenCount ?? { embedder.tokenCount($0) })
    }
}
