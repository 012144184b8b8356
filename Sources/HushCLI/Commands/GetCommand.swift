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
            let hint = await UnknownIDHint.text(for: id, in: hush)
            Console.error("hush get: no document with id \(JSONOutput.quoted(id)) in \(store.db)\(hint)")
            throw ExitCode(1)
        }
        let d = stored.document
        if json {
            Console.json(try JSONOutput.line(DocumentJSON(stored: stored, detail: .stored)))
        } else {
            Console.out("id:       \(Console.escaped(d.id))")
            if let title = d.title { Console.out("title:    \(Console.escaped(title))") }
            if let type = d.sourceType { Console.out("type:     \(type)") }
            Console.out("language: \(stored.language)")
            if !d.tags.isEmpty { Console.out("tags:     \(d.tags.joined(separator: ", "))") }
            if let category = d.category { Console.out("category: \(category)") }
            for key in d.metadata.keys.sorted() { Console.out("meta:     \(key) = \(d.metadata[key] ?? "")") }
            if let created = d.createdAt { Console.out("created:  \(RecordDate.format(created))") }
            if let updated = d.updatedAt { Console.out("updated:  \(RecordDate.format(updated))") }
            Console.out("chunks:   \(stored.chunkCount)")
            Console.out("")
            if !d.body.isEmpty { Console.out(d.body) }
            if let quoted = d.quoted {
                // Every line of the quote marked, as a mail reader shows it.
                Console.out(
                    "\n"
                        + quoted.split(separator: "\n", omittingEmptySubsequences: false).map { "> " + $0 }.joined(
                            separator: "\n"))
            }
            if !d.fields.isEmpty {
                Console.out("")
                for field in d.fields {
                    Console.out(field.label.isEmpty ? field.value : "\(field.label): \(field.value)")
                }
            }
        }
    }
}
