// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets for Hush, kept out of the main package so its build stays clean.
// Build and run with ../scripts/fuzz (Linux: swift build -Xswiftc -sanitize=fuzzer -Xswiftc -enable-testing).
// Each target defines `LLVMFuzzerTestOneInput`; its main.swift hands it to libFuzzer's `LLVMFuzzerRunDriver`
// (SwiftPM renames an executable's `main`, so libFuzzer's own `main` cannot be used).

let package = Package(
    name: "HushFuzz",
    dependencies: [
        .package(name: "Hush", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .executableTarget(
            name: "FuzzTokenizer", dependencies: [.product(name: "HushEmbedding", package: "Hush")]),
        .executableTarget(
            name: "FuzzFTSQuery",
            dependencies: [.product(name: "Hush", package: "Hush"), .product(name: "GRDB", package: "GRDB.swift")]),
        .executableTarget(
            name: "FuzzSafeTensors", dependencies: [.product(name: "HushEmbedding", package: "Hush")]),
        .executableTarget(
            name: "FuzzJSONL", dependencies: [.product(name: "Hush", package: "Hush")]),
        .executableTarget(
            name: "FuzzCSV", dependencies: [.product(name: "Hush", package: "Hush")]),
    ],
    swiftLanguageModes: [.v6]
)
