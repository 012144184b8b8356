import Foundation

/// Vectors on disk: `dimension` IEEE-754 f32 values, little-endian, no header.
enum VectorBlob {
    static func encode(_ vector: [Float]) -> Data {
        #if _endian(big)
            return Data(vector.map { $0.bitPattern.littleEndian }.withUnsafeBytes { Array($0) })
        #else
            return vector.withUnsafeBytes { Data($0) }
        #endif
    }

    /// The floats of `data`, or `nil` when its length is not a positive multiple of 4.
    static func decode(_ data: Data) -> [Float]? {
        guard !data.isEmpty, data.count % 4 == 0 else { return nil }
        let count = data.count / 4
        var result = [Float](repeating: 0, count: count)
        result.withUnsafeMutableBytes { destination in
            data.withUnsafeBytes { source in destination.copyMemory(from: source) }
        }
        #if _endian(big)
            for index in result.indices {
                result[index] = Float(bitPattern: UInt32(littleEndian: result[index].bitPattern))
            }
        #endif
        return result
    }

    /// Appends the floats of `data` to `values` when it holds exactly `dimension` of them.
    @discardableResult
    static func append(_ data: Data, dimension: Int, to values: inout [Float]) -> Bool {
        guard data.count == dimension * 4, let vector = decode(data) else { return false }
        values.append(contentsOf: vector)
        return true
    }

    /// Why `vector` cannot be stored, or `nil` when it can.
    static func problem(_ vector: [Float], dimension: Int) -> String? {
        if vector.count != dimension { return "dimension \(vector.count), expected \(dimension)" }
        if let index = vector.firstIndex(where: { !$0.isFinite }) {
            return "component \(index) is \(vector[index])"
        }
        return nil
    }
}
