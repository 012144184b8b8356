import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Builds a knowledge base file to ship with an app: reads files, cleans, chunks, embeds and stores them,
/// optimises the file, and writes a manifest in it and beside it.
///
/// The build is atomic (it works in temporary files in the output's folder, `.NAME.building-PID…`, and renames
/// only a finished, synced file over the output), idempotent (when the previous output was made with the same
/// embedder and parameters it starts from a copy of it, so unchanged documents are not embedded again, and
/// documents whose input vanished are deleted) and incremental (only changed documents are re-embedded).
///
/// ```swift
/// let builder = KnowledgeBaseBuilder(
///     inputs: [URL(fileURLWithPath: "content")], output: URL(fileURLWithPath: "kb.sqlite"),
///     embedder: try BERTEmbedder())
/// let report = try await builder.build()
/// print(report.summary.chunksEmbedded, report.manifest.contentDigest)
/// ```
public struct KnowledgeBaseBuilder: Sendable {
    /// Files and folders to read.
    public var inputs: [URL]
    /// The file to write.
    public var output: URL
    /// Source type, chunking and embedder choice.
    public var configuration: BuildConfiguration
    /// The embedder (it must match `configuration.lexical`: the caller creates it).
    public var embedder: any Embedder
    /// Replace the output even when it is not a previous build's (`hush build --force`). Off by default: a
    /// build replaces only a file whose manifest says a build made it, so a typo in `--out` never destroys a
    /// store made by `hush index` or any other file.
    public var replaceAnyFile = false
    /// A stage at which to fail on purpose (tests).
    var injectedFailure: Stage?

    /// Where a build is; reported through progress and used for failure injection.
    public enum Stage: String, Sendable, Hashable {
        /// Reading and hashing the inputs.
        case reading
        /// Cleaning, chunking, embedding and storing.
        case embedding
        /// Deleting documents whose inputs vanished.
        case deleting
        /// ANALYZE, FTS optimise, VACUUM, journal mode.
        case optimizing
        /// Syncing and renaming into place.
        case publishing
    }

    /// Progress: the stage, and documents done of total during `embedding`.
    public struct Progress: Sendable, Hashable {
        /// The stage.
        public var stage: Stage
        /// Documents processed so far (embedding stage).
        public var completed: Int
        /// Documents in total (embedding stage).
        public var total: Int
    }

    /// What a build did.
    public struct Report: Sendable, Hashable {
        /// Added, updated, unchanged and embedded counts of the upsert.
        public var summary: UpsertSummary
        /// Documents deleted because their input vanished.
        public var deleted: Int
        /// Whether the build started from a copy of the previous output.
        public var reusedPrevious: Bool
        /// Why the previous output was not reused (`nil` when it was, or when there was none).
        public var notReusedReason: String?
        /// Whether the build started from what a cancelled build of the same kind had embedded.
        public var resumedStopped = false
        /// Inputs that were skipped, with reasons.
        public var skipped: [SkippedInput]
        /// Stale temporary files of dead builds removed before starting.
        public var removedStaleFiles: [String]
        /// The manifest written (with the output's sha256).
        public var manifest: BuildManifest
        /// Wall-clock seconds.
        public var seconds: Double
    }

    /// Creates a builder.
    ///
    /// ```swift
    /// let builder = KnowledgeBaseBuilder(inputs: [docs], output: out, configuration: .init(lexical: true),
    ///                                    embedder: HashingEmbedder())
    /// ```
    public init(
        inputs: [URL], output: URL, configuration: BuildConfiguration = .init(), embedder: any Embedder
    ) {
        self.inputs = inputs
        self.output = output
        self.configuration = configuration
        self.embedder = embedder
    }

    /// The prefix of this process's temporary files for `output`: `.NAME.building-PID`.
    ///
    /// ```swift
    /// let prefix = KnowledgeBaseBuilder.temporaryPrefix(for: out, pid: getpid())
    /// ```
    public static func temporaryPrefix(for output: URL, pid: Int32) -> String {
        temporaryStem(for: output) + String(pid)
    }

