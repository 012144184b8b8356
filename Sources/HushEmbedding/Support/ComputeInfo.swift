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

    /// The CPU's model name (`/proc/cpuinfo` on Linux, `machdep.cpu.brand_string` on Apple platforms), followed
    /// on x86 Linux by the core design its family and model numbers name, or `unknown`.
    ///
    /// Virtual machines often report a bare brand (`AMD EPYC`) for cores as different as Zen 1, whose 256-bit
    /// instructions run as two 128-bit halves, and Zen 4: `AMD EPYC (Zen 2; family 23, model 49)` says which.
    public static var cpu: String {
        #if canImport(Darwin)
            var size = 0
            guard sysctlbyname("machdep.cpu.brand_string", nil, &size, nil, 0) == 0, size > 0 else { return "unknown" }
            var bytes = [CChar](repeating: 0, count: size)
            guard sysctlbyname("machdep.cpu.brand_string", &bytes, &size, nil, 0) == 0 else { return "unknown" }
            return String(cString: bytes)
        #else
            guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown" }
            return describeCPU(cpuinfo: text)
        #endif
    }

    /// The description ``cpu`` gives for the text of `/proc/cpuinfo`: the first value of each field, which is
    /// the first processor's (some ARM kernels name the CPU once, after the processors).
    ///
    /// ```swift
    /// ComputeInfo.describeCPU(cpuinfo: "vendor_id : AuthenticAMD\ncpu family : 23\nmodel : 1\nmodel name : AMD EPYC")
    /// // "AMD EPYC (Zen; family 23, model 1)"
    /// ```
    public static func describeCPU(cpuinfo: String) -> String {
        var fields: [String: String] = [:]
        for line in cpuinfo.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces)
            if fields[key] == nil {
                fields[key] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        guard let name = fields["model name"] ?? fields["Processor"] ?? fields["cpu model"] else { return "unknown" }
        guard let vendor = fields["vendor_id"], let family = fields["cpu family"].flatMap({ Int($0) }),
            let model = fields["model"].flatMap({ Int($0) })
        else { return name }
        let numbers = "family \(family), model \(model)"
        if let design = x86CoreDesign(vendor: vendor, family: family, model: model) {
            return "\(name) (\(design); \(numbers))"
        }
        return "\(name) (\(numbers))"
    }

    /// The core design an x86 vendor's family and model numbers name, where Hush knows it (AMD's Zen
    /// generations); `nil` otherwise.
    ///
    /// ```swift
    /// ComputeInfo.x86CoreDesign(vendor: "AuthenticAMD", family: 0x17, model: 0x31)  // "Zen 2"
    /// ```
    public static func x86CoreDesign(vendor: String, family: Int, model: Int) -> String? {
        guard vendor == "AuthenticAMD" else { return nil }
        switch (family, model) {
        case (0x17, 0x00...0x07), (0x17, 0x10...0x17), (0x17, 0x20...0x2F): return "Zen"
        case (0x17, 0x08...0x0F), (0x17, 0x18...0x1F): return "Zen+"
        case (0x17, 0x30...0xFF): return "Zen 2"
        case (0x19, 0x00...0x0F), (0x19, 0x20...0x5F): return "Zen 3"
        case (0x19, 0x10...0x1F), (0x19, 0x60...0xFF): return "Zen 4"
        case (0x1A, _): return "Zen 5"
        default: return nil
        }
    }
}
