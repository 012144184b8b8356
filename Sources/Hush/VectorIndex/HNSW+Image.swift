import Foundation

extension HNSWIndex {
    // MARK: - Saved image

    /// Writes the graph as it is in memory: parameters, counters, then the level, flag and list arrays in one
    /// piece each (a million nodes are five large writes).
    ///
    /// - Complexity: O(nodes × M0) bytes.
    func writeImage(to output: ImageOutput) throws {
        for value in [parameters.M, parameters.M0, parameters.efConstruction, parameters.efSearch] {
            try output.write(UInt32(value))
        }
        try output.write(parameters.seed)
        try output.write(UInt8(parameters.keepPrunedConnections ? 1 : 0))
        try output.write(parameters.exactFilterFraction)
        for value in [entryPoint, maxLevel, liveCount, deletedCount, slotCount, upperUsed] {
            try output.write(Int64(value))
        }
        try output.writeArray(UnsafeBufferPointer(start: levels, count: slotCount))
        try output.writeArray(UnsafeBufferPointer(start: deletedFlags, count: slotCount))
        try output.writeArray(UnsafeBufferPointer(start: layer0, count: slotCount * stride0))
        try output.writeArray(UnsafeBufferPointer(start: upperOffset, count: slotCount))
        try output.writeArray(UnsafeBufferPointer(start: upper, count: upperUsed))
    }

    /// Reads a graph written by ``writeImage(to:)`` and checks what a walk relies on (every list within its
    /// degree, every neighbour a node of that level, every upper list inside the upper storage, the entry
    /// point on the top level), so a damaged image is refused rather than walked.
    ///
    /// - Complexity: O(nodes × M0).
    static func readImage(from input: ImageInput, dimension: Int) throws -> HNSWIndex {
        func int(_ value: UInt32) -> Int { Int(value) }
        let m = int(try input.read(UInt32.self))
        let m0 = int(try input.read(UInt32.self))
        let efConstruction = int(try input.read(UInt32.self))
        let efSearch = int(try input.read(UInt32.self))
        let seed = try input.read(UInt64.self)
        let keep = try input.read(UInt8.self) != 0
        let fraction = try input.readDouble()
        let parameters = HNSWParameters(
            M: m, M0: m0, efConstruction: efConstruction, efSearch: efSearch, seed: seed,
            keepPrunedConnections: keep, exactFilterFraction: fraction)
        let index: HNSWIndex
        do {
            index = try HNSWIndex(dimension: dimension, parameters: parameters)
        } catch {
            throw ImageError.malformed("graph parameters: \(error)")
        }
        var counters: [Int] = []
        for _ in 0..<6 { counters.append(Int(try input.read(Int64.self))) }
        let (entry, top, live, deleted, slots, upperUsed) =
            (counters[0], counters[1], counters[2], counters[3], counters[4], counters[5])
        guard slots >= 0, slots <= Int(Int32.max), upperUsed >= 0, upperUsed <= Int(Int32.max), live >= 0,
            deleted >= 0, top >= -1, top <= 32
        else {
            throw ImageError.malformed("graph counters")
        }
        // The arrays those counters announce must be in the bytes left before any is allocated: each slot's
        // level, flag, layer-0 list and upper offset, then the upper lists.
        let perSlot = 1 + 1 + index.stride0 * 4 + 4
        let (slotBytes, slotOverflow) = slots.multipliedReportingOverflow(by: perSlot)
        let arrays = slotBytes + 5 * 8  // each array's count
        guard !slotOverflow, arrays <= input.remaining, upperUsed <= (input.remaining - arrays) / 4 else {
            throw ImageError.malformed("graph counters beyond the image (\(slots) slots, \(upperUsed) upper links)")
        }
        index.reserveSlots(slots)
        index.reserveUpper(upperUsed)
        try input.readArray(into: index.levels, count: slots)
        try input.readArray(into: index.deletedFlags, count: slots)
        try input.readArray(into: index.layer0, count: slots * index.stride0)
        try input.readArray(into: index.upperOffset, count: slots)
        try input.readArray(into: index.upper, count: upperUsed)
        index.upperUsed = upperUsed
        index.entryPoint = entry
        index.maxLevel = top
        index.liveCount = live
        index.deletedCount = deleted
        try index.checkImage()
        return index
    }

