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
    convenience init(entries: [(key: [UInt8], id: Int32)]) {
        self.init(count: entries.count) { index, body in
            entries[index].key.withUnsafeBytes { body($0, entries[index].id) }
        }
    }

    /// Builds the table from `count` entries that `entry(index, body)` hands to `body` one by one (key bytes
    /// and id), so a caller with keys in one buffer never makes an array per key. A key that appears twice
    /// keeps the id given last.
    ///
    /// Two passes: the keys are copied back to back first, then the slots are filled over plain buffers (a
    /// closure that mutated the arrays it captured paid an access check per byte: about 90 ms for e5's 250,000
    /// pieces, on every model load).
    init(count: Int, entry: (Int, (UnsafeRawBufferPointer, Int32) -> Void) -> Void) {
        var bytes: [UInt8] = []
        var starts: [Int] = [0]
        var ids: [Int32] = []
        starts.reserveCapacity(count + 1)
        ids.reserveCapacity(count)
        for index in 0..<count {
            entry(index) { key, id in
                bytes.append(contentsOf: key)
                starts.append(bytes.count)
                ids.append(id)
            }
        }
        var capacity = 16
        while capacity < ids.count * 2 { capacity <<= 1 }
        var slots = [Int32](repeating: 0, count: capacity)
        let mask = capacity - 1
        var longest = 0
        bytes.withUnsafeBufferPointer { keys in
            starts.withUnsafeBufferPointer { starts in
                ids.withUnsafeMutableBufferPointer { ids in
                    slots.withUnsafeMutableBufferPointer { slots in
                        for entry in 0..<ids.count {
                            let start = starts[entry]
                            let length = starts[entry + 1] - start
                            let hash = Self.hash(keys.baseAddress, start, start + length)
                            var slot = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
                            while true {
                                let occupant = Int(slots[slot])
                                if occupant == 0 {
                                    slots[slot] = Int32(entry + 1)
                                    longest = max(longest, length)
                                    break
                                }
                                let other = starts[occupant - 1]
                                if starts[occupant] - other == length,
                                    (0..<length).allSatisfy({ keys[other + $0] == keys[start + $0] })
                                {
                                    // A repeated key: the first entry keeps the slot and takes the later id.
                                    ids[occupant - 1] = ids[entry]
                                    break
                                }
                                slot = (slot + 1) & mask
                            }
                        }
                    }
                }
            }
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
