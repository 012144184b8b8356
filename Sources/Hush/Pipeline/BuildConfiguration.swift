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
    /// Chunk sizes in model tokens.
    public struct Chunking: Sendable, Hashable, Codable {
        /// The preferred chunk size.
        public var targetTokens: Int
        /// Tokens repeated between consecutive chunks of a paragraph.
        public var overlapTokens: Int

        /// Creates chunk sizes.
        public init(targetTokens: Int = 128, overlapTokens: Int = 24) {
            self.targetTokens = targetTokens
            self.overlapTokens = overlapTokens
        }
    }

    /// The source type given to documents whose record names none (`note`, `post`, ...).
    public var sourceType: String?
    /// Chunk sizes.
    public var chunking: Chunking
    /// The model: a name (`e5-small`, `minilm`) or a model folder or file (relative paths are resolved
    /// against the configuration file's folder); `nil` for the standard model (``ModelChoice/standard``).
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
        let chunking = try container.decodeIfPresent(PartialChunking.self, forKey: .chunking)
        self.chunking = Chunking(
            targetTokens: chunking?.targetTokens ?? 128, overlapTokens: chunking?.overlapTokens ?? 24)
        model = try container.decodeIfPresent(String.self, forKey: .model)
        modelDirectory = try container.decodeIfPresent(String.self, forKey: .modelDirectory)
        lexical = try container.decodeIfPresent(Bool.self, forKey: .lexical) ?? false
    }

    private struct PartialChunking: Decodable {
        var targetTokens: Int?
        var overlapTokens: Int?
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
        guard chunking.targetTokens >= 8 else {
            throw BuildError.invalidConfiguration(path: path, reason: "chunking.targetTokens must be at least 8")
        }
        guard chunking.overlapTokens >= 0, chunking.overlapTokens < chunking.targetTokens else {
            throw BuildError.invalidConfiguration(
                path: path, reason: "chunking.overlapTokens must be between 0 and targetTokens - 1")
        }
    }

    /// The chunker settings for an embedder's window.
    func chunkingConfiguration(maxTokens: Int) -> ChunkingConfiguration {
        ChunkingConfiguration(
            maxTokens: maxTokens, targetTokens: min(chunking.targetTokens, maxTokens),
            overlapTokens: chunking.overlapTokens)
    }
}
