// Minimal restatement for type checks (scripts/check-doc-snippets), not Apple's interface: the part of
// FoundationModels (iOS 26, macOS 26) that the answering recipe of the DocC articles uses, with the types and
// signatures Apple documents. Nothing here runs: every body traps.
import Foundation

/// The on-device language model that powers Apple Intelligence.
public final class SystemLanguageModel: Sendable {
    /// Why the model cannot be used now.
    public enum Availability: Sendable {
        /// Why not.
        public enum UnavailableReason: Sendable {
            case deviceNotEligible, appleIntelligenceNotEnabled, modelNotReady
        }
        case available
        case unavailable(UnavailableReason)
    }

    /// The base model.
    public static var `default`: SystemLanguageModel { fatalError("declaration only") }
    /// Whether the model can be used now.
    public var availability: Availability { fatalError("declaration only") }
    /// Whether ``availability`` is `.available`.
    public var isAvailable: Bool { fatalError("declaration only") }
}

/// A conversation with a language model.
public final class LanguageModelSession {
    /// What the model answered.
    public struct Response<Content> {
        /// The answer.
        public var content: Content { fatalError("declaration only") }
    }

    /// A session whose model follows `instructions`.
    public convenience init(model: SystemLanguageModel = .default, instructions: String? = nil) {
        fatalError("declaration only")
    }

    private init() {}

    /// The model's answer to `prompt`.
    public func respond(to prompt: String) async throws -> Response<String> { fatalError("declaration only") }
}
