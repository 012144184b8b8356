import ArgumentParser
import Foundation
import Hush
import HushToolSupport

/// `hush reembed`: re-embed every chunk with the current model.
struct ReembedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reembed",
        abstract: "Re-embed every chunk with the current model, in resumable batches.",
        discussion: "Interrupted runs resume where they stopped when started again with the same model.")

    @OptionGroup var store: StoreArguments

    @Option(help: "Chunks per transaction.")
    var batchSize = 256

    @Flag(help: "No progress output.")
    var quiet = false

    func run() async throws {
        let db = store.db
        guard FileManager.default.fileExists(atPath: db) else { throw ValidationError("no database at \(db)") }
        // The model to move to: --model or the standard one, never the one the file was made with.
        let embedder = try store.modelOptions.makeEmbedder()
        let hush = OpenStores.shared.track(
            try await HushStore.open(path: db, embedder: embedder, options: StoreOptions(allowEmbedderMismatch: true)))
        // A resumed re-embed's rate counts the chunks of this run alone.
        let resumed = try await hush.stats().unfinishedReembed?.completed ?? 0
        let progress = ProgressReporter(label: "re-embedding", unit: "chunks", quiet: quiet, alreadyDone: resumed)
        let batchSize = batchSize
        try await Interruption.cancellingOnSignal(
            stopped: {
                progress.finish()
                let (done, total) = progress.reported
                return "\(done) of \(total) chunks were re-embedded before the stop; until the re-embed finishes, "
                    + "searches use the old model's vectors"
            },
            resume: "run the same command again to resume where it stopped"
        ) {
            try await hush.reembed(batchSize: batchSize) { step in
                progress.update(done: step.completed, total: step.total)
            }
        }
        progress.finish()
        let s = try await hush.stats()
        Console.out("re-embedded \(s.chunks) chunks with \(s.embedder)")
    }
}
