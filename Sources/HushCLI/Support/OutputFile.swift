import Foundation

/// A file a command writes (`hush export --out`, `hush eval --evidence`): never one that holds data the
/// command was given or that another tool keeps.
enum OutputFile {
    /// Why writing to `path` would lose data, or `nil`: it is the database (or one of its files: `-wal`, `-shm`,
    /// `-journal`), one of `inputs`, a folder, or a SQLite database.
    ///
    /// ```swift
    /// OutputFile.refusal("notes.hush", database: "notes.hush")  // "is the database this command reads"
    /// ```
    static func refusal(_ path: String, database: String, inputs: [String] = []) -> String? {
        func resolved(_ path: String) -> String {
            URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
        }
        let target = resolved(path)
        let source = resolved(database)
        if target == source { return "is the database this command reads" }
        if ["-wal", "-shm", "-journal"].contains(where: { source + $0 == target }) {
            return "is a file of the database this command reads"
        }
        if inputs.map(resolved).contains(target) { return "is a file this command reads" }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: target, isDirectory: &isFolder) else { return nil }
        if isFolder.boolValue { return "is a folder" }
        guard let handle = FileHandle(forReadingAtPath: target) else { return nil }
        defer { try? handle.close() }
        let header = try? handle.read(upToCount: 16)
        return header == Data("SQLite format 3\u{0}".utf8) ? "is a SQLite database" : nil
    }
}
