import ArgumentParser
import Foundation
import Hush
import HushToolSupport

/// The ranking modes of `--mode`.
enum ModeArgument: String, ExpressibleByArgument, CaseIterable {
    case semantic, keyword, hybrid, calibrated, rrf

    /// The library's mode for this argument; `alpha` (`--alpha`) fixes the hybrid weight.
    func searchMode(alpha: Float?) -> SearchMode {
        switch self {
        case .semantic: .semantic
        case .keyword: .keyword
        case .hybrid: alpha.map { SearchMode.hybrid(alpha: $0) } ?? .hybrid
        case .calibrated: .calibrated
        case .rrf: .reciprocalRankFusion()
        }
    }
}

/// `hush search`: semantic, keyword or hybrid search of a database.
struct SearchCommand: AsyncParsableCommand {

    /// The lift a hit's language shift gave it, as printed: `+0.000` for none, never `-0.000` (a document in the
    /// query's own language has a shift of 0, whose negation is -0).
    static func lift(_ shift: Float) -> Float {
        let lift = -shift
        return abs(lift) < 0.0005 ? 0 : lift
    }
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search a database by meaning, by keywords, or both.",
        discussion: """
            Filters: --filter language=en, type=note, tag=work (any), tags=a,b (all), category=health, \
            after=2026-01-01, before=2026-02-01, meta.KEY=value. Filters apply before ranking.
            """)

    @OptionGroup var store: StoreArguments

    @Option(
        help: ArgumentHelp(
            """
            Ranking: semantic, keyword, hybrid (min-max normalised convex fusion), calibrated (hybrid scored \
            by the estimated probability of relevance) or rrf (reciprocal rank fusion).
            """,
            discussion:
                "Default hybrid; keyword when the database's model is not loaded (not installed, or a model folder not given with --model)."
        ))
    var mode: ModeArgument?

    @Option(name: [.customLong("k"), .customLong("limit")], help: "Number of results.")
    var limit = 10

    @Option(name: .customLong("filter"), help: "A filter, key=value (repeatable).")
    var filters: [String] = []

    @Option(help: "Weight of the semantic arm in hybrid mode, 0...1.")
    var alpha: Float?

    @Option(help: "Drop results scoring below this (a calibrated score is comparable across queries).")
    var minScore: Float?

    @Option(
        help: ArgumentHelp(
            "Drop results whose estimated probability of relevance is below this, 0...1, in every mode.",
            discussion: "The good-match threshold is printed with --json (goodMatchThreshold)."))
    var minRelevance: Float?

    @Flag(help: "Print JSON (schema in docs/cli.md).")
    var json = false

    @Flag(
        help: """
            Print the good matches as a language model's context: the question, then numbered passages under \
            their citations (title, field, day), within --context-tokens.
            """)
    var context = false

    @Option(help: "The most tokens the --context takes (counted by the database's model).")
    var contextTokens = 1_000

    @Flag(help: "Show each arm's rank and score, the boosts and the final score.")
    var explain = false

    @Flag(help: "Re-order the results by maximal marginal relevance so near-duplicates do not crowd the top.")
    var diverse = false

    @Option(help: "The MMR weight on relevance for --diverse, 0...1 (implies --diverse; default 0.7).")
    var lambda: Float?

    @Flag(
        help: """
            Search as you type: the query's last word, unless a space follows it, also matches as the start of a \
            longer word in the keyword arm, and the semantic arm embeds the words before it.
            """)
    var asYouType = false

    @Flag(
        inversion: .prefixedNo,
        help: """
            With a multilingual model, lift the documents of the store's other languages toward the query's own \
            (the default; as far as the query's language holds as many documents as the largest other), so that \
            a query finds what it means in every language. --no-across-languages scores by the model's cosines \
            as they are, which favour the query's language.
            """)
    var acrossLanguages = true

    @Option(
        help: ArgumentHelp(
            "The day that \"today\", \"last week\" and other times relative to it are read from, YYYY-MM-DD.",
            discussion: "Default: today, in this machine's time zone."))
    var today: String?

    @Argument(help: "The query.")
    var query: [String]

    func validate() throws {
        // An empty box is a query as you type (no results); on its own, a blank query is a mistake.
        if !asYouType, query.joined().allSatisfy(\.isWhitespace) {
            throw ValidationError("the query is empty: give the words to search for")
        }
        if limit < 1 { throw ValidationError("--k must be at least 1") }
        if let alpha, !(0...1).contains(alpha) { throw ValidationError("--alpha must lie between 0 and 1") }
        if alpha != nil, (mode ?? .hybrid) != .hybrid {
            throw ValidationError("--alpha only applies to --mode hybrid")
        }
        if let minScore, !minScore.isFinite { throw ValidationError("--min-score must be a finite number") }
        if let minRelevance, !(0...1).contains(minRelevance) {
            throw ValidationError("--min-relevance is a probability: give a number between 0 and 1")
        }
        if let lambda, !(0...1).contains(lambda) { throw ValidationError("--lambda must lie between 0 and 1") }
        if contextTokens < 16 { throw ValidationError("--context-tokens must be at least 16") }
        _ = try todayDate()
    }

    /// `--today`'s day at midnight in this machine's time zone, the zone the library reads "today" in.
    func todayDate() throws -> Date? {
        guard let today else { return nil }
        let parts = today.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        guard parts.count == 3, let year = parts[0], let month = parts[1], let day = parts[2],
            (1...9999).contains(year), (1...12).contains(month), (1...31).contains(day),
            let date = calendar.date(from: DateComponents(year: year, month: month, day: day)),
            calendar.component(.day, from: date) == day
        else {
            throw ValidationError("--today \(today): give a day as YYYY-MM-DD, for example 2026-03-01")
        }
        return date
    }

    func searchMode(_ mode: ModeArgument) -> SearchMode {
        var chosen = mode.searchMode(alpha: alpha)
        chosen.asYouType = asYouType
        chosen.acrossLanguages = acrossLanguages
        return chosen
    }

    func run() async throws {
        let text = query.joined(separator: " ")
        let filter = try FilterParsing.filter(from: filters)
        let hush = try await store.open(.read)
        var mode = self.mode ?? .hybrid
        if self.mode == nil, !hush.semanticAvailable {
            mode = .keyword
            Console.error(
                StoreModelResolver.findsModel(of: hush.identity)
                    ? "note: the database's model is not loaded here, so this is a keyword search"
                    : "note: the database was made with \(hush.identity.model), a model Hush cannot find by itself "
                        + "(pass its folder with --model FOLDER), so this is a keyword search")
        }
        let searchMode = searchMode(mode)
        let boosts = Boosts(today: try todayDate())
        if let note = await FilterParsing.noMatchNote(filter, arguments: filters, in: hush) { Console.error(note) }
        let results =
            diverse || lambda != nil
            ? try await hush.search(
                text, mode: searchMode, filter: filter, limit: limit, minScore: minScore, minRelevance: minRelevance,
                boosts: boosts, explain: explain, diversify: lambda ?? 0.7)
            : try await hush.search(
                text, mode: searchMode, filter: filter, limit: limit, minScore: minScore, minRelevance: minRelevance,
                boosts: boosts, explain: explain)
        let analysis = explain ? hush.analyze(text) : nil
        let answerContext = context ? hush.answerContext(for: results, tokenBudget: contextTokens) : nil
        if json {
            Console.json(
                try SearchOutput.json(
                    query: text, mode: mode.rawValue, results: results, analysis: analysis, context: answerContext))
        } else if let answerContext {
            Console.out(
                answerContext.goodMatch
                    ? answerContext.prompt
                    : "no good match: nothing stored answers \(JSONOutput.quoted(text)), so there is no context")
        } else {
            if let analysis { Console.out(SearchOutput.text(analysis: analysis)) }
            Console.out(SearchOutput.text(results: results, explain: explain))
        }
    }
}

