import Foundation
import Hush

/// Any bytes as a .jsonl file: records or skips that give a reason, never a crash.
let file = FileManager.default.temporaryDirectory.appendingPathComponent("hush-fuzz-\(getpid()).jsonl")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONL(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    guard (try? Data(bytes: data, count: size).write(to: file)) != nil else { return 0 }
    var count = 0
    let skipped = (try? DocumentReader().read([file], batchSize: 7) { count += $0.count }) ?? []
    for skip in skipped where skip.reason.isEmpty { fatalError("a skip without a reason") }
    return 0
}
