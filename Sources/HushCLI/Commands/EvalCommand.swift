import ArgumentParser
import Foundation
import Hush
import HushToolSupport

/// `hush eval`: retrieval quality on labelled queries.
struct EvalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Measure nDCG@10, MRR@10, Recall@10 and Recall@100 on labelled queries.",
        discussion: "Each line of the queries file: {\"query\": \"...\", \"relevant\": [\"doc-id\", ...]}.")

    @OptionGroup var store: StoreArguments

    @Option(help: "JSONL file of labelled queries.")
    var queries: String

    @Option(help: "Ranking: semantic, keyword, hybrid, calibrated or rrf.")
    var mode: ModeArgument = .hybrid

    @Option(help: "Weight of the semantic arm in hybrid mode, 0...1.")
    var alpha: Float?

    @Option(help: "Evaluate at most this many queries.")
    var limit: Int?

    @Flag(
        help: """
            Also ask each query with its relevant documents excluded (unanswerable), and report how well the first \
            hit's score tells the two apart: AUC, and what --min-score keeps of each.
            """)
    var unanswerable = false

    @Option(
        name: .customLong("min-score"),
        help: "The threshold the kept figures use (default: calibrated, the calibration's recommended min score).")
    var minScore: Float?

    @Option(help: "Write every hit's evidence (cosine, keyword evidence, relevance label) to this JSONL file.")
    var evidence: String?

    @Option(
        help: """
            The vector index to search through: exact, int8, binary or hnsw, built in memory at the open \
            (default: the store's own choice).
            """)
    var index: String?

    @Flag(
        inversion: .prefixedNo,
        help: "Search across the store's languages (the default; as hush search --no-across-languages when off).")
    var acrossLanguages = true

    @Flag(help: "Print one JSON object.")
    var json = false

    func validate() throws {
        if let index, IndexStrategy(rawValue: index) == nil {
            throw ValidationError("--index takes exact, int8, binary or hnsw (got \(index))")
        }
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        if let alpha, !(0...1).contains(alpha) { throw ValidationError("--alpha must lie between 0 and 1") }
    }

    func run() async throws {
        if let evidence, let reason = OutputFile.refusal(evidence, database: store.db, inputs: [queries]) {
            throw CommandLineMessage(
                description: "\(evidence) \(reason), so --evidence will not replace it: choose another file")
        }
        let labelled = try Self.readQueries(queries, limit: limit)
        let hush = try await store.open(.read, options: StoreOptions(indexStrategy: index.flatMap(IndexStrategy.init)))
        var chosen = mode.searchMode(alpha: alpha)
        chosen.acrossLanguages = acrossLanguages
        let searchMode = chosen
        let threshold =
            minScore ?? (searchMode.fusion == .calibrated ? hush.scoreCalibration?.recommendedMinScore : nil)
        let evidenceFile = try evidence.map { try EvidenceWriter(path: $0) }
        let progress = ProgressReporter(label: "evaluating", unit: "queries", quiet: json)
        let unanswerable = unanswerable
        let (metrics, separation) = try await Interruption.cancellingOnSignal(
            stopped: {
                progress.finish()
                let (done, total) = progress.reported
                return "\(done) of \(total) queries were evaluated before the stop; no scores are printed"
                    + (evidenceFile == nil ? "" : " (the evidence file holds those queries)")
            },
            resume: "run the same command again (it writes nothing to the store)"
        ) {
            var metrics = RetrievalMetrics()
            var separation = ScoreSeparation()
            let explain = evidenceFile != nil
            for (done, item) in labelled.enumerated() {
                try Task.checkCancellation()
                let relevant = Set(item.relevant)
                // Ranking quality is measured on the whole ranking: no threshold.
                let results = try await hush.search(
                    item.query, mode: searchMode, limit: 100, minScore: -.infinity, boosts: .none, explain: explain)
                metrics.add(ranked: results.hits.map(\.id), relevant: relevant)
                let language = explain ? hush.analyze(item.query).language : ""
                try evidenceFile?.write(query: item.query, language: language, answerable: true, results, relevant)
                if unanswerable {
                    let first = results.hits.first
                    separation.addAnswerable(
                        score: first?.score, correct: first.map { relevant.contains($0.id) } ?? false)
                    let without = try await hush.search(
                        // Only the first hit counts, unless every hit's evidence is written.
                        item.query, mode: searchMode, filter: SearchFilter(excludedIDs: relevant),
                        limit: explain ? 100 : 1, minScore: -.infinity, boosts: .none, explain: explain)
                    separation.addUnanswerable(score: without.hits.first?.score)
                    try evidenceFile?.write(
                        query: item.query, language: language, answerable: false, without, relevant)
                }
                progress.update(done: done + 1, total: labelled.count)
            }
            return (metrics, separation)
        }
        progress.finish()
        if json {
            Console.json(
                try JSONOutput.line(
                    EvalJSON(
                        metrics: metrics, mode: mode.rawValue, separation: unanswerable ? separation : nil,
                        threshold: threshold)))
        } else {
            Console.out("queries:    \(metrics.count) (\(mode.rawValue))")
            Console.out(String(format: "nDCG@10:    %.4f", metrics.ndcg10))
            Console.out(String(format: "MRR@10:     %.4f", metrics.mrr10))
            Console.out(String(format: "Recall@10:  %.4f", metrics.recall10))
            Console.out(String(format: "Recall@100: %.4f", metrics.recall100))
            if unanswerable {
                Console.out(
                    String(format: "AUC of the first hit's score, answerable vs unanswerable: %.4f", separation.auc))
                if let threshold {
                    Console.out(String(format: "at min score %.3f, first hits kept:", Double(threshold)))
                    Console.out(
                        String(
                            format: "  answerable %.3f, correct %.3f, unanswerable %.3f",
                            separation.answerableKept(threshold), separation.correctKept(threshold),
                            separation.unanswerableKept(threshold)))
                } else {
                    Console.out("no threshold: this mode has no recommended min score; give --min-score")
                }
            }
        }
    }

    struct LabelledQuery: Decodable {
        let query: String
        let relevant: [String]
    }

    static func readQueries(_ path: String, limit: Int?) throws -> [LabelledQuery] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("cannot read \(path)")
        }
        var out: [LabelledQuery] = []
        let decoder = JSONDecoder()
        for (number, line) in data.split(separator: 0x0A).enumerated() {
            if let limit, out.count >= limit { break }
            guard let item = try? decoder.decode(LabelledQuery.self, from: line) else {
                throw ValidationError("\(path):\(number + 1): expected {\"query\": \"...\", \"relevant\": [ids]}")
            }
            out.append(item)
        }
        return out
    }
}

