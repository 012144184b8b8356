// swift-tools-version: 6.1
import PackageDescription

// A small app that depends on Hush the way any app does (by package, public API only), built and run by
// `make test` (`make client-app`), so the public surface is exercised as an app sees it.
let package = Package(
    name: "ClientApp",
    dependencies: [.package(name: "Hush", path: "../..")],
    targets: [
        .executableTarget(name: "ClientApp", dependencies: [.product(name: "Hush", package: "Hush")])
    ],
    swiftLanguageModes: [.v6]
)
