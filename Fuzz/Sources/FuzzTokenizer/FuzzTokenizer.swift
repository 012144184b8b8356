import Foundation
import HushEmbedding

/// The real vocabulary when the model is installed, else a small one: any bytes must tokenize without a
/// crash, every id must be in the vocabulary, and the sequence must be framed by [CLS] … [SEP].
let tokenizer: WordPieceTokenizer? = {
    if let real = try? WordPieceTokenizer(modelDirectory: BERTEmbedder.defaultModelDirectory) { return real }
    let vocabulary = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "a", "b", "##a", "##b", "the", "##s", "."]
    return try? WordPieceTokenizer(vocabulary: vocabulary, configuration: .init())
}()

/// multilingual-e5-small's SentencePiece tokenizer when installed: every id a piece, `<s>` … `</s>` framing.
let unigram: UnigramTokenizer? = (try? E5S1File(path: E5Embedder.defaultModelFile.path)).flatMap {
    try? UnigramTokenizer(file: $0)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTokenizer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    guard let tokenizer else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let limit = 1 + size % 300
    let encoded = tokenizer.encode(text, maxLength: limit)
    if encoded.ids.count > max(limit, 2) || encoded.ids.count < 2 { fatalError("length \(encoded.ids.count)") }
    if encoded.ids.contains(where: { $0 < 0 }) { fatalError("negative id") }
    if let unigram {
        let pieces = unigram.encode(text, maxLength: limit)
        if pieces.ids.count > max(limit, 2) || !pieces.ids.starts(with: unigram.prefixIDs)
            || !pieces.ids.reversed().starts(with: unigram.suffixIDs.reversed())
        {
            fatalError("unigram framing: \(pieces.ids)")
        }
        if pieces.ids.contains(where: { $0 < 0 || Int($0) >= unigram.vocabularySize }) { fatalError("unigram id") }
    }
    return 0
}
