/// Per-scalar lookup tables for the BERT normalizer and pre-tokenizer, decoded once from
/// `BertUnicodeTables` (which is generated from the reference `tokenizers` library, so behaviour does not
/// depend on the Unicode version of the Swift runtime).
enum BertUnicode {
    static let removed: UInt8 = 1
    static let cleanToSpace: UInt8 = 2
    static let chinese: UInt8 = 4
    static let splitSpace: UInt8 = 8
    static let punctuation: UInt8 = 16
    static let stripChanges: UInt8 = 32
    static let lowerChanges: UInt8 = 64
    static let combining: UInt8 = 128

    static let scalarCount = 0x11_0000
    static let hangulFirst: UInt32 = 0xAC00
    static let hangulLast: UInt32 = 0xD7A3

    /// One flag byte per scalar value.
    static let flags: [UInt8] = {
        var table = [UInt8](repeating: 0, count: scalarCount)
        var runs: [(start: Int, flags: UInt8)] = []
        for item in BertUnicodeTables.flagRuns.split(whereSeparator: { $0 == "," || $0 == "\n" }) {
            let parts = item.split(separator: ":")
            guard parts.count == 2, let start = Int(parts[0], radix: 16), let value = UInt8(parts[1], radix: 16)
            else { continue }
            runs.append((start, value))
        }
        for (index, run) in runs.enumerated() {
            let end = index + 1 < runs.count ? runs[index + 1].start : scalarCount
            if run.flags != 0 && run.start < end {
                for scalar in run.start..<min(end, scalarCount) { table[scalar] = run.flags }
            }
        }
        return table
    }()

    /// A scalar-to-scalars mapping stored flat: `ranges[scalar]` indexes into `values`.
    struct Mapping: Sendable {
        var ranges: [UInt32: Range<Int>] = [:]
        var values: [UInt32] = []

        init(_ text: String) {
            for item in text.split(whereSeparator: { $0 == "," || $0 == "\n" }) {
                let parts = item.split(separator: ":", omittingEmptySubsequences: false)
                guard parts.count == 2, let key = UInt32(parts[0], radix: 16) else { continue }
                let start = values.count
                for value in parts[1].split(separator: ".") {
                    if let scalar = UInt32(value, radix: 16) { values.append(scalar) }
                }
                ranges[key] = start..<values.count
            }
        }
    }

    static let decompositions = Mapping(BertUnicodeTables.decompositions)
    static let lower = Mapping(BertUnicodeTables.lowerMappings)
    /// Canonical combining class of the scalars flagged `combining`.
    static let combiningClasses: [UInt32: UInt8] = {
        let mapping = Mapping(BertUnicodeTables.combiningClasses)
        var classes: [UInt32: UInt8] = [:]
        for (scalar, range) in mapping.ranges {
            if let value = mapping.values[range].first { classes[scalar] = UInt8(truncatingIfNeeded: value) }
        }
        return classes
    }()
}
