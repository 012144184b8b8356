import Foundation

@testable import Hush

/// A temporary folder for one test, removed when the value is deinitialised.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("hush-ingest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    @discardableResult
    func write(_ relativePath: String, _ text: String) throws -> URL {
        try write(relativePath, Data(text.utf8))
    }

    @discardableResult
    func write(_ relativePath: String, _ data: Data) throws -> URL {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        return file
    }
}

/// Reads everything at `paths`, returning all documents, the batch sizes seen and what was skipped.
func readAll(_ paths: [URL], reader: DocumentReader = .init(), batchSize: Int = 256) throws
    -> (documents: [Document], batches: [Int], skipped: [SkippedInput])
{
    var documents: [Document] = []
    var batches: [Int] = []
    let skipped = try reader.read(paths, batchSize: batchSize) { batch in
        documents.append(contentsOf: batch)
        batches.append(batch.count)
    }
    return (documents, batches, skipped)
}
