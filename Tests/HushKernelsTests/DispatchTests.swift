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
