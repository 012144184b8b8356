import ArgumentParser
import Foundation
import Hush
import HushToolSupport

/// `hush get`: one stored document.
struct GetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "get", abstract: "Print a stored document.")

    @OptionGroup var store: StoreArguments

    @Flag(help: "Print JSON.")
    var json = false

    @Argument(help: "The document's id.")
    var id: String

    func run() async throws {
        let hush = try await store.open(.read)
        guard let stored = try await hush.document(id: id) else {
            Console.error("hush get: no document with id \(JSONLine.quote(id)) in \(store.db)")
            throw ExitCode(1)
        }
        let d = stored.document
        if json {
            var line = JSONLine()
            line.add("id", d.id)
            if let title = d.title { line.add("title", title) }
            line.add("text", d.body)
            if let quoted = d.quoted { line.add("quoted", quoted) }
            if let type = d.sourceType { line.add("type", type) }
            line.add("language", stored.language)
            line.add("tags", raw: "[" + d.tags.map(JSONLine.quote).joined(separator: ",") + "]")
            if let category = d.category { line.add("category", category) }
            var metadata = JSONLine()
            for key in d.metadata.keys.sorted() { metadata.add(key, d.metadata[key] ?? "") }
            line.add("metadata", raw: metadata.finish())
            if let created = d.createdAt { line.add("created", RecordDate.format(created)) }
            line.add("chunks", stored.chunkCount)
            line.add("content_hash", stored.contentHash)
            Console.out(line.finish())
        } else {
            Console.out("id:       \(Console.escaped(d.id))")
            if let title = d.title { Console.out("title:    \(Console.escaped(title))") }
            if let type = d.sourceType { Console.out("type:     \(type)") }
            Console.out("language: \(stored.language)")
            if !d.tags.isEmpty { Console.out("tags:     \(d.tags.joined(separator: ", "))") }
            if let category = d.category { Console.out("category: \(category)") }
            for key in d.metadata.keys.sorted() { Console.out("meta:     \(key) = \(d.metadata[key] ?? "")") }
            if let created = d.createdAt { Console.out("created:  \(RecordDate.format(created))") }
            Console.out("chunks:   \(stored.chunkCount)")
            Console.out("")
            Console.out(d.body)
            if let quoted = d.quoted { Console.out("\n> " + quoted) }
        }
    }
}
