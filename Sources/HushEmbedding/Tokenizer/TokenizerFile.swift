import Foundation

/// Reading a tokenizer's files (`tokenizer.json`, `tokenizer_config.json`, `vocab.txt`), every failure a
/// typed `EmbeddingError.corruptModel` that names the file.
enum TokenizerFile {
    /// The file's bytes.
    static func data(_ url: URL) throws -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            throw EmbeddingError.corruptModel(path: url.path, reason: "cannot read: \(error.localizedDescription)")
        }
    }

    /// The file's top-level JSON object. With `exactNumbers`, numbers are the nearest doubles (``ExactJSON``):
    /// a Unigram model's scores break ties between segmentations, and Foundation's parser on Linux misrounds
    /// some of them.
    static func jsonObject(_ url: URL, exactNumbers: Bool = false) throws -> [String: Any] {
        let data = try data(url)
        let parsed: Any
        do {
            parsed = exactNumbers ? try ExactJSON.parse(data) : try JSONSerialization.jsonObject(with: data)
        } catch let failure as ExactJSON.Failure {
            throw EmbeddingError.corruptModel(path: url.path, reason: "not valid JSON: \(failure)")
        } catch {
            throw EmbeddingError.corruptModel(path: url.path, reason: "not valid JSON")
        }
        guard let object = parsed as? [String: Any] else {
            throw EmbeddingError.corruptModel(path: url.path, reason: "top level is not a JSON object")
        }
        return object
    }
}
