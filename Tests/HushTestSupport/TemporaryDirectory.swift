import Foundation

/// A directory under the system temporary folder, removed with everything in it when the value is released.
///
/// ```swift
/// let folder = try TemporaryDirectory()
/// try folder.write("notes/garden.md", "# Garden\n\nTomatoes after the last frost.")
/// let db = folder.path("store.hush")
/// ```
public final class TemporaryDirectory: @unchecked Sendable {
    /// The directory.
    public let url: URL

    /// Creates an empty directory with a unique name.
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("hush-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the directory.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` as UTF-8 at `relativePath`, creating folders on the way; returns the file's URL.
    @discardableResult
    public func write(_ relativePath: String, _ text: String) throws -> URL {
        try write(relativePath, Data(text.utf8))
    }

    /// Writes `data` at `relativePath`, creating folders on the way; returns the file's URL.
    @discardableResult
    public func write(_ relativePath: String, _ data: Data) throws -> URL {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        return file
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
