import Foundation

/// Settings of `hush build`, read from a JSON file (every key optional):
///
/// ```json
/// {"sourceType": "note", "chunking": {"targetTokens": 96, "overlapTokens": 16},
///  "model": "e5-small", "lexical": false}
/// ```
///
/// ```swift
/// let configuration = try BuildConfiguration.load(from: URL(fileURLWithPath: "hush-build.json"))
/// ```
public struct BuildConfiguration: Sendable, Hashable, Codable {
    /// Chunk sizes in model tokens; a size left out is the model's own (`Embedder.preferredChunkSize`).
    public struct Chunking: Sendable, Hashable, Codable {
        /// The preferred chunk size, or `nil` for the model's.
        public var targetTokens: Int?
        /// Tokens repeated between consecutive chunks of a paragraph, or `nil` for the model's (in the model's
        /// proportion for a target smaller than its own: 8 for e5-small's 32 of 256 at a target of 64).
        public var overlapTokens: Int?

        /// Creates chunk sizes.
        ///
        /// ```swift
        /// let chunking = BuildConfiguration.Chunking(targetTokens: 96)  // the model's overlap, scaled: 12 for e5
        /// ```
        public init(targetTokens: Int? = nil, overlapTokens: Int? = nil) {
            self.targetTokens = targetTokens
            self.overlapTokens = overlapTokens
        }
    }

    /// The source type given to documents whose record names none (`note`, `post`, ...).
    public var sourceType: String?
    /// Chunk sizes; the model's own by default.
    public var chunking: Chunking
    /// The model: a name (`e5-small`, `minilm`) or a model folder or file (relative paths are resolved
    /// against the configuration file's folder); `nil` for the standard model (`ModelChoice.standard`).
    public var model: String?
    /// A model folder, the older spelling of ``model`` (used when `model` is absent).
    public var modelDirectory: String?

    /// The model to build with.
    public var modelChoice: ModelChoice {
        (model ?? modelDirectory).map(ModelChoice.init) ?? .standard
    }
    /// Use the lexical hashing embedder (no model).
    public var lexical: Bool

    /// Creates a configuration.
    public init(
        sourceType: String? = nil, chunking: Chunking = .init(), model: String? = nil, modelDirectory: String? = nil,
        lexical: Bool = false
    ) {
        self.sourceType = sourceType
        self.chunking = chunking
        self.model = model
        self.modelDirectory = modelDirectory
        self.lexical = lexical
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sourceType = try container.decodeIfPresent(String.self, forKey: .sourceType)
        chunking = try container.decodeIfPresent(Chunking.self, forKey: .chunking) ?? .init()
        model = try container.decodeIfPresent(String.self, forKey: .model)
        modelDirectory = try container.decodeIfPresent(String.self, forKey: .modelDirectory)
        lexical = try container.decodeIfPresent(Bool.self, forKey: .lexical) ?? false
    }

    /// Reads and checks a configuration file; a relative model path becomes absolute.
    ///
    /// ```swift
    /// let configuration = try BuildConfiguration.load(from: configURL)
    /// ```
    ///
    /// - Throws: ``BuildError/invalidConfiguration(path:reason:)``.
    public static func load(from url: URL) throws -> BuildConfiguration {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw BuildError.invalidConfiguration(
                path: url.path, reason: "cannot be read: \(error.localizedDescription)")
        }
        var configuration: BuildConfiguration
        do {
            configuration = try JSONDecoder().decode(BuildConfiguration.self, from: data)
        } catch {
            throw BuildError.invalidConfiguration(
                path: url.path, reason: "not valid JSON for a build configuration: \(error)")
        }
        let folder = url.deletingLastPathComponent()
        if let directory = configuration.modelDirectory, !directory.hasPrefix("/") {
            configuration.modelDirectory = folder.appendingPathComponent(directory).path
        }
        if let model = configuration.model, case .path = ModelChoice(model), !model.hasPrefix("/") {
            configuration.model = folder.appendingPathComponent(model).path
        }
        try configuration.validate(path: url.path)
        return configuration
    }

    /// Checks the chunk sizes.
    ///
    /// - Throws: ``BuildError/invalidConfiguration(path:reason:)``.
    public func validate(path: String = "(arguments)") throws {
        if let target = chunking.targetTokens, target < ChunkingConfiguration.smallestTarget {
            throw BuildError.invalidConfiguration(
                path: path,
                reason: ChunkingConfiguration.SizeProblem.targetTooSmall(target).reason(
                    target: "chunking.targetTokens", overlap: "chunking.overlapTokens"))
        }
        if let overlap = chunking.overlapTokens, overlap < 0 {
            throw BuildError.invalidConfiguration(
                path: path, reason: "chunking.overlapTokens must be 0 or more (got \(overlap))")
        }
        if let target = chunking.targetTokens, let overlap = chunking.overlapTokens, overlap >= target {
            throw BuildError.invalidConfiguration(
                path: path,
                reason: "chunking.overlapTokens must be less than targetTokens (got \(overlap) and \(target))")
        }
    }

    /// The chunker settings for `embedder`: the sizes given, the model's own for the rest, within its window.
    ///
    /// - Throws: ``BuildError/invalidConfiguration(path:reason:)`` when the target exceeds the model's window
    ///   or the overlap given is not below the target.
    func chunkingConfiguration(for embedder: any Embedder) throws -> ChunkingConfiguration {
        let resolved = ChunkingConfiguration.resolving(
            ChunkingConfiguration(for: embedder), model: embedder.preferredChunkSize,
            modelName: embedder.identity.model, targetTokens: chunking.targetTokens,
            overlapTokens: chunking.overlapTokens)
        switch resolved {
        case .success(let configuration):
            return configuration
        case .failure(let problem):
            throw BuildError.invalidConfiguration(
                path: "(arguments)",
                reason: problem.reason(target: "chunking.targetTokens", overlap: "chunking.overlapTokens"))
        }
    }
}
