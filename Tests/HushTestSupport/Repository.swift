import Foundation

/// The repository the tests run from, and the folders in it they read (the samples, the fuzz corpora).
public enum Repository {
    /// The repository's root folder (this file is `Tests/HushTestSupport/Repository.swift`).
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `samples/`: the journal, notes and records `make demo` indexes.
    public static var samples: URL { root.appendingPathComponent("samples") }
}
