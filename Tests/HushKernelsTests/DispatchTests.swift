import Foundation
import HushKernels
import Testing

extension HushKernelsTests {
    /// Level selection: what is reported, what can be forced, what is refused.
    @Suite struct Dispatch {
        @Test func levelNames() {
            #expect(levelName(HUSH_LEVEL_SCALAR) == "scalar")
            #expect(levelName(HUSH_LEVEL_NEON) == "neon")
            #expect(levelName(HUSH_LEVEL_AVX2) == "avx2")
            #expect(levelName(HUSH_LEVEL_AVX512) == "avx512")
            #expect(levelName(HUSH_LEVEL_NEON_DOTPROD) == "dotprod")
            #expect(levelName(HUSH_LEVEL_NEON_I8MM) == "i8mm")
        }

        /// The scalar level and the best level can always be forced, and the forced level is the one reported.
        @Test func forcingSupportedLevels() {
            let previous = hush_kernels_level()
            defer { _ = hush_kernels_set_level(previous) }
            #expect(hush_kernels_set_level(HUSH_LEVEL_SCALAR) == 0)
            #expect(hush_kernels_level() == HUSH_LEVEL_SCALAR)
            #expect(hush_kernels_has_vnni() == 0)
            let best = hush_kernels_best_level()
            #expect(hush_kernels_set_level(best) == 0)
            #expect(hush_kernels_level() == best)
        }

        /// A halved AVX-512 is reported for AMD's family 25 with AVX-512 (Zen 4) and nowhere else, as the kernel's
        /// own /proc/cpuinfo reads the CPU (Linux); it does not depend on the level in use.
        @Test func avx512HalvedFollowsTheCPU() throws {
            #if os(Linux) && arch(x86_64)
                let info = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
                let first = info.components(separatedBy: "\n\n")[0].split(separator: "\n")
                func field(_ name: String) -> String {
                    let line = first.first {
                        $0.hasPrefix(name) && $0.dropFirst(name.count).first { $0 != " " && $0 != "\t" } == ":"
                    }
                    return line.map {
                        String($0.split(separator: ":", maxSplits: 1)[1]).trimmingCharacters(in: .whitespaces)
                    } ?? ""
                }
                let zen4 =
                    field("vendor_id") == "AuthenticAMD" && field("cpu family") == "25"
                    && field("flags").split(separator: " ").contains("avx512f")
                let previous = hush_kernels_level()
                defer { _ = hush_kernels_set_level(previous) }
                for level in [HUSH_LEVEL_SCALAR, hush_kernels_best_level()] {
                    #expect(hush_kernels_set_level(level) == 0)
                    #expect(hush_kernels_avx512_halved() == (zen4 ? 1 : 0))
                }
            #else
                #expect(hush_kernels_avx512_halved() == 0)
            #endif
        }

        /// Levels of the other architecture, and values outside the enum, are refused and change nothing.
        @Test func refusingUnsupportedLevels() {
            let previous = hush_kernels_level()
            defer { _ = hush_kernels_set_level(previous) }
            #expect(hush_kernels_set_level(HUSH_LEVEL_SCALAR) == 0)
            #if arch(x86_64)
                #expect(hush_kernels_set_level(HUSH_LEVEL_NEON) == -1)
                #expect(hush_kernels_set_level(HUSH_LEVEL_NEON_DOTPROD) == -1)
                #expect(hush_kernels_set_level(HUSH_LEVEL_NEON_I8MM) == -1)
            #elseif arch(arm64)
                let armLevels = [HUSH_LEVEL_NEON, HUSH_LEVEL_NEON_DOTPROD, HUSH_LEVEL_NEON_I8MM]
                #expect(armLevels.contains(hush_kernels_best_level()))
                #expect(hush_kernels_set_level(HUSH_LEVEL_AVX2) == -1)
                #expect(hush_kernels_set_level(HUSH_LEVEL_AVX512) == -1)
            #endif
            #expect(hush_kernels_set_level(hush_level(rawValue: 7)) == -1)
            #expect(hush_kernels_level() == HUSH_LEVEL_SCALAR)
        }

        /// The reported best level is one that works, and every level at or below it on this architecture does too.
        @Test func bestLevelIsSupported() {
            let previous = hush_kernels_level()
            defer { _ = hush_kernels_set_level(previous) }
            let best = hush_kernels_best_level()
            #if arch(x86_64)
                for level in [HUSH_LEVEL_SCALAR, HUSH_LEVEL_AVX2, HUSH_LEVEL_AVX512]
                where level.rawValue <= best.rawValue {
                    #expect(hush_kernels_set_level(level) == 0, "\(levelName(level))")
                }
                if best == HUSH_LEVEL_AVX512 {
                    // VNNI is reported only while the AVX-512 level is in use.
                    #expect(hush_kernels_set_level(HUSH_LEVEL_AVX2) == 0)
                    #expect(hush_kernels_has_vnni() == 0)
                }
            #elseif arch(arm64)
                for level in [HUSH_LEVEL_SCALAR, HUSH_LEVEL_NEON, HUSH_LEVEL_NEON_DOTPROD, HUSH_LEVEL_NEON_I8MM]
                where level.rawValue <= best.rawValue {
                    #expect(hush_kernels_set_level(level) == 0, "\(levelName(level))")
                }
            #endif
            #expect(hush_kernels_set_level(best) == 0)
        }
    }
}
