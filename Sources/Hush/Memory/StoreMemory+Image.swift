import Foundation
import HushKernels

/// Reads chunk vectors from the store's file, for a matrix that does not hold them.
struct VectorFile: Sendable {
    /// Lends the vectors of these chunks to `visit` (the position in `chunkIDs`, the raw little-endian f32
    /// bytes, valid during the call); a chunk without a vector is skipped.
    let read: @Sendable (_ chunkIDs: [Int64], _ visit: (Int, UnsafeRawBufferPointer) -> Void) throws -> Void
    /// Every vector with its chunk id, as raw little-endian f32 bytes.
    let all: @Sendable (_ visit: (Int64, UnsafeRawBufferPointer) -> Void) throws -> Void
}

extension StoreMemory.State {
    /// The image format's version; an image of another version is not read (the tables are).
    static let imageVersion: UInt32 = 6
    private static let imageMagic: UInt64 = 0x4855_5348_494D_4701  // "HUSHIMG" + 1
    /// What an image of this version starts with.
    static var imageHeader: (magic: UInt64, version: UInt32) { (imageMagic, imageVersion) }

    /// What an image holds after its documents.
    enum ImageKind: UInt32 {
        /// Nothing: the image of a store whose vectors are scanned (their index is rebuilt from the `vectors`
        /// table when they are read); what it spares is reading the documents, for an open that compares no
        /// vectors (keyword search, the model not loaded yet).
        case documents = 0
        /// The row map, 4-bit codes of every row and the HNSW graph: the index, opened without its f32 vectors.
        case hnsw = 1
    }

    /// Whether the f32 vectors are in memory (see ``VectorMatrix/isResident``).
    var isResident: Bool { matrix.isResident }

    // MARK: - Saving

    /// Writes the image: the model's digest and dimension, the kind, the documents and, for an HNSW index
    /// (with `codes`, which ``saveImage(to:)`` makes or keeps), the row map, 4-bit codes of every row and the
    /// graph. What is resident after ``loadImage(_:policy:)`` is exactly this; the f32 vectors stay in the
    /// `vectors` table. Any other index writes the documents alone (``ImageKind/documents``).
    func writeImage(codes: QuantizedMatrix?, to output: ImageOutput) throws {
        try output.write(Self.imageMagic)
        try output.write(Self.imageVersion)
        try output.write(storedIdentity.weightsSHA256)
        try output.write(UInt32(matrix.dimension))
        guard let graph = ann.hnsw, let codes else {
            try output.write(ImageKind.documents.rawValue)
            try documents.writeImage(to: output)
            try output.write(Self.imageMagic)
            return
        }
        try output.write(ImageKind.hnsw.rawValue)
        // Documents by slot, then per row its chunk id and document slot (-1 for a hole).
        try documents.writeImage(to: output)
        try output.writeArray(matrix.rowChunk)
        try output.writeArray(matrix.rowSlot)
        guard case .int4(let quantizer) = codes.encoding, codes.count == matrix.rows else {
            throw ImageError.malformed("the codes do not cover the rows")
        }
        try output.writeArray(quantizer.lows)
        try output.writeArray(quantizer.steps)
        try output.writeArray(codes.nibbleCodes)
        try graph.writeImage(to: output)
        try output.write(Self.imageMagic)
    }

    // MARK: - Loading

    /// Reads an image's header and documents: its kind and the document table.
    private func readImageDocuments(_ input: ImageInput) throws -> (ImageKind, DocumentTable) {
        guard try input.read(UInt64.self) == Self.imageMagic, try input.read(UInt32.self) == Self.imageVersion
        else { throw ImageError.malformed("not a memory image of this version") }
        guard try input.readString() == storedIdentity.weightsSHA256,
            Int(try input.read(UInt32.self)) == storedIdentity.dimension
        else { throw ImageError.malformed("made for another model") }
        guard let kind = ImageKind(rawValue: try input.read(UInt32.self)) else {
            throw ImageError.malformed("an image of an unknown kind")
        }
        return (kind, try DocumentTable.readImage(from: input))
    }

