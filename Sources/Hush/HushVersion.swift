/// This library's version, as released (semantic versioning: CHANGELOG.md lists what each version changed).
/// A built knowledge base records the version that built it.
///
/// ```swift
/// print("Hush \(HushVersion.current)")  // Hush 0.3.0
/// ```
public enum HushVersion {
    /// This library's version.
    public static let current = "0.3.0"
}
