import Foundation

/// The sha256 of a weights file, remembered so that opening a model does not read its 90-130 MB every time.
///
/// The record goes beside the file (`.<name>.sha256`) or, where that folder cannot be written (a model inside
/// an app's bundle), under `~/.cache/hush/digests`, named after the file's path. A record holds the file's size
/// and modification time (and, in the shared folder, its path): a file that changed is read again.
///
/// ```swift
/// let digest = try WeightsDigest.sha256(ofFileAt: weights.path)  // read once, then remembered
/// ```
enum WeightsDigest {
    static func sha256(ofFileAt path: String, sharedFolder: URL = sharedFolder) throws -> String {
        let size = FileStatus.size(path) ?? -1
        let modified = FileStatus.modified(path)?.timeIntervalSince1970 ?? 0
        let stamp = "\(size) \(modified)"
        let records = [(beside(path), stamp), (shared(path, in: sharedFolder), "\(stamp) \(path)")]
        for (record, key) in records {
            if let digest = read(record, key: key) { return digest }
        }
        let digest = try SHA256.hexDigest(ofFileAt: path)
        for (record, key) in records where write(record, key: key, digest: digest) { break }
        return digest
    }

    /// The record beside the weights.
    static func beside(_ path: String) -> URL {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).sha256")
    }

    /// `~/.cache/hush/digests`, for the records of weights whose folder is read-only.
    static var sharedFolder: URL {
        ModelLocation.cacheDirectory.deletingLastPathComponent().appendingPathComponent("digests")
    }

    /// The record in the shared folder, named after the weights' path.
    static func shared(_ path: String, in folder: URL) -> URL {
        let name = SHA256.hexDigest(Data(URL(fileURLWithPath: path).standardizedFileURL.path.utf8))
        return folder.appendingPathComponent("\(name.prefix(32)).sha256")
    }

    private static func read(_ record: URL, key: String) -> String? {
        guard let text = try? String(contentsOf: record, encoding: .utf8) else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count == 2, lines[0] == key, lines[1].count == 64 else { return nil }
        return String(lines[1])
    }

    private static func write(_ record: URL, key: String, digest: String) -> Bool {
        try? FileManager.default.createDirectory(
            at: record.deletingLastPathComponent(), withIntermediateDirectories: true)
        return (try? "\(key)\n\(digest)".write(to: record, atomically: true, encoding: .utf8)) != nil
    }
}
