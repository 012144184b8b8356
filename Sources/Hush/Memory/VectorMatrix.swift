import HushKernels

/// Every chunk vector in one contiguous row-major `[Float]` (row = chunk), with the maps between rows,
/// chunk ids and document slots.
///
/// Rows are stable: a chunk keeps its row for as long as it exists (the row is stored in `vectors.row`, and
/// the HNSW graph names nodes by row). A removed chunk leaves a hole (`rowChunk == -1`, `rowSlot == -1`,
/// zero vector) that a later chunk reuses.
struct VectorMatrix: Sendable {
    /// Hands out rows: free holes first (lowest first), then new rows at the end.
    struct RowAllocator: Sendable, Equatable {
        /// Free holes, highest first (so `popLast` gives the lowest).
        var free: [Int32] = []
        /// One past the highest row handed out.
        var next: Int32 = 0

        mutating func allocate() -> Int32 {
            if let row = free.popLast() { return row }
            defer { next += 1 }
            return next
        }
    }

    let dimension: Int
    /// The vectors, one per row (holes are zero rows).
    private(set) var vectors: VectorRows
    private(set) var rowChunk: [Int64] = []
    private(set) var rowSlot: [Int32] = []
    private(set) var rowByChunk = IDMap()
    /// The lead row of each document slot (-1: none; may be shorter than the document table): the row of its
    /// lowest chunk id, which is the chunk that opens the document (a document's chunks are written in order).
    /// Most documents have one chunk, so the other rows of a slot live apart, in `moreRows` (no array per
    /// document).
    private(set) var leadRows: [Int32] = []
    private var moreRows: [Int32: [Int32]] = [:]
    /// Free rows (holes) and the end of the matrix.
    private(set) var allocator = RowAllocator()

    /// Whether the f32 vectors are in memory. A store opened from its saved image keeps only the maps here
    /// (the vectors stay in the file; searches walk 4-bit codes and read the few rows they rescore), until a
    /// write loads them.
    private(set) var isResident = true

    init(dimension: Int) {
        self.dimension = dimension
        vectors = VectorRows(dimension: dimension)
    }

    /// The maps of a matrix whose vectors stay in the file: `rowChunk[row]` (-1 for a hole) and its document
    /// slot `rowSlot[row]` (-1 for a hole).
    ///
    /// - Complexity: O(rows).
    /// - Throws: ``ImageError/malformed(_:)`` when a chunk id appears on two rows.
    init(dimension: Int, fileRows rowChunk: [Int64], slots rowSlot: [Int32]) throws {
        self.dimension = dimension
        vectors = VectorRows(dimension: dimension)
        self.rowChunk = rowChunk
        self.rowSlot = rowSlot
        isResident = false
        guard let rows = IDMap(ids: rowChunk, values: (0..<Int32(rowChunk.count)).map { $0 }) else {
            throw ImageError.malformed("a chunk on two rows")
        }
        rowByChunk = rows
        for row in rowChunk.indices where rowChunk[row] >= 0 {
            attach(row: Int32(row), chunkID: rowChunk[row], to: rowSlot[row])
        }
        rebuildAllocator()
    }

    /// Rows including holes (the size of the row-id space).
    var rows: Int { rowChunk.count }
    /// Rows that hold a chunk's vector.
    var liveRows: Int { rowByChunk.count }
    /// Whether some rows are holes.
    var hasHoles: Bool { liveRows != rows }
    /// Bytes held by the vectors themselves (holes included).
    var vectorBytes: Int { vectors.storage.count * MemoryLayout<Float>.stride }

    mutating func reserve(rows: Int) {
        vectors.reserve(rows: rows)
        rowChunk.reserveCapacity(rows)
        rowSlot.reserveCapacity(rows)
        rowByChunk.reserveCapacity(rows)
    }

    /// Grows the matrix with holes up to `count` rows.
    private mutating func grow(to count: Int) {
        guard count > rows else { return }
        let extra = count - rows
        vectors.appendZeroRows(extra)
        rowChunk.append(contentsOf: repeatElement(-1, count: extra))
        rowSlot.append(contentsOf: repeatElement(-1, count: extra))
    }

