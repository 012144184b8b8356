import Foundation

/// JSON columns: tags (array of strings), metadata (object of strings), fields (array of label/value).
enum JSONCoding {
    static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(value), let text = String(data: data, encoding: .utf8) else {
            return "null"
        }
        return text
    }

    /// A store's open reads every document's tags and metadata: the empty ones (most of them, in many stores)
    /// skip the decoder, which costs about 10 µs a call.
    static func decodeTags(_ text: String?) -> [String] {
        guard let text, text != "[]" else { return [] }
        return decode([String].self, text) ?? []
    }

    static func decodeMetadata(_ text: String?) -> [String: String] {
        guard let text, text != "{}" else { return [:] }
        return decode([String: String].self, text) ?? [:]
    }

    static func decodeFields(_ text: String?) -> [Document.Field] {
        decode([Document.Field].self, text) ?? []
    }

    static func decodeStagedChunks(_ text: String?) -> [StagedDocument.Chunk] {
        decode([StagedDocument.Chunk].self, text) ?? []
    }

    static func decodeChunking(_ text: String?) -> ChunkingConfiguration? {
        decode(ChunkingConfiguration.self, text)
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ text: String?) -> T? {
        guard let text, let data = text.data(using: .utf8) else { return nil }
        return try? JSONDecoder().decode(type, from: data)
    }
}
