import ArgumentParser
import Foundation
import Hush

/// `hush import`: placeholder replaced below.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "import", abstract: "Import.")
    func run() async throws {}
}
