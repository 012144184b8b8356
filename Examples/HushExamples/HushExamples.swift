import ArgumentParser

@main
struct HushExamples: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hush-examples",
        abstract: "Runnable examples of apps built on Hush: a reflection journal, a social feed and a planner.",
        subcommands: [JournalExample.self, FeedExample.self, PlannerExample.self])
}