/// The first hit's scores of answerable and unanswerable queries, and how well they separate.
struct ScoreSeparation {
    private(set) var answerable: [Float] = []
    private(set) var correct: [Float] = []
    private(set) var unanswerable: [Float] = []

    /// A query with nothing found scores minus infinity: no threshold keeps it.
    mutating func addAnswerable(score: Float?, correct isCorrect: Bool) {
        answerable.append(score ?? -.infinity)
        if isCorrect { correct.append(score ?? -.infinity) }
    }

    mutating func addUnanswerable(score: Float?) {
        unanswerable.append(score ?? -.infinity)
    }

    /// The probability that an answerable query's first score is above an unanswerable one's (ties count half):
    /// the area under the ROC curve of the score as a detector of answerable queries.
    var auc: Double {
        guard !answerable.isEmpty, !unanswerable.isEmpty else { return 0 }
        let negatives = unanswerable.sorted()
        var sum = 0.0
        for score in answerable {
            let below = lowerBound(negatives, score)
            var above = below
            while above < negatives.count, negatives[above] == score { above += 1 }
            sum += Double(below) + 0.5 * Double(above - below)
        }
        return sum / (Double(answerable.count) * Double(negatives.count))
    }

    private func lowerBound(_ values: [Float], _ value: Float) -> Int {
        var low = 0
        var high = values.count
        while low < high {
            let middle = (low + high) / 2
            if values[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    func answerableKept(_ threshold: Float) -> Double { fraction(answerable, threshold) }
    func correctKept(_ threshold: Float) -> Double { fraction(correct, threshold) }
    func unanswerableKept(_ threshold: Float) -> Double { fraction(unanswerable, threshold) }

    private func fraction(_ scores: [Float], _ threshold: Float) -> Double {
        scores.isEmpty ? 0 : Double(scores.filter { $0 >= threshold }.count) / Double(scores.count)
    }
}

/// Writes each evaluated search's hits with their evidence, one JSON object per search, for fitting a
/// calibration (`scripts/bench/fit-calibration.py`).
final class EvidenceWriter: Sendable {
    private let handle: FileHandle

    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw ValidationError("cannot write \(path)") }
        self.handle = handle
    }

    deinit { try? handle.close() }

    func write(query: String, language: String, answerable: Bool, _ results: SearchResults, _ relevant: Set<String>)
        throws
    {
        let line = Line(
            query: query, language: language, answerable: answerable,
            hits: results.hits.map { Line.Hit($0, relevant: relevant.contains($0.id)) })
        try handle.write(contentsOf: Data((try JSONOutput.line(line) + "\n").utf8))
    }

    /// One search: the query, its language, whether its relevant documents were left in, and its hits.
    struct Line: Encodable {
        var query: String
        var language: String
        var answerable: Bool
        var hits: [Hit]

        /// One hit: its id, whether it is relevant, its score, and the evidence it was scored from (when
        /// explained; absent parts left out).
        struct Hit: Encodable {
            var id: String
            var relevant: Bool
            var score: JSONNumber
            var cosine: JSONNumber?
            var bm25: JSONNumber?
            var standing: JSONNumber?
            var keyword: JSONNumber?

            init(_ hit: SearchHit, relevant: Bool) {
                id = hit.id
                self.relevant = relevant
                score = JSONNumber(hit.score)
                cosine = hit.explanation?.semanticScore.map(JSONNumber.init)
                bm25 = hit.explanation?.keywordScore.map(JSONNumber.init)
                standing = hit.explanation?.evidence.map { JSONNumber($0.standing) }
                keyword = hit.explanation?.evidence.map { JSONNumber($0.keyword) }
            }
        }
    }
}

/// `hush eval --json`: the four metrics, the query count, the mode and, with `--unanswerable`, the AUC and
/// what the threshold keeps.
struct EvalJSON: Encodable {
    var metrics: RetrievalMetrics
    var mode: String
    /// With `--unanswerable`.
    var separation: ScoreSeparation?
    var threshold: Float?

