import Foundation

/// An extractive summary: sentences taken word for word from the documents, in their original order.
///
/// ```swift
/// let summary = try await store.summarize(ids: ["m-offsite", "m-launch"], sentences: 2)
/// print(summary.text)
/// ```
public struct Summary: Sendable, Hashable, Codable {
    /// One chosen sentence.
    public struct Sentence: Sendable, Hashable, Codable {
        /// The sentence, from the document's cleaned text.
        public var text: String
        /// The document it comes from.
        public var documentID: String
        /// Its position among that document's sentences, from 0.
        public var position: Int
        /// Cosine similarity with the centroid of the summarised documents.
        public var relevance: Float

        /// Creates a sentence.
        public init(text: String, documentID: String, position: Int, relevance: Float) {
            self.text = text
            self.documentID = documentID
            self.position = position
            self.relevance = relevance
        }
    }

    /// The chosen sentences in original order (document order, then position).
    public var sentences: [Sentence]
    /// The summarised documents, in the order used for "original order".
    public var documentIDs: [String]

    /// Creates a summary.
    public init(sentences: [Sentence], documentIDs: [String]) {
        self.sentences = sentences
        self.documentIDs = documentIDs
    }

    /// The sentences joined by spaces.
    public var text: String { sentences.map(\.text).joined(separator: " ") }
}

/// Splits cleaned document text into sentences with the chunker's segmentation.
enum SentenceSplitter {
    /// The sentences of `text` worth summarising: at least three words, or at least eight characters for
    /// scripts written without spaces.
    static func sentences(in text: String) -> [String] {
        var result: [String] = []
        for paragraph in TextSegmentation.paragraphs(in: text) {
            for range in TextSegmentation.sentences(in: text[paragraph]) {
                let sentence = String(text[range])
                let words = TextSegmentation.words(in: sentence[...]).count
                if words >= 3 || (words >= 1 && sentence.count >= 8 && !sentence.contains(" ")) {
                    result.append(sentence)
                }
            }
        }
        return result
    }
}