    /// Replaces memory with a saved image's documents, of either kind, leaving the vectors and their index in
    /// the file (``vectorsDeferred`` when they could be compared): an open that compares none (keyword search,
    /// the model not loaded yet). Throws ``ImageError`` when the image is damaged or made for another model.
    ///
    /// - Complexity: O(documents), a few large sequential reads.
    mutating func loadImageDocuments(_ input: ImageInput) throws {
        let (kind, table) = try readImageDocuments(input)
        // A documents image ends here; an HNSW image's rest is not read.
        if kind == .documents, try input.read(UInt64.self) != Self.imageMagic {
            throw ImageError.malformed("image end")
        }
        documents = table
        matrix = VectorMatrix(dimension: storedIdentity.dimension)
        ann = ANNState()
        vectorsDeferred = semanticReady
    }

    /// Replaces memory with a saved HNSW image: the documents, the row map, the 4-bit codes and the graph, with
    /// the f32 vectors left in the file (``withRowVectors(_:_:)`` reads the few a search rescores). Throws
    /// ``ImageError`` when the image is damaged, made for another model or dimension, holds documents alone,
    /// or is not what the options choose.
    ///
    /// - Complexity: O(documents + rows × dimension bytes + graph), a few large sequential reads.
    mutating func loadImage(_ input: ImageInput, policy: IndexPolicy) throws {
        let (kind, table) = try readImageDocuments(input)
        guard kind == .hnsw else { throw ImageError.unused }
        let dimension = storedIdentity.dimension
        let limit = Int(Int32.max)
        let rowChunk = try input.readArray(Int64.self, limit: limit)
        let rowSlot = try input.readArray(Int32.self, limit: limit)
        guard rowSlot.count == rowChunk.count else { throw ImageError.malformed("row map lengths") }
        for row in rowChunk.indices where (rowChunk[row] >= 0) != table.isLive(Int(rowSlot[row])) {
            throw ImageError.malformed("row \(row) and its document disagree")
        }
        let lows = try input.readArray(Float.self, limit: dimension)
        let steps = try input.readArray(Float.self, limit: dimension)
        guard lows.count == dimension, steps.count == dimension else { throw ImageError.malformed("code ranges") }
        let quantizer = Int4Quantizer(lows: lows, steps: steps)
        let codes = try input.readArray(UInt8.self, limit: rowChunk.count * quantizer.bytesPerVector)
        guard codes.count == rowChunk.count * quantizer.bytesPerVector else { throw ImageError.malformed("codes") }
        let graph = try HNSWIndex.readImage(from: input, dimension: dimension)
        guard graph.slotCount <= rowChunk.count else { throw ImageError.malformed("graph beyond the rows") }
        guard try input.read(UInt64.self) == Self.imageMagic else { throw ImageError.malformed("image end") }

        documents = table
        matrix = try VectorMatrix(dimension: dimension, fileRows: rowChunk, slots: rowSlot)
        ann = ANNState()
        ann.hnsw = graph
        ann.guide = QuantizedMatrix(int4: quantizer, codes: codes)
        let choice = policy.choose(vectorCount: matrix.liveRows, dimension: dimension, current: .hnsw)
        guard choice.strategy == .hnsw else { throw ImageError.unused }
        ann.choice = IndexChoice(
            strategy: .hnsw,
            reason: choice.reason + "; opened from its saved image: the graph is walked on 4-bit codes and the "
                + "vectors stay in the file (the rows found are read and rescored exactly)")
    }

    // MARK: - Vectors, in memory or in the file

