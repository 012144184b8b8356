import Foundation
import HushKernels

/// What the encoder runs on: the CPU, the instruction-set level of Hush's kernels, and the BLAS library (used
/// for attention and for matrices that are not packed), for benchmark reports and `hush model info`.
///
/// ```swift
/// print(ComputeInfo.cpu, ComputeInfo.kernels, ComputeInfo.blas)  // "AMD EPYC avx2 OpenBLAS (Haswell)"
/// ```
public enum ComputeInfo {
    /// The kernels' level: `scalar`, `avx2`, `avx512` (with `+vnni` when the int8 kernels use it) or `neon`.
    public static var kernels: String {
        String(cString: hush_kernels_level_name(hush_kernels_level())) + (hush_kernels_has_vnni() != 0 ? "+vnni" : "")
    }

    /// The BLAS library and, for OpenBLAS, the kernels it chose (`OpenBLAS (Haswell)`); loads it if needed.
    public static var blas: String {
        try? BLAS.prepare()
        return BLAS.description
    }

    /// The CPU's model name (`/proc/cpuinfo` on Linux, `machdep.cpu.brand_string` on Apple platforms), or
    /// `unknown`.
    public static var cpu: String {
        #if canImport(Darwin)
            var size = 0
            guard sysctlbyname("machdep.cpu.brand_string", nil, &size, nil, 0) == 0, size > 0 else { return "unknown" }
            var bytes = [CChar](repeating: 0, count: size)
            guard sysctlbyname("machdep.cpu.brand_string", &bytes, &size, nil, 0) == 0 else { return "unknown" }
            return String(cString: bytes)
        #else
            guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown" }
            for line in text.split(separator: "\n") where line.hasPrefix("model name") {
                if let colon = line.firstIndex(of: ":") {
                    return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
            }
            return "unknown"
        #endif
    }
}
