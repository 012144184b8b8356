import Foundation
import Testing

@testable import HushEmbedding

/// Half-precision tensors are widened exactly: normal, subnormal, signed zero, largest, infinite and NaN
/// values of F16, and BF16, at an odd offset in the file (the data need not be aligned).
@Suite struct SafeTensorsTests {
    @Test func halfPrecisionTensorsAreWidenedExactly() throws {
        let halves: [UInt16] = [0x3C00, 0xC000, 0x3800, 0x7BFF, 0x0001, 0x03FF, 0x8000, 0x7C00, 0xFC00, 0x7E00]
        let expected: [Float] = [
            1, -2, 0.5, 65504, 0x1p-24, 1023 * 0x1p-24, -0.0, .infinity, -.infinity, Float(bitPattern: 0x7FC0_0000),
        ]
        let brains: [UInt16] = [0x3F80, 0xC040, 0x0001]
        let header =
            #"{"h":{"dtype":"F16","shape":[10],"data_offsets":[1,21]},"b":{"dtype":"BF16","shape":[3],"data_offsets":[21,27]}}"#
        var file = Data()
        withUnsafeBytes(of: UInt64(header.utf8.count).littleEndian) { file.append(contentsOf: $0) }
        file.append(contentsOf: Array(header.utf8))
        file.append(0)  // one byte of padding: the F16 values start at an odd address
        for value in halves + brains { withUnsafeBytes(of: value.littleEndian) { file.append(contentsOf: $0) } }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hush-half-\(UUID().uuidString)")
        try file.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }

        let tensors = try SafeTensors(path: url.path)
        let h = try tensors.floats("h", shape: [10])
        #expect((0..<10).map { h.pointer[$0].bitPattern } == expected.map(\.bitPattern))
        let b = try tensors.floats("b", shape: [3])
        #expect((0..<3).map { b.pointer[$0] } == [1, -3, Float(bitPattern: 0x0001_0000)])
    }
}
