import Foundation
import HushEmbedding

/// A file could not be opened or read to its end.
struct FileReadError: Error {
    var message: String
}

/// Reads a file in fixed-size blocks, so that large files are never held in memory at once.
enum FileByteStream {
    static let blockSize = 1 << 20

    /// Calls `body` with each block of the file, in order.
    static func forEachBlock(_ url: URL, blockSize: Int = blockSize, _ body: ([UInt8]) throws -> Void) throws {
        let handle = try open(url)
        defer { try? handle.close() }
        while let data = try read(handle, upTo: blockSize), !data.isEmpty {
            // A cancelled read stops between blocks (a megabyte apart), whatever the file holds.
            try CancellationFlag.checkCurrent()
            try body([UInt8](data))
        }
    }

    /// The file opened for reading, or a ``FileReadError`` that says why not.
    private static func open(_ url: URL) throws -> FileHandle {
        do {
            return try FileHandle(forReadingFrom: url)
        } catch {
            throw FileReadError(message: "cannot be opened: \(error.localizedDescription)")
        }
    }

    /// Up to `count` bytes from `handle` (`nil` or empty at the end), or a ``FileReadError``.
    private static func read(_ handle: FileHandle, upTo count: Int) throws -> Data? {
        do {
            return try handle.read(upToCount: count)
        } catch {
            throw FileReadError(message: "read failed: \(error.localizedDescription)")
        }
    }

    /// Calls `body` with each block of the file as UTF-8: a file that starts with a UTF-16 byte-order mark
    /// (little- or big-endian) is transcoded, block by block; any other file is passed on as it is.
    static func forEachTextBlock(_ url: URL, blockSize: Int = blockSize, _ body: ([UInt8]) throws -> Void) throws {
        var transcoder: UTF16Transcoder?
        var first = true
        try forEachBlock(url, blockSize: blockSize) { block in
            var text = block[...]
            if first {
                first = false
                transcoder = UTF16Transcoder(byteOrderMarkOf: block)
                if transcoder != nil { text = block.dropFirst(2) }
            }
            guard transcoder != nil else { return try body(block) }
            var out: [UInt8] = []
            transcoder?.transcode(text, into: &out)
            try body(out)
        }
        var tail: [UInt8] = []
        transcoder?.finish(into: &tail)
        if !tail.isEmpty { try body(tail) }
    }

    /// The first `count` bytes of a file (fewer when it is shorter), for telling text from binary.
    static func prefix(_ url: URL, count: Int = 8192) throws -> [UInt8] {
        let handle = try open(url)
        defer { try? handle.close() }
        return [UInt8](try read(handle, upTo: count) ?? Data())
    }

    /// Whether the start of a file looks like binary data rather than text with a stray NUL byte: it holds NUL
    /// bytes and is either not UTF-8 (a PNG, compressed data) or at least 10 % NUL (a zeroed file, UTF-16
    /// without a byte-order mark). Text that starts with a UTF-16 byte-order mark is never binary. A text
    /// file with a NUL here and there is text: its readers skip the records that hold one.
    static func looksBinary(_ prefix: ArraySlice<UInt8>) -> Bool {
        guard UTF16Transcoder(byteOrderMarkOf: prefix) == nil else { return false }
        let nuls = prefix.reduce(0) { $0 + ($1 == 0 ? 1 : 0) }
        guard nuls > 0 else { return false }
        if nuls * 10 >= prefix.count { return true }
        // A multi-byte character cut by the end of the prefix is not a fault.
        for cut in 0...min(3, prefix.count) where String(validUTF8: prefix.dropLast(cut)) != nil { return false }
        return true
    }

    /// The most bytes one record (a JSON line) may hold, as a text file: a longer one is skipped as it streams
    /// past, never held (a 200 MB line took 2.6 GB and 240 s before it was refused).
    static let maximumRecordBytes = Int(DocumentReader.maxTextFileBytes)

    /// Why a record over ``maximumRecordBytes`` was skipped, as the JSON Lines and CSV readers say it.
    static let recordTooLarge = "record too large (over \(maximumRecordBytes >> 20) MiB): split it into smaller records"

