import Foundation
import HushEmbedding

/// The one place the tests find the real models, and the encoders they share.
///
/// `scripts/fetch-model` (run by `make test`) puts both models in the default cache; `HUSH_MODEL_DIR` and
/// `HUSH_E5_MODEL` point elsewhere, exactly as they do for the library and the `hush` command. A test that
/// needs a model carries the ``Testing/Trait/needsModel`` trait: `make check` skips it, `make test` fails it
/// when the model is missing.
public enum TestModels {
    /// The all-MiniLM-L6-v2 folder: `HUSH_MODEL_DIR`, or `~/.cache/hush/models/all-MiniLM-L6-v2`.
    public static var miniLMDirectory: URL { BERTEmbedder.defaultModelDirectory }

    /// The multilingual-e5-small file: `HUSH_E5_MODEL`, or the default cache.
    public static var e5File: URL { E5Embedder.defaultModelFile }

    /// The Hugging Face `tokenizer.json` written from the e5 file's pieces by
    /// `scripts/fixtures/make-hf-unigram-tokenizer.sh` (`scripts/fetch-model e5-small` runs it): `HUSH_E5_HF_DIR`,
    /// or the default cache.
    public static var e5TokenizerJSON: URL {
        let environment = ProcessInfo.processInfo.environment["HUSH_E5_HF_DIR"] ?? ""
        let folder =
            environment.isEmpty
            ? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(
                ".cache/hush/models/multilingual-e5-small/hf") : URL(fileURLWithPath: environment)
        return folder.appendingPathComponent("tokenizer.json")
    }

    /// One all-MiniLM-L6-v2 encoder (two threads) for the whole test process: loading is the slow part.
    public static let miniLM: Result<BERTEmbedder, any Error> = Result {
        try BERTEmbedder(modelDirectory: miniLMDirectory, threads: 2)
    }

    /// One multilingual-e5-small encoder (two threads) for the whole test process (loading dequantises 85 MB).
    public static let e5: Result<E5Embedder, any Error> = Result { try E5Embedder(modelFile: e5File, threads: 2) }

    /// The shared MiniLM encoder, or the error that says how to fetch it.
    public static func miniLMEmbedder() throws -> BERTEmbedder { try miniLM.get() }

    /// The shared multilingual-e5-small encoder, or the error that says how to fetch it.
    public static func e5Embedder() throws -> E5Embedder { try e5.get() }
}