    /// `.NAME.building-`, the start of every temporary file of a build of `output`. A long NAME (a legal name
    /// of up to 255 bytes) is cut to its first 150 bytes plus a hash of the whole, so that the temporary
    /// names (stem, process id, `.packed`, `-journal`, `.manifest`) stay within the file system's limit.
    static func temporaryStem(for output: URL) -> String {
        let name = output.lastPathComponent
        guard name.utf8.count > 160 else { return ".\(name).building-" }
        var short = ""
        for character in name {
            if short.utf8.count + String(character).utf8.count > 150 { break }
            short.append(character)
        }
        var hasher = SHA256()
        hasher.update(Array(name.utf8))
        return ".\(short)~\(StoreFile.hex(hasher.finalize()).prefix(12)).building-"
    }

    /// Removes the temporary files a build by process `pid` made for `output` (the working database, its
    /// WAL and shared-memory files, the packed file). Safe to call from a signal handler's queue.
    ///
    /// ```swift
    /// KnowledgeBaseBuilder.removeTemporaryFiles(for: out, pid: getpid())
    /// ```
    @discardableResult
    public static func removeTemporaryFiles(for output: URL, pid: Int32) -> [String] {
        let folder = output.deletingLastPathComponent()
        let prefix = temporaryPrefix(for: output, pid: pid)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var removed: [String] = []
        for name in names where name == prefix || name.hasPrefix(prefix + ".") || name.hasPrefix(prefix + "-") {
            let path = folder.appendingPathComponent(name).path
            if (try? FileManager.default.removeItem(atPath: path)) != nil { removed.append(path) }
        }
        return removed
    }

    /// Removes temporary files left by builds of `output` whose process no longer runs (a killed build).
    static func removeStaleTemporaryFiles(for output: URL) -> [String] {
        let folder = output.deletingLastPathComponent()
        let marker = temporaryStem(for: output)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var pids = Set<Int32>()
        for name in names where name.hasPrefix(marker) {
            let digits = name.dropFirst(marker.count).prefix { $0.isNumber }
            guard let pid = Int32(digits) else { continue }
            if pid == getpid() || (kill(pid, 0) != 0 && errno == ESRCH) { pids.insert(pid) }
        }
        return pids.sorted().flatMap { removeTemporaryFiles(for: output, pid: $0) }
    }

    /// Builds (or brings up to date) the output file.
    ///
    /// ```swift
    /// let report = try await builder.build { progress in print(progress.stage, progress.completed) }
    /// ```
    ///
    /// - Throws: ``BuildError``, ``StoreError``, `IngestError`; on any error the previous output is untouched
    ///   and this build's temporary files are removed.
    /// - Complexity: embedding of new and changed documents dominates; O(file size) to optimise and hash.
    public func build(progress: (@Sendable (Progress) -> Void)? = nil) async throws -> Report {
        let started = Date()
        let removedStale = Self.removeStaleTemporaryFiles(for: output)
        let folder = output.deletingLastPathComponent()
        guard FileManager.default.isWritableFile(atPath: folder.path) else {
            throw BuildError.outputNotWritable(path: output.path, reason: "the folder is missing or read-only")
        }
        if !replaceAnyFile { try checkReplaceable() }
        let prefix = folder.appendingPathComponent(Self.temporaryPrefix(for: output, pid: getpid())).path
        do {
            var report = try await run(working: prefix, packed: prefix + ".packed", progress: progress)
            report.removedStaleFiles = removedStale
            report.seconds = Date().timeIntervalSince(started)
            return report
        } catch is CancellationError {
            // What the embedding committed is kept for the next build (its working store is closed by now).
            keepStoppedWork(working: prefix)
            Self.removeTemporaryFiles(for: output, pid: getpid())
            throw CancellationError()
        } catch {
            Self.removeTemporaryFiles(for: output, pid: getpid())
            throw error
        }
    }

