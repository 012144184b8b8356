// Minimal restatement for type checks (scripts/check-apple-swift), not Apple's interface: the part of
// NaturalLanguage that Hush's Apple branches use, with the types and signatures Apple documents. Nothing here runs:
// every body traps.
import Foundation

/// A language, by its BCP 47 tag.
public struct NLLanguage: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static let undetermined = NLLanguage(rawValue: "und")
    public static let english = NLLanguage(rawValue: "en")
}

/// What a tokenizer cuts a text into.
public enum NLTokenUnit: Int, Sendable {
    case word, sentence, paragraph, document
}

/// Cuts a text into words, sentences or paragraphs.
open class NLTokenizer: NSObject {
    public init(unit: NLTokenUnit) { fatalError("declaration only") }
    open var string: String?
    open func tokens(for range: Range<String.Index>) -> [Range<String.Index>] { fatalError("declaration only") }
}

/// Finds the language of a text.
open class NLLanguageRecognizer: NSObject {
    public override init() { fatalError("declaration only") }
    open func processString(_ string: String) { fatalError("declaration only") }
    open var dominantLanguage: NLLanguage? { fatalError("declaration only") }
}

/// Vectors of words or sentences.
open class NLEmbedding: NSObject {
    open class func sentenceEmbedding(for language: NLLanguage) -> NLEmbedding? { fatalError("declaration only") }
    open var dimension: Int { fatalError("declaration only") }
    open var revision: Int { fatalError("declaration only") }
    open func vector(for string: String) -> [Double]? { fatalError("declaration only") }
}