    /// Adopts an allocator that handed out rows inside a committed transaction.
    mutating func commit(_ allocator: RowAllocator) {
        self.allocator = allocator
        grow(to: Int(allocator.next))
    }

    /// Takes in the vectors of a matrix that held none (`rows × dimension` values, holes zero).
    mutating func adopt(values: [Float]) {
        precondition(values.count == rows * dimension, "one vector per row")
        vectors = VectorRows(dimension: dimension, storage: values)
        isResident = true
    }

    /// Recomputes the free list from the holes (after loading).
    mutating func rebuildAllocator() {
        var free: [Int32] = []
        for row in stride(from: rows - 1, through: 0, by: -1) where rowChunk[row] < 0 { free.append(Int32(row)) }
        allocator = RowAllocator(free: free, next: Int32(rows))
    }

    /// Stores the vector of `chunkID` at `row` (replacing whatever the row held). `vector` must have
    /// `dimension` components.
    mutating func set<C: Collection>(chunkID: Int64, slot: Int32, row: Int32, vector: C) where C.Element == Float {
        precondition(vector.count == dimension, "vector dimension checked by the caller")
        if let old = rowByChunk[chunkID], old != row { remove(chunkID: chunkID) }
        grow(to: Int(row) + 1)
        let index = Int(row)
        if rowChunk[index] >= 0, rowChunk[index] != chunkID { remove(chunkID: rowChunk[index]) }
        vectors.replace(row: index, with: vector)
        if rowChunk[index] == chunkID, rowSlot[index] != slot { detach(row: row, from: rowSlot[index]) }
        if rowChunk[index] != chunkID || rowSlot[index] != slot { attach(row: row, chunkID: chunkID, to: slot) }
        rowChunk[index] = chunkID
        rowSlot[index] = slot
        rowByChunk[chunkID] = row
    }

    /// Stores the vector of a new `chunkID` at `row` from raw little-endian f32 bytes; `false` (and nothing
    /// stored) when the byte count is not `dimension × 4`, the chunk is already present or the row is taken.
    @discardableResult
    mutating func load(chunkID: Int64, slot: Int32, row: Int32, bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count == dimension * 4, rowByChunk[chunkID] == nil, row >= 0 else { return false }
        grow(to: Int(row) + 1)
        let index = Int(row)
        guard rowChunk[index] < 0 else { return false }
        vectors.replace(row: index, littleEndianBytes: bytes)
        rowByChunk[chunkID] = row
        rowChunk[index] = chunkID
        rowSlot[index] = slot
        attach(row: row, chunkID: chunkID, to: slot)
        return true
    }

    /// Removes the vector of `chunkID`, leaving a hole; returns its row. The hole is not yet free (the caller
    /// frees it with `release` once nothing refers to it any more, e.g. after the HNSW graph dropped it).
    @discardableResult
    mutating func remove(chunkID: Int64) -> Int32? {
        guard let row = rowByChunk.removeValue(forKey: chunkID) else { return nil }
        let index = Int(row)
        detach(row: row, from: rowSlot[index])
        rowChunk[index] = -1
        rowSlot[index] = -1
        vectors.zero(row: index)
        return row
    }

    /// Makes holes available to the allocator again.
    mutating func release(_ freed: [Int32]) {
        guard !freed.isEmpty else { return }
        let live = freed.filter { Int($0) < rows && rowChunk[Int($0)] < 0 }
        allocator.free = Array(Set(allocator.free).union(live)).sorted(by: >)
    }

    /// Adds `row` (holding `chunkID`) to the rows of `slot`; it becomes the slot's lead row when its chunk id
    /// is the lowest. `rowChunk[row]` may still hold the row's previous chunk.
    private mutating func attach(row: Int32, chunkID: Int64, to slot: Int32) {
        guard slot >= 0 else { return }
        let index = Int(slot)
        if index >= leadRows.count {
            leadRows.append(contentsOf: repeatElement(-1, count: index + 1 - leadRows.count))
        }
        let lead = leadRows[index]
        if lead < 0 {
            leadRows[index] = row
        } else if chunkID < rowChunk[Int(lead)] {
            leadRows[index] = row
            moreRows[slot, default: []].append(lead)
        } else {
            moreRows[slot, default: []].append(row)
        }
    }

