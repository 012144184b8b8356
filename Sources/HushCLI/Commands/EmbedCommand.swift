import ArgumentParser
import Foundation
import Hush
import HushToolSupport

/// `hush embed`: sentence vectors as JSON lines.
struct EmbedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "embed",
        abstract: "Embed texts and print one JSON object per line.",
        discussion: """
            Texts come from the arguments, or one per line on standard input. Each output line is \
            {"text": ..., "vector": [...], "truncated": bool} (plus "ids" with --tokens). A line of standard \
            input that is not valid UTF-8 is reported on standard error with its number; the others are embedded.
            """)

    @OptionGroup var modelOptions: ModelOptions

    @Flag(name: .long, help: "Also print the token ids the model saw.")
    var tokens = false

    @Flag(name: .customLong("query"), help: "Embed the texts as search queries (multilingual-e5 adds \"query: \").")
    var asQuery = false

    @Flag(
        name: .customLong("passage"),
        help: "Embed the texts as passages, the documents searched (the default; multilingual-e5 adds \"passage: \").")
    var asPassage = false

    var role: EmbeddingRole { asQuery ? .query : .passage }

    func validate() throws {
        if asQuery && asPassage { throw ValidationError("give --query or --passage, not both") }
    }

    @Argument(help: "Texts to embed (default: one per line on standard input).")
    var texts: [String] = []

    func run() throws {
        let embedder = try modelOptions.makeEmbedder()
        var failures = 0
        if !texts.isEmpty {
            try emit(texts, with: embedder)
        } else {
            var batch: [String] = []
            try StandardInputLines.forEach { number, line in
                guard let line else {
                    Console.error("hush embed: line \(number) of standard input is not valid UTF-8; skipped")
                    failures += 1
                    return
                }
                batch.append(line)
                if batch.count == 256 {
                    try emit(batch, with: embedder)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            try emit(batch, with: embedder)
        }
        if failures > 0 { throw ExitCode(1) }
    }

    private func emit(_ batch: [String], with embedder: any Embedder) throws {
        guard !batch.isEmpty else { return }
        let embeddings = try embedder.embed(batch, role: role)
        var output = ""
        for (text, embedding) in zip(batch, embeddings) {
            var ids: [Int32]?
            if tokens, let bert = embedder as? BERTEmbedder {
                ids = bert.tokens(text, role: role).ids
            } else if tokens, let e5 = embedder as? E5Embedder {
                // One list per window; a text of at most 510 tokens has one.
                ids = e5.windows(text, role: role).flatMap { $0 }
            }
            output += EmbedJSON(text: text, embedding: embedding, ids: ids).line + "\n"
        }
        FileHandle.standardOutput.write(Data(output.utf8))
    }
}

/// Reads standard input line by line as bytes, so that one invalid line does not spoil the others.
enum StandardInputLines {
    /// Calls `body` with each line's 1-based number and its text, or nil when the line is not valid UTF-8.
    static func forEach(_ body: (Int, String?) throws -> Void) throws {
        let input = FileHandle.standardInput
        var pending = Data()
        var number = 0
        func flush(_ line: Data) throws {
            number += 1
            var bytes = line
            if bytes.last == 0x0D { bytes.removeLast() }
            try body(number, String(validating: bytes, as: UTF8.self))
        }
        while true {
            let chunk = input.availableData
            if chunk.isEmpty { break }
            pending.append(chunk)
            while let newline = pending.firstIndex(of: 0x0A) {
                try flush(pending[pending.startIndex..<newline])
                pending.removeSubrange(pending.startIndex...newline)
            }
        }
        if !pending.isEmpty { try flush(pending) }
    }
}

/// One line of `hush embed`: the text, its vector (every component exact; null for one that is not finite),
/// whether it was truncated, and with `--tokens` the ids the model saw.
struct EmbedJSON: Encodable {
    var text: String
    var vector: [Float?]
    var truncated: Bool
    var ids: [Int32]?

    init(text: String, embedding: Embedding, ids: [Int32]?) {
        self.text = text
        vector = embedding.vector.map { $0.isFinite ? $0 : nil }
        truncated = embedding.truncated
        self.ids = ids
    }

    /// The line `JSONOutput.line(self)` prints (keys sorted, each component the shortest decimal that reads back
    /// as the same float), written directly: `JSONEncoder` took about 0.85 µs a number, 12.6 s for 20,000
    /// lexical vectors.
    var line: String {
        var line = "{"
        line.reserveCapacity(vector.count * 12 + text.utf8.count + 64)
        if let ids { line += "\"ids\":[" + ids.map(String.init).joined(separator: ",") + "]," }
        line += "\"text\":" + JSONOutput.quoted(text) + ",\"truncated\":" + (truncated ? "true" : "false")
        line += ",\"vector\":["
        for (index, component) in vector.enumerated() {
            if index > 0 { line += "," }
            guard let component else {
                line += "null"
                continue
            }
            let text = component.description
            line += text.hasSuffix(".0") ? text.dropLast(2) : Substring(text)
        }
        return line + "]}"
    }
}
