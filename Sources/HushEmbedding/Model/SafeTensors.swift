import Foundation
import HushKernels

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `.safetensors` file: a little-endian u64 header length, a JSON header describing each
/// tensor (dtype, shape, byte offsets into the data section), then the raw tensor bytes.
///
/// The header is validated on open: every tensor's offsets lie inside the file, its byte length equals its
/// shape times its element size, and no two tensors overlap. The file is read, never mapped (see `ModelFile`):
/// a tensor is read into memory when it is asked for, F16 and BF16 converted to F32.
///
/// ```swift
/// let weights = try SafeTensors(path: "model.safetensors")
/// let embeddings = try weights.floats("embeddings.word_embeddings.weight", shape: [30522, 384])
/// ```
public final class SafeTensors: @unchecked Sendable {
    // Sendable: immutable after init.

    /// Element types of safetensors tensors.
    public enum DType: String, Sendable, CaseIterable {
        case f64 = "F64", f32 = "F32", f16 = "F16", bf16 = "BF16"
        case i64 = "I64", i32 = "I32", i16 = "I16", i8 = "I8", u8 = "U8", bool = "BOOL"

        /// Bytes per element.
        public var size: Int {
            switch self {
            case .f64, .i64: 8
            case .f32, .i32: 4
            case .f16, .bf16, .i16: 2
            case .i8, .u8, .bool: 1
            }
        }
    }

    /// One tensor's header entry.
    public struct TensorInfo: Sendable, Equatable {
        /// The element type.
        public var dtype: DType
        /// The shape, outermost dimension first.
        public var shape: [Int]
        /// Byte range inside the data section.
        public var dataRange: Range<Int>
    }

    /// The file's path.
    public let path: String
    /// Every tensor in the file, by name.
    public let tensors: [String: TensorInfo]
    /// The file's size in bytes.
    public var fileSize: Int { file.size }

    private let file: ModelFile
    private let dataOffset: Int

    /// Opens a safetensors file and validates its header.
    ///
    /// - Throws: `EmbeddingError.modelNotFound` if the file does not exist, `EmbeddingError.corruptModel`
    ///   if it is truncated or its header is malformed.
    public init(path: String) throws {
        self.path = path
        let file = try ModelFile(path: path, minimumSize: 8, header: "a header")
        let parsed = try Self.parseHeader(file)
        self.tensors = parsed.tensors
        self.dataOffset = parsed.dataOffset
        self.file = file
    }

    private static func parseHeader(_ file: ModelFile) throws -> (tensors: [String: TensorInfo], dataOffset: Int) {
        let fileSize = file.size
        func corrupt(_ reason: String) -> EmbeddingError { .corruptModel(path: file.path, reason: reason) }
        var length: UInt64 = 0
        try file.read(at: 0, into: &length)
        let headerLength = UInt64(littleEndian: length)
        guard headerLength <= UInt64(fileSize - 8), headerLength <= 100_000_000 else {
            throw corrupt("header length \(headerLength) exceeds the file size \(fileSize) (truncated file?)")
        }
        let dataOffset = 8 + Int(headerLength)
        let headerData = Data(try file.bytes(at: 8, count: Int(headerLength)))
        guard let object = try? JSONSerialization.jsonObject(with: headerData), let entries = object as? [String: Any]
        else {
            throw corrupt("header is not a JSON object")
        }
        let dataSize = fileSize - dataOffset
        var tensors: [String: TensorInfo] = [:]
        for (name, value) in entries where name != "__metadata__" {
            guard let entry = value as? [String: Any], let dtypeName = entry["dtype"] as? String,
                let shapeValues = entry["shape"] as? [Any], let offsets = entry["data_offsets"] as? [Any],
                offsets.count == 2
            else {
                throw corrupt("tensor \(name) has no dtype, shape or data_offsets")
            }
            guard let dtype = DType(rawValue: dtypeName) else {
                throw corrupt("tensor \(name) has unknown dtype \(dtypeName)")
            }
            let shape = try shapeValues.map { value -> Int in
                guard let number = value as? Int, number >= 0 else { throw corrupt("tensor \(name) has a bad shape") }
                return number
            }
            guard let begin = offsets[0] as? Int, let end = offsets[1] as? Int, begin >= 0, begin <= end else {
                throw corrupt("tensor \(name) has bad data_offsets")
            }
            guard end <= dataSize else {
                throw corrupt(
                    "tensor \(name) ends at byte \(end) but the data section has \(dataSize) (truncated file?)")
            }
            var count = 1
            for dimension in shape {
                let (product, overflow) = count.multipliedReportingOverflow(by: dimension)
                guard !overflow else { throw corrupt("tensor \(name) shape \(shape) overflows") }
                count = product
            }
            guard count * dtype.size == end - begin else {
                throw corrupt(
                    "tensor \(name) has \(end - begin) bytes, shape \(shape) of \(dtypeName) needs \(count * dtype.size)"
                )
            }
            tensors[name] = TensorInfo(dtype: dtype, shape: shape, dataRange: begin..<end)
        }
        let ranges = tensors.values.map(\.dataRange).filter { !$0.isEmpty }.sorted { $0.lowerBound < $1.lowerBound }
        for (previous, next) in zip(ranges, ranges.dropFirst()) where next.lowerBound < previous.upperBound {
            throw corrupt("tensors overlap at byte \(next.lowerBound)")
        }
        return (tensors, dataOffset)
    }

