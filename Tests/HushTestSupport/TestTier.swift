import Foundation
import Testing

/// Which tier of the suite is running: `make check` (the everyday loop) or `make test` (everything, what CI runs).
///
/// `make check` sets `HUSH_TEST_TIER=check`. It builds in debug, and skips what needs a real model or kills
/// processes; `make test` runs every test.
public enum TestTier {
    /// True under `make check`.
    public static var isEveryday: Bool { ProcessInfo.processInfo.environment["HUSH_TEST_TIER"] == "check" }
}

extension Trait where Self == ConditionTrait {
    /// The test runs a real model (MiniLM or multilingual-e5-small), itself or through `hush`: `make test` only.
    public static var needsModel: Self {
        .disabled(if: TestTier.isEveryday, "needs a real model; make test runs it")
    }

    /// The test kills processes mid-write, or runs many processes against one file: `make test` only.
    public static var killsOrRaces: Self {
        .disabled(if: TestTier.isEveryday, "kills or races processes; make test runs it")
    }
}
