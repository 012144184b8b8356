/// An input file, or one line or row of it, that was left out, with the reason.
///
/// ```swift
/// for skip in skipped { print("\(skip.path):\(skip.line ?? 0): \(skip.reason)") }
/// ```
public struct SkippedInput: Sendable, Hashable, Codable {
    /// The file's path.
    public var path: String
    /// The 1-based line where the skipped record starts, or `nil` when the whole file was skipped.
    public var line: Int?
    /// Why it was skipped, for a person to read.
    public var reason: String

    /// Creates a skipped-input note.
    public init(path: String, line: Int? = nil, reason: String) {
        self.path = path
        self.line = line
        self.reason = reason
    }
}
