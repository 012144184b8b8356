import Foundation

/// Size and modification time of a file from stat(2). `FileManager.attributesOfItem` also looks up the
/// owner's name, which on Linux asks the name service (nscd) through a socket; Hush opens no socket.
/// Shared with the `Hush` target (package access).
package enum FileStatus {
    /// The file's size in bytes, or `nil` when it cannot be read.
    package static func size(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }

    /// The file's modification time, or `nil` when it cannot be read.
    package static func modified(_ path: String) -> Date? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
            let time = info.st_mtimespec
        #else
            let time = info.st_mtim
        #endif
        return Date(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000)
    }
}
