import Foundation
import Hush
import HushToolSupport

/// The lines that report skipped inputs in `hush index` and `hush build`: one per input, except that files
/// of a type Hush does not read are counted per extension when there are more than a few (a notes folder
/// with hundreds of pictures would otherwise bury the one note whose date could not be read); `hush index
/// --json` lists every one.
///
/// ```swift
/// for line in SkipReport.lines(skipped) { Console.out(line) }
/// // "  skipped 30 .png files: unsupported file type .png (expected …): attachments/img1.png, attachments/img10.png
/// //  and 28 more"
/// ```
enum SkipReport {
    /// How many files of one unread type are named one per line before they are counted instead.
    static let listedPerType = 3

    static func lines(_ skipped: [SkippedInput]) -> [String] {
        // Per skip, the extension of a file skipped for its type, else nil.
        let unreadKind = skipped.map { skip -> String? in
            let kind = URL(fileURLWithPath: skip.path).pathExtension.lowercased()
            return skip.line == nil && skip.reason == DocumentReader.unsupportedReason(kind) ? kind : nil
        }
        var unread: [String: [SkippedInput]] = [:]
        for (skip, kind) in zip(skipped, unreadKind) { if let kind { unread[kind, default: []].append(skip) } }
        let counted = unread.filter { $0.value.count > listedPerType }
        var lines: [String] = []
        var reported = Set<String>()
        for (skip, kind) in zip(skipped, unreadKind) {
            guard let kind, let group = counted[kind] else {
                lines.append(
                    "  skipped \(Console.escaped(skip.path))\(skip.line.map { ":\($0)" } ?? ""): \(skip.reason)")
                continue
            }
            guard reported.insert(kind).inserted else { continue }
            let files = kind.isEmpty ? "files without an extension" : ".\(kind) files"
            let examples = group.prefix(2).map { Console.escaped($0.path) }.joined(separator: ", ")
            lines.append("  skipped \(group.count) \(files): \(skip.reason): \(examples) and \(group.count - 2) more")
        }
        return lines
    }
}
