/// An open-addressing hash table from UTF-8 byte strings to token ids.
///
/// Lookups take a byte range of a buffer the caller owns, so the WordPiece loop never builds a `String`
/// per candidate piece.
final class VocabularyTable: Sendable {
    /// All keys, back to back.
    private let bytes: [UInt8]
    /// Start offset of key `i` in `bytes` is `starts[i]`, its end `starts[i + 1]`.
    private let starts: [Int]
    private let ids: [Int32]
    /// Entry index + 1 per slot, 0 for an empty slot.
    private let slots: [Int32]
    private let mask: Int
    /// Length in bytes of the longest key: longer candidates cannot match.
    let longestKey: Int

    /// Builds the table; a key that appears twice keeps the id given last.
    init(entries: [(key: [UInt8], id: Int32)]) {
        var bytes: [UInt8] = []
        var starts: [Int] = [0]
        var ids: [Int32] = []
        var capacity = 16
        while capacity < entries.count * 2 { capacity <<= 1 }
        var slots = [Int32](repeating: 0, count: capacity)
        let mask = capacity - 1
        var longest = 0
        for entry in entries {
            let hash = entry.key.withUnsafeBufferPointer { Self.hash($0.baseAddress, 0, $0.count) }
            var slot = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
            var replaced = false
            while slots[slot] != 0 {
                let index = Int(slots[slot]) - 1
                if bytes[starts[index]..<starts[index + 1]].elementsEqual(entry.key) {
                    ids[index] = entry.id
                    replaced = true
                    break
                }
                slot = (slot + 1) & mask
            }
            if replaced { continue }
            bytes.append(contentsOf: entry.key)
            starts.append(bytes.count)
            ids.append(entry.id)
            slots[slot] = Int32(ids.count)
            longest = max(longest, entry.key.count)
        }
        self.bytes = bytes
        self.starts = starts
        self.ids = ids
        self.slots = slots
        self.mask = mask
        self.longestKey = longest
    }

    /// The FNV-1a state before any byte.
    static let hashSeed: UInt64 = 0xcbf2_9ce4_8422_2325

    /// Feeds one byte to an FNV-1a state, so that callers growing a key byte by byte hash it incrementally.
    @inline(__always)
    static func hash(_ state: UInt64, adding byte: UInt8) -> UInt64 {
        (state ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }

    @inline(__always)
    static func hash(_ base: UnsafePointer<UInt8>?, _ start: Int, _ end: Int) -> UInt64 {
        var hash = hashSeed
        guard let base else { return hash }
        var index = start
        while index < end {
            hash = Self.hash(hash, adding: base[index])
            index += 1
        }
        return hash
    }

    /// The id of the key equal to `buffer[start..<end]`, or nil.
    @inline(__always)
    func lookup(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int32? {
        lookup(buffer, start, end, state: Self.hash(buffer.baseAddress, start, end))
    }

    /// The id of the key equal to `buffer[start..<end]`, or nil, given the FNV-1a `state` of those bytes.
    @inline(__always)
    func lookup(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, state: UInt64) -> Int32? {
        let length = end - start
        if length > longestKey { return nil }
        var slot = Int(truncatingIfNeeded: state ^ (state >> 29)) & mask
        return slots.withUnsafeBufferPointer { slots in
            bytes.withUnsafeBufferPointer { keys in
                starts.withUnsafeBufferPointer { starts in
                    while true {
                        let entry = Int(slots[slot])
                        if entry == 0 { return nil }
                        let keyStart = starts[entry - 1]
                        if starts[entry] - keyStart == length {
                            var equal = true
                            var offset = 0
                            while offset < length {
                                if keys[keyStart + offset] != buffer[start + offset] {
                                    equal = false
                                    break
                                }
                                offset += 1
                            }
                            if equal { return ids[entry - 1] }
                        }
                        slot = (slot + 1) & mask
                    }
                }
            }
        }
    }
}