    /// A tensor as f32 values, checked against an expected shape.
    ///
    /// The values are read into a new buffer, F16 and BF16 converted.
    ///
    /// - Throws: `EmbeddingError.missingTensor` or `.shapeMismatch`, or `.corruptModel` for non-float data.
    public func floats(_ name: String, shape expected: [Int]? = nil) throws -> FloatTensor {
        let info = try floatTensor(name, shape: expected)
        let start = dataOffset + info.dataRange.lowerBound
        let count = info.dataRange.count / info.dtype.size
        if info.dtype == .f32 {
            return try FloatTensor(shape: info.shape) { out in
                try file.read(at: start, count: info.dataRange.count, into: out)
                for index in 0..<count { out[index] = Float(bitPattern: UInt32(littleEndian: out[index].bitPattern)) }
            }
        }
        let bytes = ByteStorage(count: info.dataRange.count)
        try file.read(at: start, count: info.dataRange.count, into: bytes.base)
        return FloatTensor(shape: info.shape) { out in
            if info.dtype == .f16 {
                hush_half_to_float_array(bytes.base.assumingMemoryBound(to: UInt8.self), count, out)
                return
            }
            for index in 0..<count {
                let bits = UInt16(littleEndian: bytes.base.loadUnaligned(fromByteOffset: index * 2, as: UInt16.self))
                out[index] = Float(bitPattern: UInt32(bits) << 16)
            }
        }
    }

    /// A float matrix of `shape` (rows, columns) left in the file, read a row at a time (see ``RowTable``).
    ///
    /// - Throws: as ``floats(_:shape:)``.
    func rowTable(_ name: String, shape: [Int]) throws -> RowTable {
        let info = try floatTensor(name, shape: shape)
        let encoding: RowTable.Encoding =
            switch info.dtype {
            case .f16: .f16
            case .bf16: .bf16
            default: .f32
            }
        return RowTable(
            file: file, offset: dataOffset + info.dataRange.lowerBound, rows: shape[0], columns: shape[1],
            encoding: encoding)
    }

    /// The entry of a float tensor, checked against an expected shape.
    private func floatTensor(_ name: String, shape expected: [Int]?) throws -> TensorInfo {
        guard let info = tensors[name] else { throw EmbeddingError.missingTensor(name: name, path: path) }
        if let expected, expected != info.shape {
            throw EmbeddingError.shapeMismatch(name: name, expected: expected, actual: info.shape)
        }
        guard [.f32, .f16, .bf16].contains(info.dtype) else {
            throw EmbeddingError.corruptModel(
                path: path, reason: "tensor \(name) is \(info.dtype.rawValue), not a float type")
        }
        return info
    }
}

/// A read-only f32 tensor that owns its values.
public struct FloatTensor: @unchecked Sendable {
    // Sendable: immutable after creation; `owner` keeps the buffer alive.

    /// The shape, outermost dimension first.
    public let shape: [Int]
    /// The first element; valid as long as this value lives.
    public let pointer: UnsafePointer<Float>
    private let owner: AnyObject

    /// The number of elements.
    public var count: Int { shape.reduce(1, *) }

    /// Creates a tensor that owns its values.
    public init(shape: [Int], values: [Float]) {
        precondition(shape.reduce(1, *) == values.count, "FloatTensor: \(values.count) values for shape \(shape)")
        let storage = FloatStorage(values)
        self.shape = shape
        self.pointer = UnsafePointer(storage.buffer.baseAddress ?? UnsafeMutablePointer<Float>.allocate(capacity: 1))
        self.owner = storage
    }

    /// A tensor over `count` values written into fresh storage by `fill` (no intermediate array).
    init(shape: [Int], filling fill: (UnsafeMutablePointer<Float>) throws -> Void) rethrows {
        let count = shape.reduce(1, *)
        let storage = FloatStorage(count: count)
        if let base = storage.buffer.baseAddress { try fill(base) }
        self.shape = shape
        self.pointer = UnsafePointer(storage.buffer.baseAddress ?? UnsafeMutablePointer<Float>.allocate(capacity: 1))
        self.owner = storage
    }

    /// Copies the values into an array.
    public var values: [Float] { Array(UnsafeBufferPointer(start: pointer, count: count)) }
}

/// An owned, never-resized f32 buffer with a stable address.
final class FloatStorage: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<Float>

    init(_ values: [Float]) {
        buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: max(values.count, 1))
        _ = buffer.initialize(from: values)
    }

    init(count: Int) {
        buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: max(count, 1))
        buffer.initialize(repeating: 0)
    }

    deinit { buffer.deallocate() }
}
