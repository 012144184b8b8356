import Foundation
import HushKernels

/// A table of rows left in its model file and read one row at a time when a token looks it up: the word
/// table, by far the largest tensor of a small encoder (multilingual-e5-small's 250,037 rows are 54 MB in
/// Q4_0 and would be 384 MB in f32), of which a text needs a few rows. Reading rows instead of mapping the
/// table keeps it out of the process's memory and makes a model file changed under a running process an error
/// (see ``ModelFile``).
///
/// ```swift
/// let words = try file.rowTable("emb.word", rows: 250_037, columns: 384)
/// try words.copy(row: 6, into: out)
/// ```
struct RowTable: Sendable {
    /// How the file stores a row's values.
    enum Encoding: Sendable {
        case f32, f16, bf16
        /// Blocks of 32 weights (`E5S1File.q4BlockBytes` bytes each).
        case q4_0
    }

    let file: ModelFile
    /// Where row 0 starts in the file.
    let offset: Int
    let rows: Int
    let columns: Int
    let encoding: Encoding

    /// Bytes of one row in the file.
    var rowBytes: Int {
        switch encoding {
        case .f32: 4 * columns
        case .f16, .bf16: 2 * columns
        case .q4_0: columns / E5S1File.q4BlockSize * E5S1File.q4BlockBytes
        }
    }

    /// Writes row `row`'s `columns` values, as f32, to `out`.
    ///
    /// - Throws: ``EmbeddingError/modelChanged(path:reason:)`` when the file no longer holds the row.
    func copy(row: Int, into out: UnsafeMutablePointer<Float>) throws {
        precondition(row >= 0 && row < rows, "RowTable: row \(row) out of 0..<\(rows)")
        let bytes = rowBytes
        let start = offset + row * bytes
        if encoding == .f32 {
            try file.read(at: start, count: bytes, into: out)
            for c in 0..<columns { out[c] = Float(bitPattern: UInt32(littleEndian: out[c].bitPattern)) }
            return
        }
        try withUnsafeTemporaryAllocation(byteCount: bytes, alignment: 16) { buffer in
            guard let raw = buffer.baseAddress else { return }
            try file.read(at: start, count: bytes, into: raw)
            let data = raw.assumingMemoryBound(to: UInt8.self)
            switch encoding {
            case .f32: break
            case .f16: hush_half_to_float_array(data, columns, out)
            case .bf16:
                for c in 0..<columns {
                    let bits = UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * c, as: UInt16.self))
                    out[c] = Float(bitPattern: UInt32(bits) << 16)
                }
            case .q4_0: hush_dequantize_q4_0(data, columns / E5S1File.q4BlockSize, out)
            }
        }
    }
}
