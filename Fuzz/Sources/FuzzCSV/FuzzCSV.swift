import Foundation
import FuzzDocuments

/// Any bytes as a .csv file: records or skips that give a reason, never a crash.
let file = FileManager.default.temporaryDirectory.appendingPathComponent("hush-fuzz-\(getpid()).csv")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    fuzzDocumentFile(data, size, at: file)
}
