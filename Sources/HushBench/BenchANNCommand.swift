import ArgumentParser
import Foundation
import GRDB
import Hush
import HushToolSupport

/// `hush bench ann`: exact f32 scan, int8 + rescore, binary + rescore and HNSW on one set of vectors.
struct BenchANN: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ann",
        abstract:
            "Vector search: recall@10 vs exact, ms/query (1 thread), build time, bytes/vector in memory and on disk.")

    @Option(help: "float32 .npy matrix of L2-normalised vectors (rows x dim).")
    var vectors: String?

    @Option(help: "Generate this many clustered synthetic vectors instead of reading --vectors.")
    var synthetic: Int?

    @Option(help: "Dimension of synthetic vectors.")
    var dim = 384

    @Option(help: "Number of queries.")
    var queries = 1000

    @Option(help: "float32 .npy matrix of queries (default: stored rows plus noise).")
    var queryFile: String?

    @Option(help: "HNSW M (M0 = 2M).")
    var m = 16

    @Option(help: "HNSW efConstruction.")
    var efConstruction = 200

    @Option(help: "Comma-separated efSearch values.")
    var efSearch = "32,64"

    @Option(help: "Candidates per hit kept by the int8 scan for exact rescoring.")
    var int8Oversample = 4

    @Option(help: "Candidates per hit kept by the binary scan for exact rescoring.")
    var binaryOversample = 16

    @Option(help: "Hits per query.")
    var k = 10

    @Option(help: "Threads of the HNSW build (queries always run on one).")
    var threads = 1

    @Flag(help: "Skip the HNSW build (quick runs).")
    var skipHnsw = false

    @Flag(help: "Skip the int8 and binary scans (quick HNSW runs).")
    var skipQuantised = false

    @Option(
        help: ArgumentHelp(
            "SQLite file holding the HNSW graph: loaded when it has one (no build is timed), else built and saved there.",
            discussion:
                "Lets repeated query runs over large sets reuse one build. The file must come from the same vectors."))
    var graph: String?

    @Flag(help: "Print one JSON object per measurement.")
    var json = false

    func run() throws {
        let (storage, dimension) = try loadVectors()
        let matrix = VectorRows(dimension: dimension, storage: storage)
        let n = matrix.count
        let queryVectors = try loadQueries(matrix)
        let efs = efSearch.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hush-bench-ann-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        // Exact f32 scan: the oracle and the baseline.
        var truth: [[Int]] = []
        let exactSeconds = try matrix.withView { view in
            try time { truth = try queryVectors.map { try ExactScan.search($0, k: k, vectors: view).map(\.row) } }
        }
        let exactDisk = try diskBytes(directory, "exact") { db in
            try db.execute(sql: "CREATE TABLE vectors(row INTEGER PRIMARY KEY, vector BLOB NOT NULL)")
            let statement = try db.makeStatement(sql: "INSERT INTO vectors(row, vector) VALUES (?, ?)")
            for row in 0..<n {
                let data = matrix.vector(row).withUnsafeBufferPointer { Data(buffer: $0) }
                try statement.execute(arguments: [row, data])
            }
        }
        try report(
            "exact-f32", n: n, d: dimension, build: 0, seconds: exactSeconds, recall: 1, memory: dimension * 4,
            disk: exactDisk, extra: [:])

        func recall(_ results: [[Int]]) -> Double {
            var total = 0.0
            for (found, expected) in zip(results, truth) {
                total += Double(Set(found).intersection(expected).count) / Double(max(1, expected.count))
            }
            return total / Double(max(1, results.count))
        }

        // Quantised scans with exact rescoring.
        var calibrations: [(String, QuantizedMatrix, Int)] = []
        let perVector = Int8Quantizer(dimension: dimension)
        let perDimension = matrix.withView { Int8Quantizer.perDimension(calibratedOn: $0) }
        let binary = matrix.withView { BinaryQuantizer(centredOn: $0) }
        for (name, encoding, oversample) in skipQuantised
            ? []
            : [
                ("int8-rescore", QuantizedMatrix(int8: perVector), int8Oversample),
                ("int8-perdim-rescore", QuantizedMatrix(int8: perDimension), int8Oversample),
                ("binary-rescore", QuantizedMatrix(binary: binary), binaryOversample),
            ]
        {
            var codes = encoding
            let build = try time { matrix.withView { codes.append(contentsOf: $0) } }
            calibrations.append((name, codes, oversample))
            let scan = QuantizedScan(codes: codes, oversample: oversample)
            var results: [[Int]] = []
            let seconds = try matrix.withView { view in
                try time { results = try queryVectors.map { try scan.search($0, k: k, vectors: view).map(\.row) } }
            }
            var raw: [[Int]] = []
            for query in queryVectors.prefix(200) { raw.append(scan.candidates(query, count: k).map(\.row)) }
            let rawRecall = recall(raw)
            let disk = try diskBytes(directory, name) { db in
                try db.execute(sql: "CREATE TABLE codes(row INTEGER PRIMARY KEY, code BLOB NOT NULL)")
                let statement = try db.makeStatement(sql: "INSERT INTO codes(row, code) VALUES (?, ?)")
                let size = codes.bytesPerVector
                let blob = Data(count: size)
                for row in 0..<n { try statement.execute(arguments: [row, blob]) }
            }
            try report(
                name, n: n, d: dimension, build: build, seconds: seconds, recall: recall(results),
                memory: codes.bytesPerVector, disk: disk,
                extra: ["oversample": "\(oversample)", "recall_without_rescore": String(format: "%.4f", rawRecall)])
        }

        guard !skipHnsw else { return }
        let parameters = HNSWParameters(M: m, efConstruction: efConstruction, efSearch: efs.first ?? 64)
        let path = graph ?? directory.appendingPathComponent("hnsw.sqlite").path
        let queue = try GraphTables.file(path: path)
        var index: HNSWIndex
        var build = 0.0
        var saveSeconds = 0.0
        var reused = false
        let saved: HNSWIndex?
        do {
            saved =
                graph == nil
                ? nil : try queue.read { try HNSWIndex.load(from: GraphTableReader($0), rows: n, dimension: dimension) }
        } catch let error as ANNError {
            throw ValidationError("the graph in \(path) was built over other vectors (\(error))")
        }
        if let saved {
            reused = true
            guard saved.slotCount <= n, saved.dimension == dimension else {
                throw ValidationError("the graph in \(path) was built over other vectors")
            }
            index = saved
        } else {
            index = try HNSWIndex(dimension: dimension, parameters: parameters)
            build = try matrix.withView { view in
                try time {
                    index = try HNSWIndex.build(
                        dimension: dimension, parameters: parameters, rows: 0..<n, vectors: view, threads: threads)
                }
            }
            let problems = index.checkInvariants()
            if !problems.isEmpty { Console.out("invariant problems: \(problems.prefix(5))") }
            saveSeconds = try time { try queue.write { try index.save(to: GraphTableWriter($0), full: true) } }
            try queue.writeWithoutTransaction { try $0.execute(sql: "VACUUM") }
        }
        let graphDisk = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        var loaded: HNSWIndex?
        let loadSeconds = try time {
            loaded = try queue.read { try HNSWIndex.load(from: GraphTableReader($0), rows: n, dimension: dimension) }
        }
        if loaded?.liveCount != n { Console.out("warning: reloaded graph has \(loaded?.liveCount ?? -1) nodes") }
        // The graph walked on int8 codes (per-dimension calibration), the ef rows found rescored in f32.
        var guide = QuantizedMatrix(int8: matrix.withView { Int8Quantizer.perDimension(calibratedOn: $0) })
        matrix.withView { guide.append(contentsOf: $0) }
        for (system, guided) in [("hush-hnsw-M\(m)", false), ("hush-hnsw-i8guide-M\(m)", true)] {
            for ef in efs {
                var results: [[Int]] = []
                let seconds = try matrix.withView { view in
                    try time {
                        results = try queryVectors.map {
                            try index.search($0, k: k, ef: ef, vectors: view, guide: guided ? guide : nil).map(\.row)
                        }
                    }
                }
                try report(
                    system, n: n, d: dimension, build: build, seconds: seconds, recall: recall(results),
                    memory: dimension * 4 + index.graphBytes / max(1, n) + (guided ? guide.bytesPerVector : 0),
                    disk: exactDisk + graphDisk / max(1, n),
                    extra: [
                        "ef": "\(ef)", "threads": "\(threads)", "graph_reused": "\(reused)",
                        "graph_disk_bytes_per_vector": "\(graphDisk / max(1, n))",
                        "save_s": String(format: "%.3f", saveSeconds), "load_s": String(format: "%.3f", loadSeconds),
                    ])
            }
        }
    }

    private func loadVectors() throws -> ([Float], Int) {
        if let vectors {
            let (values, rows, columns) = try NPYFile.readFloat32(path: vectors)
            _ = rows
            return (values, columns)
        }
        let count = synthetic ?? 10_000
        return (
            SyntheticVectors.clustered(
                count: count, dimension: dim, clusters: max(1, count / 100), noise: 0.7, seed: 42),
            dim
        )
    }

    private func loadQueries(_ matrix: VectorRows) throws -> [[Float]] {
        if let queryFile {
            let (values, rows, columns) = try NPYFile.readFloat32(path: queryFile)
            guard columns == matrix.dimension else {
                throw ValidationError("queries have \(columns) dimensions, vectors \(matrix.dimension)")
            }
            return (0..<min(rows, queries)).map { Array(values[($0 * columns)..<(($0 + 1) * columns)]) }
        }
        return SyntheticVectors.queries(
            near: matrix.storage, dimension: matrix.dimension, count: queries, noise: 0.4, seed: 1)
    }

    /// Bytes per vector of a temporary SQLite file filled by `fill`.
    private func diskBytes(_ directory: URL, _ name: String, _ fill: (Database) throws -> Void) throws -> Int {
        let path = directory.appendingPathComponent("\(name).sqlite").path
        let queue = try DatabaseQueue(path: path)
        var rows = 0
        try queue.write { db in
            try fill(db)
            rows = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(name == "exact" ? "vectors" : "codes")") ?? 0
        }
        try queue.writeWithoutTransaction { try $0.execute(sql: "VACUUM") }
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        return size / max(1, rows)
    }

    private func time(_ body: () throws -> Void) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    private func report(
        _ system: String, n: Int, d: Int, build: Double, seconds: Double, recall: Double, memory: Int, disk: Int,
        extra: [String: String]
    ) throws {
        let msPerQuery = seconds * 1000 / Double(max(1, queries))
        if json {
            let fields: [(key: String, value: BenchRecord.Value)] = [
                ("bench", .text("ann")), ("system", .text(system)), ("n", .int(n)), ("d", .int(d)),
                ("build_s", .number(build)), ("ms_per_query", .number(msPerQuery)), ("recall_at_k", .number(recall)),
                ("memory_bytes_per_vector", .int(memory)), ("disk_bytes_per_vector", .int(disk)),
            ]
            let extras = extra.sorted { $0.key < $1.key }.map { key, value -> (key: String, value: BenchRecord.Value) in
                (key, Double(value).map { .number($0) } ?? .text(value))
            }
            Console.out(try JSONOutput.line(BenchRecord(fields + extras)))
        } else {
            let fields = extra.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            Console.out(
                "\(system) n=\(n) d=\(d) build_s=\(String(format: "%.2f", build)) "
                    + "ms_per_query=\(String(format: "%.4f", msPerQuery)) recall@\(k)=\(String(format: "%.4f", recall)) "
                    + "mem_B/vec=\(memory) disk_B/vec=\(disk) \(fields)")
        }
    }
}

