import Foundation

/// The stems a tag and a category may be made of to get their boosts (``Searcher/boostWords(_:query:boosts:)``).
struct BoostWords: Sendable {
    var tags: Set<String>
    var category: Set<String>
    /// The times the query names: months, years, days relative to today (``CalendarWords/NamedTimes``); empty
    /// when ``Boosts/namedTime`` is 0.
    var times = CalendarWords.NamedTimes()
}

/// Everything one search needs, worked out once before memory or the file is read: the query's keywords, its
/// vector and keyword expression, the fusion resolved for its language (weight or calibration), and the limits.
/// ``Searcher`` builds it (`plan(_:mode:filter:limit:minScore:minRelevance:boosts:explain:)`) and then executes it.
struct SearchPlan {
    var kind: SearchMode.Kind
    /// The fusion with the store's choices made: the weight for the query's language, the calibration.
    var fusion: ResolvedFusion
    /// The calibration table's name when the fusion is calibrated, for the hits' explanations.
    var calibrationName: String?
    var filter: SearchFilter
    /// The query's vector; `nil` for a keyword search or a blank query.
    var queryVector: [Float]?
    /// The keyword arm's expression; `nil` for a semantic search or a query without terms.
    var keyword: FTSExpression?
    /// How many candidates each arm returns (clamped to the number of documents).
    var pool: Int
    /// How many hits the search returns (clamped to the number of documents).
    var limit: Int
    var minScore: Float?
    /// The lowest ``SearchHit/relevance`` kept, `nil` for no floor.
    var minRelevance: Float?
    /// The model's calibration for the query's language, with which every hit's relevance is estimated
    /// whatever the mode; `nil` without a query vector or a table for the model.
    var relevance: Relevance?
    var boosts: Boosts
    /// The keyword index's stems of the words a tag and a category may be made of to be boosted: the query's and
    /// the app's hints (``boostWords(_:query:boosts:)``).
    var boostWords: BoostWords
    /// What marks the query's words in the hits (``SearchHit/highlights``).
    var highlighter = KeywordHighlighter(terms: [])
    /// The kinds of labelled field the query asks for (its question word): a record is shown by its field of
    /// that kind (``FieldQuestion``).
    var asked = FieldQuestion.Asked("")
    /// Whether the hits carry their explanation.
    var explain: Bool
    /// Whether the documents of the store's other languages are lifted toward the query's
    /// (``SearchMode/acrossLanguages``).
    var acrossLanguages = true
    /// How long embedding the query took: 0 when its vector came from the cache (`embedded` false).
    var embedMilliseconds: Double
    var embedded: Bool
    /// What the query excludes with a minus (`flying -fish`): the documents it matches are left out of every
    /// arm (``FTSQuery/exclusion(_:)``); `nil` when nothing is.
    var excluded: FTSExpression?

    /// How a search estimates the probability that a hit is relevant: a calibration table's coefficients for the
    /// query's language and the table's threshold of a good match (``ScoreCalibration/recommendedMinScore``),
    /// `nil` in a store too small to tell how far a hit stands out (``smallestForGoodMatch``).
    struct Relevance {
        var coefficients: ScoreCalibration.Coefficients
        var threshold: Float?
        /// The names the query gives that no chunk of the store holds (``UnmentionedNames``): each divides the
        /// odds of relevance of every hit written in their script.
        var unmentionedNames: [String] = []

        /// The log-odds taken from the relevance of a hit in `language` for the unmentioned names.
        func logOddsPenalty(language: String) -> Float {
            unmentionedNames.isEmpty || !UnmentionedNames.writesLatin(language)
                ? 0 : UnmentionedNames.logOddsPenalty(unmentionedNames.count)
        }
    }

    /// The fewest chunks a store holds for its hits' relevance to say whether the best is a good match: the
    /// estimate weighs how far a hit's cosine stands above the query's cosines over the store, and among a few
    /// dozen entries even a plain answer hardly stands out (a planner of 13 records put every answer below the
    /// threshold).
    static let smallestForGoodMatch = 100

