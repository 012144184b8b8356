import Foundation

extension UnigramTokenizer {
    /// Loads a Hugging Face `tokenizer.json` whose model is Unigram (XLM-RoBERTa, multilingual-e5, T5 …), with
    /// Hugging Face's behaviour: added tokens matched in the raw text first, then the normalisers
    /// (`Precompiled`, `Replace`, `NFC`/`NFD`/`NFKC`/`NFKD`, `Lowercase`, `Strip`, `Prepend`, `Sequence`), the
    /// pre-tokenizer (`Metaspace`, `WhitespaceSplit`, `Sequence`), Viterbi per word with runs of unknown
    /// characters fused into one `<unk>`, and the post-processor's special tokens (`TemplateProcessing`,
    /// `RobertaProcessing`, `BertProcessing`).
    ///
    /// - Throws: ``EmbeddingError/modelNotFound(path:)`` when the file is missing,
    ///   ``EmbeddingError/unsupportedModel(reason:)`` for another model type or a step this loader does not
    ///   implement (named), and ``EmbeddingError/corruptModel(path:reason:)`` for malformed content.
    ///
    /// ```swift
    /// let tokenizer = try UnigramTokenizer(tokenizerJSON: folder.appendingPathComponent("tokenizer.json"))
    /// tokenizer.encode("失眠怎么办", maxLength: 512).ids
    /// ```
    public init(tokenizerJSON url: URL) throws {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw EmbeddingError.modelNotFound(path: url.path)
        }
        try self.init(tokenizerJSON: try TokenizerFile.jsonObject(url, exactNumbers: true), path: url.path)
    }

    /// Builds the tokenizer a parsed `tokenizer.json` (numbers read exactly, ``ExactJSON``) describes.
    init(tokenizerJSON object: [String: Any], path: String) throws {
        let reader = TokenizerJSONReader(path: path)
        let model = try reader.object(object["model"], "model")
        let type = model["type"] as? String ?? "?"
        guard type == "Unigram" else {
            throw EmbeddingError.unsupportedModel(
                reason: "\(path) holds a \(type) tokenizer; this loader reads Unigram models (SentencePiece)")
        }
        if model["byte_fallback"] as? Bool == true {
            throw EmbeddingError.unsupportedModel(
                reason: "\(path): Unigram with byte_fallback is not supported (unknown characters would be bytes)")
        }
        let vocabulary = try reader.array(model["vocab"], "model.vocab")
        var pieceBytes: [UInt8] = []
        var pieceStarts: [Int32] = [0]
        var scores: [Double] = []
        var ids: [String: Int32] = [:]
        pieceStarts.reserveCapacity(vocabulary.count + 1)
        scores.reserveCapacity(vocabulary.count)
        for (index, entry) in vocabulary.enumerated() {
            guard let pair = entry as? [Any], pair.count == 2, let piece = pair[0] as? String,
                let score = (pair[1] as? NSNumber)?.doubleValue, score.isFinite
            else {
                throw reader.corrupt("model.vocab[\(index)] is not a [piece, finite score] pair")
            }
            pieceBytes += piece.utf8
            pieceStarts.append(Int32(pieceBytes.count))
            scores.append(score)
            if ids[piece] == nil { ids[piece] = Int32(index) }
        }
        guard let unknown = (model["unk_id"] as? NSNumber)?.intValue, (0..<vocabulary.count).contains(unknown) else {
            throw reader.corrupt("model.unk_id is missing or not a piece id (0..<\(vocabulary.count))")
        }

        var added: [HuggingFaceUnigramPipeline.AddedToken] = []
        for (index, entry) in (try reader.optionalArray(object["added_tokens"], "added_tokens")).enumerated() {
            guard let token = entry as? [String: Any], let content = token["content"] as? String, !content.isEmpty,
                let id = (token["id"] as? NSNumber)?.intValue, (0..<vocabulary.count).contains(id)
            else {
                throw reader.corrupt("added_tokens[\(index)] needs a non-empty content and an id of a piece")
            }
            added.append(
                .init(
                    content: Array(content.unicodeScalars), id: Int32(id), stripLeft: token["lstrip"] as? Bool ?? false,
                    stripRight: token["rstrip"] as? Bool ?? false, singleWord: token["single_word"] as? Bool ?? false))
        }
        let pipeline = HuggingFaceUnigramPipeline(
            addedTokens: added,
            normalizer: try object["normalizer"].flatMap {
                $0 is NSNull ? nil : try reader.normalizer($0, "normalizer")
            },
            preTokenizer: try object["pre_tokenizer"].flatMap {
                $0 is NSNull ? nil : try reader.preTokenizer($0, "pre_tokenizer")
            })
        let (prefix, suffix) = try reader.specialTokens(object["post_processor"], ids: ids)
        try self.init(
            pieceBytes: pieceBytes, pieceStarts: pieceStarts, scores: scores, frontEnd: .huggingFace(pipeline),
            prefixIDs: prefix, suffixIDs: suffix, unknownID: Int32(unknown),
            configuration: Configuration(fuseUnknown: true, stopAtNUL: false, stripSpaces: false), source: path)
    }
}