/// Minimal reader of NumPy .npy files holding a 2-D little-endian float32 matrix.
enum NPYFile {
    static func readFloat32(path: String) throws -> (values: [Float], rows: Int, columns: Int) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ANNError.unreadableFile(path: path, reason: "file not found or unreadable")
        }
        let bytes = [UInt8](data)
        guard bytes.count >= 10, bytes[0] == 0x93, Array(bytes[1...5]) == Array("NUMPY".utf8) else {
            throw ANNError.unreadableFile(path: path, reason: "not a .npy file")
        }
        let major = bytes[6]
        let headerLength: Int
        let headerStart: Int
        if major == 1 {
            headerLength = Int(bytes[8]) | Int(bytes[9]) << 8
            headerStart = 10
        } else {
            guard bytes.count >= 12 else { throw ANNError.unreadableFile(path: path, reason: "truncated header") }
            headerLength = Int(bytes[8]) | Int(bytes[9]) << 8 | Int(bytes[10]) << 16 | Int(bytes[11]) << 24
            headerStart = 12
        }
        guard headerStart + headerLength <= bytes.count,
            let header = String(bytes: bytes[headerStart..<(headerStart + headerLength)], encoding: .ascii)
        else { throw ANNError.unreadableFile(path: path, reason: "truncated header") }
        guard header.contains("'descr': '<f4'") else {
            throw ANNError.unreadableFile(path: path, reason: "dtype is not little-endian float32: \(header)")
        }
        guard header.contains("'fortran_order': False") else {
            throw ANNError.unreadableFile(path: path, reason: "Fortran-ordered arrays are not supported")
        }
        guard let open = header.firstIndex(of: "("), let close = header.firstIndex(of: ")") else {
            throw ANNError.unreadableFile(path: path, reason: "no shape in header")
        }
        let shape = header[header.index(after: open)..<close].split(separator: ",").compactMap {
            Int($0.trimmingCharacters(in: .whitespaces))
        }
        guard shape.count == 2 else { throw ANNError.unreadableFile(path: path, reason: "shape \(shape) is not 2-D") }
        let (rows, columns) = (shape[0], shape[1])
        let start = headerStart + headerLength
        guard bytes.count - start >= rows * columns * 4 else {
            throw ANNError.unreadableFile(path: path, reason: "data shorter than \(rows) x \(columns) floats")
        }
        var values = [Float](repeating: 0, count: rows * columns)
        values.withUnsafeMutableBytes { target in
            bytes.withUnsafeBytes { source in
                target.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[start..<(start + rows * columns * 4)]))
            }
        }
        return (values, rows, columns)
    }
}
