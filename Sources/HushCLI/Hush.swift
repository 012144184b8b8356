import ArgumentParser
import Hush

@main
struct HushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hush",
        abstract: "Private, on-device semantic search.",
        discussion: "Everything runs on this machine: no network, ever.",
        subcommands: [
            IndexCommand.self,
            BuildCommand.self,
            ImportCommand.self,
            SearchCommand.self,
            GetCommand.self,
            DeleteCommand.self,
            StatsCommand.self,
            ReembedCommand.self,
            RelatedCommand.self,
            RankCommand.self,
            SummarizeCommand.self,
            PruneCommand.self,
            CompactCommand.self,
            EvalCommand.self,
            EmbedCommand.self,
            ModelCommand.self,
            BenchCommand.self,
        ]
    )
}
