import Foundation

/// What a search query says: its cleaned text, language, and the words to match in the full-text index.
///
/// ```swift
/// let analysis = QueryAnalyzer().analyze("Meetings about the running budget")
/// analysis.terms     // ["meetings", "running", "budget"]
/// analysis.keywords  // ["meet", "run", "budget"]
/// ```
public struct QueryAnalysis: Sendable, Hashable, Codable {
    /// The query as given.
    public var original: String
    /// The query cleaned like document text (links, mentions, whitespace).
    public var cleaned: String
    /// The query's language (`und` for short queries).
    public var language: String
    /// Lower-cased words without stop words; when the query is English or undetermined, stemmed as the keyword
    /// index stems them (``QueryAnalyzer/stem(_:)``: Porter, diacritics removed).
    public var keywords: [String]
    /// Lower-cased words without stop words, before stemming.
    public var terms: [String]
    /// The query's words as a person reads them, to show back (a search field's chips, "searched for …"):
    /// lower-cased, never stemmed, stop words and a Chinese question's words left out, and Chinese, Japanese
    /// and Thai cut into words (``terms`` keeps such a run whole, as the keyword index reads it by letter pairs).
    ///
    /// ```swift
    /// QueryAnalyzer().analyze("我最近总是睡不着，怎么办").words  // ["最近", "总是", "睡", "不着"]
    /// ```
    public var words: [String]
    /// How many characters of ``cleaned`` the model embeds when they do not all fit its window (a search
    /// embeds a query's first window only, so its cost stays bounded); `nil` when the model reads all of them.
    /// The keyword arm always uses every word.
    public var modelCharacters: Int?

    /// Creates an analysis.
    public init(
        original: String, cleaned: String, language: String, keywords: [String], terms: [String],
        words: [String]? = nil, modelCharacters: Int? = nil
    ) {
        self.original = original
        self.cleaned = cleaned
        self.language = language
        self.keywords = keywords
        self.terms = terms
        self.words = words ?? terms
        self.modelCharacters = modelCharacters
    }

    /// Decodes an analysis; one encoded before ``words`` existed shows its ``terms``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        original = try container.decode(String.self, forKey: .original)
        cleaned = try container.decode(String.self, forKey: .cleaned)
        language = try container.decode(String.self, forKey: .language)
        keywords = try container.decode([String].self, forKey: .keywords)
        terms = try container.decode([String].self, forKey: .terms)
        words = try container.decodeIfPresent([String].self, forKey: .words) ?? terms
        modelCharacters = try container.decodeIfPresent(Int.self, forKey: .modelCharacters)
    }
}

/// Splits a query into searchable words: lower-cased, stop words removed, English words stemmed.
///
/// Link and mention placeholders (`[link]`, `@user`) are not search words. A Chinese query loses its question
/// words (`ChineseQuestionWords`: "失眠怎么办" searches "失眠"). When a query is made only of stop words
/// ("what is it"), its words are kept so that it still matches.
///
/// ```swift
/// let analyzer = QueryAnalyzer()
/// analyzer.analyze("Wie war das Treffen gestern?").terms  // ["treffen"]
/// ```
public struct QueryAnalyzer: Sendable {
    /// How the query's language is identified.
    public var languages: LanguageIdentifier
    private let cleaner = TextCleaner()

    /// Creates an analyzer.
    ///
    /// ```swift
    /// let analyzer = QueryAnalyzer(languages: LanguageIdentifier(defaultLanguage: "en"))
    /// ```
    public init(languages: LanguageIdentifier = .init()) {
        self.languages = languages
    }

    /// Analyzes one query.
    ///
    /// ```swift
    /// QueryAnalyzer().analyze("the connections between friends").keywords  // ["connect", "friend"]
    /// ```
    ///
    /// - Complexity: O(n) in the length of the query.
    public func analyze(_ query: String) -> QueryAnalysis {
        analyze(query, fallbackLanguage: nil)
    }

