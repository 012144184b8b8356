import Foundation

extension DocumentReader {
    /// Reads a CSV file with a header row, streaming; bad rows are skipped with their line number. The columns
    /// are separated as the header row shows (``csvSeparator(header:tabSeparated:)``).
    func readCSV(_ file: InputFile, skip: (SkippedInput) -> Void, emit: (Document) throws -> Void) throws {
        let path = file.url.path
        var parser: CSVParser?
        var header: [String]?
        var stop = false
        var sawBytes = false

        func handle(_ fields: [[UInt8]], line: Int) throws {
            guard !stop else { return }
            guard let columns = header else {
                var names: [String] = []
                for raw in fields {
                    guard var name = String(validUTF8: raw) else {
                        skip(SkippedInput(path: path, line: line, reason: "header row is not valid UTF-8"))
                        stop = true
                        return
                    }
                    if names.isEmpty && name.hasPrefix("\u{FEFF}") { name.removeFirst() }
                    // Each row's cells are filed under their column's name: a name of half a megabyte was hashed
                    // and trimmed again for every cell.
                    guard name.utf8.count <= Self.maximumColumnNameBytes else {
                        skip(
                            SkippedInput(
                                path: path, line: line,
                                reason: "a column name of \(name.utf8.count) bytes (at most "
                                    + "\(Self.maximumColumnNameBytes)): is the first row a header?"))
                        stop = true
                        return
                    }
                    names.append(name.trimmingCharacters(in: .whitespaces))
                }
                guard names.contains(where: { RawRecord.key($0) == .text }) else {
                    skip(
                        SkippedInput(
                            path: path, line: line,
                            reason:
                                "header row has no text, body or content column (found: \(names.joined(separator: ", "))"
                                + "; columns are separated by commas, semicolons or tabs)"
                        ))
                    stop = true
                    return
                }
                // Two columns for one field (text and body, say): one would silently replace the other.
                var columnByKey: [RawRecord.Key: String] = [:]
                for name in names {
                    guard let key = RawRecord.key(name), key != .metadata, key != .fields else { continue }
                    if let first = columnByKey[key] {
                        skip(
                            SkippedInput(
                                path: path, line: line,
                                reason: "columns \"\(first)\" and \"\(name)\" both give the document's \(key): "
                                    + "rename or remove one"))
                        stop = true
                        return
                    }
                    columnByKey[key] = name
                }
                header = names
                return
            }
            guard fields.count == columns.count else {
                skip(
                    SkippedInput(
                        path: path, line: line,
                        reason: "row has \(fields.count) fields, the header has \(columns.count)"))
                return
            }
            var record = RawRecord(fallbackID: "\(file.relativePath)#\(line)")
            for (name, raw) in zip(columns, fields) {
                if raw.contains(0) {
                    skip(SkippedInput(path: path, line: line, reason: "row contains NUL bytes"))
                    return
                }
                guard let value = String(validUTF8: raw) else {
                    skip(
                        SkippedInput(
                            path: path, line: line, reason: "row is not valid UTF-8: save the file as UTF-8 (CSV UTF-8)"
                        ))
                    return
                }
                record.set(key: name, string: value)
            }
            switch record.document(defaultSourceType: sourceType) {
            case .success(let document): try emit(document)
            case .failure(let reason): skip(SkippedInput(path: path, line: line, reason: reason.message))
            }
        }

        func reportOverlong() {
            for line in parser?.takeOverlong() ?? [] where !stop {
                skip(SkippedInput(path: path, line: line, reason: FileByteStream.recordTooLarge))
            }
        }

        do {
            try FileByteStream.forEachTextBlock(file.url) { block in
                guard !stop else { return }
                if !sawBytes {
                    sawBytes = true
                    if FileByteStream.looksBinary(block.prefix(8192)) {
                        skip(SkippedInput(path: path, reason: "binary file (contains NUL bytes)"))
                        stop = true
                        return
                    }
                }
                if parser == nil {
                    parser = CSVParser(separator: Self.csvSeparator(header: block, tabSeparated: file.kind == "tsv"))
                }
                try parser?.consume(block) { fields, line in try handle(fields, line: line) }
                reportOverlong()
            }
            if !stop, let line = try parser?.finish(record: { fields, line in try handle(fields, line: line) }) {
                skip(SkippedInput(path: path, line: line, reason: "quoted field is never closed"))
            }
            reportOverlong()
        } catch let error as FileReadError {
            skip(SkippedInput(path: path, reason: error.message))
            return
        }
        if header == nil && !stop {
            skip(SkippedInput(path: path, reason: "empty file"))
        }
    }

    /// The longest column name a CSV header may hold.
    static let maximumColumnNameBytes = 1_024

    /// The byte that separates a CSV file's columns, as its header row (the start of `header`) shows: a tab for
    /// a .tsv file; otherwise the first of comma, semicolon (what spreadsheets write where the decimal mark is a
    /// comma) and tab that splits the header into a text column and more than one column; a comma when none
    /// does (the missing text column is then reported).
    static func csvSeparator(header: [UInt8], tabSeparated: Bool) -> UInt8 {
        let tab = UInt8(ascii: "\t")
        if tabSeparated { return tab }
        var line = header.prefix { $0 != 0x0A }
        if line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
        for separator in [UInt8(ascii: ","), UInt8(ascii: ";"), tab] {
            let names = line.split(separator: separator, omittingEmptySubsequences: false).map { raw in
                String(decoding: raw, as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: " \r\"'"))
            }
            if names.count > 1 || separator == UInt8(ascii: ","),
                names.contains(where: { RawRecord.key($0) == .text })
            {
                return separator
            }
        }
        return UInt8(ascii: ",")
    }
}
