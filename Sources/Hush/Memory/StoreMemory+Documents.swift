import Foundation

/// What the search, ranking and write parts read and change in memory. Only `Memory/` looks inside the
/// matrix, the document table and the approximate index; the other parts go through these.
extension StoreMemory.State {
    // MARK: - Documents

    /// The number of live documents.
    var documentCount: Int { documents.count }

    /// The language most documents are in, or `nil` (see ``DocumentTable/dominantLanguage``).
    var dominantLanguage: String? { documents.dominantLanguage }

    /// The language of at least half the documents of determined language, or `nil`
    /// (``DocumentTable/majorityLanguage``).
    var majorityLanguage: String? { documents.majorityLanguage }

    /// The document at `slot`, or `nil` for a free slot.
    func record(_ slot: Int) -> DocumentRecord? {
        documents.record(atSlot: Int32(slot))
    }

    /// The slots of the live documents that pass `filter`; `nil` when the filter is empty (every live
    /// document passes).
    ///
    /// - Complexity: O(documents × predicates).
    func allowedSlots(_ filter: SearchFilter) -> Bitset? {
        documents.mask(for: filter)
    }

    /// The slots of every live document.
    var liveSlots: Bitset { documents.liveSlots }

    /// The external ids of the live documents that pass `filter`, in `order` (``HushStore/documentIDs``).
    ///
    /// - Complexity: O(documents × predicates + n log n) for the `n` that pass.
    func documentIDs(_ filter: SearchFilter, order: DocumentOrder) -> [String] {
        var slots: [Int] = []
        (allowedSlots(filter) ?? liveSlots).forEachAllowed { slots.append($0) }
        switch order {
        case .id:
            return slots.compactMap(documents.externalID(atSlot:)).sorted()
        case .newestFirst, .oldestFirst:
            return byDate(slots, newestFirst: order == .newestFirst).compactMap(documents.externalID(atSlot:))
        }
    }

    /// `slots` by creation time, newest or oldest first; of two created at the same instant, the later written
    /// first when newest first, else the earlier.
    private func byDate(_ slots: [Int], newestFirst: Bool) -> [Int] {
        slots.sorted { a, b in
            let (l, r) = (documents.createdAt(atSlot: a), documents.createdAt(atSlot: b))
            if l != r { return newestFirst ? l > r : l < r }
            let (x, y) = (documents.rowid(atSlot: a), documents.rowid(atSlot: b))
            return newestFirst ? x > y : x < y
        }
    }