/// Reads the parts of a `tokenizer.json`, naming the field at fault in every error.
private struct TokenizerJSONReader {
    let path: String

    func corrupt(_ reason: String) -> EmbeddingError { .corruptModel(path: path, reason: reason) }

    func unsupported(_ what: String) -> EmbeddingError {
        .unsupportedModel(reason: "\(path): \(what) is not supported for Unigram tokenizers")
    }

    func object(_ value: Any?, _ field: String) throws -> [String: Any] {
        guard let object = value as? [String: Any] else { throw corrupt("\(field) is not a JSON object") }
        return object
    }

    func array(_ value: Any?, _ field: String) throws -> [Any] {
        guard let array = value as? [Any] else { throw corrupt("\(field) is not a JSON array") }
        return array
    }

    func optionalArray(_ value: Any?, _ field: String) throws -> [Any] {
        if value == nil || value is NSNull { return [] }
        return try array(value, field)
    }

    func string(_ object: [String: Any], _ key: String, _ field: String) throws -> String {
        guard let value = object[key] as? String else { throw corrupt("\(field).\(key) is not a string") }
        return value
    }

    func normalizer(_ value: Any, _ field: String) throws -> HuggingFaceUnigramPipeline.Normalizer {
        let object = try object(value, field)
        let type = object["type"] as? String ?? "?"
        switch type {
        case "Sequence":
            let steps = try array(object["normalizers"], "\(field).normalizers")
            return .sequence(try steps.enumerated().map { try normalizer($1, "\(field).normalizers[\($0)]") })
        case "Precompiled":
            guard let encoded = object["precompiled_charsmap"] as? String else {
                // Hugging Face writes null for a model whose normaliser does nothing.
                return .sequence([])
            }
            guard let blob = Data(base64Encoded: encoded) else {
                throw corrupt("\(field).precompiled_charsmap is not base64")
            }
            return .precompiled(try PrecompiledCharsMap([UInt8](blob), source: path))
        case "Replace":
            let content = try string(object, "content", field)
            let pattern = try self.object(object["pattern"], "\(field).pattern")
            if let literal = pattern["String"] as? String { return .replaceString(literal, with: content) }
            guard let regex = pattern["Regex"] as? String else {
                throw corrupt("\(field).pattern has neither String nor Regex")
            }
            do {
                return .replaceRegex(try RegexBox(regex), with: content)
            } catch {
                throw corrupt("\(field).pattern.Regex \(regex.debugDescription) is not a valid expression")
            }
        case "NFC": return .nfc
        case "NFD": return .nfd
        case "NFKC": return .nfkc
        case "NFKD": return .nfkd
        case "Lowercase": return .lowercase
        case "Strip":
            return .strip(left: object["strip_left"] as? Bool ?? true, right: object["strip_right"] as? Bool ?? true)
        case "Prepend": return .prepend(try string(object, "prepend", field))
        default: throw unsupported("the \(type) normalizer (\(field))")
        }
    }

