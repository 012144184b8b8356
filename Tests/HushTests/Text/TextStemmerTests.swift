import Foundation
import GRDB
import HushEmbedding
import HushTestSupport
import Testing

@testable import Hush

/// The stemming rule of the query analyzer and the boosts (`KeywordStemmer`) against the keyword index's own:
/// SQLite's FTS5 tokenizer, made from the `chunks_fts` definition of a new store, so that a change on either
/// side (the table's tokenizer, SQLite's, or the Swift code) fails here.
@Suite struct TextStemmerTests {
    /// Words on which the analyzer's former stemmer (textbook Porter on lower-case ASCII words only) and the
    /// index disagreed, with the index's token.
    static let formerDisagreements: [String: String] = [
        "cafés": "cafe", "Écrivez": "ecrivez", "Zürich": "zurich", "führen": "fuhren", "passé": "pass",
        "naïvetés": "naivet", "Straße": "straß", "İstanbul": "istanbul", "µ": "μ", "ς": "σ", "1990s": "1990",
        "80s": "80", "49ers": "49er", "mp3s": "mp3", "abc123ing": "abc123", "ies": "ie", "sses": "sse",
        "eed": "e", "sayyed": "sai", String(repeating: "a", count: 70) + "s": String(repeating: "a", count: 70) + "s",
    ]

    /// Endings that, added to real words, take every rule of the stemmer.
    static let endings = [
        "s", "es", "ed", "ing", "ies", "y", "ly", "ness", "er", "ers", "e", "eed", "ation", "ational", "ization",
        "izer", "fulness", "ousness", "iveness", "ement", "ment", "able", "ible", "ical", "icate", "ative",
        "alize", "ism", "ion", "ions", "ous", "ive", "ize", "ized", "izing", "al", "ance", "ence", "ent", "ant",
        "ate", "ated", "ating", "ll", "li", "alli", "entli", "eli", "ousli", "logi", "bli", "biliti", "aliti",
        "iviti", "iti",
    ]

    @Test func formerDisagreementsNowStemAsTheIndex() throws {
        let index = try IndexTokenizer()
        let words = Self.formerDisagreements.keys.sorted()
        let tokens = try index.tokens(ofEach: words)
        for (word, indexed) in zip(words, tokens) {
            #expect(indexed == [Self.formerDisagreements[word]], "\(word)")
            #expect(QueryAnalyzer.stem(word) == Self.formerDisagreements[word], "\(word)")
        }
    }

    /// Every word of the repository's own text (samples, documentation, the language-identification sentences
    /// in many languages), as the analyzer takes it from a query: split and lower-cased by `WordSplitter`,
    /// then stemmed. Words that `unicode61` itself splits (at a combining mark other than the diacritics it
    /// removes, as in Devanagari) are left out: their splitting differs, not their stemming.
    @Test func everyRealWordStemsAsTheIndexStemsIt() throws {
        let index = try IndexTokenizer()
        let words = try Self.realWords()
        let split = try index.tokens(ofEach: words, stemmed: false)
        var compared: [String] = []
        for (word, pieces) in zip(words, split) {
            if pieces.count == 1 {
                compared.append(word)
            } else {
                // Only a combining mark splits a word that WordSplitter keeps whole.
                #expect(word.unicodeScalars.contains(where: Self.isCombiningMark), "\(word)")
            }
        }
        #expect(compared.count > 5_000 && compared.count * 100 > words.count * 98)
        #expect(compared.contains { !$0.unicodeScalars.allSatisfy(\.isASCII) })
        let indexed = try index.tokens(ofEach: compared)
        var disagreements: [String] = []
        for (word, tokens) in zip(compared, indexed) {
            let analyzed = WordSplitter.words(word).map(QueryAnalyzer.stem)
            if analyzed != tokens { disagreements.append("\(word): \(analyzed) vs index \(tokens)") }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) of \(compared.count): \(disagreements.prefix(20))")
    }

