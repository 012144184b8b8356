import Foundation
import FuzzStoreDamage

// A store file from elsewhere is not trusted: each input damages a copy of a small valid store and the copy is
// opened, read, searched and written to (FuzzStoreDamage, shared with the test suite's replay of this corpus).

/// The template stores, made once.
let templates = blocking { await makeTemplates() } ?? []

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStoreFile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-store-input-\(getpid())")
    defer { try? FileManager.default.removeItem(at: folder) }
    guard let path = damagedCopy(UnsafeBufferPointer(start: data, count: size), of: templates, in: folder) else {
        return 0
    }
    _ = blocking { await exerciseStore(at: path) }
    return 0
}
