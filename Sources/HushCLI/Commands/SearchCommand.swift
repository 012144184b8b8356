import ArgumentParser
import Foundation
import Hush
import HushToolSupport

/// The ranking modes of `--mode`.
enum ModeArgument: String, ExpressibleByArgument, CaseIterable {
    case semantic, keyword, hybrid, calibrated, rrf
}

/// `hush search`: semantic, keyword or hybrid search of a database.
struct SearchCommand: AsyncParsableCommand {
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
            discussion: "Default hybrid; keyword when the database's model is not installed."))
    var mode: ModeArgument?

    @Option(name: .customLong("k"), help: "Number of results.")
    var limit = 10

    @Option(name: .customLong("filter"), help: "A filter, key=value (repeatable).")
    var filters: [String] = []

    @Option(help: "Weight of the semantic arm in hybrid mode, 0...1.")
    var alpha: Float?

    @Option(help: "Drop results scoring below this (a calibrated score is comparable across queries).")
    var minScore: Float?

    @Flag(help: "Print JSON (schema in docs/cli.md).")
    var json = false

    @Flag(help: "Show each arm's rank and score, the boosts and the final score.")
    var explain = false

    @Flag(help: "Re-order the results by maximal marginal relevance so near-duplicates do not crowd the top.")
    var diverse = false

    @Option(help: "The MMR weight on relevance for --diverse, 0...1 (implies --diverse; default 0.7).")
    var lambda: Float?

    @Argument(help: "The query.")
    var query: [String]

    func validate() throws {
        if limit < 1 { throw ValidationError("--k must be at least 1") }
        if let alpha, !(0...1).contains(alpha) { throw ValidationError("--alpha must lie between 0 and 1") }
        if alpha != nil, (mode ?? .hybrid) != .hybrid {
            throw ValidationError("--alpha only applies to --mode hybrid")
        }
        if let minScore, !minScore.isFinite { throw ValidationError("--min-score must be a finite number") }
        if let lambda, !(0...1).contains(lambda) { throw ValidationError("--lambda must lie between 0 and 1") }
    }

    func searchMode(_ mode: ModeArgument) -> SearchMode {
        switch mode {
        case .semantic: .semantic
        case .keyword: .keyword
        case .hybrid: alpha.map { SearchMode.hybrid(alpha: $0) } ?? .hybrid
        case .calibrated: .calibrated
        case .rrf: .reciprocalRankFusion()
        }
    }

    func run() async throws {
        let text = query.joined(separator: " ")
        let filter = try FilterParsing.filter(from: filters)
        let hush = try await store.open(.read)
        var mode = self.mode ?? .hybrid
        if self.mode == nil, !hush.semanticAvailable {
            mode = .keyword
            Console.error("note: the database's model is not loaded here, so this is a keyword search")
        }
        let searchMode = searchMode(mode)
        let results =
            diverse || lambda != nil
            ? try await hush.search(
                text, mode: searchMode, filter: filter, limit: limit, minScore: minScore, explain: explain,
                diversify: lambda ?? 0.7)
            : try await hush.search(
                text, mode: searchMode, filter: filter, limit: limit, minScore: minScore, explain: explain)
        let analysis = explain ? hush.analyze(text) : nil
        if json {
            Console.out(SearchOutput.json(query: text, mode: mode.rawValue, results: results, analysis: analysis))
        } else {
            if let analysis { Console.out(SearchOutput.text(analysis: analysis)) }
            Console.out(SearchOutput.text(results: results, explain: explain))
        }
    }
}