/// How search results are printed.
enum SearchOutput {
    /// The results as one line of JSON, the schema of docs/cli.md.
    static func json(
        query: String, mode: String, results: SearchResults, analysis: QueryAnalysis? = nil,
        context: AnswerContext? = nil
    ) throws -> String {
        try JSONOutput.line(
            SearchJSON(query: query, mode: mode, results: results, analysis: analysis, context: context))
    }

    static func text(analysis: QueryAnalysis) -> String {
        // The words as the person typed them (stop words left out); the stems matched are internal.
        "query: \(JSONOutput.quoted(analysis.cleaned))  language: \(analysis.language)  keywords: "
            + (analysis.terms.isEmpty ? "(none)" : analysis.terms.map(Console.escaped).joined(separator: ", "))
            + (analysis.modelCharacters.map {
                "\nthe model reads the first \($0) of \(analysis.cleaned.count) characters (one window); keywords use all"
            } ?? "")
    }

    /// Whether the query's words are shown in bold: on a terminal, unless `NO_COLOR` is set.
    static var marksWords: Bool {
        isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) != false
    }

    /// How many characters of a passage fill about 160 columns of a terminal: 160 of Latin text, about 80 of
    /// Chinese, Japanese or Korean, whose characters take two columns each.
    static func snippetLength(_ passage: String) -> Int {
        var characters = 0
        var wide = 0
        for scalar in passage.unicodeScalars.prefix(480) {
            characters += 1
            switch scalar.value {
            case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
                0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
                wide += 1
            default:
                break
            }
        }
        return characters == 0 ? 160 : Int((160 / (1 + Double(wide) / Double(characters))).rounded())
    }

    /// A snippet on one line, its highlights in bold when `marked`.
    static func shown(_ snippet: SearchHit.Snippet, marked: Bool) -> String {
        var line = ""
        var position = snippet.text.startIndex
        for range in snippet.highlights where marked {
            line += snippet.text[position..<range.lowerBound] + "\u{1B}[1m" + snippet.text[range] + "\u{1B}[0m"
            position = range.upperBound
        }
        line += snippet.text[position...]
        return String(line.map { $0.isNewline ? " " : $0 })
    }

    static func text(results: SearchResults, explain: Bool) -> String {
        guard !results.hits.isEmpty else { return "no results" }
        var lines: [String] = []
        for (rank, hit) in results.hits.enumerated() {
            let title = hit.title.map { " " + Console.escaped($0) } ?? ""
            lines.append(String(format: "%2d. %.3f  ", rank + 1, hit.score) + "[\(Console.escaped(hit.id))]\(title)")
            lines.append("    " + shown(hit.snippet(maxLength: snippetLength(hit.passage)), marked: marksWords))
            if explain, let e = hit.explanation {
                func show(_ value: Float?) -> String { value.map { String(format: "%.3f", $0) } ?? "-" }
                func show(_ value: Int?) -> String { value.map(String.init) ?? "-" }
                let shift = e.languageShift.map { String(format: " (language shift %+.3f)", SearchCommand.lift($0)) }
                lines.append(
                    "    semantic: rank \(show(e.semanticRank)) score \(show(e.semanticScore)) norm \(show(e.semanticNormalized))"
                        + (shift ?? "")
                        + " | keyword: rank \(show(e.keywordRank)) bm25 \(show(e.keywordScore)) norm \(show(e.keywordNormalized))"
                )
                if let evidence = e.evidence, let calibration = e.calibration, let relevance = hit.relevance {
                    lines.append(
                        String(
                            format: "    evidence: cosine %.3f, standing %.2f sd, keyword %.3f -> p(relevant) %.3f",
                            evidence.cosine, evidence.standing, evidence.keyword, relevance)
                            + " (\(calibration))")
                }
                let tags = e.matchedTags.isEmpty ? "" : " (\(e.matchedTags.joined(separator: ", ")))"
                let month = e.timeBoost == 0 ? "" : " + time \(String(format: "%.3f", e.timeBoost))"
                lines.append(
                    "    base \(String(format: "%.3f", e.baseScore)) + tags \(String(format: "%.3f", e.tagBoost))\(tags)"
                        + " + category \(String(format: "%.3f", e.categoryBoost))\(month)"
                        + " = \(String(format: "%.3f", e.finalScore))"
                )
            }
        }
        if !results.goodMatch, let best = results.hits.first?.relevance, let threshold = results.goodMatchThreshold {
            lines.append(
                String(
                    format: "no good match: the best hit's estimated relevance %.3f is below %.3f", best, threshold))
        }
        if !results.unmentionedNames.isEmpty {
            lines.append("not mentioned in the store: " + results.unmentionedNames.joined(separator: ", "))
        }
        let t = results.timings
        let count = results.hits.count == 1 ? "1 result" : "\(results.hits.count) results"
        lines.append(
            "(\(count); "
                + String(format: "embed %.1f ms, search %.1f ms, total %.1f ms)", t.embedMs, t.searchMs, t.totalMs))
        return lines.joined(separator: "\n")
    }
}