    private mutating func detach(row: Int32, from slot: Int32) {
        guard slot >= 0, Int(slot) < leadRows.count else { return }
        let index = Int(slot)
        if leadRows[index] == row {
            if var others = moreRows[slot], !others.isEmpty {
                let next = others.indices.min { rowChunk[Int(others[$0])] < rowChunk[Int(others[$1])] } ?? 0
                leadRows[index] = others.remove(at: next)
                moreRows[slot] = others.isEmpty ? nil : others
            } else {
                leadRows[index] = -1
            }
        } else if var others = moreRows[slot] {
            others.removeAll { $0 == row }
            moreRows[slot] = others.isEmpty ? nil : others
        }
    }

    /// The mean and standard deviation of `query`'s dot product with the live rows, estimated on an evenly
    /// spaced sample of at most `sample` of them (all of them in a smaller store); `nil` below two rows.
    ///
    /// With `shift`, each row's dot product less its document's language shift (as search scores it).
    ///
    /// - Complexity: O(min(live rows, sample) × dimension), plus a pass over the row map in a store with holes.
    func background(query: [Float], sample: Int = 1024, shift: LanguageShift? = nil) -> (
        mean: Float, deviation: Float
    )? {
        guard query.count == dimension else { return nil }
        return vectors.storage.withUnsafeBufferPointer { matrix in
            query.withUnsafeBufferPointer { q in
                guard let base = matrix.baseAddress, let qBase = q.baseAddress else { return nil }
                return sampleStatistics(sample: sample) { row in
                    let score = hush_dot_f32(base + row * dimension, qBase, dimension)
                    return Double(score - (shift?(Int(rowSlot[row])) ?? 0))
                }
            }
        }
    }

    /// The mean and standard deviation of `score` over an evenly spaced sample of at most `sample` live rows;
    /// `nil` below two.
    func sampleStatistics(sample: Int, _ score: (Int) -> Double) -> (mean: Float, deviation: Float)? {
        guard liveRows >= 2 else { return nil }
        let step = max(1, rows / sample)
        var sum = 0.0
        var squares = 0.0
        var count = 0
        var row = 0
        while row < rows {
            if rowChunk[row] >= 0 {
                let value = score(row)
                sum += value
                squares += value * value
                count += 1
            }
            row += step
        }
        guard count >= 2 else { return nil }
        let mean = sum / Double(count)
        let variance = max(0, squares / Double(count) - mean * mean)
        return (Float(mean), Float(variance.squareRoot()))
    }

    /// The rows of a document slot, its lead row first.
    func rows(ofSlot slot: Int) -> [Int32] {
        guard slot >= 0, slot < leadRows.count, leadRows[slot] >= 0 else { return [] }
        return [leadRows[slot]] + (moreRows[Int32(slot)] ?? [])
    }

    /// The row of the chunk that opens the document in `slot` (its lowest chunk id), when the document has
    /// more than one chunk; `nil` for a document of one chunk (or none).
    func leadRow(ofSlot slot: Int) -> Int32? {
        guard slot >= 0, slot < leadRows.count, leadRows[slot] >= 0, moreRows[Int32(slot)] != nil else {
            return nil
        }
        return leadRows[slot]
    }

    /// The slots of the documents with more than one chunk.
    var slotsWithSeveralRows: Dictionary<Int32, [Int32]>.Keys { moreRows.keys }

    /// A copy of the vector of one row.
    func vector(row: Int) -> [Float] {
        vectors.vector(row)
    }

    func vector(chunkID: Int64) -> [Float]? {
        rowByChunk[chunkID].map { vector(row: Int($0)) }
    }

    /// Lends the rows (holes included) as a `VectorView`.
    func withView<R>(_ body: (VectorView) throws -> R) rethrows -> R {
        try vectors.withView(body)
    }
}
