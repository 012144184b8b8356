import Foundation

#if canImport(Darwin)
    import Darwin
#endif

/// The process's resident memory, as the operating system counts it (what decides whether a phone keeps an app).
public enum ResidentMemory {
    /// Resident bytes now and at the peak so far, or `nil` where the system does not say.
    ///
    /// ```swift
    /// if let memory = ResidentMemory.current() { print(memory.now, memory.peak) }
    /// ```
    public static func current() -> (now: Int, peak: Int)? {
        #if os(Linux)
            // /proc/self/status: "VmRSS:   12345 kB" and "VmHWM:   23456 kB".
            guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
            var now: Int?
            var peak: Int?
            for line in status.split(separator: "\n") {
                let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                guard fields.count >= 2, let kilobytes = Int(fields[1]) else { continue }
                if fields[0] == "VmRSS:" { now = kilobytes * 1024 }
                if fields[0] == "VmHWM:" { peak = kilobytes * 1024 }
            }
            guard let now, let peak else { return nil }
            return (now, peak)
        #elseif canImport(Darwin)
            var info = mach_task_basic_info()
            var count = mach_msg_type_number_t(MemoryLayout<mach_task_basic_info>.size / MemoryLayout<natural_t>.size)
            let result = withUnsafeMutablePointer(to: &info) { pointer in
                pointer.withMemoryRebound(to: integer_t.self, capacity: Int(count)) {
                    task_info(mach_task_self_, task_flavor_t(MACH_TASK_BASIC_INFO), $0, &count)
                }
            }
            guard result == KERN_SUCCESS else { return nil }
            return (Int(info.resident_size), Int(info.resident_size_max))
        #else
            return nil
        #endif
    }
}
