import HushKernels

/// A deterministic **lexical** embedder: the fallback when no neural model is present.
///
/// It hashes lower-cased words and character trigrams (with signs, the "hashing trick") into a fixed number
/// of buckets and L2-normalises the result. Texts that share words score high; synonyms do not. Its identity
/// says so (`hush-lexical-hashing-v1`), so a file built with it is never mixed with neural vectors.
///
/// ```swift
/// let embedder = HashingEmbedder()
/// let v = try embedder.embed("Meeting notes: budget review").vector  // 384 components
/// ```
public struct HashingEmbedder: Embedder {
    public let identity: EmbedderIdentity
    public let maxTokens: Int

    /// Creates a lexical embedder with `dimension` buckets.
    public init(dimension: Int = 384, maxTokens: Int = 256) {
        precondition(dimension > 0, "HashingEmbedder needs a positive dimension")
        self.identity = EmbedderIdentity(
            model: "hush-lexical-hashing-v1", weightsSHA256: "none", dimension: dimension, pooling: .lexical,
            normalized: true)
        self.maxTokens = maxTokens
    }

    public func embed(_ texts: [String], role: EmbeddingRole) throws -> [Embedding] {
        texts.map(embedOne)
    }

    public func tokenCount(_ text: String) -> Int {
        // The number of `words(text)`, counted without making them (the chunker asks for every sentence).
        var count = 0
        var inWord = false
        for scalar in text.lowercased().unicodeScalars {
            let isWord = WordSplitter.isLetterOrDigit(scalar)
            if isWord && !inWord { count += 1 }
            inWord = isWord
        }
        return count + 2
    }

    private func embedOne(_ text: String) -> Embedding {
        let dimension = identity.dimension
        var vector = [Float](repeating: 0, count: dimension)
        let words = Self.words(text)
        let kept = words.prefix(maxTokens - 2)
        for word in kept {
            add(Self.fnv1a(word.utf8), weight: 1.0, to: &vector)
            let padded = Array(("<" + word + ">").unicodeScalars)
            if padded.count > 3 {
                for start in 0...(padded.count - 3) {
                    var scalars = String.UnicodeScalarView()
                    scalars.append(contentsOf: padded[start..<(start + 3)])
                    add(Self.fnv1a(String(scalars).utf8) &+ 0x9E37_79B9, weight: 0.5, to: &vector)
                }
            }
        }
        vector.withUnsafeMutableBufferPointer { values in
            guard let base = values.baseAddress else { return }
            _ = hush_normalize_f32(base, base, values.count)
        }
        return Embedding(
            vector: vector, tokenCount: min(words.count, maxTokens - 2) + 2, truncated: words.count > maxTokens - 2)
    }

    private func add(_ hash: UInt64, weight: Float, to vector: inout [Float]) {
        let bucket = Int(hash % UInt64(vector.count))
        let sign: Float = (hash >> 63) == 0 ? 1 : -1
        vector[bucket] += sign * weight
    }

    /// Lower-cased runs of letters and digits.
    static func words(_ text: String) -> [String] {
        WordSplitter.words(text, isWordCharacter: WordSplitter.isLetterOrDigit)
    }

    static func fnv1a<S: Sequence>(_ bytes: S) -> UInt64 where S.Element == UInt8 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