/// How search results are printed.
enum SearchOutput {
    static func json(query: String, mode: String, results: SearchResults, analysis: QueryAnalysis? = nil) -> String {
        var line = JSONLine()
        line.add("query", query)
        line.add("mode", mode)
        if let analysis {
            var object = JSONLine()
            object.add("cleaned", analysis.cleaned)
            object.add("language", analysis.language)
            object.add("keywords", raw: "[" + analysis.keywords.map(JSONLine.quote).joined(separator: ",") + "]")
            object.add("terms", raw: "[" + analysis.terms.map(JSONLine.quote).joined(separator: ",") + "]")
            if let characters = analysis.modelCharacters { object.add("model_characters", characters) }
            line.add("analysis", raw: object.finish())
        }
        let hits = results.hits.map { hit -> String in
            var item = JSONLine()
            item.add("id", hit.id)
            item.add("score", Double(hit.score))
            if let title = hit.title { item.add("title", title) } else { item.add("title", raw: "null") }
            item.add("text", hit.text)
            item.add("chunk", hit.chunkOrdinal)
            item.add("range", raw: "[\(hit.range.lowerBound),\(hit.range.upperBound)]")
            item.add("passage_range", raw: "[\(hit.passageRange.lowerBound),\(hit.passageRange.upperBound)]")
            item.add("language", hit.language)
            if let type = hit.sourceType { item.add("type", type) }
            item.add("tags", raw: "[" + hit.tags.map(JSONLine.quote).joined(separator: ",") + "]")
            if let category = hit.category { item.add("category", category) }
            item.add("created", RecordDate.format(hit.createdAt))
            if let e = hit.explanation {
                var explanation = JSONLine()
                func optional(_ key: String, _ value: Float?) {
                    if let value { explanation.add(key, Double(value)) } else { explanation.add(key, raw: "null") }
                }
                func optional(_ key: String, _ value: Int?) {
                    if let value { explanation.add(key, value) } else { explanation.add(key, raw: "null") }
                }
                optional("semantic_rank", e.semanticRank)
                optional("semantic_score", e.semanticScore)
                optional("semantic_normalized", e.semanticNormalized)
                optional("keyword_rank", e.keywordRank)
                optional("keyword_score", e.keywordScore)
                optional("keyword_normalized", e.keywordNormalized)
                if let evidence = e.evidence, let calibration = e.calibration {
                    var object = JSONLine()
                    object.add("cosine", Double(evidence.cosine))
                    object.add("standing", Double(evidence.standing))
                    object.add("keyword", Double(evidence.keyword))
                    object.add("calibration", calibration)
                    explanation.add("evidence", raw: object.finish())
                }
                explanation.add("base_score", Double(e.baseScore))
                explanation.add(
                    "matched_tags", raw: "[" + e.matchedTags.map(JSONLine.quote).joined(separator: ",") + "]")
                explanation.add("tag_boost", Double(e.tagBoost))
                explanation.add("category_boost", Double(e.categoryBoost))
                explanation.add("final_score", Double(e.finalScore))
                item.add("explain", raw: explanation.finish())
            }
            return item.finish()
        }
        line.add("results", raw: "[" + hits.joined(separator: ",") + "]")
        var timings = JSONLine()
        timings.add("embed_ms", results.timings.embedMs)
        timings.add("search_ms", results.timings.searchMs)
        timings.add("total_ms", results.timings.totalMs)
        line.add("timings", raw: timings.finish())
        return line.finish()
    }

    static func text(analysis: QueryAnalysis) -> String {
        // The words as the person typed them (stop words left out); the stems matched are internal.
        "query: \(JSONLine.quote(analysis.cleaned))  language: \(analysis.language)  keywords: "
            + (analysis.terms.isEmpty ? "(none)" : analysis.terms.map(Console.escaped).joined(separator: ", "))
            + (analysis.modelCharacters.map {
                "\nthe model reads the first \($0) of \(analysis.cleaned.count) characters (one window); keywords use all"
            } ?? "")
    }

    static func text(results: SearchResults, explain: Bool) -> String {
        guard !results.hits.isEmpty else { return "no results" }
        var lines: [String] = []
        for (rank, hit) in results.hits.enumerated() {
            let title = hit.title.map { " " + Console.escaped($0) } ?? ""
            lines.append(String(format: "%2d. %.3f  ", rank + 1, hit.score) + "[\(Console.escaped(hit.id))]\(title)")
            let snippet = hit.text.replacingOccurrences(of: "\n", with: " ")
            lines.append("    " + (snippet.count > 160 ? String(snippet.prefix(157)) + "..." : snippet))
            if explain, let e = hit.explanation {
                func show(_ value: Float?) -> String { value.map { String(format: "%.3f", $0) } ?? "-" }
                func show(_ value: Int?) -> String { value.map(String.init) ?? "-" }
                lines.append(
                    "    semantic: rank \(show(e.semanticRank)) score \(show(e.semanticScore)) norm \(show(e.semanticNormalized))"
                        + " | keyword: rank \(show(e.keywordRank)) bm25 \(show(e.keywordScore)) norm \(show(e.keywordNormalized))"
                )
                if let evidence = e.evidence, let calibration = e.calibration {
                    lines.append(
                        String(
                            format: "    evidence: cosine %.3f, standing %.2f sd, keyword %.3f -> p(relevant) %.3f",
                            evidence.cosine, evidence.standing, evidence.keyword, e.baseScore)
                            + " (\(calibration))")
                }
                let tags = e.matchedTags.isEmpty ? "" : " (\(e.matchedTags.joined(separator: ", ")))"
                lines.append(
                    "    base \(String(format: "%.3f", e.baseScore)) + tags \(String(format: "%.3f", e.tagBoost))\(tags)"
                        + " + category \(String(format: "%.3f", e.categoryBoost)) = \(String(format: "%.3f", e.finalScore))"
                )
            }
        }
        let t = results.timings
        lines.append(
            String(
                format: "(%d results; embed %.1f ms, search %.1f ms, total %.1f ms)", results.hits.count, t.embedMs,
                t.searchMs, t.totalMs))
        return lines.joined(separator: "\n")
    }
}
