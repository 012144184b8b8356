import HushKernels

/// How two documents are compared from their stored chunk vectors.
enum DocumentSimilarity: String, Sendable, CaseIterable {
    /// The cosine of the two documents' mean chunk vectors, centred on the store (see ``DocumentVectors``).
    case meanVector
    /// The best cosine over all pairs of chunks (one from each document).
    case bestChunkPair
}

/// What the document vectors of a store share: the store's centre, and one per language (see
/// ``StoreMemory/State/documentCentres()``).
struct DocumentCentres: Sendable {
    /// How many documents' worth of the store's centre each centre starts from: a group of `m` documents
    /// moves `m / (m + prior)` of the way from the store's centre to its own mean, so that a group of fewer
    /// documents than this is mostly the store's, or, for a model with ``LanguagePriors``, mostly the model's
    /// place for the language (as far as the group's documents lean toward it).
    static let prior = 16

    /// The centre of the whole store, for documents of undetermined language.
    let store: [Float]
    /// The centre of each language group.
    let languages: [[Float]]
    /// Per slot, the index of its language group in `languages`, or -1.
    let groupOfSlot: [Int32]
    /// The number of live documents of each group of `languages`.
    let documentsOfGroup: [Int]
    /// The matrix rows of each group's documents: undetermined first, then the groups of `languages` in order
    /// (empty bitmaps left out). A chunk's cosine with a query carries its language's centre, so one walk of a
    /// graph finds mostly one language's chunks: related items and a shifted search walk once per language, each
    /// walk filtered to one of these (see ``StoreMemory/State/approximateTopPerLanguage(query:mask:k:centres:shift:)``).
    let languageRows: [Bitset]

    /// The index in `languages` of the group of the document at `slot`; `nil` for undetermined language.
    func group(ofSlot slot: Int) -> Int? {
        guard slot >= 0, slot < groupOfSlot.count, groupOfSlot[slot] >= 0 else { return nil }
        return Int(groupOfSlot[slot])
    }

    /// The centre of the document at `slot`: its language's, else the store's.
    func centre(ofSlot slot: Int) -> [Float] {
        group(ofSlot: slot).map { languages[$0] } ?? store
    }
}

/// One vector per document: the mean of its chunk vectors less the centre of its language, L2-normalised, by
/// document slot.
///
/// The centre (``StoreMemory/State/documentCentres()``) is the part every vector of a model shares: e5's
/// vectors of unrelated texts have cosine 0.82 on average. Without it, a mean of many chunks keeps that shared
/// part whole while each chunk's own part cancels, so long documents sat near every centroid and an interest
/// ranking with multilingual-e5-small favoured them whatever their topic (P@40 0.443 against 0.773 centred,
/// MiniLM 0.734 against 0.788; docs/feed-quality.md). A multilingual model also gives each language a part of
/// its own, so each document is centred on its language's centre: otherwise related items and interest
/// ranking keep to the source's language (docs/feed-quality.md, "Feeds in more than one language").
///
/// Built in one pass over the index matrix; only slots in `wanted` (all live documents when `nil`) get a
/// vector, stored compactly (memory: wanted documents × dimension), and documents without vectors have none.
struct DocumentVectors {
    let dimension: Int
    /// Per slot, the row of its vector in `values`, or -1.
    private(set) var position: [Int32]
    private(set) var values: [Float]

    /// - Complexity: O(rows × dimension).
    /// The mean vectors of the documents at `slots`.
    init<Slots: Sequence<Int>>(state: StoreMemory.State, slots: Slots, centres: DocumentCentres? = nil) throws {
        var wanted = Bitset(count: state.documents.capacity)
        for slot in slots { wanted.insert(slot) }
        try self.init(state: state, wanted: wanted, centres: centres)
    }

