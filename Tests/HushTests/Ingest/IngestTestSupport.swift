import Foundation

@testable import Hush

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
