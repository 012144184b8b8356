/// Every chunk vector in one contiguous row-major `[Float]` (row = chunk), with the maps between rows,
/// chunk ids and document slots. Removal swaps the last row into the hole, so rows stay dense.
struct VectorMatrix: Sendable {
    let dimension: Int
    private(set) var values: [Float] = []
    private(set) var rowChunk: [Int64] = []
    private(set) var rowSlot: [Int32] = []
    private(set) var rowByChunk: [Int64: Int32] = [:]

    init(dimension: Int) {
        self.dimension = dimension
    }

    var rows: Int { rowChunk.count }
    /// Bytes held by the vectors themselves.
    var vectorBytes: Int { values.count * MemoryLayout<Float>.stride }

    mutating func reserve(rows: Int) {
        values.reserveCapacity(rows * dimension)
        rowChunk.reserveCapacity(rows)
        rowSlot.reserveCapacity(rows)
        rowByChunk.reserveCapacity(rows)
    }

    /// Appends (or replaces in place) the vector of `chunkID`. `vector` must have `dimension` components.
    mutating func set<C: Collection>(chunkID: Int64, slot: Int32, vector: C) where C.Element == Float {
        precondition(vector.count == dimension, "vector dimension checked by the caller")
        if let row = rowByChunk[chunkID] {
            let start = Int(row) * dimension
            values.replaceSubrange(start..<(start + dimension), with: vector)
            rowSlot[Int(row)] = slot
            return
        }
        rowByChunk[chunkID] = Int32(rowChunk.count)
        rowChunk.append(chunkID)
        rowSlot.append(slot)
        values.append(contentsOf: vector)
    }

    /// Appends the vector of a new `chunkID` from raw little-endian f32 bytes; `false` (and nothing
    /// appended) when the byte count is not `dimension × 4` or the chunk is already present.
    @discardableResult
    mutating func append(chunkID: Int64, slot: Int32, bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count == dimension * 4, rowByChunk[chunkID] == nil else { return false }
        let start = values.count
        values.append(contentsOf: repeatElement(0, count: dimension))
        values.withUnsafeMutableBytes { destination in
            UnsafeMutableRawBufferPointer(rebasing: destination[(start * 4)...]).copyMemory(from: bytes)
        }
        #if _endian(big)
            for index in start..<values.count {
                values[index] = Float(bitPattern: UInt32(littleEndian: values[index].bitPattern))
            }
        #endif
        rowByChunk[chunkID] = Int32(rowChunk.count)
        rowChunk.append(chunkID)
        rowSlot.append(slot)
        return true
    }

    /// Removes the row of `chunkID` by moving the last row into its place.
    mutating func remove(chunkID: Int64) {
        guard let row = rowByChunk.removeValue(forKey: chunkID) else { return }
        let hole = Int(row)
        let last = rowChunk.count - 1
        if hole != last {
            let movedChunk = rowChunk[last]
            values.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                (base + hole * dimension).update(from: base + last * dimension, count: dimension)
            }
            rowChunk[hole] = movedChunk
            rowSlot[hole] = rowSlot[last]
            rowByChunk[movedChunk] = Int32(hole)
        }
        rowChunk.removeLast()
        rowSlot.removeLast()
        values.removeLast(dimension)
    }

    /// A copy of the vector of one row.
    func vector(row: Int) -> [Float] {
        Array(values[(row * dimension)..<((row + 1) * dimension)])
    }

    func vector(chunkID: Int64) -> [Float]? {
        rowByChunk[chunkID].map { vector(row: Int($0)) }
    }
}
