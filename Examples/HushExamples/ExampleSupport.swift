import ArgumentParser
import Foundation
import Hush

/// Options every example shares: where its store lives and which embedder it uses.
struct ExampleOptions: ParsableArguments {
    @Option(name: .long, help: "The example's database (default: a file in the temporary folder).")
    var db: String?

    @Flag(name: .long, help: "Use the lexical fallback (no model needed).")
    var lexical = false

    @Option(
        name: .long,
        help: "The model: e5-small (multilingual, the default), minilm (English), or a model folder or file.")
    var model: String?

    /// The neural model, or the lexical fallback when asked for or when no model is installed.
    func embedder() -> (embedder: any Embedder, note: String?) {
        if lexical { return (HashingEmbedder(), nil) }
        let choice = model.map(ModelChoice.init) ?? .standard
        do {
            return (try choice.load(), nil)
        } catch {
            return (HashingEmbedder(), "model \(choice) did not load (\(error)); using the lexical fallback")
        }
    }

    /// Opens the example's store; a file made with another embedder is replaced (it is only an example).
    func open(_ name: String, chunking: ChunkingConfiguration? = nil) async throws -> (HushStore, Bool) {
        let (embedder, note) = embedder()
        if let note { FileHandle.standardError.write(Data((note + "\n").utf8)) }
        let lexicalStore = embedder.identity.pooling == .lexical
        let path =
            db
            ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("hush-example-\(name)-\(lexicalStore ? "lexical" : "model").hush").path
        if let stored = try HushStore.storedIdentity(path: path), stored != embedder.identity {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let store = try await HushStore.open(
            path: path, embedder: embedder, options: StoreOptions(chunking: chunking))
        return (store, lexicalStore)
    }
}

/// A fixed UTC date from `yyyy-MM-dd`.
func exampleDate(_ text: String) -> Date {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd"
    return formatter.date(from: text) ?? Date(timeIntervalSince1970: 0)
}

func format(_ score: Float) -> String { String(format: "%.3f", score) }

func say(_ line: String = "") { print(line) }
