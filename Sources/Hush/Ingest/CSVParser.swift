/// An incremental RFC 4180 CSV parser over bytes: quoted fields may hold commas, doubled quotes and line
/// breaks; CRLF and LF line ends are accepted. Fed block by block, it reports each record with the line
/// it starts on. Lenient where the RFC is strict: a quote inside an unquoted field is kept as a character,
/// and text after a closing quote is appended to the field.
struct CSVParser {
    /// The separator byte (`,`).
    let separator: UInt8
    private var line = 1
    private var recordStartLine = 1
    private var fields: [[UInt8]] = []
    private var field: [UInt8] = []
    private var inQuotes = false
    private var fieldWasQuoted = false
    private var quotePending = false

    /// The most bytes a record may hold: a longer one is not kept as it streams past (its starting line goes to
    /// ``takeOverlong()``), so one 200 MB record cannot take gigabytes.
    let maximumRecordBytes: Int
    private var recordBytes = 0
    private var overlong = false
    private var overlongLines: [Int] = []

    init(separator: UInt8 = UInt8(ascii: ","), maximumRecordBytes: Int = FileByteStream.maximumRecordBytes) {
        self.separator = separator
        self.maximumRecordBytes = maximumRecordBytes
    }

    /// The starting lines of the records found too long since the last call.
    mutating func takeOverlong() -> [Int] {
        defer { overlongLines.removeAll() }
        return overlongLines
    }

    /// Adds bytes to the current field, unless the record grew past the limit (then it is dropped whole).
    private mutating func keep(_ bytes: ArraySlice<UInt8>) {
        guard !overlong else { return }
        recordBytes += bytes.count
        if recordBytes > maximumRecordBytes {
            overlong = true
            field = []
            fields = []
        } else {
            field.append(contentsOf: bytes)
        }
    }

    /// Parses one block, calling `record` with each complete record's fields and starting line.
    mutating func consume(_ block: [UInt8], record: ([[UInt8]], Int) throws -> Void) rethrows {
        var index = block.startIndex
        let end = block.endIndex
        while index < end {
            if inQuotes {
                if quotePending {
                    quotePending = false
                    if block[index] == 0x22 {
                        keep([0x22])
                        index += 1
                        continue
                    }
                    // The quote closed the field; this byte is read as outside quotes below.
                    inQuotes = false
                } else {
                    // Copy up to the next quote in one go, counting line breaks on the way.
                    var stop = index
                    while stop < end, block[stop] != 0x22 {
                        if block[stop] == 0x0A { line += 1 }
                        stop += 1
                    }
                    keep(block[index..<stop])
                    if stop < end { quotePending = true }
                    index = stop + 1
                    continue
                }
            }
            let byte = block[index]
            switch byte {
            case separator:
                endField()
            case 0x0A:
                endField()
                try endRecord(record)
                line += 1
                recordStartLine = line
            case 0x22 where field.isEmpty && !fieldWasQuoted:
                inQuotes = true
                fieldWasQuoted = true
            default:
                // Copy the rest of an unquoted field in one go.
                var stop = index + 1
                while stop < end, block[stop] != separator, block[stop] != 0x0A, block[stop] != 0x22 { stop += 1 }
                keep(block[index..<stop])
                index = stop
                continue
            }
            index += 1
        }
    }

    /// Ends the input; returns the starting line of an unterminated quoted record (which is dropped),
    /// or `nil` when the input ended cleanly.
    mutating func finish(record: ([[UInt8]], Int) throws -> Void) rethrows -> Int? {
        if inQuotes && !quotePending {
            return recordStartLine
        }
        inQuotes = false
        quotePending = false
        if !field.isEmpty || !fields.isEmpty || fieldWasQuoted {
            endField()
            try endRecord(record)
        }
        return nil
    }

    private mutating func endField() {
        recordBytes += 1  // the separator: a record of a million empty fields counts too
        if !overlong { fields.append(field) }
        field = []
        fieldWasQuoted = false
    }

    private mutating func endRecord(_ record: ([[UInt8]], Int) throws -> Void) rethrows {
        defer { recordBytes = 0 }
        if overlong || recordBytes > maximumRecordBytes {
            overlong = false
            fields = []
            overlongLines.append(recordStartLine)
            return
        }
        if let last = fields.indices.last, fields[last].last == 0x0D {
            fields[last].removeLast()
        }
        let isBlank = fields.count == 1 && fields[0].isEmpty
        let current = fields
        fields = []
        if !isBlank { try record(current, recordStartLine) }
    }
}
