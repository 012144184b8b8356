// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets for Hush, kept out of the main package so its build stays clean.
// Build and run with ../scripts/fuzz (Linux: swift build -Xswiftc -sanitize=fuzzer -Xswiftc -enable-testing).
// Each target defines `LLVMFuzzerTestOneInput`; its main.swift hands it to libFuzzer's `LLVMFuzzerRunDriver`
// through FuzzDriver's `runFuzzer` (SwiftPM renames an executable's `main`, so libFuzzer's own `main` cannot be
// used). FuzzDocuments holds the body shared by the .jsonl and .csv targets.

let package = Package(
    name: "HushFuzz",
    dependencies: [
        .package(name: "Hush", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .target(name: "FuzzDriver"),
        .target(name: "FuzzDocuments", dependencies: [.product(name: "Hush", package: "Hush")]),
        .executableTarget(
            name: "FuzzTokenizer", dependencies: ["FuzzDriver", .product(name: "HushEmbedding", package: "Hush")]),
        .executableTarget(
            name: "FuzzFTSQuery",
            dependencies: [
                "FuzzDriver", .product(name: "Hush", package: "Hush"), .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .executableTarget(
            name: "FuzzSafeTensors", dependencies: ["FuzzDriver", .product(name: "HushEmbedding", package: "Hush")]),
        .executableTarget(
            name: "FuzzE5S1", dependencies: ["FuzzDriver", .product(name: "HushEmbedding", package: "Hush")]),
        .executableTarget(
            name: "FuzzTokenizerJSON",
            dependencies: ["FuzzDriver", .product(name: "HushEmbedding", package: "Hush")]),
        .executableTarget(name: "FuzzJSONL", dependencies: ["FuzzDriver", "FuzzDocuments"]),
        .executableTarget(name: "FuzzCSV", dependencies: ["FuzzDriver", "FuzzDocuments"]),
        .target(
            name: "FuzzStoreDamage",
            dependencies: [
                .product(name: "Hush", package: "Hush"), .product(name: "HushEmbedding", package: "Hush"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .executableTarget(name: "FuzzStoreFile", dependencies: ["FuzzDriver", "FuzzStoreDamage"]),
    ],
    swiftLanguageModes: [.v6]
)
