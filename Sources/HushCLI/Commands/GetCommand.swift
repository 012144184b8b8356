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
            Console.error("hush get: no document with id \(JSONOutput.quoted(id)) in \(store.db)")
            throw ExitCode(1)
        }
        let d = stored.document
        if json {
            Console.out(try JSONOutput.line(GetJSON(stored: stored)))
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

/// `hush get --json`: the document as stored (absent fields left out), its language, chunk count and content
/// hash.
struct GetJSON: Encodable {
    var stored: StoredDocument

    enum CodingKeys: String, CodingKey {
        case id, title, text, quoted, type, language, tags, category, metadata, created, chunks
        case contentHash = "content_hash"
    }

    func encode(to encoder: any Encoder) throws {
        let d = stored.document
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(d.id, forKey: .id)
        try container.encodeIfPresent(d.title, forKey: .title)
        try container.encode(d.body, forKey: .text)
        try container.encodeIfPresent(d.quoted, forKey: .quoted)
        try container.encodeIfPresent(d.sourceType, forKey: .type)
        try container.encode(stored.language, forKey: .language)
        try container.encode(d.tags, forKey: .tags)
        try container.encodeIfPresent(d.category, forKey: .category)
        try container.encode(d.metadata, forKey: .metadata)
        try container.encodeIfPresent(d.createdAt, forKey: .created)
        try container.encode(stored.chunkCount, forKey: .chunks)
        try container.encode(stored.contentHash, forKey: .contentHash)
    }
}
