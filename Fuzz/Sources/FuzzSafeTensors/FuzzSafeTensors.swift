import Foundation
import HushEmbedding

/// Any bytes as a .safetensors file: a typed error or a header whose every tensor can be read.
let file = FileManager.default.temporaryDirectory.appendingPathComponent("hush-fuzz-\(getpid()).safetensors")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSafeTensors(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    guard (try? Data(bytes: data, count: size).write(to: file)) != nil else { return 0 }
    guard let tensors = try? SafeTensors(path: file.path) else { return 0 }
    for (name, info) in tensors.tensors {
        if info.dataRange.lowerBound < 0 || info.dataRange.upperBound > tensors.fileSize {
            fatalError("tensor \(name) outside the file: \(info.dataRange)")
        }
        if let values = try? tensors.floats(name), values.count > 0 {
            var sum: Float = 0
            for index in 0..<values.count { sum += values.pointer[index] }
            _ = sum
        }
    }
    return 0
}
