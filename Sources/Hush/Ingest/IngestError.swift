/// Why reading input files failed as a whole (single bad files or records are skipped, not thrown).
///
/// ```swift
/// do { _ = try DocumentReader().read([url]) { _ in } } catch IngestError.notFound(let path) { print(path) }
/// ```
public enum IngestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing exists at `path`; check the spelling or the working directory.
    case notFound(path: String)
    /// `path` exists but could not be opened or listed (`reason` says why, often permissions).
    case unreadable(path: String, reason: String)
    /// Two different files would get the same document id (two folders with the same name, or two files with
    /// the same name given directly); nothing was read.
    case idCollision(id: String, first: String, second: String)

    /// A sentence for a person: what failed and where.
    public var description: String {
        switch self {
        case .notFound(let path): return "No file or folder at \(path)"
        case .unreadable(let path, let reason): return "Cannot read \(path): \(reason)"
        case .idCollision(let id, let first, let second):
            return "\(first) and \(second) would both get the document id \"\(id)\": index them in separate "
                + "calls from folders with different names, or rename one"
        }
    }
}
