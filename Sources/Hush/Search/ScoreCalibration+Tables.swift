import Foundation

// The shipped tables: fitted by `scripts/bench/calibration.sh fit` on the even-numbered queries of the
// multilingual man-page set (seven languages; for e5 also the English <-> other-language pairs), measured on the
// odd-numbered ones (docs/benchmarks.md). Refitted 2026-11-27 for the stores as they are now made: each model's
// own chunk sizes, and a document of several chunks scored by its best chunk blended with its opening one. The
// recommended threshold is the highest that keeps at least 85 % of the correct first hits of the fitting queries
// (same-language and cross-language alike).
extension ScoreCalibration {
    static let multilingualE5Small = ScoreCalibration(
        name: "multilingual-e5-small (man pages 2026-11)",
        english: .init(intercept: 5.680, cosine: -19.590, standing: 2.457, keyword: 15.684, product: -2.624),
        cjk: .init(intercept: 2.816, cosine: -15.817, standing: 2.513, keyword: 28.971, product: -5.269),
        other: .init(intercept: 7.831, cosine: -21.976, standing: 2.676, keyword: 22.178, product: -4.126),
        recommendedMinScore: 0.089)

    static let allMiniLML6v2 = ScoreCalibration(
        name: "all-MiniLM-L6-v2 (man pages 2026-11)",
        english: .init(intercept: -12.028, cosine: 6.078, standing: 1.278, keyword: 24.392, product: -2.903),
        cjk: .init(intercept: -9.722, cosine: 3.045, standing: 0.829, keyword: 44.596, product: -4.075),
        other: .init(intercept: -10.140, cosine: 4.320, standing: 0.791, keyword: 32.158, product: -3.210),
        recommendedMinScore: 0.142)

    static let lexicalHashing = ScoreCalibration(
        name: "hush-lexical-hashing-v1 (man pages 2026-11)",
        coefficients: .init(intercept: -8.394, cosine: -1.460, standing: 1.036, keyword: 32.851, product: -3.453),
        recommendedMinScore: 0.13)
}
