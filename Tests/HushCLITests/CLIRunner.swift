import Foundation
import HushTestSupport
import Testing

/// Runs the real `hush` binary built next to the test bundle.
struct CLIRunner {
    struct Output {
        let status: Int32
        let stdout: String
        let stderr: String

        /// Standard output parsed as one JSON object.
        func json() throws -> [String: Any] {
            guard let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any] else {
                throw CLIError.notJSON(stdout)
            }
            return object
        }
    }

    enum CLIError: Error { case notJSON(String), binaryMissing(String) }

    static var binary: URL { executable("hush") }

    /// An executable of this package (`hush`, `hush-bench`) in the products folder (.build/<config>), where the
    /// test bundle lives too.
    static func executable(_ name: String) -> URL {
        var folder = Bundle.main.bundleURL
        if folder.pathExtension == "xctest" { folder.deleteLastPathComponent() }
        for candidate in [folder, Bundle(for: Marker.self).bundleURL.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return folder.appendingPathComponent(name)
    }

    private final class Marker {}

    /// Runs `hush` (or `program`) with `arguments`; `environment` is merged into this process's; `launcher`
    /// (for example `["/usr/bin/setpriv", "--reuid=65534", …]`) runs it through another program.
    static func run(
        _ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:], launcher: [String] = [],
        program: String = "hush"
    ) throws -> Output {
        let binary = executable(program)
        let process = Process()
        if let program = launcher.first {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = Array(launcher.dropFirst()) + [binary.path] + arguments
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        if !environment.isEmpty {
            var merged = ProcessInfo.processInfo.environment
            for (key, value) in environment { merged[key] = value }
            process.environment = merged
        }
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        // Read both pipes before waiting so a chatty command cannot fill a pipe and block.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// The repository's samples folder.
    static var samples: URL { Repository.samples }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hush-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

extension CLIRunner {
    /// Runs `hush` and expects it to succeed.
    @discardableResult
    static func succeed(_ arguments: [String], environment: [String: String] = [:]) throws
        -> CLIRunner.Output
    {
        let result = try CLIRunner.run(arguments, environment: environment)
        #expect(result.status == 0, "\(arguments.first ?? ""): \(result.stderr)")
        return result
    }

    /// Builds the samples (lexical: no model needed) into `folder/name`.
    static func buildSamples(in folder: URL, name: String = "kb.sqlite") throws -> String {
        let output = folder.appendingPathComponent(name).path
        let build = try CLIRunner.run([
            "build", "--lexical", "--quiet", "--from", CLIRunner.samples.path, "--out", output,
        ])
        #expect(build.status == 0, "\(build.stderr)")
        return output
    }
}