    /// Analyzes one query; a short query whose language the words do not show gets `fallbackLanguage` (a
    /// store's most common language) rather than a guess from a few letters
    /// (``LanguageIdentifier/identifyQuery(_:fallback:shortQueryWords:)``).
    ///
    /// ```swift
    /// QueryAnalyzer().analyze("quantum chromodynamics lattice gauge", fallbackLanguage: "en").language  // "en"
    /// ```
    public func analyze(_ query: String, fallbackLanguage: String?) -> QueryAnalysis {
        let cleaned = cleaner.clean(query)
        let language = languages.identifyQuery(cleaned, fallback: fallbackLanguage)
        // The placeholders of links and mentions match every such document; they are not search words.
        let words = KeywordText.words(
            cleaned.replacingOccurrences(of: "[link]", with: " ").replacingOccurrences(of: "@user", with: " "))
        let stopWords = StopWords.set(for: language)
        var terms = Self.unique(words.filter { !stopWords.contains($0) && !Self.isStrayLetter($0) })
        if LanguageTag.primary(language) == "zh" {
            // A Chinese question's Han run holds its question words ("失眠怎么办"): the words it is about remain.
            terms = Self.unique(terms.flatMap(ChineseQuestionWords.pieces(of:)))
        }
        if terms.isEmpty { terms = Self.unique(words) }
        let stems = language == "en" || language == "und" || language == languages.defaultLanguage
        let keywords = stems ? Self.unique(terms.map(Self.stem)) : terms
        return QueryAnalysis(
            original: query, cleaned: cleaned, language: language, keywords: keywords, terms: terms,
            words: Self.shownWords(terms, stopWords: stopWords))
    }

    /// Words of Chinese and Japanese that say how a sentence is built, not what it is about (a pronoun, a
    /// particle, an ending): left out of what ``QueryAnalysis/words`` shows.
    static let functionWords: Set<String> = [
        "我", "你", "他", "她", "它", "的", "了", "是", "在", "吗", "呢", "吧", "啊", "和", "也", "都", "就", "很",
        "で", "に", "を", "は", "が", "の", "と", "も", "し", "て", "た", "ます", "です", "てい", "ている", "か", "な",
    ]

    /// The terms as a person reads them: each run of a script written without spaces cut into its words
    /// (``WordSegmenter``), stop words left out again (我, の), the run kept whole where no segmenter is.
    static func shownWords(_ terms: [String], stopWords: Set<String>) -> [String] {
        var shown: [String] = []
        for term in terms {
            guard term.unicodeScalars.contains(where: KeywordText.isBigrammed),
                let words = WordSegmenter.words(in: term), !words.isEmpty
            else {
                shown.append(term)
                continue
            }
            shown += words.map { $0.lowercased() }.filter {
                !stopWords.contains($0) && !Self.functionWords.contains($0)
            }
        }
        return unique(shown.isEmpty ? terms : shown)
    }

    /// The stem of one word exactly as the keyword index stores it: lower-cased, Latin diacritics removed,
    /// then Porter-stemmed the way SQLite FTS5's `porter unicode61 remove_diacritics 2` tokenizer does it
    /// (see `KeywordStemmer`), so two words share a stem here exactly when the index matches one with the other.
    ///
    /// ```swift
    /// QueryAnalyzer.stem("relational")  // "relat"
    /// QueryAnalyzer.stem("ponies")      // "poni"
    /// QueryAnalyzer.stem("Cafés")       // "cafe"
    /// QueryAnalyzer.stem("1990s")       // "1990"
    /// ```
    public static func stem(_ word: String) -> String {
        KeywordStemmer.stem(word)
    }

    private static func isStrayLetter(_ word: String) -> Bool {
        word.count == 1 && word.unicodeScalars.allSatisfy { $0.isASCII && $0.properties.isAlphabetic }
    }

    private static func unique(_ words: [String]) -> [String] {
        var seen: Set<String> = []
        return words.filter { seen.insert($0).inserted }
    }
}