    /// What the vectors of this store's documents share, for comparing documents with each other (related
    /// items, interest ranking; see ``DocumentVectors``), per language. `nil` when the store holds no vectors.
    ///
    /// The store's centre is the mean of its chunk vectors shrunk toward zero by `n / (n + 16)` for `n`
    /// documents (16 is ``DocumentCentres/prior``), so that a store of a few documents is barely centred (two
    /// documents centred on their own mean would point in opposite directions). A language's centre is the
    /// store's plus `m / (m + 16)` of the difference between its own mean chunk and the store's, for its `m`
    /// documents: a multilingual model places each language's texts around a centre of their own, so that
    /// without it a document's nearest are those of its language (an English man page found its Chinese
    /// translation first among its related items 16 % of the time, 79 % with it). The other `16 / (m + 16)` goes
    /// toward the model's own place for the language (``LanguagePriors``, when Hush has them for the model), as
    /// far as the group's documents lean that way (the projection of their difference on the model's offset,
    /// 0…1), so that a language of a few documents is still told apart (a Chinese query then finds the English
    /// entry about sleep in a journal of five entries per language), while documents guessed wrongly, which do
    /// not lean, stay near the store's centre; a store of one language keeps the store's centre. Documents of
    /// undetermined language ("und") use the store's centre.
    /// Each group's mean is taken over at most 4,096 of its rows spread evenly (100 documents' chunks already
    /// measure as well as all of them); the store's mean weighs each group's by its rows.
    ///
    /// - Complexity: O(rows) to group the live rows, then O(4,096 × languages × dimension).
    func documentCentres() throws -> DocumentCentres? {
        let groups = documents.languageGroups()
        let rowSlot = matrix.rowSlot
        // Group index + 1 per live row (0: undetermined).
        var rowsOfGroup = [[Int]](repeating: [], count: groups.languages.count + 1)
        for row in 0..<matrix.rows {
            let slot = Int(rowSlot[row])
            guard slot >= 0, slot < groups.groupOfSlot.count else { continue }
            rowsOfGroup[Int(groups.groupOfSlot[slot]) + 1].append(row)
        }
        let liveRows = rowsOfGroup.reduce(0) { $0 + $1.count }
        guard liveRows > 0 else { return nil }
        let dimension = matrix.dimension
        var means = [[Float]](repeating: [], count: rowsOfGroup.count)
        var storeMean = [Float](repeating: 0, count: dimension)
        for (group, rows) in rowsOfGroup.enumerated() where !rows.isEmpty {
            let step = max(1, (rows.count + 4_095) / 4_096)
            let sample = stride(from: 0, to: rows.count, by: step).map { rows[$0] }
            var sum = [Float](repeating: 0, count: dimension)
            try sum.withUnsafeMutableBufferPointer { total in
                try withRowVectors(sample) { _, vector in
                    for index in 0..<dimension { total[index] += vector[index] }
                }
            }
            let mean = sum.map { $0 / Float(sample.count) }
            let weight = Float(rows.count) / Float(liveRows)
            for index in 0..<dimension { storeMean[index] += weight * mean[index] }
            means[group] = mean
        }
        let total = Float(documentCount)
        let prior = Float(DocumentCentres.prior)
        let store = storeMean.map { $0 * total / (total + prior) }
        let offsets = LanguagePriors.builtIn(for: storedIdentity)?.offsets(
            of: groups.languages, weights: groups.languages.indices.map { Float(rowsOfGroup[$0 + 1].count) })
        let languages = groups.languages.indices.map { group -> [Float] in
            let mean = means[group + 1]
            guard !mean.isEmpty else { return store }
            let share = Float(groups.documents[group]) / (Float(groups.documents[group]) + prior)
            let own = (0..<dimension).map { mean[$0] - storeMean[$0] }
            var centre = (0..<dimension).map { store[$0] + share * own[$0] }
            if let offset = offsets?[group] {
                // The rest of the way toward the model's place for the language, as far as the group's own
                // documents lean that way: documents guessed to be French that are English do not.
                let length = VectorMath.dot(offset, offset)
                let lean = length > 0 ? min(1, max(0, VectorMath.dot(own, offset) / length)) : 0
                let weight = (1 - share) * lean
                for index in 0..<dimension { centre[index] += weight * offset[index] }
            }
            return centre
        }
        let languageRows = rowsOfGroup.filter { !$0.isEmpty }.map { rows in
            var bitmap = Bitset(count: matrix.rows)
            for row in rows { bitmap.insert(row) }
            return bitmap
        }
        return DocumentCentres(
            store: store, languages: languages, groupOfSlot: groups.groupOfSlot,
            documentsOfGroup: groups.documents, languageRows: languageRows)
    }

    /// The live slots, newest document first (ties: the later written first).
    ///
    /// - Complexity: O(documents × log documents).
    func newestFirst() -> [Int] {
        byDate((0..<documents.capacity).filter { documents.isLive($0) }, newestFirst: true)
    }

    /// The slot of the document with this external id, or `nil`.
    ///
    /// - Complexity: O(documents) (a linear scan of the in-memory table; no SQL).
    func slot(ofExternalID id: String) -> Int? {
        (0..<documents.capacity).first { documents.externalID(atSlot: $0) == id }
    }

    /// Slots of many external ids at once (unknown ids are absent from the result).
    ///
    /// - Complexity: O(documents + ids).
    func slots(ofExternalIDs ids: [String]) -> [String: Int] {
        let wanted = Set(ids)
        var result: [String: Int] = [:]
        for slot in 0..<documents.capacity {
            if let id = documents.externalID(atSlot: slot), wanted.contains(id) { result[id] = slot }
        }
        return result
    }

    /// The slot of the document with this rowid, or `nil` when memory does not hold it.
    func slot(ofRowid rowid: Int64) -> Int? {
        documents.slot(ofRowid: rowid).map(Int.init)
    }

