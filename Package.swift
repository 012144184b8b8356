// swift-tools-version: 6.2
import Foundation
import PackageDescription

// Hush: private, on-device semantic search.
//
// Targets, bottom up:
//   HushKernels   C vector kernels (scalar reference + AVX-512 / AVX2+FMA / NEON), dispatched once at run time
//   COpenBLAS     system library: OpenBLAS on Linux (Accelerate is used on Apple platforms instead)
//   HushEmbedding tokenizer, safetensors, BERT encoder, Embedder protocol and implementations
//   Hush          the engine: text, store (one SQLite file through GRDB), index, search
//   HushCLI       the `hush` command line
//   HushBench     the `hush-bench` measurements (kept out of the library and of `hush`)
//   HushToolSupport what the two command lines and the tests share: model options, JSON lines, seeded vectors and
//                   the one seeded generator (SplitMix64)
//   HushTestSupport what the test targets share: the model locator, temporary folders, the test tiers
//   ClientAppCheck  Examples/ClientApp's program (public API only), built here so `make test` compiles once

// The test targets are compiled without optimisation in every configuration: what they test (the library, the
// command lines) is built as asked, while the tests' own code, only calls and checks, skips the whole-module
// optimisation that took most of `make test`'s release build (2 min 17 s of the test modules alone on 2 cores).
let testSettings: [SwiftSetting] = [.unsafeFlags(["-Onone"], .when(configuration: .release))]