    /// Calls `body` with each line of the file (without its `\n` or `\r\n`) and its 1-based number; a UTF-16
    /// file (with its byte-order mark) is read as UTF-8. A line longer than `maximumLineBytes` is not kept:
    /// `overlong` gets its number instead.
    static func forEachLine(
        _ url: URL, maximumLineBytes: Int = maximumRecordBytes, overlong: (Int) -> Void = { _ in },
        _ body: (ArraySlice<UInt8>, Int) throws -> Void
    ) throws {
        var pending: [UInt8] = []
        var skipping = false
        var lineNumber = 0
        func finish(_ line: ArraySlice<UInt8>) throws {
            lineNumber += 1
            if skipping {
                skipping = false
                overlong(lineNumber)
                return
            }
            var line = line
            if line.last == 0x0D { line = line.dropLast() }
            try body(line, lineNumber)
        }
        func keep(_ bytes: ArraySlice<UInt8>) {
            guard !skipping else { return }
            if pending.count + bytes.count > maximumLineBytes {
                skipping = true
                pending = []
            } else {
                pending.append(contentsOf: bytes)
            }
        }
        try forEachTextBlock(url) { block in
            var start = block.startIndex
            while let newline = block[start...].firstIndex(of: 0x0A) {
                if pending.isEmpty && !skipping {
                    try finish(block[start..<newline])
                } else {
                    keep(block[start..<newline])
                    try finish(pending[...])
                    pending.removeAll(keepingCapacity: true)
                }
                start = newline + 1
            }
            keep(block[start...])
        }
        if !pending.isEmpty || skipping { try finish(pending[...]) }
    }
}

/// Turns UTF-16 (the byte order its byte-order mark named) into UTF-8, a block at a time: a byte or a high
/// surrogate left at the end of one block waits for the next. Unpaired surrogates and a final odd byte become
/// U+FFFD, as a text editor shows them.
struct UTF16Transcoder {
    let bigEndian: Bool
    private var pendingByte: UInt8?
    private var pendingHigh: UInt16?

    /// A transcoder for text that starts with a UTF-16 byte-order mark (FF FE or FE FF), or nil.
    init?(byteOrderMarkOf bytes: some Collection<UInt8>) {
        var iterator = bytes.makeIterator()
        guard let first = iterator.next(), let second = iterator.next() else { return nil }
        switch (first, second) {
        case (0xFF, 0xFE): bigEndian = false
        case (0xFE, 0xFF): bigEndian = true
        default: return nil
        }
    }

    mutating func transcode(_ bytes: ArraySlice<UInt8>, into out: inout [UInt8]) {
        out.reserveCapacity(out.count + bytes.count * 3 / 2)
        var index = bytes.startIndex
        if let byte = pendingByte, index < bytes.endIndex {
            pendingByte = nil
            unit(
                bigEndian ? UInt16(byte) << 8 | UInt16(bytes[index]) : UInt16(bytes[index]) << 8 | UInt16(byte),
                into: &out)
            index += 1
        }
        while index + 1 < bytes.endIndex {
            let a = UInt16(bytes[index]), b = UInt16(bytes[index + 1])
            unit(bigEndian ? a << 8 | b : b << 8 | a, into: &out)
            index += 2
        }
        if index < bytes.endIndex { pendingByte = bytes[index] }
    }

    mutating func finish(into out: inout [UInt8]) {
        if pendingHigh != nil || pendingByte != nil { append(0xFFFD, to: &out) }
        pendingHigh = nil
        pendingByte = nil
    }

    private mutating func unit(_ unit: UInt16, into out: inout [UInt8]) {
        if let high = pendingHigh {
            pendingHigh = nil
            if (0xDC00...0xDFFF).contains(unit) {
                append(0x10000 + (UInt32(high - 0xD800) << 10) + UInt32(unit - 0xDC00), to: &out)
                return
            }
            append(0xFFFD, to: &out)
        }
        switch unit {
        case 0xD800...0xDBFF: pendingHigh = unit
        case 0xDC00...0xDFFF: append(0xFFFD, to: &out)
        default: append(UInt32(unit), to: &out)
        }
    }

    private func append(_ scalar: UInt32, to out: inout [UInt8]) {
        switch scalar {
        case ..<0x80:
            out.append(UInt8(scalar))
        case ..<0x800:
            out.append(contentsOf: [UInt8(0xC0 | scalar >> 6), UInt8(0x80 | scalar & 0x3F)])
        case ..<0x10000:
            out.append(contentsOf: [
                UInt8(0xE0 | scalar >> 12), UInt8(0x80 | scalar >> 6 & 0x3F), UInt8(0x80 | scalar & 0x3F),
            ])
        default:
            out.append(contentsOf: [
                UInt8(0xF0 | scalar >> 18), UInt8(0x80 | scalar >> 12 & 0x3F), UInt8(0x80 | scalar >> 6 & 0x3F),
                UInt8(0x80 | scalar & 0x3F),
            ])
        }
    }
}
