import Foundation
import Testing

@testable import HushCLI

/// The rate and ETA a progress line shows count only this run's work: a resumed `hush reembed` that found
/// 71,000 of 71,489 chunks done said "71489 chunks/s, ETA 0:00" after a second, counting what it resumed.
@Suite struct ProgressReporterTests {
    @Test func aResumedRunsRateCountsOnlyItsOwnWork() {
        let resumed = ProgressReporter.pace(done: 71_489, total: 80_000, alreadyDone: 71_000, elapsed: 2)
        #expect(resumed.rate == 244.5)
        #expect(abs(resumed.eta - 8_511 / 244.5) < 1e-9)
        let fresh = ProgressReporter.pace(done: 489, total: 9_000, alreadyDone: 0, elapsed: 2)
        #expect(fresh.rate == 244.5)
        // Nothing done yet this run: no rate, and no end in sight unless all is done.
        #expect(ProgressReporter.pace(done: 71_000, total: 80_000, alreadyDone: 71_000, elapsed: 1) == (0, .infinity))
        #expect(ProgressReporter.pace(done: 80_000, total: 80_000, alreadyDone: 80_000, elapsed: 1) == (0, 0))
    }
}
