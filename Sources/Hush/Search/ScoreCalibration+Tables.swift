import Foundation

// The shipped tables: fitted by `scripts/bench/calibration.sh fit` on the even-numbered queries of the
// multilingual man-page set (seven languages; for e5 also the English <-> other-language pairs), measured on the
// odd-numbered ones (see the README). The recommended threshold is the highest that keeps at least 85 % of the
// correct first hits of the fitting queries (same-language and cross-language alike).
extension ScoreCalibration {
    static let multilingualE5Small = ScoreCalibration(
        name: "multilingual-e5-small (man pages 2026-11)",
        english: .init(intercept: 3.887, cosine: -18.768, standing: 2.428, keyword: 22.492, product: -3.298),
        cjk: .init(intercept: -15.725, cosine: 5.539, standing: 2.201, keyword: 29.565, product: -4.732),
        other: .init(intercept: 0.654, cosine: -14.344, standing: 2.457, keyword: 25.245, product: -4.237),
        recommendedMinScore: 0.077)

    static let allMiniLML6v2 = ScoreCalibration(
        name: "all-MiniLM-L6-v2 (man pages 2026-11)",
        english: .init(intercept: -11.946, cosine: 5.042, standing: 1.181, keyword: 26.968, product: -2.817),
        cjk: .init(intercept: -9.896, cosine: 1.988, standing: 0.856, keyword: 46.355, product: -3.912),
        other: .init(intercept: -10.768, cosine: 3.903, standing: 0.890, keyword: 33.655, product: -3.204),
        recommendedMinScore: 0.152)

    static let lexicalHashing = ScoreCalibration(
        name: "hush-lexical-hashing-v1 (man pages 2026-11)",
        coefficients: .init(intercept: -8.655, cosine: -1.113, standing: 0.987, keyword: 35.053, product: -3.629),
        recommendedMinScore: 0.115)
}
