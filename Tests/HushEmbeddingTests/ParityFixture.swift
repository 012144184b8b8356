import Foundation
import HushEmbedding

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
