import Foundation

/// The image's byte format: little-endian scalars, arrays as a count then their raw elements, strings as a
/// byte count then UTF-8. Arrays of fixed-size scalars are copied in one piece, so a million-row array is
/// one read, not a million.
extension ImageOutput {
    func write<T: FixedWidthInteger>(_ value: T) throws {
        var little = value.littleEndian
        try withUnsafeBytes(of: &little) { try write($0) }
    }

    func write(_ value: Double) throws { try write(value.bitPattern) }
    func write(_ value: Float) throws { try write(value.bitPattern) }

    func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { utf8 in
            try write(UInt32(utf8.count))
            try write(UnsafeRawBufferPointer(utf8))
        }
    }

    func write(_ text: String?) throws {
        try write(UInt8(text == nil ? 0 : 1))
        if let text { try write(text) }
    }

    /// Scalars in the machine's order (every platform Hush runs on is little-endian; a big-endian one is
    /// refused when reading, see ``ImageInput/readArray(_:)``).
    func writeArray<T: BitwiseCopyable>(_ values: UnsafeBufferPointer<T>) throws {
        try write(UInt64(values.count))
        try write(UnsafeRawBufferPointer(values))
    }

    func writeArray<T: BitwiseCopyable>(_ values: [T]) throws {
        try values.withUnsafeBufferPointer { try writeArray($0) }
    }
}

extension ImageInput {
    func read<T: FixedWidthInteger>(_: T.Type = T.self) throws -> T {
        var value = T.zero
        try withUnsafeMutableBytes(of: &value) { try read(into: $0) }
        return T(littleEndian: value)
    }

    func readDouble() throws -> Double { Double(bitPattern: try read(UInt64.self)) }
    func readFloat() throws -> Float { Float(bitPattern: try read(UInt32.self)) }

    func readString() throws -> String {
        let count = Int(try read(UInt32.self))
        guard count <= remaining else { throw ImageError.malformed("a string of \(count) bytes") }
        var bytes = [UInt8](repeating: 0, count: count)
        try bytes.withUnsafeMutableBytes { try read(into: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    func readOptionalString() throws -> String? {
        try read(UInt8.self) == 0 ? nil : try readString()
    }

    /// An array written by ``ImageOutput/writeArray(_:)-5t5pb``, refusing more than `limit` elements or more
    /// than the bytes left in the image hold.
    func readArray<T: BitwiseCopyable>(_: T.Type = T.self, limit: Int) throws -> [T] {
        #if _endian(big)
            throw ImageError.malformed("images are little-endian")
        #else
            let count = try read(UInt64.self)
            guard count <= UInt64(limit), count <= UInt64(remaining / max(1, MemoryLayout<T>.stride)) else {
                throw ImageError.malformed("an array of \(count) elements")
            }
            return try [T](unsafeUninitializedCapacity: Int(count)) { buffer, initialized in
                try read(into: UnsafeMutableRawBufferPointer(buffer))
                initialized = Int(count)
            }
        #endif
    }
}
