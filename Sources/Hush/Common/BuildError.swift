/// What can go wrong building or importing a knowledge base. Each case says what to fix.
///
/// ```swift
/// do {
///     _ = try await KnowledgeBaseBuilder(inputs: [folder], output: out, embedder: embedder).build()
/// } catch let error as BuildError {
///     print(error)
/// }
/// ```
public enum BuildError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The configuration file cannot be read or has a bad value.
    case invalidConfiguration(path: String, reason: String)
    /// No input file could be read (all were missing, unsupported or empty).
    case noDocuments(inputs: [String])
    /// The output folder cannot be written.
    case outputNotWritable(path: String, reason: String)
    /// Finishing the file failed (optimising, packing, renaming); the previous file is untouched.
    case finishing(path: String, reason: String)
    /// A file to import is not in the expected layout.
    case importLayout(path: String, reason: String)
    /// A stored vector has another dimension than the embedder's.
    case importDimension(path: String, found: Int, expected: Int)
    /// The output (or the manifest beside it) exists and was not made by a build: replacing it could destroy
    /// someone's data. Choose another path, or pass `replaceAnyFile` (`--force`).
    case wouldReplace(path: String, reason: String)

    public var description: String {
        switch self {
        case .invalidConfiguration(let path, let reason):
            return "build configuration \(path): \(reason)"
        case .noDocuments(let inputs):
            return "no documents found in \(inputs.joined(separator: ", ")): give folders or .txt, .md, .jsonl, "
                + ".csv or .tsv files with text in them"
        case .outputNotWritable(let path, let reason):
            return "cannot write the output at \(path) (\(reason)): choose a writable folder"
        case .finishing(let path, let reason):
            return "finishing \(path) failed (\(reason)); the previous file is untouched: free disk space or "
                + "check permissions and build again"
        case .importLayout(let path, let reason):
            return "\(path) is not a file this import understands (\(reason)): expected a table "
                + "documents(id, title, content, metadata, embedding BLOB)"
        case .importDimension(let path, let found, let expected):
            return "\(path) holds vectors of dimension \(found) but the embedder makes \(expected): import it "
                + "with the model its vectors were made with (all-MiniLM-L6-v2 makes 384)"
        case .wouldReplace(let path, let reason):
            return "\(path) already exists and \(reason), so a build will not replace it: choose another output "
                + "path, or allow replacing any file (replaceAnyFile)"
        }
    }
}

extension BuildError: TypedError {}
