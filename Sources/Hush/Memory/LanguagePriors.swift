import Foundation
import HushEmbedding

/// Where a multilingual model puts each language, measured once on translations of the same sentences and shipped
/// with Hush: the model's mean passage vector per language (primary subtag).
///
/// A store estimates each language's centre from its own documents (``StoreMemory/State/documentCentres()``),
/// and a language of a few documents is shrunk toward the store's centre, since a mean of three vectors is
/// mostly their topics. Shrunk toward nothing, though, a bilingual journal of a few entries per language kept
/// almost all of the model's language gap: a Chinese query found every Chinese entry before the English one
/// about sleep. The gap between two languages is mostly the model's, not the store's, so a small group is
/// shrunk toward where the model puts its language instead: its offset from the other languages of the store,
/// as measured on translations of the same sentences (``offsets(of:weights:)``).
///
/// ```swift
/// let priors = LanguagePriors.builtIn(for: store.identity)  // multilingual-e5-small: 38 languages
/// priors?.offsets(of: ["en", "zh", "hy"], weights: [3, 5, 1])  // en, zh: 384 values each; hy: nil
/// ```
struct LanguagePriors: Sendable {
    /// The model these means belong to (``EmbedderIdentity/model``).
    let model: String
    /// The length of every mean.
    let dimension: Int
    /// The mean passage vector of each language, by primary subtag (lower-cased).
    let means: [String: [Float]]

    /// Means decoded from `base64` (little-endian f32, `dimension` per language, in the order of `languages`,
    /// a list separated by spaces or line breaks); no means at all when the data does not have that shape.
    init(model: String, dimension: Int, languages: String, base64: String) {
        self.model = model
        self.dimension = dimension
        let codes = languages.split(whereSeparator: \.isWhitespace).map(String.init)
        guard dimension > 0,
            let data = Data(base64Encoded: base64, options: .ignoreUnknownCharacters),
            data.count == codes.count * dimension * MemoryLayout<Float>.size
        else {
            means = [:]
            return
        }
        var decoded: [String: [Float]] = [:]
        data.withUnsafeBytes { raw in
            for (index, code) in codes.enumerated() {
                decoded[code] = (0..<dimension).map { element in
                    let offset = (index * dimension + element) * MemoryLayout<Float>.size
                    return Float(
                        bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                }
            }
        }
        means = decoded
    }

    /// The priors of the model of `identity`, or `nil` for a model Hush has none for (MiniLM, which reads
    /// English only, and the lexical fallback).
    static func builtIn(for identity: EmbedderIdentity) -> LanguagePriors? {
        let table: LanguagePriors? =
            switch identity.model {
            case multilingualE5Small.model: multilingualE5Small
            default: nil
            }
        guard let table, table.dimension == identity.dimension, !table.means.isEmpty else { return nil }
        return table
    }

    /// Each language's offset from the store's languages together: its mean less the mean of the means of
    /// `codes` (primary subtags) weighted by `weights` (the store's rows of each). `nil` for a language without
    /// a mean, which is also left out of the weighted mean.
    ///
    /// - Complexity: O(languages × dimension).
    func offsets(of codes: [String], weights: [Float]) -> [[Float]?] {
        let known = codes.map { means[$0] }
        var centre = [Float](repeating: 0, count: dimension)
        var total: Float = 0
        for (mean, weight) in zip(known, weights) where weight > 0 {
            guard let mean else { continue }
            for index in 0..<dimension { centre[index] += weight * mean[index] }
            total += weight
        }
        guard total > 0 else { return codes.map { _ in nil } }
        return known.map { mean in mean.map { mean in (0..<dimension).map { mean[$0] - centre[$0] / total } } }
    }
}