    /// The structural checks of ``readImage(from:dimension:)``.
    private func checkImage() throws {
        var nodes = 0
        var removed = 0
        for node in 0..<slotCount where levels[node] >= 0 {
            let level = Int(levels[node])
            guard level <= 32 else { throw ImageError.malformed("node \(node) has level \(level)") }
            nodes += 1
            if deletedFlags[node] != 0 { removed += 1 }
            if level > 0 {
                let offset = Int(upperOffset[node])
                guard offset >= 0, offset + level * strideUpper <= upperUsed else {
                    throw ImageError.malformed("node \(node)'s upper lists are outside the upper storage")
                }
            }
            for l in 0...level {
                let list = links(node, l)
                let count = Int(list[0])
                guard count <= maxDegree(l) else { throw ImageError.malformed("node \(node) has \(count) links") }
                for i in 0..<count {
                    let other = Int(list[1 + i])
                    guard other < slotCount, Int(levels[other]) >= l else {
                        throw ImageError.malformed("node \(node) links to \(other), not a node of level \(l)")
                    }
                }
            }
        }
        guard nodes == liveCount + deletedCount, removed == deletedCount else {
            throw ImageError.malformed("graph counts")
        }
        if nodes > 0 {
            guard entryPoint >= 0, entryPoint < slotCount, Int(levels[entryPoint]) == maxLevel else {
                throw ImageError.malformed("entry point \(entryPoint)")
            }
        }
    }
}

extension ImageInput {
    /// Reads an array written by ``ImageOutput/writeArray(_:)`` straight into `target`, which must be the
    /// recorded length.
    func readArray<T: BitwiseCopyable>(into target: UnsafeMutablePointer<T>, count: Int) throws {
        #if _endian(big)
            throw ImageError.malformed("images are little-endian")
        #else
            let recorded = try read(UInt64.self)
            guard recorded == UInt64(count) else {
                throw ImageError.malformed("an array of \(recorded) elements where \(count) were expected")
            }
            try read(into: UnsafeMutableRawBufferPointer(start: target, count: count * MemoryLayout<T>.stride))
        #endif
    }
}

extension HNSWIndex {
    // MARK: - Walking without the vectors

    /// The rows a walk on the codes of `guide` (int8 or 4-bit) finds for `query`, best code score first: up to
    /// `ef` of them, for a caller that rescores them on f32 vectors it reads elsewhere (a store whose vectors
    /// stay in the file). As in ``search(_:k:ef:filter:vectors:guide:)``, a selective filter (allowed rows under
    /// `exactFilterFraction` of the live rows, or at most `ef`) or a walk that comes back short scans the
    /// allowed rows' codes instead, so the candidates are never short when enough rows are allowed.
    ///
    /// - Complexity: about O(ef × M0 × log n × code bytes); O(allowed × code bytes) for selective filters.
    func candidates(_ query: [Float], ef: Int, filter: Bitset?, guide: QuantizedMatrix) throws -> [Int] {
        guard query.count == dimension, guide.dimension == dimension else {
            throw ANNError.dimensionMismatch(expected: dimension, actual: query.count)
        }
        guard slotCount <= guide.count else { throw ANNError.rowOutOfRange(row: slotCount - 1, count: guide.count) }
        guard ef > 0, liveCount > 0, entryPoint >= 0 else { return [] }
        return guide.withScorer(for: query, CandidateWalk(index: self, ef: ef, filter: filter)) ?? []
    }

    /// The walk of ``candidates(_:ef:filter:guide:)`` on one guide's scorer.
    private struct CandidateWalk: ScorerTask {
        let index: HNSWIndex
        let ef: Int
        let filter: Bitset?

        func run<Scorer: NodeScorer>(_ scorer: Scorer) -> [Int] {
            if let filter,
                Double(filter.allowedCount) < index.parameters.exactFilterFraction * Double(index.liveCount)
                    || filter.allowedCount <= ef
            {
                return index.scanAllowed(scorer, ef: ef, filter: filter)
            }
            let context = index.pool.borrow()
            defer { index.pool.giveBack(context) }
            index.walk(scorer, ef: ef, context: context, filter: filter)
            let found = context.results.sortedRows().map(\.row)
            if let filter, found.count < ef, found.count < index.allowedLiveCount(filter, limit: ef) {
                return index.scanAllowed(scorer, ef: ef, filter: filter)
            }
            return found
        }
    }

    /// The `ef` best live allowed rows by `scorer`, best first.
    private func scanAllowed<Scorer: NodeScorer>(_ scorer: Scorer, ef: Int, filter: Bitset) -> [Int] {
        var top = TopK(capacity: ef)
        filter.forEachAllowed { row in
            guard row < slotCount, levels[row] >= 0, deletedFlags[row] == 0 else { return }
            let score = scorer.score(row)
            if score > top.threshold || score == top.threshold { top.offer(id: row, score: score) }
        }
        return top.sortedRows().map(\.row)
    }
}
