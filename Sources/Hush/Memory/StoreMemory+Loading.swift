import Foundation

extension StoreMemory.State {
    /// Checks a saved graph against the loaded vector rows and fixes it: tombstones are compacted away,
    /// rows without a node are inserted, nodes without a live row removed; a graph whose structure is broken
    /// (dangling neighbours, bad entry point, tombstone over a live row) is rebuilt. `full` is set when the
    /// result must be written in full.
    static func reconcile(_ graph: HNSWIndex, with matrix: VectorMatrix, full: inout Bool) throws -> HNSWIndex {
        let rowChunk = matrix.rowChunk
        let live = Bitset(count: matrix.rows) { rowChunk[$0] >= 0 }
        var check = graph.verify(against: matrix.rows, liveRows: live)
        var tombstoneOverLive = false
        for row in 0..<min(graph.slotCount, matrix.rows) where graph.isDeleted(row: row) && rowChunk[row] >= 0 {
            tombstoneOverLive = true
        }
        if tombstoneOverLive {
            check.problems.append("a tombstoned node has a live vector row")
            check.needsRebuild = true
        }
        if check.isConsistent && graph.deletedCount == 0 { return graph }
        return try matrix.withView { view in
            if check.needsRebuild {
                full = true
                return try graph.repaired(check, vectors: view, liveRows: live)
            }
            // Extra nodes: tombstone them; then compact every tombstone away before inserting missing rows.
            for row in check.extraRows where graph.contains(row: row) && !graph.isDeleted(row: row) {
                try graph.delete(row: row, vectors: view)
            }
            if graph.deletedCount > 0 { try graph.compact(vectors: view) }
            try graph.insert(
                rows: check.missingRows, vectors: view,
                threads: Self.threads(linking: check.missingRows.count, into: graph.liveCount))
            return graph
        }
    }

    /// True when `bytes` hold a vector as a write stores it: every f32 finite (its exponent bits not all ones)
    /// and the whole of unit length (within 10 %; or all zeros). A damaged row of finite garbage is left out like
    /// one of NaNs, instead of scoring as a cosine of -0.165 against everything.
    static func isUsable(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        var squares: Double = 0
        while offset + 4 <= bytes.count {
            let bits = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            if bits & 0x7F80_0000 == 0x7F80_0000 { return false }
            let value = Double(Float(bitPattern: bits))
            squares += value * value
            offset += 4
        }
        return squares == 0 || (0.9...1.1).contains(squares)
    }
}