    // MARK: - Vectors

    /// Throws unless the matrix holds vectors comparable with the current embedder.
    func requireSemantic(current: EmbedderIdentity) throws {
        guard semanticReady else { throw StoreError.embedderMismatch(stored: storedIdentity, current: current) }
    }

    /// The number of chunk vectors in memory.
    var liveRows: Int { matrix.liveRows }

    /// Whether searches go through an approximate index (HNSW or codes) rather than the exact scan.
    var isApproximate: Bool { ann.hnsw != nil || ann.codes != nil }

    /// The vector at matrix row `row` (read from the file when the matrix does not hold vectors; empty when
    /// the file no longer has it).
    func vector(row: Int) throws -> [Float] {
        var found: [Float] = []
        try withRowVectors([row]) { _, vector in
            found = Array(UnsafeBufferPointer(start: vector, count: matrix.dimension))
        }
        return found
    }

    /// The matrix rows of each slot in `slots`.
    func rows(ofSlots slots: Set<Int>) -> [Int: [Int]] {
        var result: [Int: [Int]] = [:]
        let rowSlot = matrix.rowSlot
        for row in 0..<matrix.rows {
            let slot = Int(rowSlot[row])
            if slots.contains(slot) { result[slot, default: []].append(row) }
        }
        return result
    }

    /// The mean and deviation of `query`'s cosines over a sample of the stored vectors (see
    /// ``VectorMatrix/background(query:sample:shift:)``), each less its document's language `shift`.
    func background(query: [Float], shift: LanguageShift? = nil) -> (mean: Float, deviation: Float)? {
        matrix.isResident
            ? matrix.background(query: query, shift: shift) : codeBackground(query: query, shift: shift)
    }

    /// The language shift of `query`'s cosines in this store (``LanguageShift``): `nil` unless the model places
    /// languages apart in a shared space (`scope` multilingual) and the documents are in two languages or more. A
    /// monolingual model's vectors of other languages say little of their meaning, so that lifting them toward a
    /// query would only bring noise; a model per language never compares them.
    ///
    /// - Complexity: O(languages) in a store of one language; else the centres (computed once per
    ///   generation by `memory`) and a dot product per language.
    func languageShift(query: [Float], scope: LanguageScope, memory: StoreMemory) throws -> LanguageShift? {
        guard scope == .multilingual, documents.hasSeveralLanguages, let centres = try memory.documentCentres(of: self)
        else { return nil }
        return LanguageShift(query: query, centres: centres)
    }

    /// What the index holds in memory, for ``StoreStats``.
    var footprint: (vectorBytes: Int, choice: IndexChoice, indexBytes: Int) {
        (matrix.vectorBytes, ann.choice, ann.bytes)
    }

    // MARK: - Writes

    /// Where the next batch's vector rows come from (holes first, then the end of the matrix).
    var rowAllocator: VectorMatrix.RowAllocator { matrix.allocator }

    /// Applies a committed batch of written documents (inside its write transaction): adopts `allocator`,
    /// drops replaced chunks, records each document and its new vectors, then lets the approximate index follow.
    /// Returns what the transaction must save of the graph (its changes as `graphSave` says).
    mutating func apply(
        _ batch: [(record: DocumentRecord, written: WrittenDocument, vectors: [[Float]])],
        allocator: VectorMatrix.RowAllocator,
        policy: IndexPolicy, graphSave: GraphSave = .now
    ) throws -> GraphWrite {
        if batch.contains(where: { !$0.written.newChunks.isEmpty || !$0.written.removedChunks.isEmpty }) {
            try makeResident()
        }
        matrix.commit(allocator)
        var freed: [Int32] = []
        var added: [Int32] = []
        for (record, written, vectors) in batch {
            for chunk in written.removedChunks {
                if let row = matrix.remove(chunkID: chunk) { freed.append(row) }
            }
            let slot = documents.upsert(record)
            for ((chunkID, row), vector) in zip(written.newChunks, vectors) {
                matrix.set(chunkID: chunkID, slot: slot, row: row, vector: vector)
                added.append(row)
            }
        }
        return try followWrite(freed: freed, added: added, policy: policy, graphSave: graphSave)
    }
}
