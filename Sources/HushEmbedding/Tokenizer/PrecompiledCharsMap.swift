import Foundation

/// SentencePiece's compiled normalisation rules (`precompiled_charsmap`, as stored base64 in a Hugging Face
/// `tokenizer.json`): a double-array trie over UTF-8 keys whose values are offsets of NUL-terminated
/// replacement strings.
///
/// Layout: a little-endian `UInt32` with the trie's size in bytes, the trie (32-bit units), then the pool of
/// replacement strings. Each unit packs a child offset (bits 10-30, shifted left by 8 when bit 9 is set), a
/// "has a value" flag (bit 8) and the label byte (bits 0-7, bit 31 on value units). Every index read is
/// bounds-checked: a damaged map gives no match, never a crash.
///
/// ```swift
/// let map = try PrecompiledCharsMap(blob, source: "tokenizer.json")
/// map.normalize("ﬁ")  // "fi" with an NFKC map
/// ```
public struct PrecompiledCharsMap: Sendable {
    private let units: [UInt32]
    private let pool: [UInt8]

    /// Reads a compiled map.
    ///
    /// - Throws: `EmbeddingError.corruptModel` (naming `source`) when the sizes disagree.
    public init(_ blob: [UInt8], source: String) throws {
        func corrupt(_ reason: String) -> EmbeddingError {
            .corruptModel(path: source, reason: "precompiled_charsmap: \(reason)")
        }
        guard blob.count >= 4 else { throw corrupt("\(blob.count) bytes, shorter than its 4-byte header") }
        let size = Int(blob[0]) | Int(blob[1]) << 8 | Int(blob[2]) << 16 | Int(blob[3]) << 24
        guard size > 0, size % 4 == 0, size <= blob.count - 4 else {
            throw corrupt("trie size \(size) is not a positive multiple of 4 within the \(blob.count - 4) bytes")
        }
        var units: [UInt32] = []
        units.reserveCapacity(size / 4)
        for offset in stride(from: 4, to: 4 + size, by: 4) {
            units.append(
                UInt32(blob[offset]) | UInt32(blob[offset + 1]) << 8 | UInt32(blob[offset + 2]) << 16
                    | UInt32(blob[offset + 3]) << 24)
        }
        self.units = units
        self.pool = Array(blob[(4 + size)...])
    }

    /// The replacement of the shortest rule that matches a prefix of `key` (the rest of `key` is dropped, as
    /// in Hugging Face's normaliser), or nil when none does.
    func replacement(_ key: some Collection<UInt8>) -> ArraySlice<UInt8>? {
        guard var unit = units.first else { return nil }
        var node = Int(Self.offset(unit))
        for byte in key {
            if byte == 0 { return nil }
            node ^= Int(byte)
            guard node < units.count else { return nil }
            unit = units[node]
            guard Self.label(unit) == UInt32(byte) else { return nil }
            node ^= Int(Self.offset(unit))
            if unit & (1 << 8) != 0 {
                guard node < units.count else { return nil }
                let start = Int(units[node] & 0x7FFF_FFFF)
                guard start < pool.count else { return nil }
                let end = pool[start...].firstIndex(of: 0) ?? pool.count
                return pool[start..<end]
            }
        }
        return nil
    }

    /// Applies the rules as Hugging Face's `Precompiled` normaliser does: a grapheme cluster shorter than 6
    /// UTF-8 bytes is looked up whole; otherwise (or when that finds nothing) each scalar is looked up alone.
    public func normalize(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for grapheme in text {
            let bytes = grapheme.utf8
            if bytes.count < 6, let whole = replacement(bytes) {
                out += whole
                continue
            }
            for scalar in grapheme.unicodeScalars {
                let utf8 = String(scalar).utf8
                if let replaced = replacement(utf8) { out += replaced } else { out += utf8 }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    @inline(__always) private static func offset(_ unit: UInt32) -> UInt32 {
        (unit >> 10) << ((unit & (1 << 9)) >> 6)
    }

    @inline(__always) private static func label(_ unit: UInt32) -> UInt32 { unit & (1 << 31 | 0xFF) }
}
