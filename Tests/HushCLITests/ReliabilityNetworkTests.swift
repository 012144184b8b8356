import Foundation
import HushTestSupport
import Testing

/// Indexing and searching open no socket: the real `hush` in a fresh network namespace, and (when strace is
/// installed) every network system call traced. Skips with a message where namespaces cannot be made.
@Suite(.serialized, .needsModel) struct ReliabilityNetworkTests {
    /// Runs a command, returning its status and standard output.
    private func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func indexAndSearchWorkWithoutANetworkAndOpenNoNetworkSocket() throws {
        let unshare = "/usr/bin/unshare"
        guard FileManager.default.isExecutableFile(atPath: unshare),
            let isolate = [["-n"], ["-rn"]].first(where: { (try? run(unshare, $0 + ["true"]).status) == 0 })
        else {
            FileHandle.standardError.write(Data("[reliability] skipped no-network test: cannot unshare -n\n".utf8))
            return
        }
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let hush = CLIRunner.binary.path
        let db = folder.appendingPathComponent("isolated.hush").path
        // Inside the namespace: no usable interface at all.
        let devices = try run(unshare, isolate + ["cat", "/proc/net/dev"]).output
        #expect(!devices.contains("eth") && !devices.contains("wl"), "\(devices)")
        let index = try run(unshare, isolate + [hush, "index", "--db", db, "--quiet", CLIRunner.samples.path])
        #expect(index.status == 0)
        let search = try run(unshare, isolate + [hush, "search", "--db", db, "--k", "2", "should I text my ex?"])
        #expect(search.status == 0)
        #expect(search.output.contains("r-ex") || search.output.contains("r-breakup"), "\(search.output)")

        let strace = "/usr/bin/strace"
        guard FileManager.default.isExecutableFile(atPath: strace) else {
            FileHandle.standardError.write(Data("[reliability] no strace: network system calls not traced\n".utf8))
            return
        }
        let traced = folder.appendingPathComponent("traced.hush").path
        for (name, arguments) in [
            ("index", ["index", "--db", traced, "--quiet", CLIRunner.samples.path]),
            ("search", ["search", "--db", traced, "--mode", "hybrid", "money worries"]),
        ] {
            let log = folder.appendingPathComponent("\(name).trace").path
            let result = try run(strace, ["-f", "-qq", "-e", "trace=%network", "-o", log, hush] + arguments)
            #expect(result.status == 0)
            // glibc's user lookup (getpwuid, reached through Foundation's file attributes inside GRDB's WAL
            // set-up) asks the local name-service cache daemon over a Unix socket: local IPC, allowed.
            // Any other socket or address fails.
            let calls = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
                .filter { !$0.contains("+++ exited") && !$0.contains(" --- SIG") }
                .filter {
                    !($0.contains("socket(AF_UNIX, SOCK_STREAM|SOCK_CLOEXEC|SOCK_NONBLOCK, 0)")
                        || $0.contains("{sa_family=AF_UNIX, sun_path=\"/var/run/nscd/socket\"}"))
                }
            #expect(calls.isEmpty, "\(name) made network system calls: \(calls.prefix(5))")
        }
    }
}