    /// `.NAME.building-resume`: the working store of a build that was cancelled, with `.json` beside it saying
    /// how it was made (``StoppedWork``); the next build with the same model and parameters starts from it.
    var stoppedWorkPath: String {
        output.deletingLastPathComponent().appendingPathComponent(Self.temporaryStem(for: output) + "resume").path
    }

    /// How a cancelled build's working store was made.
    struct StoppedWork: Codable, Equatable {
        var embedder: EmbedderIdentity
        var parameters: BuildManifest.Parameters
    }

    /// Moves a cancelled build's working store (and its description, written before embedding began) to
    /// ``stoppedWorkPath``. Best effort: without it the next build embeds everything again.
    private func keepStoppedWork(working: String) {
        let description = working + ".stopped.json"
        guard FileManager.default.fileExists(atPath: working), FileManager.default.fileExists(atPath: description)
        else { return }
        let kept = stoppedWorkPath
        for suffix in ["-wal", "-shm"] { unlink(working + suffix) }
        guard rename(working, kept) == 0, rename(description, kept + ".json") == 0 else {
            for file in [kept, kept + ".json"] { unlink(file) }
            return
        }
    }

    /// Moves the work a cancelled build kept to `working` when it was made with `identity` and `parameters`
    /// (else removes it); true when it did.
    private func adoptStoppedWork(
        into working: String, identity: EmbedderIdentity, parameters: BuildManifest.Parameters
    )
        -> Bool
    {
        let kept = stoppedWorkPath
        defer { for file in [kept, kept + ".json"] { unlink(file) } }
        guard let data = FileManager.default.contents(atPath: kept + ".json"),
            let stopped = try? JSONDecoder().decode(StoppedWork.self, from: data),
            stopped == StoppedWork(embedder: identity, parameters: parameters)
        else { return false }
        return rename(kept, working) == 0
    }

    /// Throws ``BuildError/wouldReplace(path:reason:)`` unless the output and its manifest are missing or
    /// were made by a build.
    func checkReplaceable() throws {
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        if manager.fileExists(atPath: output.path, isDirectory: &isFolder) {
            if isFolder.boolValue { throw BuildError.wouldReplace(path: output.path, reason: "is a folder") }
            let manifest: BuildManifest?
            do {
                manifest = try BuildManifest.read(fromStoreAt: output.path)
            } catch let error as StoreError where error == .busy(path: output.path) {
                throw error
            } catch {
                throw BuildError.wouldReplace(path: output.path, reason: "is not a Hush database")
            }
            guard manifest != nil else {
                throw BuildError.wouldReplace(
                    path: output.path, reason: "has no build manifest (it was not made by hush build)")
            }
        }
        let sidecar = BuildManifest.sidecarURL(for: output)
        if manager.fileExists(atPath: sidecar.path) {
            let data = try? Data(contentsOf: sidecar)
            guard let data, (try? BuildManifest.decoder.decode(BuildManifest.self, from: data)) != nil else {
                throw BuildError.wouldReplace(path: sidecar.path, reason: "is not a build manifest")
            }
        }
    }

    /// The end of `stage`: throws `CancellationError` when the build's task was cancelled (the previous output
    /// stays as it was), or the failure a test injected there.
    private func checkpoint(after stage: Stage) throws {
        try Task.checkCancellation()
        if injectedFailure == stage { throw InjectedBuildFailure(stage: stage.rawValue) }
    }

