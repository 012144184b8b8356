import Foundation

/// libFuzzer's driver (from the runtime linked by `-sanitize=fuzzer`).
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// Hands the process's arguments and a target's `LLVMFuzzerTestOneInput` to libFuzzer, and exits with its
/// status: the whole `main.swift` of every fuzz target.
///
/// ```swift
/// runFuzzer { data, size in fuzzCSV(data, size) }
/// ```
public func runFuzzer(_ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Never {
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(runFuzzerDriver(&argc, &argv, testOneInput))
}
