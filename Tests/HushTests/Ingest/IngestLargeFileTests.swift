import Foundation
import HushTestSupport
import Testing

@testable import Hush

/// Peak resident memory of this process in kB (Linux), or `nil` elsewhere.
func peakResidentKilobytes() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }
    return nil
}

/// Reads 50 MB JSON Lines and CSV files; run with `HUSH_LARGE_TESTS=1` (slow in debug builds).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["HUSH_LARGE_TESTS"] != nil))
struct IngestLargeFileTests {
    @Test func fiftyMegabyteFilesStreamInBoundedMemory() throws {
        let folder = try TemporaryDirectory()
        let sentence = "Notes from the weekly planning call about budgets, hiring and the spring release. "
        let jsonlURL = folder.url.appendingPathComponent("big.jsonl")
        let csvURL = folder.url.appendingPathComponent("big.csv")
        _ = FileManager.default.createFile(atPath: jsonlURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: csvURL.path, contents: nil)
        let jsonl = try FileHandle(forWritingTo: jsonlURL)
        let csv = try FileHandle(forWritingTo: csvURL)
        csv.write(Data("id,title,text,tags\n".utf8))
        var records = 0
        var written = 0
        while written < 50_000_000 {
            let body = String(repeating: sentence, count: 6)
            let line = #"{"id":"r\#(records)","title":"Call \#(records)","text":"\#(body)","tags":["work"]}"# + "\n"
            jsonl.write(Data(line.utf8))
            csv.write(Data("r\(records),Call \(records),\"\(body)\",work\n".utf8))
            written += line.utf8.count
            records += 1
        }
        try jsonl.close()
        try csv.close()
        let before = peakResidentKilobytes() ?? 0
        var count = 0
        var checksum = 0
        var skipped: [SkippedInput] = []
        var timings: [String] = []
        for url in [jsonlURL, csvURL] {
            let started = Date()
            skipped += try DocumentReader().read([url], batchSize: 512) { batch in
                count += batch.count
                checksum += batch.reduce(0) { $0 + $1.body.utf8.count }
            }
            timings.append("\(url.lastPathComponent) \(Date().timeIntervalSince(started)) s")
        }
        let after = peakResidentKilobytes() ?? 0
        print(
            "large ingest: \(2 * records) records, \(2 * written / 1_000_000) MB, \(timings), peak RSS +\(after - before) kB"
        )
        #expect(skipped.isEmpty)
        #expect(count == 2 * records)
        #expect(checksum > 80_000_000)
        if before > 0 { #expect(after - before < 64_000) }
    }
}