    enum CodingKeys: String, CodingKey {
        case ndcg10 = "ndcg@10"
        case mrr10 = "mrr@10"
        case recall10 = "recall@10"
        case recall100 = "recall@100"
        case queries, mode, auc
        case minScore = "min_score"
        case answerableKept = "answerable_kept"
        case correctKept = "correct_kept"
        case unanswerableKept = "unanswerable_kept"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(JSONNumber(metrics.ndcg10), forKey: .ndcg10)
        try container.encode(JSONNumber(metrics.mrr10), forKey: .mrr10)
        try container.encode(JSONNumber(metrics.recall10), forKey: .recall10)
        try container.encode(JSONNumber(metrics.recall100), forKey: .recall100)
        try container.encode(metrics.count, forKey: .queries)
        try container.encode(mode, forKey: .mode)
        guard let separation else { return }
        try container.encode(JSONNumber(separation.auc), forKey: .auc)
        guard let threshold else { return }
        try container.encode(JSONNumber(threshold), forKey: .minScore)
        try container.encode(JSONNumber(separation.answerableKept(threshold)), forKey: .answerableKept)
        try container.encode(JSONNumber(separation.correctKept(threshold)), forKey: .correctKept)
        try container.encode(JSONNumber(separation.unanswerableKept(threshold)), forKey: .unanswerableKept)
    }
}
