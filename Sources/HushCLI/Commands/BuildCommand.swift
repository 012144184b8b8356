import ArgumentParser
import Dispatch
import Foundation
import Hush
import HushToolSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `hush build`: a knowledge base file to ship with an app.
struct BuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build a self-contained knowledge base file (with a manifest) from folders and files.",
        discussion: """
            Reads .txt, .md, .jsonl, .csv and .tsv files (folders recursively), cleans, chunks, embeds and stores them, \
            optimises the file and writes OUT.manifest.json beside it. The build works in a temporary file in \
            the output's folder and replaces OUT only when it succeeded; an interrupted build leaves OUT as it \
            was. When OUT was built with the same model and parameters, unchanged documents are not embedded \
            again and documents whose input vanished are deleted. OUT is replaced only when a previous build made \
            it (its manifest says so): any other existing file is refused unless --force is given.
            """)

    @Option(name: .long, parsing: .upToNextOption, help: "Files or folders to read.")
    var from: [String] = []

    @Option(name: .long, help: "The knowledge base file to write.")
    var out: String

    @Option(name: .long, help: "A JSON build configuration (sourceType, chunking, model, lexical).")
    var config: String?

    @Option(name: .long, help: "Source type for records that name none (overrides the configuration).")
    var type: String?

    @OptionGroup var modelOptions: ModelOptions

    @OptionGroup var chunks: ChunkOptions

    @Flag(name: .long, help: "Replace OUT even when it was not made by hush build (it is destroyed).")
    var force = false

    @Flag(name: .long, help: "No progress output.")
    var quiet = false

    @Flag(name: .long, help: "Print the report as one JSON object.")
    var json = false

    @Option(name: .long, help: .hidden)
    var throttleMs: Int = 0

    func validate() throws {
        if from.isEmpty { throw ValidationError("give at least one input with --from PATH") }
    }

    func run() async throws {
        var configuration = try config.map { try BuildConfiguration.load(from: URL(fileURLWithPath: $0)) } ?? .init()
        if let type { configuration.sourceType = type }
        if modelOptions.lexical { configuration.lexical = true }
        if let model = modelOptions.model { configuration.model = model }
        if let tokens = chunks.tokens { configuration.chunking.targetTokens = tokens }
        if let overlap = chunks.overlap { configuration.chunking.overlapTokens = overlap }
        try configuration.validate()
        let embedder = try StoreModelResolver(
            request: configuration.lexical ? .lexical : .model(configuration.modelChoice), needsModel: true,
            threads: modelOptions.threads
        ).embedder()
        let output = URL(fileURLWithPath: out).standardizedFileURL
        var builder = KnowledgeBaseBuilder(
            inputs: from.map { URL(fileURLWithPath: $0) }, output: output, configuration: configuration,
            embedder: embedder)
        builder.replaceAnyFile = force

        let bar = ProgressReporter(label: "embedding", unit: "docs", quiet: quiet || json)
        let throttle = throttleMs
        let building = builder
        let report = try await Interruption.cancellingOnSignal(
            stopped: {
                bar.finish()
                return "\(output.lastPathComponent) left as it was; what was embedded is kept beside it"
            },
            resume: "run the same command again: it goes on from what was embedded",
            atExit: { KnowledgeBaseBuilder.removeTemporaryFiles(for: output, pid: getpid()) }
        ) {
            try await building.build { step in
                if step.stage == .embedding {
                    bar.update(done: step.completed, total: step.total)
                    if throttle > 0 && step.completed > 0 { usleep(UInt32(throttle) * 1000) }
                } else if step.stage == .optimizing {
                    bar.finish()
                }
            }
        }
        bar.finish()
        try print(report: report, output: output)
    }

    private func print(report: KnowledgeBaseBuilder.Report, output: URL) throws {
        let manifest = report.manifest
        let summary = report.summary
        if json {
            Console.json(try JSONOutput.line(BuildJSON(report: report, output: output)))
            return
        }
        Console.out(
            "built \(output.lastPathComponent) in \(String(format: "%.1f", report.seconds)) s: "
                + "\(manifest.counts.documents) documents, \(manifest.counts.chunks) chunks "
                + "(\(summary.added) added, \(summary.updated) updated"
                + (summary.metadataOnly > 0 ? " (\(summary.metadataOnly) metadata only, not re-embedded)" : "")
                + ", \(summary.unchanged) unchanged, "
                + "\(report.deleted) deleted; \(summary.chunksEmbedded) chunks embedded)")
        if report.resumedStopped {
            Console.out("  went on from the stopped build's work (same model and parameters)")
        } else if report.reusedPrevious {
            Console.out("  started from the previous build (same model and parameters)")
        } else if let reason = report.notReusedReason {
            Console.out("  rebuilt from scratch: \(reason)")
        }
        Console.out("  embedder: \(manifest.embedder)")
        Console.out("  content digest: \(manifest.contentDigest)")
        Console.out("  file sha256:    \(manifest.outputSHA256 ?? "-")")
        Console.out("  manifest: \(BuildManifest.sidecarURL(for: output).path)")
        for path in report.removedStaleFiles { Console.out("  removed a dead build's temporary file: \(path)") }
        for error in summary.errors { Console.out("  rejected \(Console.escaped(error.id)): \(error.reason)") }
        for line in SkipReport.lines(report.skipped) { Console.out(line) }
    }
}

/// `hush build --json`: the files written, the counts, whether the previous build was reused, the digests.
struct BuildJSON: Encodable {
    var report: KnowledgeBaseBuilder.Report
    var output: URL

    enum CodingKeys: String, CodingKey {
        case output, manifest, documents, chunks, added, updated
        case metadataOnly = "metadata_only"
        case unchanged, deleted
        case chunksEmbedded = "chunks_embedded"
        case rejected, skipped
        case reusedPrevious = "reused_previous"
        case resumedStopped = "resumed_stopped"
        case inputDigest = "input_digest"
        case contentDigest = "content_digest"
        case outputSHA256 = "output_sha256"
        case removedStale = "removed_stale"
        case seconds
    }

    func encode(to encoder: any Encoder) throws {
        let manifest = report.manifest
        let summary = report.summary
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(output.path, forKey: .output)
        try container.encode(BuildManifest.sidecarURL(for: output).path, forKey: .manifest)
        try container.encode(manifest.counts.documents, forKey: .documents)
        try container.encode(manifest.counts.chunks, forKey: .chunks)
        try container.encode(summary.added, forKey: .added)
        try container.encode(summary.updated, forKey: .updated)
        try container.encode(summary.metadataOnly, forKey: .metadataOnly)
        try container.encode(summary.unchanged, forKey: .unchanged)
        try container.encode(report.deleted, forKey: .deleted)
        try container.encode(summary.chunksEmbedded, forKey: .chunksEmbedded)
        try container.encode(summary.errors.count, forKey: .rejected)
        try container.encode(report.skipped.count, forKey: .skipped)
        try container.encode(report.reusedPrevious, forKey: .reusedPrevious)
        try container.encode(report.resumedStopped, forKey: .resumedStopped)
        try container.encode(manifest.inputDigest, forKey: .inputDigest)
        try container.encode(manifest.contentDigest, forKey: .contentDigest)
        try container.encode(manifest.outputSHA256 ?? "", forKey: .outputSHA256)
        try container.encode(report.removedStaleFiles.count, forKey: .removedStale)
        try container.encode(JSONNumber(report.seconds), forKey: .seconds)
    }
}
