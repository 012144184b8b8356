import Foundation

/// The order ``HushStore/documentIDs(matching:order:)`` lists documents in.
///
/// ```swift
/// let oldest = try await store.documentIDs(order: .oldestFirst).prefix(10)
/// ```
public enum DocumentOrder: String, Sendable, Hashable, Codable, CaseIterable {
    /// The newest `createdAt` first; of two created at the same instant, the one stored later first.
    case newestFirst
    /// The oldest `createdAt` first; of two created at the same instant, the one stored earlier first.
    case oldestFirst
    /// By id, as Swift orders strings.
    case id
}
