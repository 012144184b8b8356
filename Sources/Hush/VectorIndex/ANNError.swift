/// Errors from the approximate-nearest-neighbour components (quantisers, scans, HNSW graph and its tables).
///
/// ```swift
/// do { _ = try HNSWIndex.load(from: GraphTableReader(db), rows: vectorRows) } catch let error as ANNError { print(error) }
/// ```
package enum ANNError: Error, Equatable, CustomStringConvertible {
    /// A vector or query has the wrong length; pass vectors of the index's dimension.
    case dimensionMismatch(expected: Int, actual: Int)
    /// A parameter is outside its allowed range (name, value given, what is allowed).
    case invalidParameter(name: String, value: String, allowed: String)
    /// A row id is outside the vector store (row, number of vectors).
    case rowOutOfRange(row: Int, count: Int)
    /// The saved graph tables are unreadable or inconsistent; rebuild the index from the vectors.
    case corruptGraph(String)
    /// A file (for example a .npy matrix) cannot be read as expected.
    case unreadableFile(path: String, reason: String)

    package var description: String {
        switch self {
        case .dimensionMismatch(let expected, let actual):
            return "vector has \(actual) dimensions, the index expects \(expected)"
        case .invalidParameter(let name, let value, let allowed):
            return "\(name) = \(value) is not allowed: \(allowed)"
        case .rowOutOfRange(let row, let count):
            return "row \(row) is outside the vector store (\(count) rows)"
        case .corruptGraph(let reason):
            return "the saved HNSW graph is inconsistent (\(reason)); rebuild it from the vectors"
        case .unreadableFile(let path, let reason):
            return "cannot read \(path): \(reason)"
        }
    }
}

/// Thrown inside a store's transaction (a graph that cannot be saved or read), it is reported as the file's
/// failure.
extension ANNError: FileContentError {}