    /// Lends the vectors of `rows` to `body` (row, vector), from memory, or read from the file when the matrix
    /// does not hold them, in ascending chunk order: one indexed read each, or for an eighth of the rows or more
    /// (a document vector per document, for interest ranking) one pass over the table. A row without a readable
    /// vector is skipped.
    func withRowVectors(_ rows: [Int], _ body: (Int, UnsafePointer<Float>) -> Void) throws {
        if matrix.isResident {
            matrix.withView { view in
                for row in rows where row >= 0 && row < view.count { body(row, view.row(row)) }
            }
            return
        }
        guard let file else { return }
        let dimension = matrix.dimension
        // Each vector is copied into one aligned buffer (SQLite's bytes need not be aligned for f32) and checked.
        var vector = [Float](repeating: 0, count: dimension)
        try vector.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            func lend(_ row: Int, _ bytes: UnsafeRawBufferPointer) {
                guard bytes.count == dimension * 4 else { return }
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: bytes)
                #if _endian(big)
                    for index in 0..<dimension {
                        base[index] = Float(bitPattern: UInt32(littleEndian: base[index].bitPattern))
                    }
                #endif
                guard Self.isUsable(UnsafeRawBufferPointer(buffer)) else { return }
                body(row, base)
            }
            if rows.count * 8 >= matrix.liveRows {
                var wanted = Bitset(count: matrix.rows)
                for row in rows where row >= 0 && row < matrix.rows { wanted.insert(row) }
                let rowByChunk = matrix.rowByChunk
                try file.all { chunkID, bytes in
                    guard let row = rowByChunk[chunkID].map(Int.init), wanted.contains(row) else { return }
                    lend(row, bytes)
                }
            } else {
                let chunks = rows.map { $0 >= 0 && $0 < matrix.rows ? matrix.rowChunk[$0] : -1 }
                try file.read(chunks) { position, bytes in lend(rows[position], bytes) }
            }
        }
    }

    /// The `wanted` best rows for `query` among `filter`'s, for a matrix whose vectors are in the file: the
    /// graph is walked on the 4-bit codes (`width` wide, at least `efSearch`; the rows found best code score
    /// first), and the first `wanted + max(30, wanted / 2)` of them are rescored on their f32 vectors, read from
    /// the file, so every returned score is exact. The margin is the codes' ranking error: on MiniLM vectors of
    /// real text and on clustered ones, the exact top 10 lies within the top 40 by 4-bit score.
    func fileScoredRows(query: [Float], filter: Bitset?, wanted: Int, width: Int) throws -> [ScoredRow] {
        guard let hnsw = ann.hnsw, let guide = ann.guide else { return [] }
        let rows = try hnsw.candidates(
            query, ef: max(hnsw.parameters.efSearch, width, wanted), filter: filter, guide: guide
        ).prefix(wanted + max(30, wanted / 2)).map { $0 }
        var top = TopK(capacity: wanted)
        try query.withUnsafeBufferPointer { q in
            guard let qp = q.baseAddress else { return }
            try withRowVectors(rows) { row, vector in
                let score = hush_dot_f32(vector, qp, matrix.dimension)
                if !score.isNaN { top.offer(id: row, score: score) }
            }
        }
        return top.sortedRows()
    }

    /// ``VectorMatrix/background(query:sample:)`` estimated on the guide's codes (the matrix holds no vectors):
    /// the mean and deviation of the query's approximate cosines over an evenly spaced sample of rows.
    func codeBackground(query: [Float], sample: Int = 1024, shift: LanguageShift? = nil) -> (
        mean: Float, deviation: Float
    )? {
        /// The sample's statistics on one scorer.
        struct Background: ScorerTask {
            let matrix: VectorMatrix
            let sample: Int
            let shift: LanguageShift?
            func run<Scorer: NodeScorer>(_ scorer: Scorer) -> (mean: Float, deviation: Float)? {
                let rowSlot = matrix.rowSlot
                return matrix.sampleStatistics(sample: sample) { row in
                    Double(scorer.score(row) - (shift?(Int(rowSlot[row])) ?? 0))
                }
            }
        }
        guard let guide = ann.guide, query.count == matrix.dimension, guide.count >= matrix.rows else { return nil }
        return guide.withScorer(for: query, Background(matrix: matrix, sample: sample, shift: shift)) ?? nil
    }
}

extension StoreMemory.State {
    // MARK: - Vectors back in memory

    /// Reads every vector into the matrix (a store opened from its image, before a write changes the graph,
    /// which needs them). Rows keep their places; the guide's codes stay as they are.
    ///
    /// - Complexity: O(rows × dimension), one pass over the `vectors` table.
    mutating func makeResident() throws {
        guard !matrix.isResident, let file else { return }
        var values = [Float](repeating: 0, count: matrix.rows * matrix.dimension)
        let rowByChunk = matrix.rowByChunk
        let dimension = matrix.dimension
        try values.withUnsafeMutableBytes { target in
            try file.all { chunkID, bytes in
                guard let row = rowByChunk[chunkID], bytes.count == dimension * 4, Self.isUsable(bytes) else { return }
                UnsafeMutableRawBufferPointer(rebasing: target[(Int(row) * dimension * 4)...].prefix(dimension * 4))
                    .copyMemory(from: bytes)
            }
        }
        matrix.adopt(values: values)
    }

    /// 4-bit codes of every row, calibrated on them: what the saved image carries and the graph of a store
    /// opened from it is walked on.
    ///
    /// - Complexity: O(rows × dimension).
    func buildImageCodes() -> QuantizedMatrix {
        matrix.withView { view in
            var codes = QuantizedMatrix(int4: Int4Quantizer(calibratedOn: view))
            codes.append(contentsOf: view)
            return codes
        }
    }
}
