import Foundation
import HushEmbedding

/// Any bytes as a Hugging Face tokenizer.json for a Unigram model: a typed error, or a tokenizer whose ids for
/// a few texts (the input's own bytes among them) are piece ids and are framed by its prefix and suffix.
let file = FileManager.default.temporaryDirectory.appendingPathComponent("hush-fuzz-\(getpid())-tokenizer.json")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTokenizerJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    guard (try? Data(bytes: data, count: size).write(to: file)) != nil else { return 0 }
    let tokenizer: UnigramTokenizer
    do {
        tokenizer = try UnigramTokenizer(tokenizerJSON: file)
    } catch is EmbeddingError {
        return 0
    } catch {
        fatalError("untyped error \(error)")
    }
    for text in [
        "", "Abc ab  c</s>x", "A\u{301}  \t\n東京 🙂",
        String(decoding: UnsafeBufferPointer(start: data, count: min(size, 96)), as: UTF8.self),
    ] {
        let ids = tokenizer.encode(text, maxLength: 64).ids
        if ids.count > 64, ids.count > tokenizer.prefixIDs.count + tokenizer.suffixIDs.count {
            fatalError("\(ids.count) ids for a limit of 64")
        }
        if !ids.starts(with: tokenizer.prefixIDs) || !ids.reversed().starts(with: tokenizer.suffixIDs.reversed()) {
            fatalError("ids \(ids) lack the frame \(tokenizer.prefixIDs) … \(tokenizer.suffixIDs)")
        }
        for id in ids where id < 0 || Int(id) >= tokenizer.vocabularySize {
            fatalError("id \(id) outside the vocabulary of \(tokenizer.vocabularySize)")
        }
    }
    return 0
}
