import Foundation
import HushEmbedding
import HushTestSupport
import Testing

@testable import Hush

/// The shipped language means of multilingual-e5-small (``LanguagePriors``): their shape, their offsets, and
/// that they are the model's (recomputed from the reference corpus).
struct LanguagePriorsTests {
    static let e5 = EmbedderIdentity(
        model: "multilingual-e5-small", weightsSHA256: "any", dimension: 384, pooling: .mean, normalized: true,
        queryPrefix: "query: ", passagePrefix: "passage: ")

    @Test func theE5TableHoldsSixteenLanguagesOfItsDimension() throws {
        let priors = try #require(LanguagePriors.builtIn(for: Self.e5))
        #expect(priors.means.count == 16)
        for code in ["cs", "de", "en", "es", "fr", "it", "ja", "nl", "pl", "pt", "ru", "sv", "tr", "uk", "vi", "zh"] {
            let mean = try #require(priors.means[code], "\(code)")
            #expect(mean.count == 384)
            // A mean of unit vectors of one language that lie close together (e5's cosines of unrelated
            // passages are about 0.8): long, but shorter than one.
            let length = VectorMath.dot(mean, mean).squareRoot()
            #expect(length > 0.8 && length < 1, "\(code): \(length)")
        }
        var other = Self.e5
        other.dimension = 768
        #expect(LanguagePriors.builtIn(for: other) == nil, "another dimension is another model")
        other = Self.e5
        other.model = "all-MiniLM-L6-v2"
        #expect(LanguagePriors.builtIn(for: other) == nil)
    }

    @Test func offsetsAreTakenFromTheWeightedMeanOfTheKnownLanguages() throws {
        let priors = try #require(LanguagePriors.builtIn(for: Self.e5))
        let offsets = priors.offsets(of: ["en", "zh", "xx"], weights: [3, 1, 5])
        #expect(offsets.count == 3)
        #expect(offsets[2] == nil, "no mean for an unknown language")
        let en = try #require(offsets[0])
        let zh = try #require(offsets[1])
        // 3 × en + 1 × zh = 0: the unknown language's weight counts for nothing.
        for index in 0..<384 { #expect(abs(3 * en[index] + zh[index]) < 1e-5) }
        // Chinese lies farther from English than German does.
        let zhGap = try #require(priors.offsets(of: ["en", "zh"], weights: [1, 1])[1])
        let deGap = try #require(priors.offsets(of: ["en", "de"], weights: [1, 1])[1])
        #expect(VectorMath.dot(zhGap, zhGap) > VectorMath.dot(deGap, deGap))
        #expect(priors.offsets(of: ["xx", "yy"], weights: [1, 1]).allSatisfy { $0 == nil })
        #expect(priors.offsets(of: ["en"], weights: [0]) == [nil])
    }

    @Test func aTableOfTheWrongSizeHoldsNoMeans() {
        let broken = LanguagePriors(model: "m", dimension: 4, languages: "en zh", base64: "AAAAAAAAAAAAAAAA")
        #expect(broken.means.isEmpty)
        let unreadable = LanguagePriors(model: "m", dimension: 1, languages: "en", base64: "not base64!")
        #expect(unreadable.means.isEmpty)
        let one = LanguagePriors(model: "m", dimension: 1, languages: "en", base64: "AACAPw==")
        #expect(one.means == ["en": [1]])
    }
}

/// The table against the model itself: the means of the reference corpus's English, Chinese and German passages
/// (`bench/data/multilingual-corpus.jsonl`, as `scripts/fixtures/make-language-priors.py` computes them)
/// embedded now.
@Suite(.needsModel) struct LanguagePriorsModelTests {
    @Test func theTableIsTheMeansOfTheReferencePassages() throws {
        let embedder = try TestModels.e5Embedder()
        let priors = try #require(LanguagePriors.builtIn(for: embedder.identity))
        let corpus = Repository.root.appendingPathComponent("bench/data/multilingual-corpus.jsonl")
        var texts: [String: [String]] = [:]
        for line in try String(contentsOf: corpus, encoding: .utf8).split(separator: "\n") {
            let row = try JSONDecoder().decode([String: String].self, from: Data(line.utf8))
            guard let text = row["text"], let code = row["lang"]?.split(separator: "_").first.map(String.init)
            else { continue }
            texts[code, default: []].append(text.replacingOccurrences(of: "\n", with: " "))
        }
        for code in ["en", "zh", "de"] {
            let passages = try #require(texts[code])
            #expect(passages.count >= 58)
            let vectors = try embedder.embed(passages, role: .passage).map(\.vector)
            let mean = (0..<384).map { index in vectors.reduce(0) { $0 + $1[index] } / Float(vectors.count) }
            let table = try #require(priors.means[code])
            let cosine =
                VectorMath.dot(mean, table) / (VectorMath.dot(mean, mean) * VectorMath.dot(table, table)).squareRoot()
            #expect(cosine > 0.9999, "\(code): \(cosine)")
        }
    }
}
