import Foundation

/// A failure a test injects at a stage of a build (``KnowledgeBaseBuilder/injectedFailure``); never thrown
/// otherwise.
struct InjectedBuildFailure: Error, Equatable {
    var stage: String
}
