import Foundation
import Hush

/// Writes the fuzzer's bytes to `file` and reads it as documents: every record is read or skipped with a
/// reason, never a crash. The body of the .jsonl and .csv targets (the extension picks the format).
///
/// ```swift
/// fuzzDocumentFile(data, size, at: file)
/// ```
public func fuzzDocumentFile(_ data: UnsafePointer<UInt8>?, _ size: Int, at file: URL) -> Int32 {
    guard let data else { return 0 }
    guard (try? Data(bytes: data, count: size).write(to: file)) != nil else { return 0 }
    var count = 0
    let skipped = (try? DocumentReader().read([file], batchSize: 7) { count += $0.count }) ?? []
    for skip in skipped where skip.reason.isEmpty { fatalError("a skip without a reason") }
    return 0
}
