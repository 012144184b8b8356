import ArgumentParser
import Foundation
import Hush
import HushKernels
import HushToolSupport

/// `hush bench scan`: the exact f32 scan against the memory-bandwidth floor, and the store's semantic search.
struct BenchScan: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Exact-scan speed: streaming-read floor, kernel scan + top-k, and HushStore semantic search.")

    @Option(help: "float32 .npy matrix of L2-normalised vectors (rows x dim); default: synthetic.")
    var vectors: String?

    @Option(help: "Rows of the synthetic matrix.")
    var rows = 100_000

    @Option(help: "Dimension of the synthetic matrix.")
    var dim = 384

    @Option(help: "Queries to time.")
    var queries = 200

    @Flag(help: "Skip the store-level measurement (which builds a temporary store of all rows).")
    var kernelOnly = false

    @Flag(help: "Print one JSON object per measurement.")
    var json = false

    func run() async throws {
        let (values, dimension) = try load()
        let count = values.count / dimension
        let queryRows = (0..<queries).map { ($0 * 7919) % count }
        var median: [String: Double] = [:]

        // Floor (one plain streaming read of the whole matrix) and the kernel scan + top-10 heap (as the
        // store's exact index does), alternated query by query so both see the same machine.
        var floorTimes: [Double] = []
        var scanTimes: [Double] = []
        var sink: Float = 0
        var scores = [Float](repeating: 0, count: count)
        values.withUnsafeBufferPointer { matrix in
            guard let base = matrix.baseAddress else { return }
            for row in queryRows {
                var start = DispatchTime.now().uptimeNanoseconds
                sink += hush_stream_sum_f32(base, matrix.count)
                floorTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)

                let query = Array(matrix[(row * dimension)..<((row + 1) * dimension)])
                start = DispatchTime.now().uptimeNanoseconds
                scores.withUnsafeMutableBufferPointer { out in
                    guard let outBase = out.baseAddress else { return }
                    hush_dot_f32_rows(base, count, dimension, query, outBase)
                }
                var best = [(Float, Int)]()
                best.reserveCapacity(11)
                for (index, score) in scores.enumerated() where best.count < 10 || score > best[best.count - 1].0 {
                    let position = best.firstIndex { $0.0 < score } ?? best.count
                    best.insert((score, index), at: position)
                    if best.count > 10 { best.removeLast() }
                }
                scanTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                sink += best.first?.0 ?? 0
            }
        }
        median["floor"] = Self.median(floorTimes)
        median["scan"] = Self.median(scanTimes)

        if !kernelOnly {
            median["store"] = try await storeSearch(values, dimension: dimension, queryRows: queryRows)
        }
        let floor = median["floor"] ?? 1
        for (name, value) in median.sorted(by: { $0.value < $1.value }) {
            if json {
                Console.out(
                    try JSONOutput.line(
                        BenchRecord([
                            ("bench", .text("scan")), ("system", .text("hush-\(name)")), ("rows", .int(count)),
                            ("dim", .int(dimension)), ("ms_per_query", .number(value)),
                            ("x_floor", .number(value / floor)),
                            ("level", .text(String(cString: hush_kernels_level_name(hush_kernels_level())))),
                        ])))
            } else {
                Console.out(
                    String(
                        format: "%-12@ %8.3f ms/query  %.2fx floor", "hush-\(name)" as NSString, value, value / floor))
            }
        }
        if sink.isNaN { Console.error("(checksum NaN)") }
    }

    /// Median `searchMs` of semantic searches through a temporary HushStore holding every row.
    private func storeSearch(_ values: [Float], dimension: Int, queryRows: [Int]) async throws -> Double {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "hush-bench-scan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let embedder = FixedQueryEmbedder(dimension: dimension)
        let store = try await HushStore.open(path: folder.appendingPathComponent("scan.hush").path, embedder: embedder)
        let count = values.count / dimension
        var start = 0
        while start < count {
            let end = min(count, start + 5_000)
            let documents = (start..<end).map { Document(id: "v\($0)", body: "row \($0)") }
            let vectors = (start..<end).map { Array(values[($0 * dimension)..<(($0 + 1) * dimension)]) }
            _ = try await store.upsert(documents, precomputed: vectors)
            start = end
        }
        var times: [Double] = []
        for row in queryRows {
            let query = "row \(row)"
            embedder.register(query, vector: Array(values[(row * dimension)..<((row + 1) * dimension)]))
            let results = try await store.search(query, mode: .semantic, limit: 10, boosts: .none)
            times.append(results.timings.searchMs)
        }
        return Self.median(times)
    }

    private func load() throws -> ([Float], Int) {
        if let vectors {
            let (values, _, columns) = try NPYFile.readFloat32(path: vectors)
            return (values, columns)
        }
        var generator = SplitMix(seed: 42)
        var values = [Float](repeating: 0, count: rows * dim)
        for row in 0..<rows {
            for c in 0..<dim { values[row * dim + c] = Float(generator.next() % 2001) / 1000 - 1 }
            SyntheticVectors.normalise(&values, row: row, dimension: dim)
        }
        return (values, dim)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}

/// An embedder for benchmarks: returns registered vectors for known texts (the query rows themselves).
final class FixedQueryEmbedder: Embedder, @unchecked Sendable {
    // Sendable: `vectors` is only touched under `lock`.
    let identity: EmbedderIdentity
    let maxTokens = 256
    private let lock = NSLock()
    private var vectors: [String: [Float]] = [:]

    init(dimension: Int) {
        identity = EmbedderIdentity(
            model: "bench-fixed", weightsSHA256: "none", dimension: dimension, pooling: .mean, normalized: true)
    }

    func register(_ text: String, vector: [Float]) {
        lock.lock()
        vectors[text] = vector
        lock.unlock()
    }

    func embed(_ texts: [String], role: EmbeddingRole) throws -> [Embedding] {
        lock.lock()
        defer { lock.unlock() }
        return texts.map {
            Embedding(
                vector: vectors[$0]
                    ?? [Float](repeating: 1 / Float(identity.dimension).squareRoot(), count: identity.dimension),
                tokenCount: 3, truncated: false)
        }
    }

    func tokenCount(_ text: String) -> Int { 3 }
}
