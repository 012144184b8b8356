import Foundation

extension WordPieceTokenizer {
    /// Loads the tokenizer of a model folder: `tokenizer.json` when present, else `vocab.txt` with the
    /// optional `tokenizer_config.json`.
    ///
    /// Throws ``EmbeddingError/modelNotFound(path:)`` when neither file exists and
    /// ``EmbeddingError/corruptModel(path:reason:)`` when a file cannot be read or parsed.
    ///
    /// ```swift
    /// let dir = URL(fileURLWithPath: "/root/.cache/hush/models/all-MiniLM-L6-v2")
    /// let tokenizer = try WordPieceTokenizer(modelDirectory: dir)
    /// ```
    public init(modelDirectory: URL) throws {
        let fileManager = FileManager.default
        let json = modelDirectory.appendingPathComponent("tokenizer.json")
        if fileManager.fileExists(atPath: json.path) {
            try self.init(tokenizerJSON: try TokenizerFile.jsonObject(json), path: json.path)
            return
        }
        let vocab = modelDirectory.appendingPathComponent("vocab.txt")
        guard fileManager.fileExists(atPath: vocab.path) else {
            throw EmbeddingError.modelNotFound(path: vocab.path)
        }
        let vocabulary = try Self.readVocabularyText(vocab)
        let configFile = modelDirectory.appendingPathComponent("tokenizer_config.json")
        var configuration = Configuration()
        if fileManager.fileExists(atPath: configFile.path) {
            let object = try TokenizerFile.jsonObject(configFile)
            configuration = Self.configuration(fromTokenizerConfig: object)
        }
        try self.init(vocabulary: vocabulary, configuration: configuration, source: vocab.path)
    }

    /// One token per line, the line number is the id (as BERT's `vocab.txt`).
    static func readVocabularyText(_ url: URL) throws -> [String] {
        let data = try TokenizerFile.data(url)
        guard let text = String(data: data, encoding: .utf8) else {
            throw EmbeddingError.corruptModel(path: url.path, reason: "not UTF-8 text")
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
        }
        if lines.last == "" { lines.removeLast() }
        guard !lines.isEmpty else {
            throw EmbeddingError.corruptModel(path: url.path, reason: "the vocabulary is empty")
        }
        return lines
    }

    static func configuration(fromTokenizerConfig object: [String: Any]) -> Configuration {
        var configuration = Configuration()
        if let lower = object["do_lower_case"] as? Bool { configuration.lowercase = lower }
        if let chinese = object["tokenize_chinese_chars"] as? Bool { configuration.handleChineseChars = chinese }
        if let strip = object["strip_accents"] as? Bool { configuration.stripAccents = strip }
        func token(_ key: String, _ fallback: String) -> String {
            if let text = object[key] as? String { return text }
            if let dictionary = object[key] as? [String: Any], let text = dictionary["content"] as? String {
                return text
            }
            return fallback
        }
        configuration.unknownToken = token("unk_token", "[UNK]")
        configuration.classifierToken = token("cls_token", "[CLS]")
        configuration.separatorToken = token("sep_token", "[SEP]")
        configuration.paddingToken = token("pad_token", "[PAD]")
        let mask = token("mask_token", "[MASK]")
        configuration.addedTokens = [
            configuration.paddingToken, configuration.unknownToken, configuration.classifierToken,
            configuration.separatorToken, mask,
        ]
        return configuration
    }

    /// Builds the tokenizer a parsed BERT `tokenizer.json` describes (the file at `path`).
    init(tokenizerJSON object: [String: Any], path: String) throws {
        let (vocabulary, configuration) = try Self.readTokenizerJSON(object, path: path)
        try self.init(vocabulary: vocabulary, configuration: configuration, source: path)
    }

    /// Reads a BERT `tokenizer.json`: WordPiece model, BertNormalizer, added tokens and post-processor.
    static func readTokenizerJSON(_ object: [String: Any], path: String) throws -> ([String], Configuration) {
        func corrupt(_ reason: String) -> EmbeddingError { .corruptModel(path: path, reason: reason) }
        if let type = (object["model"] as? [String: Any])?["type"] as? String, type != "WordPiece" {
            throw EmbeddingError.unsupportedModel(
                reason: "tokenizer model \(type) in \(path); a BERT folder needs WordPiece or Unigram"
                    + (type == "Unigram" ? " (UnigramTokenizer(tokenizerJSON:) reads Unigram files)" : ""))
        }
        guard let model = object["model"] as? [String: Any], let vocab = model["vocab"] as? [String: Any] else {
            throw corrupt("no model.vocab object")
        }
        var pairs: [(String, Int)] = []
        pairs.reserveCapacity(vocab.count)
        for (token, value) in vocab {
            guard let id = (value as? NSNumber)?.intValue, id >= 0 else { throw corrupt("vocab id of \(token)") }
            pairs.append((token, id))
        }
        var configuration = Configuration()
        if let unk = model["unk_token"] as? String { configuration.unknownToken = unk }
        if let prefix = model["continuing_subword_prefix"] as? String { configuration.continuingSubwordPrefix = prefix }
        if let limit = (model["max_input_chars_per_word"] as? NSNumber)?.intValue {
            configuration.maxInputCharsPerWord = limit
        }
        if let normalizer = object["normalizer"] as? [String: Any] {
            guard normalizer["type"] as? String == "BertNormalizer" else {
                throw EmbeddingError.unsupportedModel(
                    reason: "normalizer \(normalizer["type"] ?? "?") in \(path); only BertNormalizer")
            }
            configuration.cleanText = normalizer["clean_text"] as? Bool ?? true
            configuration.handleChineseChars = normalizer["handle_chinese_chars"] as? Bool ?? true
            configuration.stripAccents = normalizer["strip_accents"] as? Bool
            configuration.lowercase = normalizer["lowercase"] as? Bool ?? true
        } else {
            configuration.cleanText = false
            configuration.handleChineseChars = false
            configuration.stripAccents = false
            configuration.lowercase = false
        }
        var addedTokens: [String] = []
        for case let token as [String: Any] in object["added_tokens"] as? [Any] ?? [] {
            guard let content = token["content"] as? String, let id = (token["id"] as? NSNumber)?.intValue else {
                throw corrupt("an added token without content or id")
            }
            addedTokens.append(content)
            pairs.append((content, id))
        }
        configuration.addedTokens = addedTokens
        if let processor = object["post_processor"] as? [String: Any] {
            if let cls = processor["cls"] as? [Any], let text = cls.first as? String {
                configuration.classifierToken = text
            }
            if let sep = processor["sep"] as? [Any], let text = sep.first as? String {
                configuration.separatorToken = text
            }
            if let single = processor["single"] as? [Any] {
                let specials = single.compactMap { item -> String? in
                    ((item as? [String: Any])?["SpecialToken"] as? [String: Any])?["id"] as? String
                }
                if let first = specials.first { configuration.classifierToken = first }
                if specials.count > 1, let last = specials.last { configuration.separatorToken = last }
            }
        }
        if let padding = object["padding"] as? [String: Any], let pad = padding["pad_token"] as? String {
            configuration.paddingToken = pad
        }
        guard let largest = pairs.map(\.1).max() else { throw corrupt("the vocabulary is empty") }
        guard largest < 10_000_000 else { throw corrupt("vocabulary id \(largest) is implausibly large") }
        var vocabulary = [String](repeating: "", count: largest + 1)
        for (token, id) in pairs { vocabulary[id] = token }
        return (vocabulary, configuration)
    }
}
