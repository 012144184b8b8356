import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A read-only memory mapping of a whole regular file: the one way model files are opened. The mapping
/// ends when the last reference goes (so a reader that throws halfway leaks nothing).
///
/// ```swift
/// let mapping = try MappedFile(path: path, minimumSize: 8, header: "a safetensors header")
/// ```
final class MappedFile: @unchecked Sendable {
    // Sendable: the mapping is read-only and never changes; it is unmapped in deinit only.
    /// The first byte.
    let base: UnsafeRawPointer
    /// The file's size in bytes.
    let size: Int

    /// Maps `path`.
    ///
    /// - Throws: `EmbeddingError.modelNotFound` when it cannot be opened, `.corruptModel` when it is not a
    ///   regular file, is shorter than `minimumSize` (naming `header`, what needs those bytes) or cannot be
    ///   mapped.
    init(path: String, minimumSize: Int, header: String) throws {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw EmbeddingError.modelNotFound(path: path) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw EmbeddingError.corruptModel(path: path, reason: "cannot stat the file")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw EmbeddingError.corruptModel(path: path, reason: "not a regular file")
        }
        let size = Int(info.st_size)
        guard size >= minimumSize else {
            throw EmbeddingError.corruptModel(path: path, reason: "file is \(size) bytes, too short for \(header)")
        }
        guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED else {
            throw EmbeddingError.corruptModel(path: path, reason: "cannot memory-map the file")
        }
        self.base = UnsafeRawPointer(mapped)
        self.size = size
    }

    /// Lets the system take back the pages read so far: they stay in the page cache and come back on the next
    /// read. For after a load that read everything once (packing the weights), so that the file's share of the
    /// resident memory is only what is read again.
    func releaseResidentPages() {
        _ = madvise(UnsafeMutableRawPointer(mutating: base), size, Int32(MADV_DONTNEED))
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: base), size)
    }
}