let package = Package(
    name: "Hush",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "Hush", targets: ["Hush"]),
        .library(name: "HushEmbedding", targets: ["HushEmbedding"]),
        .executable(name: "hush", targets: ["HushCLI"]),
        .executable(name: "hush-bench", targets: ["HushBench"]),
        .executable(name: "hush-examples", targets: ["HushExamples"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // The kernels are optimised in every configuration: an app's Debug build compiles its packages at -O0,
        // where these loops ran 40 times slower (indexing 300 readings took minutes) while the Swift around them
        // costs little (measured in docs/benchmarks.md, "Debug builds"). SwiftPM accepts this flag from a
        // dependency pinned by version since tools version 6.2.
        .target(
            name: "HushKernels", cSettings: [.unsafeFlags(["-O2"], .when(configuration: .debug))],
            // Apple's BLAS (AccelerateBLAS.c).
            linkerSettings: [.linkedFramework("Accelerate", .when(platforms: [.macOS, .iOS, .visionOS]))]),
        // CBLAS declarations only: OpenBLAS itself is loaded at run time (see Sources/COpenBLAS/shim.h).
        .systemLibrary(
            name: "COpenBLAS",
            providers: [.apt(["libopenblas-dev"])]
        ),
        .target(
            name: "HushEmbedding",
            dependencies: [
                "HushKernels",
                .target(name: "COpenBLAS", condition: .when(platforms: [.linux])),
            ],
            // What Xcode's privacy report reads: no tracking, nothing collected, the file timestamp calls' reasons.
            resources: [.copy("PrivacyInfo.xcprivacy")],
            linkerSettings: [.linkedFramework("Accelerate", .when(platforms: [.macOS, .iOS]))]
        ),
        .target(
            name: "Hush",
            dependencies: [
                "HushEmbedding",
                "HushKernels",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's incremental BLOB reads, for the index image (Persistence/IndexImageTable.swift).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            // What Xcode's privacy report reads: no tracking, nothing collected, the file timestamp calls' reasons.
            resources: [.copy("PrivacyInfo.xcprivacy")],
            // Off Apple platforms, the ICU Foundation carries (its word break iterator: Text/WordSegmenter.swift).
            linkerSettings: [.linkedLibrary("_FoundationICU", .when(platforms: [.linux]))]
        ),
        .target(
            name: "HushToolSupport",
            dependencies: ["Hush", "HushEmbedding", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "HushCLI",
            dependencies: [
                "Hush",
                "HushToolSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "HushBench",
            dependencies: [
                "Hush",
                "HushKernels",
                "HushToolSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // Runnable example apps (journal, feed, planner): `swift run hush-examples journal "..."`.
        .executableTarget(
            name: "HushExamples",
            dependencies: ["Hush", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Examples/HushExamples"
        ),
        // What the test targets share: the one model locator, temporary folders, a tiny model folder and the
        // make check / make test tiers.
        .target(
            name: "HushTestSupport", dependencies: ["HushEmbedding", "HushToolSupport"], path: "Tests/HushTestSupport"),
        // What FuzzStoreFile does with an input, also used by the test suite to replay that fuzzer's corpus.
        .target(
            name: "FuzzStoreDamage",
            dependencies: ["Hush", "HushEmbedding", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Fuzz/Sources/FuzzStoreDamage"),
        // Examples/ClientApp's program, built with everything else so `make test` compiles the package once; the
        // test script also type-checks it against the built modules with nothing but their public interface.
        .executableTarget(name: "ClientAppCheck", dependencies: ["Hush"], path: "Examples/ClientApp/Sources/ClientApp"),
        .testTarget(
            name: "HushKernelsTests", dependencies: ["HushKernels", "HushToolSupport"], swiftSettings: testSettings),
        .testTarget(
            name: "HushEmbeddingTests",
            dependencies: ["HushEmbedding", "HushTestSupport"],
            resources: [.copy("Fixtures")],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "HushTests",
            dependencies: [
                "Hush", "HushToolSupport", "HushTestSupport", "FuzzStoreDamage",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "HushCLITests",
            dependencies: [
                "Hush", "HushCLI", "HushBench", "HushToolSupport", "HushTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: testSettings),
    ],
    swiftLanguageModes: [.v6]
)

// `make test`'s Thread Sanitizer step (scripts/test sets HUSH_TSAN_ONLY=1, in its own scratch folder): the library
// and one test target of the concurrency suites alone, so that the sanitizer's build compiles neither the command
// lines nor the other tests (it took as long as the release build of everything).
if ProcessInfo.processInfo.environment["HUSH_TSAN_ONLY"] == "1" {
    let library: Set<String> = [
        "HushKernels", "COpenBLAS", "HushEmbedding", "Hush", "HushToolSupport", "HushTestSupport", "FuzzStoreDamage",
    ]
    let sources = [
        "HushTests/Reliability/ReliabilityConcurrencyTests.swift", "HushTests/Search/SearchBetweenPassesTests.swift",
        "HushTests/Store/StoreConcurrencyTests.swift", "HushTests/Store/StoreTestSupport.swift",
        "HushEmbeddingTests/ThreadTeamTests.swift",
    ]
    // Every other file under Tests/ is left out by name (HushTestSupport's are compiled by their own target).
    let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Tests").path
    let others = (FileManager.default.enumerator(atPath: tests)?.allObjects as? [String] ?? []).filter { file in
        var folder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: tests + "/" + file, isDirectory: &folder)
        return exists && !folder.boolValue && !sources.contains(file)
    }
    // The libFuzzer targets of Fuzz/ too (the same sources as Fuzz/Package.swift), so that one debug build serves
    // both checks: scripts/test builds everything with `--sanitize=thread` and libFuzzer's coverage
    // instrumentation (`-sanitize-coverage=edge,indirect-calls,trace-cmp,inline-8bit-counters,pc-table`), links
    // libFuzzer into these executables alone (the test runner keeps its own `main`), runs the concurrency suites
    // and fuzzes these. `make fuzz` still builds Fuzz/ by itself, in release, for long sessions.
    func fuzz(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
        .executableTarget(
            name: name, dependencies: ["FuzzDriver"] + dependencies, path: "Fuzz/Sources/" + name,
            swiftSettings: [.unsafeFlags(["-sanitize=fuzzer"])], linkerSettings: [.unsafeFlags(["-sanitize=fuzzer"])])
    }
    let fuzzTargets: [Target] = [
        .target(name: "FuzzDriver", path: "Fuzz/Sources/FuzzDriver"),
        .target(name: "FuzzDocuments", dependencies: ["Hush"], path: "Fuzz/Sources/FuzzDocuments"),
        fuzz("FuzzTokenizer", ["HushEmbedding"]),
        fuzz("FuzzFTSQuery", ["Hush", .product(name: "GRDB", package: "GRDB.swift")]),
        fuzz("FuzzSafeTensors", ["HushEmbedding"]), fuzz("FuzzE5S1", ["HushEmbedding"]),
        fuzz("FuzzTokenizerJSON", ["HushEmbedding"]), fuzz("FuzzJSONL", ["FuzzDocuments"]),
        fuzz("FuzzCSV", ["FuzzDocuments"]),
        fuzz("FuzzStoreFile", ["FuzzStoreDamage"]),
    ]
    package.targets =
        package.targets.filter { library.contains($0.name) } + fuzzTargets + [
            .testTarget(
                name: "HushConcurrencyTests",
                dependencies: [
                    "Hush", "HushEmbedding", "HushToolSupport", "HushTestSupport",
                    .product(name: "GRDB", package: "GRDB.swift"),
                ],
                path: "Tests", exclude: others, sources: sources)
        ]
    package.products = package.products.filter { !($0 is Product.Executable) }
}