    /// The real words' ASCII forms with the endings of ``endings``, each ending on a quarter of them (in turn,
    /// to keep this quick): some fifty thousand words that take each step of the algorithm, its conditions met
    /// and not met.
    @Test func inflectedWordsStemAsTheIndexStemsThem() throws {
        let index = try IndexTokenizer()
        let bases = Set(
            try Self.realWords().map { $0.lowercased() }.filter { word in
                word.count <= 14 && word.unicodeScalars.allSatisfy { $0.isASCII && $0.properties.isAlphabetic }
            }
        ).sorted()
        let words = bases.enumerated().flatMap { index, base in
            Self.endings.enumerated().filter { ($0.offset + index) % 4 == 0 }.map { base + $0.element }
        }
        #expect(words.count > 40_000)
        var disagreements: [String] = []
        for start in stride(from: 0, to: words.count, by: 10_000) {
            let batch = Array(words[start..<min(start + 10_000, words.count)])
            // One word, one token: tokenized as one text to keep this quick.
            let tokens = try index.tokens(batch.joined(separator: " "))
            try #require(tokens.count == batch.count)
            for (word, token) in zip(batch, tokens) where QueryAnalyzer.stem(word) != token {
                disagreements.append("\(word): \(QueryAnalyzer.stem(word)) vs index \(token)")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) of \(words.count): \(disagreements.prefix(20))")
    }

    /// `KeywordFolding` against `unicode61 remove_diacritics 2` for every assigned code point that the tokenizer
    /// keeps in a token: its lower case and removed diacritics, from Unicode 6.1 tables, must come out the same.
    /// (Unassigned and private-use code points are left out to keep this quick: both sides leave them as they
    /// are.)
    @Test func everyCodePointFoldsAsTheIndexFoldsIt() throws {
        let index = try IndexTokenizer()
        let scalars = (0x80...0x10FFFF).compactMap(Unicode.Scalar.init(_:)).filter {
            $0.properties.generalCategory != .unassigned && $0.properties.generalCategory != .privateUse
        }
        var disagreements: [String] = []
        var folded = 0
        for start in stride(from: 0, to: scalars.count, by: 50_000) {
            let batch = scalars[start..<min(start + 50_000, scalars.count)]
            // "q<c>q" is one token "q<folded>q" when c is a token character, and "q", "q" when it separates.
            var text = String.UnicodeScalarView()
            for scalar in batch { text.append(contentsOf: ["q", scalar, "q", " "]) }
            var tokens = try index.tokens(String(text), stemmed: false)[...]
            for scalar in batch {
                guard let token = tokens.popFirst() else { throw Failure("tokens ran out at \(scalar.value)") }
                if token == "q" {
                    guard tokens.popFirst() == "q" else { throw Failure("lost alignment at \(scalar.value)") }
                    continue
                }
                let expected = String(token.unicodeScalars.dropFirst().dropLast())
                let swift = KeywordFolding.fold(scalar).map { String($0) } ?? ""
                if swift != String(scalar) { folded += 1 }
                if swift != expected {
                    disagreements.append("U+\(String(scalar.value, radix: 16)): \(swift) vs index \(expected)")
                }
            }
            try #require(tokens.isEmpty)
        }
        #expect(scalars.count > 100_000 && folded > 1_000)
        #expect(disagreements.isEmpty, "\(disagreements.count): \(disagreements.prefix(20))")
    }

    static func isCombiningMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The words of the repository's own text, as written (case kept), without repeats.
    static func realWords() throws -> [String] {
        var texts: [String] = []
        let root = Repository.root
        var files = ["README.md", "ARCHITECTURE.md", "CONTRIBUTING.md", "CHANGELOG.md"].map {
            root.appendingPathComponent($0)
        }
        for folder in ["docs", "samples", "samples/notes"] {
            let url = root.appendingPathComponent(folder)
            files += try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)
                .filter { !$0.hasDirectoryPath }
        }
        for file in files { texts.append(try String(contentsOf: file, encoding: .utf8)) }
        for sentences in TextLanguageSamples.latin.values { texts += sentences }
        for sentences in TextLanguageSamples.heldOut.values { texts += sentences }
        texts += TextLanguageSamples.otherScripts.map(\.1)
        var seen = Set<String>()
        var words: [String] = []
        for text in texts {
            var word = String.UnicodeScalarView()
            for scalar in text.unicodeScalars + [" "] {
                if WordSplitter.isIndexedCharacter(scalar) {
                    word.append(scalar)
                } else if !word.isEmpty {
                    if seen.insert(String(word)).inserted { words.append(String(word)) }
                    word = String.UnicodeScalarView()
                }
            }
        }
        return words
    }
}

/// SQLite's tokenizer of the keyword index, made from the `chunks_fts` definition that the store's own
/// migrations write, in a temporary in-memory database.
struct IndexTokenizer {
    /// The tokenizer's arguments (`porter unicode61 remove_diacritics 2`).
    let components: [String]
    private let queue: DatabaseQueue

    init() throws {
        queue = try DatabaseQueue()
        try StoreSchema.migrate(queue)
        let sql = try queue.read { db in
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'chunks_fts'")
        }
        guard let sql, let keyword = sql.range(of: "tokenize"),
            let open = sql[keyword.upperBound...].firstIndex(of: "'"),
            let close = sql[sql.index(after: open)...].firstIndex(of: "'")
        else { throw TextStemmerTests.Failure("no tokenizer in \(sql ?? "nil")") }
        components = sql[sql.index(after: open)..<close].split(separator: " ").map(String.init)
    }

    /// The tokens the index stores for `text`, stemmed (the whole tokenizer) or not (its base, `unicode61 …`).
    func tokens(_ text: String, stemmed: Bool = true) throws -> [String] {
        try tokens(ofEach: [text], stemmed: stemmed)[0]
    }

    /// The tokens of each text.
    func tokens(ofEach texts: [String], stemmed: Bool = true) throws -> [[String]] {
        let descriptor = FTS5TokenizerDescriptor(
            components: stemmed ? components : Array(components.drop { $0 == "porter" }))
        return try queue.read { db in
            let tokenizer = try db.makeTokenizer(descriptor)
            return try texts.map { try tokenizer.tokenize(document: $0).map(\.token) }
        }
    }
}