    func preTokenizer(_ value: Any, _ field: String) throws -> HuggingFaceUnigramPipeline.PreTokenizer {
        let object = try object(value, field)
        let type = object["type"] as? String ?? "?"
        switch type {
        case "Sequence":
            let steps = try array(object["pretokenizers"], "\(field).pretokenizers")
            return .sequence(try steps.enumerated().map { try preTokenizer($1, "\(field).pretokenizers[\($0)]") })
        case "Metaspace":
            let replacement = object["replacement"] as? String ?? "\u{2581}"
            guard replacement.unicodeScalars.count == 1, let character = replacement.unicodeScalars.first else {
                throw corrupt("\(field).replacement \(replacement.debugDescription) is not one character")
            }
            let prepend: HuggingFaceUnigramPipeline.PreTokenizer.Prepend
            switch object["prepend_scheme"] as? String {
            case "always": prepend = .always
            case "first": prepend = .first
            case "never": prepend = .never
            case nil: prepend = (object["add_prefix_space"] as? Bool ?? true) ? .always : .never
            case let other?:
                throw corrupt("\(field).prepend_scheme \(other.debugDescription) is not always/first/never")
            }
            return .metaspace(replacement: character, prepend: prepend, split: object["split"] as? Bool ?? true)
        case "WhitespaceSplit": return .whitespaceSplit
        default: throw unsupported("the \(type) pre-tokenizer (\(field))")
        }
    }

    /// The ids a single sequence is framed with.
    func specialTokens(_ value: Any?, ids: [String: Int32]) throws -> (prefix: [Int32], suffix: [Int32]) {
        guard let value, !(value is NSNull) else { return ([], []) }
        let object = try object(value, "post_processor")
        let type = object["type"] as? String ?? "?"
        func pair(_ key: String) throws -> Int32 {
            guard let pair = object[key] as? [Any], pair.count == 2, let id = (pair[1] as? NSNumber)?.intValue,
                let token = Int32(exactly: id)
            else { throw corrupt("post_processor.\(key) is not a [token, id] pair") }
            return token
        }
        switch type {
        case "RobertaProcessing", "BertProcessing":
            return ([try pair("cls")], [try pair("sep")])
        case "TemplateProcessing":
            let single = try array(object["single"], "post_processor.single")
            let specials = object["special_tokens"] as? [String: Any] ?? [:]
            var prefix: [Int32] = []
            var suffix: [Int32] = []
            var sawSequence = false
            for (index, item) in single.enumerated() {
                let entry = try self.object(item, "post_processor.single[\(index)]")
                if entry["Sequence"] != nil {
                    sawSequence = true
                    continue
                }
                guard let special = entry["SpecialToken"] as? [String: Any], let name = special["id"] as? String else {
                    throw corrupt("post_processor.single[\(index)] is neither a Sequence nor a SpecialToken")
                }
                let known = (specials[name] as? [String: Any])?["ids"] as? [Any]
                let tokenIDs =
                    try known.map { list in
                        try list.map { element -> Int32 in
                            guard let id = (element as? NSNumber)?.intValue, let token = Int32(exactly: id) else {
                                throw corrupt("post_processor.special_tokens[\(name)] has an id that is not a number")
                            }
                            return token
                        }
                    } ?? ids[name].map { [$0] }
                guard let tokenIDs else { throw corrupt("post_processor: the special token \(name) has no id") }
                if sawSequence { suffix += tokenIDs } else { prefix += tokenIDs }
            }
            return (prefix, suffix)
        default:
            throw unsupported("the \(type) post-processor")
        }
    }
}
