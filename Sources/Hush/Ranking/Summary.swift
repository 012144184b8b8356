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
        /// The sentence, from the document's body (whitespace tidied, links and @mentions as written), or from a
        /// labelled field (`Label: …`).
        public var text: String
        /// The document it comes from.
        public var documentID: String
        /// Its position among that document's sentences (the body's, then the fields'), from 0.
        public var position: Int
        /// Cosine similarity with the centroid of the summarised documents, or with the query for a summary of
        /// a search (``HushStore/summarize(query:k:sentences:mode:filter:minRelevance:lambda:)``).
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
    /// The sentences of `text` that hold at least one word, each with whether it is worth summarising first:
    /// at least three words, or at least eight characters for scripts written without spaces. `replacements`
    /// (those cleaning made in `text`) give each sentence as the person wrote it, `shown`.
    static func sentences(in text: String, replacements: [TextCleaner.Replacement] = [])
        -> [(text: String, shown: String, substantial: Bool)]
    {
        var result: [(String, String, Bool)] = []
        for paragraph in TextSegmentation.paragraphs(in: text) {
            for range in TextSegmentation.sentences(in: text[paragraph]) {
                let sentence = String(text[range])
                let words = TextSegmentation.spaceSeparatedRuns(in: sentence[...]).count
                guard words >= 1 else { continue }
                var shown = sentence
                if !replacements.isEmpty {
                    let start = range.lowerBound.utf16Offset(in: text)
                    shown = TextCleaner.restore(
                        sentence, at: start..<range.upperBound.utf16Offset(in: text), from: replacements)
                }
                result.append((sentence, shown, words >= 3 || (sentence.count >= 8 && !sentence.contains(" "))))
            }
        }
        return result
    }

    /// The sentences of a document's cleaned body, then of its labelled fields (the first sentence of a field
    /// carries its label: `Outcomes: Budget approved.`), in order: each as cleaned (what the model reads) and
    /// as the person wrote it (links and @mentions as they are: what a summary shows).
    static func sentences(of document: Document, cleaner: TextCleaner)
        -> [(text: String, shown: String, substantial: Bool)]
    {
        let (body, replacements) = cleaner.cleanWithReplacements(document)
        var result = sentences(in: body, replacements: replacements)
        for field in document.fields {
            let label = cleaner.cleanSingleLineWithReplacements(field.label)
            let shownLabel = TextCleaner.restore(label.text, at: 0..<label.text.utf16.count, from: label.replacements)
            let value = cleaner.cleanSingleLineWithReplacements(field.value)
            for (index, sentence) in sentences(in: value.text, replacements: value.replacements).enumerated() {
                let labelled = index == 0 && !label.text.isEmpty
                result.append(
                    (
                        labelled ? label.text + ": " + sentence.text : sentence.text,
                        labelled ? shownLabel + ": " + sentence.shown : sentence.shown,
                        sentence.substantial || index == 0
                    ))
            }
        }
        return result
    }
}
