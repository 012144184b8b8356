import Foundation

/// The ranking part of a store: related items, interest ranking, diversification (MMR) and extractive
/// summaries. It reads memory through memory's door (`StoreMemory+Documents.swift`) under one hold
/// of the read lock, and the file (titles, texts) after it.
struct Ranker: Sendable {
    let database: StoreDatabase
    let memory: StoreMemory
    let embedder: any Embedder
    /// How summaries split and clean the documents' text.
    let cleaner: TextCleaner
    /// How many sentences a summary embeds per call.
    let embeddingBatchSize: Int

    /// `limit` clamped to the number of documents (see ``StoreMemory/clampedLimit(_:)``).
    func clampedLimit(_ limit: Int) -> Int { memory.clampedLimit(limit) }

    /// Why vectors cannot be compared right now, or `nil` (see
    /// ``StoreMemory/readyForSemantic(current:database:)``).
    func readyForSemantic() throws -> StoreError? {
        try memory.readyForSemantic(current: embedder.identity, database: database)
    }
}
