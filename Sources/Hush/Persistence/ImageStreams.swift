import Foundation

// The byte streams a memory image is written to and read from. The file's side cuts them into blocks
// (MemoryImageTable.swift); the image's format is the memory's (Memory/StoreMemory+Image.swift).

/// Where a memory image's bytes go (the persistence part cuts them into blocks).
protocol ImageOutput: AnyObject {
    func write(_ bytes: UnsafeRawBufferPointer) throws
}

/// Where a memory image's bytes come from, in the order they were written.
protocol ImageInput: AnyObject {
    /// Fills `target` entirely, or throws ``ImageError/truncated``.
    func read(into target: UnsafeMutableRawBufferPointer) throws
    /// The bytes left to read: every count the image records is checked against it before anything is
    /// allocated for it, so a damaged count is refused instead of reserving gigabytes.
    var remaining: Int { get }
}

/// Why a saved image cannot be used (the store then loads from its tables and saves a new one).
enum ImageError: Error, Equatable {
    case truncated
    case malformed(String)
    /// Sound, but the store's options choose another index for its rows.
    case unused
}