    /// The mean vectors of the documents `wanted` allows (every live one when `nil`); a store whose vectors stay
    /// in the file reads those documents' rows from it.
    /// With `centres`, each document's mean chunk vector less its centre (see
    /// ``StoreMemory/State/documentCentres()``).
    init(state: StoreMemory.State, wanted: Bitset? = nil, centres: DocumentCentres? = nil) throws {
        let matrix = state.matrix
        let dimension = matrix.dimension
        let capacity = state.documents.capacity
        self.dimension = dimension
        var position = [Int32](repeating: -1, count: capacity)
        let rowSlot = matrix.rowSlot
        var count: Int32 = 0
        for row in 0..<matrix.rows {
            let slot = Int(rowSlot[row])
            guard slot >= 0, slot < capacity, position[slot] < 0 else { continue }
            if let wanted, !wanted.contains(slot) { continue }
            position[slot] = count
            count += 1
        }
        var values = [Float](repeating: 0, count: Int(count) * dimension)
        let rows = (0..<matrix.rows).filter { row in
            let slot = Int(rowSlot[row])
            return slot >= 0 && slot < capacity && position[slot] >= 0
        }
        let centred = centres.map { $0.store.count == dimension } ?? false
        var chunks = [Int32](repeating: 0, count: centred ? capacity : 0)
        if centred { for row in rows { chunks[Int(rowSlot[row])] += 1 } }
        try values.withUnsafeMutableBufferPointer { target in
            guard let base = target.baseAddress else { return }
            try state.withRowVectors(rows) { row, vector in
                let to = base + Int(position[Int(rowSlot[row])]) * dimension
                for index in 0..<dimension { to[index] += vector[index] }
            }
            for slot in 0..<capacity where position[slot] >= 0 {
                let vector = base + Int(position[slot]) * dimension
                if centred, let centres {
                    let scale = 1 / Float(max(1, chunks[slot]))
                    centres.centre(ofSlot: slot).withUnsafeBufferPointer { centre in
                        for index in 0..<dimension { vector[index] = vector[index] * scale - centre[index] }
                    }
                }
                // Scaled to unit length in place; a zero or non-finite vector leaves the document out.
                let squared = hush_dot_f32(vector, vector, dimension)
                guard squared > 1e-24, squared.isFinite else {
                    position[slot] = -1
                    continue
                }
                let scale = 1 / squared.squareRoot()
                for index in 0..<dimension { vector[index] *= scale }
            }
        }
        self.position = position
        self.values = values
    }

    private func start(_ slot: Int) -> Int? {
        guard slot >= 0, slot < position.count, position[slot] >= 0 else { return nil }
        return Int(position[slot]) * dimension
    }

    /// The document vector of `slot`, or `nil`.
    func vector(_ slot: Int) -> [Float]? {
        start(slot).map { Array(values[$0..<($0 + dimension)]) }
    }

    /// The dot product of `query` with the vector of `slot` (cosine for normalised vectors), or `nil`.
    func dot(_ slot: Int, _ query: [Float]) -> Float? {
        guard let start = start(slot), query.count == dimension else { return nil }
        return values.withUnsafeBufferPointer { buffer in
            query.withUnsafeBufferPointer { q in
                guard let base = buffer.baseAddress, let qBase = q.baseAddress else { return 0 }
                return hush_dot_f32(base + start, qBase, dimension)
            }
        }
    }
}

/// Small vector helpers for ranking.
enum VectorMath {
    /// Scales `vector` to unit length; `false` (and unchanged) when its norm is zero or not finite.
    @discardableResult
    static func normalize(_ vector: inout ArraySlice<Float>) -> Bool {
        var unit = Array(vector)
        let norm = unit.withUnsafeMutableBufferPointer { values -> Float in
            guard let base = values.baseAddress else { return 0 }
            return hush_normalize_f32(base, base, values.count)
        }
        guard norm > 1e-12, norm.isFinite else { return false }
        vector.replaceSubrange(vector.indices, with: unit)
        return true
    }

    /// `vector` scaled to unit length, or `nil` when its norm is zero.
    static func normalized(_ vector: [Float]) -> [Float]? {
        var slice = vector[...]
        return normalize(&slice) ? Array(slice) : nil
    }

    /// The dot product of two vectors of equal length (0 when they differ).
    static func dot(_ a: [Float], _ b: [Float]) -> Float {
        guard a.count == b.count, !a.isEmpty else { return 0 }
        return a.withUnsafeBufferPointer { x in
            b.withUnsafeBufferPointer { y in
                guard let xBase = x.baseAddress, let yBase = y.baseAddress else { return 0 }
                return hush_dot_f32(xBase, yBase, a.count)
            }
        }
    }

    /// The normalised mean of `vectors`, or `nil` when there are none or they cancel out.
    static func normalizedMean(_ vectors: [[Float]]) -> [Float]? {
        guard let first = vectors.first else { return nil }
        var sum = [Float](repeating: 0, count: first.count)
        for vector in vectors where vector.count == sum.count {
            for index in sum.indices { sum[index] += vector[index] }
        }
        return normalized(sum)
    }
}