/// `hush search --json`: the query, the mode, the analysis (with `--explain`), the hits (in the library's own
/// JSON shape: SearchHit+Codable.swift) and the timings.
struct SearchJSON: Encodable {
    var query: String
    var mode: String
    var results: SearchResults
    var analysis: QueryAnalysis?
    var context: AnswerContext?

    enum CodingKeys: String, CodingKey {
        case query, mode, analysis, results, timings, goodMatch, goodMatchThreshold, unmentionedNames, context
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(query, forKey: .query)
        try container.encode(mode, forKey: .mode)
        try container.encode(results.goodMatch, forKey: .goodMatch)
        try container.encode(results.goodMatchThreshold.map(JSONNumber.init), forKey: .goodMatchThreshold)
        try container.encode(results.unmentionedNames, forKey: .unmentionedNames)
        try container.encodeIfPresent(analysis.map(Analysis.init), forKey: .analysis)
        try container.encode(results.hits, forKey: .results)
        try container.encode(Timings(results.timings), forKey: .timings)
        try container.encodeIfPresent(context.map(Context.init), forKey: .context)
    }

    /// `context` (`--context`): the prompt, its token count and its numbered passages with their citations.
    struct Context: Encodable {
        var context: AnswerContext

        init(_ context: AnswerContext) { self.context = context }

