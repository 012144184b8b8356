import Foundation
import HushEmbedding

/// The model folder the tests use: `HUSH_MODEL_DIR`, or the default cache (`make test` fetches it there).
enum TestModel {
    static var directory: URL {
        if let path = ProcessInfo.processInfo.environment["HUSH_MODEL_DIR"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(
            ".cache/hush/models/all-MiniLM-L6-v2")
    }

    /// The multilingual-e5-small file: `HUSH_E5_MODEL`, or the default cache (`make test` fetches it there).
    static var e5File: URL { E5Embedder.defaultModelFile }

    /// The Hugging Face tokenizer.json built from the e5 file's pieces by
    /// scripts/fixtures/make-hf-unigram-tokenizer.sh (`scripts/fetch-model e5-small` runs it): `HUSH_E5_HF_DIR`,
    /// or the default cache.
    static var e5TokenizerJSON: URL {
        let environment = ProcessInfo.processInfo.environment["HUSH_E5_HF_DIR"] ?? ""
        let folder =
            environment.isEmpty
            ? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(
                ".cache/hush/models/multilingual-e5-small/hf") : URL(fileURLWithPath: environment)
        return folder.appendingPathComponent("tokenizer.json")
    }

    /// One loaded multilingual-e5-small shared by the suites (loading dequantises 85 MB of weights).
    static let e5: Result<E5Embedder, any Error> = Result { try E5Embedder(modelFile: e5File, threads: 2) }
}

/// One line of Fixtures/embedding-parity.jsonl, made by scripts/fixtures/make-embedding-parity.py with
/// sentence-transformers.
struct ParityCase: Decodable {
    let category: String
    let text: String
    let ids: [Int32]
    let truncated: Bool
    let vector: [Float]

    static func load() throws -> [ParityCase] {
        guard let url = Bundle.module.url(forResource: "Fixtures/embedding-parity", withExtension: "jsonl") else {
            throw EmbeddingError.modelNotFound(path: "Fixtures/embedding-parity.jsonl")
        }
        let text = try String(contentsOf: url, encoding: .utf8)
        let decoder = JSONDecoder()
        return try text.split(separator: "\n").map { try decoder.decode(ParityCase.self, from: Data($0.utf8)) }
    }
}

func cosine(_ a: [Float], _ b: [Float]) -> Double {
    var dot = 0.0
    var na = 0.0
    var nb = 0.0
    for (x, y) in zip(a, b) {
        dot += Double(x) * Double(y)
        na += Double(x) * Double(x)
        nb += Double(y) * Double(y)
    }
    return dot / max((na * nb).squareRoot(), 1e-30)
}

func maxAbsDifference(_ a: [Float], _ b: [Float]) -> Float {
    zip(a, b).map { abs($0 - $1) }.max() ?? 0
}
