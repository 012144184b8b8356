import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A model file, read with positioned reads and never memory-mapped: the one way model files are opened.
///
/// A mapped file that is truncated or rewritten while a process uses it ends that process with SIGBUS at the
/// next read of a page it lost. Read through a descriptor, the same change is a short read, or a new size or
/// modification time, and so an ``EmbeddingError/modelChanged(path:reason:)`` naming the file. The layers are
/// read into memory at load; what stays in the file (the word table) is read a row at a time, and each batch
/// checks first that the file is still the one loaded.
///
/// ```swift
/// let file = try ModelFile(path: path, minimumSize: 8, header: "a safetensors header")
/// var length: UInt64 = 0
/// try file.read(at: 0, count: 8, into: &length)
/// ```
final class ModelFile: @unchecked Sendable {
    // Sendable: the descriptor and the recorded status never change after init; pread is thread-safe.
    /// The path the file was opened at.
    let path: String
    /// The file's size in bytes when it was opened.
    let size: Int
    private let descriptor: Int32
    private let stamp: Stamp

    /// What identifies the file's contents cheaply: a change of any means it was rewritten.
    private struct Stamp: Equatable {
        var size: Int
        var seconds: Int
        var nanoseconds: Int

        init?(_ descriptor: Int32) {
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { return nil }
            size = Int(info.st_size)
            #if canImport(Darwin)
                seconds = Int(info.st_mtimespec.tv_sec)
                nanoseconds = Int(info.st_mtimespec.tv_nsec)
            #else
                seconds = Int(info.st_mtim.tv_sec)
                nanoseconds = Int(info.st_mtim.tv_nsec)
            #endif
        }
    }

    /// Opens `path` for reading.
    ///
    /// - Throws: `EmbeddingError.modelNotFound` when it cannot be opened, `.corruptModel` when it is not a
    ///   regular file or is shorter than `minimumSize` (naming `header`, what needs those bytes).
    init(path: String, minimumSize: Int, header: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw EmbeddingError.modelNotFound(path: path) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, let stamp = Stamp(descriptor) else {
            close(descriptor)
            throw EmbeddingError.corruptModel(path: path, reason: "cannot read the file's status")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw EmbeddingError.corruptModel(path: path, reason: "not a regular file")
        }
        guard stamp.size >= minimumSize else {
            close(descriptor)
            throw EmbeddingError.corruptModel(
                path: path, reason: "file is \(stamp.size) bytes, too short for \(header)")
        }
        self.path = path
        self.descriptor = descriptor
        self.stamp = stamp
        self.size = stamp.size
    }

    deinit { close(descriptor) }

    /// Reads `count` bytes at `offset` into `buffer`.
    ///
    /// - Throws: ``EmbeddingError/modelChanged(path:reason:)`` when the file ends before them (it was truncated
    ///   since it was opened) or cannot be read.
    func read(at offset: Int, count: Int, into buffer: UnsafeMutableRawPointer) throws {
        precondition(offset >= 0 && count >= 0 && offset <= size - count, "ModelFile: read outside the file")
        var done = 0
        while done < count {
            let got = pread(descriptor, buffer + done, count - done, off_t(offset + done))
            if got > 0 {
                done += got
            } else if got < 0, errno == EINTR {
                continue
            } else {
                let reason =
                    got == 0
                    ? "it now has \(Stamp(descriptor)?.size ?? offset + done) bytes, it had \(size) when it was loaded"
                    : "reading it failed (\(String(cString: strerror(errno))))"
                throw EmbeddingError.modelChanged(path: path, reason: reason)
            }
        }
    }

    /// Reads `count` bytes at `offset` into a fresh buffer.
    func bytes(at offset: Int, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        try bytes.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            try read(at: offset, count: count, into: base)
        }
        return bytes
    }

    /// Reads one value of a trivial type at `offset`.
    func read<T: BitwiseCopyable>(at offset: Int, into value: inout T) throws {
        try withUnsafeMutableBytes(of: &value) { buffer in
            guard let base = buffer.baseAddress else { return }
            try read(at: offset, count: buffer.count, into: base)
        }
    }

    /// Checks that the file is still the one opened: the same size and modification time.
    ///
    /// - Throws: ``EmbeddingError/modelChanged(path:reason:)`` when it was rewritten or truncated.
    func checkUnchanged() throws {
        guard let now = Stamp(descriptor) else {
            throw EmbeddingError.modelChanged(path: path, reason: "its status can no longer be read")
        }
        guard now == stamp else {
            let reason =
                now.size == stamp.size
                ? "it was rewritten since it was loaded"
                : "it now has \(now.size) bytes, it had \(stamp.size) when it was loaded"
            throw EmbeddingError.modelChanged(path: path, reason: reason)
        }
    }
}

/// An owned, never-resized byte buffer with a stable, 64-byte-aligned address.
final class ByteStorage: @unchecked Sendable {
    // Sendable: written while a model loads, read-only after.
    let base: UnsafeMutableRawPointer
    let count: Int

    init(count: Int) {
        self.count = count
        base = .allocate(byteCount: max(count, 1), alignment: 64)
    }

    deinit { base.deallocate() }
}

/// The first bytes of a model file, read as far as a parser asks (doubling, so that a header read field by
/// field costs a few reads): what a parser walks instead of a mapping.
final class HeadBytes: @unchecked Sendable {
    // Sendable: grown while a file is parsed on one thread, read-only after.
    private(set) var base = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 16)
    private var loaded = 0

    /// Makes bytes `0..<end` of `file` readable at `base` (which may move).
    func load(upTo end: Int, from file: ModelFile) throws {
        guard end > loaded else { return }
        let target = min(file.size, max(end, 2 * loaded, 65_536))
        let grown = UnsafeMutableRawPointer.allocate(byteCount: target, alignment: 16)
        grown.copyMemory(from: base, byteCount: loaded)
        do {
            try file.read(at: loaded, count: target - loaded, into: grown + loaded)
        } catch {
            grown.deallocate()
            throw error
        }
        base.deallocate()
        base = grown
        loaded = target
    }

    deinit { base.deallocate() }
}