        enum CodingKeys: String, CodingKey {
            case prompt, tokens, passages
        }

        struct Passage: Encodable {
            var number: Int
            var id: String
            var title: String?
            var field: String?
            var date: String
            var text: String
            var trimmed: Bool
            var relevance: JSONNumber?
            var citation: String
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(context.prompt, forKey: .prompt)
            try container.encode(context.tokenCount, forKey: .tokens)
            try container.encode(
                context.passages.map {
                    Passage(
                        number: $0.number, id: $0.id, title: $0.title, field: $0.field,
                        date: RecordDate.formatDay($0.date), text: $0.text, trimmed: $0.isTrimmed,
                        relevance: $0.relevance.map(JSONNumber.init), citation: $0.citation)
                }, forKey: .passages)
        }
    }

    /// What the query says (`--explain`); not the query as given, which is `query`.
    struct Analysis: Encodable {
        var analysis: QueryAnalysis

        init(_ analysis: QueryAnalysis) { self.analysis = analysis }

        enum CodingKeys: String, CodingKey {
            case cleaned, language, keywords, terms
            case modelCharacters = "model_characters"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(analysis.cleaned, forKey: .cleaned)
            try container.encode(analysis.language, forKey: .language)
            try container.encode(analysis.keywords, forKey: .keywords)
            try container.encode(analysis.terms, forKey: .terms)
            try container.encodeIfPresent(analysis.modelCharacters, forKey: .modelCharacters)
        }
    }

    /// Milliseconds per stage.
    struct Timings: Encodable {
        var embedMs: JSONNumber
        var searchMs: JSONNumber
        var totalMs: JSONNumber

        init(_ timings: SearchResults.Timings) {
            embedMs = JSONNumber(timings.embedMs)
            searchMs = JSONNumber(timings.searchMs)
            totalMs = JSONNumber(timings.totalMs)
        }

        enum CodingKeys: String, CodingKey {
            case embedMs = "embed_ms"
            case searchMs = "search_ms"
            case totalMs = "total_ms"
        }
    }
}
