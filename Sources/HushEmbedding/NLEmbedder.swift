#if canImport(NaturalLanguage)
    import Foundation
    import HushKernels
    import NaturalLanguage

    /// Sentence embeddings from Apple's NaturalLanguage framework (`NLEmbedding.sentenceEmbedding(for:)`),
    /// available on Apple platforms only and only for the languages the system ships a model for.
    ///
    /// Its vectors are not comparable with a BERT model's: the identity (`apple-nl-sentence-<language>`)
    /// keeps them apart in a store.
    ///
    /// ```swift
    /// if let embedder = NLEmbedder(language: .english) {
    ///     let vector = try embedder.embed("should I text my ex?", role: .query).vector
    /// }
    /// ```
    public final class NLEmbedder: Embedder, @unchecked Sendable {
        // Sendable: NLEmbedding is immutable after creation; calls are serialised by `lock` to be safe.
        public let identity: EmbedderIdentity
        public let maxTokens: Int
        private let embedding: NLEmbedding
        private let lock = NSLock()
        /// Apple ships one sentence model per language.
        public var languageScope: LanguageScope { .perLanguage }

        /// The embedder for `language`, or nil when the system has no sentence embedding for it.
        public init?(language: NLLanguage = .english, maxTokens: Int = 256) {
            guard let embedding = NLEmbedding.sentenceEmbedding(for: language) else { return nil }
            self.embedding = embedding
            self.maxTokens = maxTokens
            self.identity = EmbedderIdentity(
                model: "apple-nl-sentence-\(language.rawValue)", weightsSHA256: "revision-\(embedding.revision)",
                dimension: embedding.dimension, pooling: .mean, normalized: true)
        }

        public func embed(_ texts: [String], role: EmbeddingRole) throws -> [Embedding] {
            lock.lock()
            defer { lock.unlock() }
            return texts.map { text in
                let raw = embedding.vector(for: text) ?? []
                var vector = raw.map { Float($0) }
                if vector.count != identity.dimension { vector = [Float](repeating: 0, count: identity.dimension) }
                vector.withUnsafeMutableBufferPointer { values in
                    guard let base = values.baseAddress else { return }
                    _ = hush_normalize_f32(base, base, values.count)
                }
                let words = text.split(whereSeparator: \.isWhitespace).count
                return Embedding(vector: vector, tokenCount: words + 2, truncated: words + 2 > maxTokens)
            }
        }

        public func tokenCount(_ text: String) -> Int {
            text.split(whereSeparator: \.isWhitespace).count + 2
        }
    }
#endif
