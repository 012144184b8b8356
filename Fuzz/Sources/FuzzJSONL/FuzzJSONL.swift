import Foundation
import FuzzDocuments

/// Any bytes as a .jsonl file: records or skips that give a reason, never a crash.
let file = FileManager.default.temporaryDirectory.appendingPathComponent("hush-fuzz-\(getpid()).jsonl")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONL(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    fuzzDocumentFile(data, size, at: file)
}