    /// The calibration's coefficients when the fusion is calibrated.
    var calibration: ScoreCalibration.Coefficients? {
        if case .calibrated(let coefficients) = fusion { return coefficients }
        return nil
    }

    /// Whether there is nothing to look for (a blank query, or one without terms in a keyword search).
    var isEmpty: Bool { queryVector == nil && keyword == nil }
}

extension Searcher {
    /// Checks a search's arguments and builds its plan: the query analysed once, its fusion resolved for its
    /// language, its vector embedded (outside any lock; cached) and its keyword expression made.
    ///
    /// - Throws: ``SearchError`` for a bad limit or fusion, a store whose vectors the embedder cannot compare
    ///   with, or a failed query embedding.
    func plan(
        _ query: String, mode: SearchMode, filter: SearchFilter, limit: Int, minScore: Float?, minRelevance: Float?,
        boosts: Boosts, explain: Bool
    ) throws -> SearchPlan {
        guard limit > 0 else { throw SearchError.invalidLimit(limit) }
        if let minScore, minScore.isNaN { throw SearchError.invalidFusion("minScore is NaN: give a number") }
        if let minRelevance, !(0...1).contains(minRelevance) {
            throw SearchError.invalidFusion(
                "minRelevance is an estimated probability: give a number in 0…1 (got \(minRelevance))")
        }
        guard mode.candidates > 0 else { throw SearchError.invalidLimit(mode.candidates) }
        switch mode.fusion {
        case .convex(let alpha, _) where !(0...1).contains(alpha) || alpha.isNaN:
            throw SearchError.invalidFusion("alpha must lie in 0…1 (got \(alpha))")
        case .reciprocalRank(let k) where k <= 0:
            throw SearchError.invalidFusion("the RRF constant k must be positive (got \(k))")
        default:
            break
        }

        // What the query excludes is not searched for: the rest of it is the query.
        let exclusion = FTSQuery.exclusion(query)
        let query = exclusion.kept
        // Without its keyword index (a damaged file, read-only until a writable open rebuilds it) a hybrid
        // search answers by meaning alone; what needs the index says so.
        let keywordIndexMissing = try database.keywordIndexIsMissing()
        if keywordIndexMissing, mode.kind == .keyword || exclusion.excluded != nil {
            throw StoreError.keywordIndexMissing(path: database.path ?? ":memory:")
        }
        let analysis = analyze(query)
        let (fusion, calibrationName) = ResolvedFusion.resolve(
            mode.fusion, embedder: embedder, queryLanguage: analysis.language)
        // As you type: a last word the index does not hold as it is matches as a prefix, and the arms look for
        // the words before it.
        var searched = (text: query, analysis: analysis, prefix: [String]())
        var typing: String?
        if mode.asYouType, !keywordIndexMissing, let partial = FTSQuery.partialLastWord(query),
            try !database.readKeywordIndex({ try $0.matchesAny(FTSQuery.quote(partial.word)) })
        {
            let before = String(partial.before)
            searched = (before, analyze(before), FTSQuery.prefixTokens(partial.word))
            typing = partial.word
            // A semantic search has only its vector: with no whole word yet, it embeds what was typed.
            if mode.kind == .semantic, before.allSatisfy(\.isWhitespace) { searched = (query, analysis, []) }
        }
        let trimmed = searched.text.trimmingCharacters(in: .whitespacesAndNewlines)
        var plan = SearchPlan(
            kind: mode.kind, fusion: fusion, calibrationName: calibrationName, filter: filter, queryVector: nil,
            keyword: nil, pool: memory.clampedLimit(max(limit, mode.candidates)), limit: memory.clampedLimit(limit),
            minScore: minScore, minRelevance: minRelevance, boosts: boosts,
            boostWords: Self.boostWords(analysis, query: trimmed, boosts: boosts),
            highlighter: KeywordHighlighter(
                terms: Self.keywordTerms(searched.analysis, query: trimmed), typing: typing),
            explain: explain,
            acrossLanguages: mode.acrossLanguages,
            embedMilliseconds: 0, embedded: false, excluded: exclusion.excluded)
        plan.asked = FieldQuestion.Asked(query)
        if mode.kind != .keyword && !trimmed.isEmpty {
            if let blocker = try memory.readyForSemantic(current: embedder.identity, database: database) {
                throw blocker
            }
            let clock = ContinuousClock()
            let start = clock.now
            let vector = try queryEmbedding(
                String(
                    Self.firstWindow(
                        of: Self.embeddedText(searched.analysis, query: searched.text), embedder: embedder)))
            plan.queryVector = vector.vector
            if let table = ScoreCalibration.builtIn(for: embedder.identity) {
                let rows = memory.read { $0.liveRows }
                plan.relevance = SearchPlan.Relevance(
                    coefficients: table.coefficients(forLanguage: analysis.language),
                    threshold: rows >= SearchPlan.smallestForGoodMatch ? table.recommendedMinScore : nil)
                // As you type, the word being typed is no name yet ("…the Mun").
                let names = UnmentionedNames.candidates(in: searched.text, language: analysis.language)
                if !keywordIndexMissing, !names.isEmpty {
                    // One read of the index for all of them.
                    plan.relevance?.unmentionedNames = try database.readKeywordIndex { index in
                        try names.filter { try !index.matchesAny(FTSQuery.quote($0.lowercased())) }
                    }
                }
            }
            if vector.embedded {
                plan.embedded = true
                plan.embedMilliseconds = Self.milliseconds(clock.now - start)
            }
        }
        if mode.kind != .semantic, !keywordIndexMissing {
            let words = keywordExpression(searched.analysis, query: trimmed)
            plan.keyword = searched.prefix.isEmpty ? words : FTSQuery.expression(words, adding: searched.prefix)
            // Each keystroke repeats the words typed before: their rows are read once (see
            // `KeywordIndexReader.rows(orOf:limit:documents:)`).
            plan.keyword?.readsTokensApart = mode.asYouType
        }
        // Only a word being typed: the keyword arm alone, scored as a keyword search.
        if mode.kind == .hybrid, plan.queryVector == nil, !searched.prefix.isEmpty { plan.kind = .keyword }
        return plan
    }

