import ArgumentParser
import Hush

@main
struct HushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hush",
        abstract: "Private, on-device semantic search.",
        subcommands: []
    )
}
