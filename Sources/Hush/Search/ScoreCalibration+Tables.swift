import Foundation

// The shipped tables: fitted by `scripts/bench/calibration.sh fit` on the even-numbered queries of the
// multilingual man-page set (seven languages; for e5 also the English <-> other-language pairs), measured on the
// odd-numbered ones (docs/benchmarks.md). The recommended threshold is the highest that keeps at least 85 % of the
// correct first hits of the fitting queries (same-language and cross-language alike).
extension ScoreCalibration {
    static let multilingualE5Small = ScoreCalibration(
        name: "multilingual-e5-small (man pages 2026-11)",
        english: .init(intercept: -1.683, cosine: -11.487, standing: 2.277, keyword: 18.756, product: -2.844),
        cjk: .init(intercept: -16.180, cosine: 6.082, standing: 2.202, keyword: 29.378, product: -4.729),
        other: .init(intercept: 7.244, cosine: -22.518, standing: 2.602, keyword: 26.080, product: -4.291),
        recommendedMinScore: 0.083)

    static let allMiniLML6v2 = ScoreCalibration(
        name: "all-MiniLM-L6-v2 (man pages 2026-11)",
        english: .init(intercept: -12.479, cosine: 6.304, standing: 1.216, keyword: 25.391, product: -2.801),
        cjk: .init(intercept: -9.735, cosine: 1.624, standing: 0.900, keyword: 46.845, product: -4.240),
        other: .init(intercept: -10.806, cosine: 3.605, standing: 0.985, keyword: 34.850, product: -3.726),
        recommendedMinScore: 0.148)

    static let lexicalHashing = ScoreCalibration(
        name: "hush-lexical-hashing-v1 (man pages 2026-11)",
        coefficients: .init(intercept: -8.475, cosine: -1.440, standing: 0.954, keyword: 34.451, product: -3.449),
        recommendedMinScore: 0.115)
}
