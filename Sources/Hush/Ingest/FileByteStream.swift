import Foundation

/// A file could not be opened or read to its end.
struct FileReadError: Error {
    var message: String
}

/// Reads a file in fixed-size blocks, so that large files are never held in memory at once.
enum FileByteStream {
    static let blockSize = 1 << 20

    /// Calls `body` with each block of the file, in order.
    static func forEachBlock(_ url: URL, blockSize: Int = blockSize, _ body: ([UInt8]) throws -> Void) throws {
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw FileReadError(message: "cannot be opened: \(error.localizedDescription)")
        }
        defer { try? handle.close() }
        while true {
            let data: Data?
            do {
                data = try handle.read(upToCount: blockSize)
            } catch {
                throw FileReadError(message: "read failed: \(error.localizedDescription)")
            }
            guard let data, !data.isEmpty else { break }
            try body([UInt8](data))
        }
    }

    /// Calls `body` with each line of the file (without its `\n` or `\r\n`) and its 1-based number.
    static func forEachLine(_ url: URL, _ body: (ArraySlice<UInt8>, Int) throws -> Void) throws {
        var pending: [UInt8] = []
        var lineNumber = 0
        func finish(_ line: ArraySlice<UInt8>) throws {
            lineNumber += 1
            var line = line
            if line.last == 0x0D { line = line.dropLast() }
            try body(line, lineNumber)
        }
        try forEachBlock(url) { block in
            var start = block.startIndex
            while let newline = block[start...].firstIndex(of: 0x0A) {
                if pending.isEmpty {
                    try finish(block[start..<newline])
                } else {
                    pending.append(contentsOf: block[start..<newline])
                    try finish(pending[...])
                    pending.removeAll(keepingCapacity: true)
                }
                start = newline + 1
            }
            pending.append(contentsOf: block[start...])
        }
        if !pending.isEmpty { try finish(pending[...]) }
    }
}
