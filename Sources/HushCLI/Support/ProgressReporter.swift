import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Progress of long work on standard error: a bar with rate and ETA on a terminal, plain lines when piped.
final class ProgressReporter: @unchecked Sendable {
    // Sendable: all state is touched under `lock`.
    private let lock = NSLock()
    private let label: String
    private let unit: String
    private let isTerminal: Bool
    private let start = Date()
    private var lastPrint = Date.distantPast
    private var lastPlainFraction = -1.0
    private var finished = false

    /// - Parameters:
    ///   - label: what is being done ("indexing").
    ///   - unit: what is counted ("docs").
    ///   - quiet: print nothing.
    ///   - alreadyDone: units a resumed run finds done: the rate and ETA count only this run's work (a resumed
    ///     re-embed said "71489 chunks/s, ETA 0:00" counting what it resumed).
    init(label: String, unit: String, quiet: Bool = false, alreadyDone: Int = 0) {
        self.label = label
        self.unit = unit
        self.alreadyDone = alreadyDone
        self.isTerminal = !quiet && isatty(STDERR_FILENO) == 1
        self.quiet = quiet
    }

    private let quiet: Bool
    private let alreadyDone: Int

    private var latest = (done: 0, total: 0)

    /// The last `done` and `total` reported (printed or not): what a stopped command says it kept.
    var reported: (done: Int, total: Int) { lock.withLock { latest } }

    /// Reports `done` of `total` units.
    func update(done: Int, total: Int) {
        lock.lock()
        defer { lock.unlock() }
        latest = (done, total)
        guard !quiet, !finished else { return }
        let now = Date()
        let elapsed = now.timeIntervalSince(start)
        let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 1
        let (rate, eta) = Self.pace(done: done, total: total, alreadyDone: alreadyDone, elapsed: elapsed)
        if isTerminal {
            guard now.timeIntervalSince(lastPrint) >= 0.1 || done >= total else { return }
            lastPrint = now
            let width = 30
            let filled = Int(fraction * Double(width))
            let bar =
                String(repeating: "=", count: filled) + (filled < width ? ">" : "")
                + String(repeating: " ", count: max(0, width - filled - 1))
            let line = "\r\(label) [\(bar)] \(done)/\(total) \(unit)  \(Self.format(rate))/s  ETA \(Self.clock(eta))  "
            FileHandle.standardError.write(Data(line.utf8))
        } else {
            // Plain lines: at most one per 10 % or per 5 seconds.
            guard fraction - lastPlainFraction >= 0.1 || now.timeIntervalSince(lastPrint) >= 5 || done >= total else {
                return
            }
            lastPrint = now
            lastPlainFraction = fraction
            let line =
                "\(label): \(done)/\(total) \(unit) (\(Int(fraction * 100))%), \(Self.format(rate)) \(unit)/s, ETA \(Self.clock(eta))\n"
            FileHandle.standardError.write(Data(line.utf8))
        }
    }

    /// Units per second and seconds left, counting only the units done in `elapsed` seconds: those past
    /// `alreadyDone` (a resumed run's).
    ///
    /// ```swift
    /// ProgressReporter.pace(done: 71_489, total: 80_000, alreadyDone: 71_000, elapsed: 2)  // (244.5, 34.8)
    /// ```
    static func pace(done: Int, total: Int, alreadyDone: Int, elapsed: TimeInterval) -> (rate: Double, eta: Double) {
        let rate = elapsed > 0 ? Double(max(0, done - alreadyDone)) / elapsed : 0
        let eta = rate > 0 ? Double(total - done) / rate : (done >= total ? 0 : .infinity)
        return (rate, eta)
    }

    /// Ends the bar line.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        guard !finished else { return }
        finished = true
        if isTerminal { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    static func format(_ rate: Double) -> String {
        rate >= 100 ? String(Int(rate)) : String(format: "%.1f", rate)
    }

    static func clock(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "--:--" }
        let s = Int(seconds.rounded())
        return s >= 3600
            ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}
