import Foundation
import HushEmbedding
import HushTestSupport
import Testing

@testable import Hush

/// The shipped language means of multilingual-e5-small (``LanguagePriors``): their shape, their offsets, and
/// that they are the model's (its languages told apart on other text).
struct LanguagePriorsTests {
    static let e5 = EmbedderIdentity(
        model: "multilingual-e5-small", weightsSHA256: "any", dimension: 384, pooling: .mean, normalized: true,
        queryPrefix: "query: ", passagePrefix: "passage: ")

    /// The languages `LanguageIdentifier` names, but for Armenian and Urdu (no translations to measure on).
    static let languages = """
        am ar bg bn ca cs da de el en es fa fi fr he hi hr hu id it ja ka ko nb nl pl pt ro ru sk sr sv ta th tr uk
        vi zh
        """.split(whereSeparator: \.isWhitespace).map(String.init)

    @Test func theE5TableHoldsThirtyEightLanguagesOfItsDimension() throws {
        let priors = try #require(LanguagePriors.builtIn(for: Self.e5))
        #expect(priors.means.count == 38)
        for code in Self.languages {
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

/// The table against the model itself, on other text than it was measured on: each of the 16 languages of the
/// man-page corpus (`bench/data/multilingual-corpus.jsonl`, 20 passages each) embedded now is offset from the
/// others in the direction the table gives its language, and in no other language's.
@Suite(.needsModel) struct LanguagePriorsModelTests {
    @Test func eachLanguageOfOtherTextIsNearestItsOwnMean() throws {
        let embedder = try TestModels.e5Embedder()
        let priors = try #require(LanguagePriors.builtIn(for: embedder.identity))
        let corpus = Repository.root.appendingPathComponent("bench/data/multilingual-corpus.jsonl")
        var texts: [String: [String]] = [:]
        for line in try String(contentsOf: corpus, encoding: .utf8).split(separator: "\n") {
            let row = try JSONDecoder().decode([String: String].self, from: Data(line.utf8))
            guard let text = row["text"], let code = row["lang"]?.split(separator: "_").first.map(String.init),
                texts[code, default: []].count < 20
            else { continue }
            texts[code, default: []].append(text.replacingOccurrences(of: "\n", with: " "))
        }
        let codes = texts.keys.sorted()
        #expect(codes.count == 16)
        func mean(_ vectors: [[Float]]) -> [Float] {
            (0..<384).map { index in vectors.reduce(0) { $0 + $1[index] } / Float(vectors.count) }
        }
        func offsets(_ means: [[Float]], from centre: [Float]) -> [[Float]] {
            means.map { vector in
                let offset = (0..<384).map { vector[$0] - centre[$0] }
                let length = VectorMath.dot(offset, offset).squareRoot()
                return offset.map { $0 / length }
            }
        }
        let measured = try codes.map { code in
            try mean(embedder.embed(try #require(texts[code]), role: .passage).map(\.vector))
        }
        let tabled = try codes.map { try #require(priors.means[$0], "\($0)") }
        let everyLanguage = priors.means.keys.sorted()
        let now = offsets(measured, from: mean(measured))
        let table = offsets(everyLanguage.compactMap { priors.means[$0] }, from: mean(tabled))
        for (code, offset) in zip(codes, now) {
            let cosines = table.map { VectorMath.dot(offset, $0) }
            let nearest = try #require(cosines.indices.max { cosines[$0] < cosines[$1] })
            #expect(everyLanguage[nearest] == code, "\(code): nearest \(everyLanguage[nearest])")
            // Measured: 0.54 (French) to 0.84 (Russian); another language's is at most 0.41.
            let own = try #require(everyLanguage.firstIndex(of: code))
            #expect(cosines[own] > 0.45, "\(code): \(cosines[own])")
        }
    }
}
