import HushKernels
import Testing

/// Every kernel suite hangs off this one so they run one at a time: they force kernel levels, which are global.
@Suite(.serialized) struct HushKernelsTests {}

/// The odd and even sizes every kernel is held to, from empty to longer than any real embedding.
let kernelSizes = [0, 1, 7, 15, 16, 17, 63, 384, 1000, 1536]

/// Every level (the ones this CPU lacks are skipped by `forEachSupportedLevel`).
let allLevels = [
    HUSH_LEVEL_SCALAR, HUSH_LEVEL_NEON, HUSH_LEVEL_NEON_DOTPROD, HUSH_LEVEL_NEON_I8MM, HUSH_LEVEL_AVX2,
    HUSH_LEVEL_AVX512,
]

/// The name of a level, for failure messages.
func levelName(_ level: hush_level) -> String { String(cString: hush_kernels_level_name(level)) }

/// Runs `body` with each level this CPU supports forced in turn, then restores the level that was in use.
func forEachSupportedLevel(_ body: (hush_level) throws -> Void) rethrows {
    let previous = hush_kernels_level()
    defer { _ = hush_kernels_set_level(previous) }
    for level in allLevels where hush_kernels_set_level(level) == 0 {
        try body(level)
    }
}

/// Largest absolute difference between two equally long arrays (0 when empty).
func maxAbsDifference(_ a: [Float], _ b: [Float]) -> Float {
    zip(a, b).reduce(0) { max($0, abs($1.0 - $1.1)) }
}

/// The elements of `values` in order, without repeats.
func uniqued(_ values: [Int]) -> [Int] {
    var seen: [Int] = []
    for value in values where !seen.contains(value) { seen.append(value) }
    return seen
}