    /// What a query says, as search sees it: a short query whose words do not show its language takes the
    /// store's most common one.
    func analyze(_ query: String) -> QueryAnalysis {
        var analysis = analyzer.analyze(query, fallbackLanguage: memory.read { $0.dominantLanguage })
        let modelText = Self.firstWindow(of: Self.embeddedText(analysis, query: query), embedder: embedder)
        if modelText.endIndex < analysis.cleaned.endIndex { analysis.modelCharacters = modelText.count }
        return analysis
    }

    /// The text a query's vector is made from: the cleaned query, or the query as typed when cleaning left
    /// nothing.
    static func embeddedText(_ analysis: QueryAnalysis, query: String) -> String {
        analysis.cleaned.isEmpty ? query.trimmingCharacters(in: .whitespacesAndNewlines) : analysis.cleaned
    }

    /// The longest prefix of `text` (whole characters, without trailing whitespace) that fits the model's window
    /// with its role prefix and special tokens. A longer query would be embedded window by window (e5) or cut by
    /// the model anyway, at a cost that grows with its length (a 100,000-character query took 14 s), so a search
    /// embeds this prefix.
    ///
    /// - Complexity: O(n log n) in the prefix's length (token counts of doubling, then halving, prefixes).
    static func firstWindow(of text: String, embedder: any Embedder) -> Substring {
        let budget = max(8, embedder.maxTokens - 8)  // room for the query prefix, whatever the model's is
        // Every token but the special ones covers at least one byte, so a text this short always fits.
        if text.utf8.count <= budget { return text[...] }
        func fits(_ count: Int) -> Bool { embedder.tokenCount(String(text.prefix(count))) <= budget }
        var low = 0  // a prefix of `low` characters fits
        var high = budget  // the first probe
        while true {
            let prefix = text.prefix(high)
            if prefix.endIndex == text.endIndex {
                if fits(high) { return text[...] }
                break
            }
            guard fits(high) else { break }
            low = high
            high *= 2
        }
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if fits(middle) { low = middle } else { high = middle }
        }
        // A cut between two words would leave a space, which the model reads as a token of its own.
        var prefix = text.prefix(low)
        while prefix.last?.isWhitespace == true { prefix = prefix.dropLast() }
        return prefix
    }

    /// The vector a semantic search of `query` compares documents with (from the cache after such a search),
    /// for what compares other text with what was asked: the sentences of a query's summary.
    func queryVector(for query: String) throws -> [Float] {
        if let blocker = try memory.readyForSemantic(current: embedder.identity, database: database) {
            throw blocker
        }
        let query = FTSQuery.exclusion(query).kept
        let text = Self.firstWindow(of: Self.embeddedText(analyze(query), query: query), embedder: embedder)
        return try queryEmbedding(String(text)).vector
    }

    /// The query vector, from the cache (`embedded` false) or the embedder.
    func queryEmbedding(_ text: String) throws -> (vector: [Float], embedded: Bool) {
        if let cached = cache.value(for: text) { return (cached, false) }
        let vector: [Float]
        do {
            vector = try embedder.embed(text, role: .query).vector
        } catch let cancelled as CancellationError {
            throw cancelled
        } catch {
            throw SearchError.queryEmbeddingFailed(String(describing: error))
        }
        if let problem = VectorBlob.problem(vector, dimension: embedder.identity.dimension) {
            throw SearchError.queryEmbeddingFailed(problem)
        }
        cache.insert(vector, for: text)
        return (vector, true)
    }

    /// What the boosts match tags against: the stem the keyword index gives each of the query's words (the
    /// words the keyword arm searches for), whatever the query's language. The analyzer leaves the keywords of
    /// a query in another language unstemmed, but the index stems every word the same way.
    static func boostKeywords(_ analysis: QueryAnalysis) -> Set<String> {
        Set(analysis.terms.flatMap(FTSQuery.terms).map(QueryAnalyzer.stem))
    }

    /// The stems a boosted tag and category may be made of: the query's words (``boostKeywords(_:)``), and the
    /// words of the tags and the category the app hints at; and the times `query` names.
    static func boostWords(_ analysis: QueryAnalysis, query: String, boosts: Boosts) -> BoostWords {
        let words = boostKeywords(analysis)
        func stems(_ labels: [String]) -> Set<String> { Set(labels.flatMap(FTSQuery.terms).map(QueryAnalyzer.stem)) }
        return BoostWords(
            tags: words.union(stems(boosts.hintedTags)),
            category: words.union(stems(boosts.hintedCategory.map { [$0] } ?? [])),
            times: boosts.namedTime == 0
                ? CalendarWords.NamedTimes()
                : CalendarWords.NamedTimes(in: query, language: analysis.language, now: boosts.today ?? Date()))
    }

    /// The words the keyword arm searches for (and the hits mark): the analyzer's content words, each re-split
    /// the way the index tokenizes, or the query's own words when it has none.
    static func keywordTerms(_ analysis: QueryAnalysis, query: String) -> [String] {
        let terms = analysis.terms.flatMap(FTSQuery.terms)
        return terms.isEmpty ? FTSQuery.terms(query) : terms
    }

    /// The FTS5 expression for a query: the analyzer's content words (stop words removed; it keeps them
    /// when the query has nothing else), each re-split the way the index tokenizes, or the raw terms.
    /// A phrase the query puts in quotes (`"fear of flying"`) is one more alternative, its stop words kept, so
    /// that the documents that say it as written rank above those that only hold its words.
    func keywordExpression(_ analysis: QueryAnalysis, query: String) -> FTSExpression? {
        let words = FTSQuery.expression(terms: Self.keywordTerms(analysis, query: query))
        let phrases = FTSQuery.quotedPhrases(query)
        return phrases.isEmpty ? words : FTSQuery.expression(words, adding: phrases)
    }
}