    private func run(working: String, packed: String, progress: (@Sendable (Progress) -> Void)?) async throws
        -> Report
    {
        // 1. Inputs: the files, their digest, the documents.
        progress?(Progress(stage: .reading, completed: 0, total: 0))
        let reader = DocumentReader(sourceType: configuration.sourceType)
        // A build into one of its own input folders must not read what it writes there (the output, its
        // manifest, its temporary files): else a second, unchanged build would see other inputs.
        let stem = Self.temporaryStem(for: output)
        let ownPaths = Set([output, BuildManifest.sidecarURL(for: output)].map { $0.standardizedFileURL.path })
        func isOwn(_ path: String) -> Bool {
            let url = URL(fileURLWithPath: path).standardizedFileURL
            return ownPaths.contains(url.path) || url.lastPathComponent.hasPrefix(stem)
        }
        let collected = try reader.collectFiles(inputs)
        let files = (found: collected.found.filter { !isOwn($0.url.path) }, skipped: collected.skipped)
        let inputDigest = try Self.inputDigest(files.found)
        var documents: [Document] = []
        let skipped = try reader.read(inputs) { documents.append(contentsOf: $0) }.filter { !isOwn($0.path) }
        guard !documents.isEmpty else { throw BuildError.noDocuments(inputs: inputs.map(\.path)) }
        try checkpoint(after: .reading)

        // 2. Start from a copy of the previous output when it was made the same way.
        let chunking = try configuration.chunkingConfiguration(for: embedder)
        let parameters = BuildManifest.Parameters(
            chunking: chunking, sourceType: configuration.sourceType, lexical: configuration.lexical,
            schemaVersion: StoreSchema.version)
        let previous = try? BuildManifest.read(fromStoreAt: output.path)
        var notReused: String?
        if FileManager.default.fileExists(atPath: output.path) {
            if let previous {
                if previous.embedder != embedder.identity {
                    notReused = "the previous file was made with \(previous.embedder)"
                } else if previous.parameters != parameters {
                    notReused = "the previous file was made with other parameters"
                }
            } else {
                notReused = "the previous file has no build manifest"
            }
        }
        let reuse = previous != nil && notReused == nil
        // A build of the same kind that was cancelled kept what it embedded: start from it instead.
        let resumed = adoptStoppedWork(into: working, identity: embedder.identity, parameters: parameters)
        if reuse && !resumed {
            do {
                try FileManager.default.copyItem(atPath: output.path, toPath: working)
            } catch {
                throw BuildError.outputNotWritable(path: working, reason: error.localizedDescription)
            }
        }

        // 3. Upsert everything (unchanged documents are skipped), delete what vanished.
        var summary: UpsertSummary
        var deleted = 0
        let counts: (documents: Int, chunks: Int, vectors: Int)
        let contentDigest: String
        do {
            let store = try await HushStore.open(
                path: working, embedder: embedder, options: StoreOptions(chunking: chunking))
            // What a cancel keeps the working store with (see `keepStoppedWork(working:)`).
            try JSONEncoder().encode(StoppedWork(embedder: embedder.identity, parameters: parameters))
                .write(to: URL(fileURLWithPath: working + ".stopped.json"))
            let total = documents.count
            progress?(Progress(stage: .embedding, completed: 0, total: total))
            summary = try await store.upsert(documents) { step in
                progress?(Progress(stage: .embedding, completed: step.completed, total: total))
            }
            try checkpoint(after: .embedding)
            progress?(Progress(stage: .deleting, completed: 0, total: 0))
            let wanted = Set(documents.map(\.id))
            let stored = try store.database.externalIDs()
            deleted = try await store.delete(ids: stored.filter { !wanted.contains($0) })
            try checkpoint(after: .deleting)
            counts = try store.database.counts()
            contentDigest = try store.database.contentDigest()
            try await store.close()
        }

        // 4. The manifest; `created` is kept when the content did not change, so that an unchanged rebuild
        //    writes the same bytes.
        var manifest = BuildManifest(
            format: BuildManifest.format1, hushVersion: HushVersion.current,
            created: ISO8601DateFormatter().string(from: Date()), embedder: embedder.identity,
            parameters: parameters,
            counts: .init(
                documents: counts.documents, chunks: counts.chunks, vectors: counts.vectors,
                inputFiles: files.found.count, skippedInputs: skipped.count),
            inputDigest: inputDigest, contentDigest: contentDigest, outputSHA256: nil)
        if let previous, reuse, previous.contentDigest == contentDigest, previous.inputDigest == inputDigest,
            previous.hushVersion == HushVersion.current
        {
            manifest.created = previous.created
        }

        // 5. Optimise and pack into one self-contained file.
        progress?(Progress(stage: .optimizing, completed: 0, total: 0))
        let manifestText = String(decoding: try manifest.json(), as: UTF8.self)
        do {
            // Cancellable inside its long statements (VACUUM INTO, ANALYZE), not only after them.
            let flag = CancellationFlag()
            try await withTaskCancellationHandler {
                try flag.bound { try StoreFile.pack(working: working, packed: packed, manifest: manifestText) }
            } onCancel: {
                flag.cancel()
            }
        } catch let error as BuildError {
            throw error
        } catch let cancelled as CancellationError {
            throw cancelled
        } catch {
            throw BuildError.finishing(path: output.path, reason: DatabaseMessage.text(error))
        }
        try checkpoint(after: .optimizing)

        // 6. Publish: sync, rename, sync the folder; then the manifest beside it.
        progress?(Progress(stage: .publishing, completed: 0, total: 0))
        do {
            manifest.outputSHA256 = try SHA256.hexDigest(ofFileAt: packed)
            let sidecar = BuildManifest.sidecarURL(for: output)
            let sidecarTemporary = working + ".manifest"
            try StoreDatabase.createPrivateFile(sidecarTemporary)
            try manifest.json().write(to: URL(fileURLWithPath: sidecarTemporary))
            try StoreFile.setPrivateMode(sidecarTemporary)
            try StoreFile.sync(packed)
            try StoreFile.sync(sidecarTemporary)
            try checkpoint(after: .publishing)
            guard rename(packed, output.path) == 0 else {
                throw BuildError.finishing(path: output.path, reason: String(cString: strerror(errno)))
            }
            // A -wal or -shm left beside the old file (a writable open of it) belongs to the file just replaced;
            // the new one is in DELETE journal mode and must not be paired with them.
            for suffix in ["-wal", "-shm"] { unlink(output.path + suffix) }
            guard rename(sidecarTemporary, sidecar.path) == 0 else {
                throw BuildError.finishing(path: sidecar.path, reason: String(cString: strerror(errno)))
            }
            try StoreFile.sync(output.deletingLastPathComponent().path)
        } catch let error as BuildError {
            throw error
        } catch let error as InjectedBuildFailure {
            throw error
        } catch {
            throw BuildError.finishing(path: output.path, reason: DatabaseMessage.text(error))
        }
        Self.removeTemporaryFiles(for: output, pid: getpid())
        return Report(
            summary: summary, deleted: deleted, reusedPrevious: reuse, notReusedReason: notReused,
            resumedStopped: resumed,
            skipped: skipped, removedStaleFiles: [], manifest: manifest, seconds: 0)
    }

    /// sha256 over the input files sorted by relative path: per file, its relative path, its size and its
    /// bytes (length-prefixed).
    static func inputDigest(_ files: [DocumentReader.InputFile]) throws -> String {
        var hasher = SHA256()
        let sorted = files.sorted { ($0.relativePath, $0.url.path) < ($1.relativePath, $1.url.path) }
        for file in sorted {
            let name = Array(file.relativePath.utf8)
            var length = UInt64(name.count).littleEndian
            withUnsafeBytes(of: &length) { hasher.update($0) }
            hasher.update(name)
            // Streamed: the size first (from the file system), then the bytes block by block.
            var size = UInt64(max(0, FileStatus.size(file.url.path) ?? 0)).littleEndian
            withUnsafeBytes(of: &size) { hasher.update($0) }
            do {
                try FileByteStream.forEachBlock(file.url) { block in hasher.update(block) }
            } catch let error as FileReadError {
                throw IngestError.unreadable(path: file.url.path, reason: error.message)
            }
        }
        return StoreFile.hex(hasher.finalize())
    }
}
