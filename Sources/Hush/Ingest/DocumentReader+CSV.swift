import Foundation

extension DocumentReader {
    /// Reads a CSV file with a header row, streaming; bad rows are skipped with their line number.
    func readCSV(_ file: InputFile, skip: (SkippedInput) -> Void, emit: (Document) throws -> Void) throws {
        let path = file.url.path
        var parser = CSVParser()
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
                    names.append(name.trimmingCharacters(in: .whitespaces))
                }
                guard names.contains(where: { RawRecord.key($0) == .text }) else {
                    skip(
                        SkippedInput(
                            path: path, line: line,
                            reason:
                                "header row has no text, body or content column (found: \(names.joined(separator: ", ")))"
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
                    skip(SkippedInput(path: path, line: line, reason: "row is not valid UTF-8"))
                    return
                }
                record.set(key: name, string: value)
            }
            switch record.document(defaultSourceType: sourceType) {
            case .success(let document): try emit(document)
            case .failure(let reason): skip(SkippedInput(path: path, line: line, reason: reason.message))
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
                try parser.consume(block) { fields, line in try handle(fields, line: line) }
            }
            if !stop, let line = try parser.finish(record: { fields, line in try handle(fields, line: line) }) {
                skip(SkippedInput(path: path, line: line, reason: "quoted field is never closed"))
            }
        } catch let error as FileReadError {
            skip(SkippedInput(path: path, reason: error.message))
            return
        }
        if header == nil && !stop {
            skip(SkippedInput(path: path, reason: "empty file"))
        }
    }
}
