import Foundation

extension DocumentReader {
    /// The deepest nesting of arrays and objects accepted in one JSON line.
    static let maximumJSONDepth = 32

    /// Reads a JSON Lines file line by line; bad lines are skipped with their line number.
    func readJSONLines(_ file: InputFile, skip: (SkippedInput) -> Void, emit: (Document) throws -> Void) throws {
        let path = file.url.path
        var sawContent = false
        do {
            // Binary data is told from text by the file's start; a NUL in a text file only costs its line.
            if FileByteStream.looksBinary(try FileByteStream.prefix(file.url)[...]) {
                skip(SkippedInput(path: path, reason: "binary file (contains NUL bytes)"))
                return
            }
            try FileByteStream.forEachLine(
                file.url,
                overlong: { number in
                    sawContent = true
                    skip(SkippedInput(path: path, line: number, reason: FileByteStream.recordTooLarge))
                }
            ) { line, number in
                let trimmed = Self.trimASCIIWhitespace(line)
                guard !trimmed.isEmpty else { return }
                sawContent = true
                if trimmed.contains(0) {
                    skip(SkippedInput(path: path, line: number, reason: "line contains NUL bytes"))
                    return
                }
                switch jsonRecord(trimmed, file: file, line: number) {
                case .success(let document): try emit(document)
                case .failure(let reason): skip(SkippedInput(path: path, line: number, reason: reason.message))
                }
            }
        } catch let error as FileReadError {
            skip(SkippedInput(path: path, reason: error.message))
            return
        }
        if !sawContent {
            skip(SkippedInput(path: path, reason: "empty file"))
        }
    }

    static func trimASCIIWhitespace(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }),
            let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return bytes[bytes.startIndex..<bytes.startIndex] }
        var result = bytes[first...last]
        // A UTF-8 byte order mark at the start of the file.
        if result.starts(with: [0xEF, 0xBB, 0xBF]) { result = result.dropFirst(3) }
        return result
    }

    /// The nesting depth of arrays and objects in a JSON text (strings are skipped).
    static func jsonDepth(_ bytes: ArraySlice<UInt8>, limit: Int) -> Int {
        var depth = 0
        var deepest = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == 0x5C {
                    escaped = true
                } else if byte == 0x22 {
                    inString = false
                }
                continue
            }
            switch byte {
            case 0x22: inString = true
            case 0x5B, 0x7B:
                depth += 1
                deepest = max(deepest, depth)
                if deepest > limit { return deepest }
            case 0x5D, 0x7D: depth -= 1
            default: break
            }
        }
        return deepest
    }

    private func jsonRecord(_ bytes: ArraySlice<UInt8>, file: InputFile, line: Int) -> Result<Document, SkipReason> {
        guard String(validUTF8: bytes) != nil else {
            return .failure(SkipReason(message: "not valid UTF-8"))
        }
        guard Self.jsonDepth(bytes, limit: Self.maximumJSONDepth) <= Self.maximumJSONDepth else {
            return .failure(SkipReason(message: "JSON nested deeper than \(Self.maximumJSONDepth) levels"))
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
        } catch {
            return .failure(SkipReason(message: "malformed JSON"))
        }
        guard let dictionary = object as? [String: Any] else {
            return .failure(SkipReason(message: "not a JSON object"))
        }
        var record = RawRecord(fallbackID: "\(file.relativePath)#\(line)")
        for (key, value) in dictionary {
            record.set(key: key, json: value)
        }
        return record.document(defaultSourceType: sourceType)
    }
}
