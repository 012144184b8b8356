import Foundation
import GRDB
import Hush
import HushTestSupport
import Testing

/// Which model a command opens a file with (the library's StoreModelResolver, asked by the flags).
extension CLITests {
    /// A lexical embedder stamped as another model: a store "made with" that model, without the model.
    struct StampedEmbedder: Embedder {
        let identity: EmbedderIdentity
        var base: HashingEmbedder { HashingEmbedder(dimension: identity.dimension) }
        var maxTokens: Int { base.maxTokens }
        func embed(_ texts: [String], role: EmbeddingRole) throws -> [Embedding] { try base.embed(texts, role: role) }
        func tokenCount(_ text: String) -> Int { base.tokenCount(text) }
    }

    /// A store made with a model folder Hush knows neither by name nor by weights: reading, keyword search and
    /// deleting work without the folder (the default model is never loaded in its place and refused, as it
    /// was), semantic search and indexing say to pass it with --model, and with it everything works; a
    /// --model that cannot load is an error even for a read.
    @Test func aModelFolderHushDoesNotKnowIsNeverGuessed() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = try TinyModelFolder.write(in: folder, name: "notes-model")
        let notes = folder.appendingPathComponent("notes")
        try FileManager.default.createDirectory(at: notes, withIntermediateDirectories: true)
        try "The harbour ferry leaves at noon.".write(
            to: notes.appendingPathComponent("ferry.txt"), atomically: true, encoding: .utf8)
        try "Tomatoes go in after the last frost.".write(
            to: notes.appendingPathComponent("garden.txt"), atomically: true, encoding: .utf8)
        let more = folder.appendingPathComponent("more.txt")
        try "Bread rises overnight in a cold kitchen.".write(to: more, atomically: true, encoding: .utf8)
        let db = folder.appendingPathComponent("notes.hush").path
        let made = try CLIRunner.run(["index", "--quiet", "--db", db, "--model", model.path, notes.path])
        #expect(made.status == 0, "\(made.stderr)")

        let stats = try CLIRunner.run(["stats", "--db", db, "--json"])
        #expect(stats.status == 0, "\(stats.stderr)")
        let counts = try stats.json()
        #expect(counts["embedder"] as? String == "notes-model")
        #expect(counts["model_loaded"] as? Bool == false)
        #expect(try CLIRunner.run(["stats", "--db", db]).stdout.contains("pass its folder with --model"))
        #expect(try CLIRunner.run(["get", "--db", db, "notes/ferry.txt"]).status == 0)
        let keyword = try CLIRunner.run(["search", "--db", db, "ferry"])
        #expect(keyword.status == 0 && keyword.stdout.contains("[notes/ferry.txt]"), "\(keyword.stderr)")
        #expect(
            keyword.stderr.contains("notes-model") && keyword.stderr.contains("--model FOLDER"), "\(keyword.stderr)")
        let semantic = try CLIRunner.run(["search", "--db", db, "--mode", "semantic", "boat"])
        #expect(semantic.status != 0 && semantic.stderr.contains("--model FOLDER"), "\(semantic.stderr)")

        let refused = try CLIRunner.run(["index", "--quiet", "--db", db, more.path])
        #expect(refused.status != 0)
        #expect(
            refused.stderr.contains("notes-model") && refused.stderr.contains("--model FOLDER"), "\(refused.stderr)")
        let given = try CLIRunner.run([
            "search", "--db", db, "--model", model.path, "--mode", "semantic", "--json", "boat",
        ])
        #expect(given.status == 0, "\(given.stderr)")
        #expect((try given.json()["results"] as? [[String: Any]])?.count == 2)
        let added = try CLIRunner.run(["index", "--quiet", "--db", db, "--model", model.path, more.path])
        #expect(added.status == 0, "\(added.stderr)")
        let deleted = try CLIRunner.run(["delete", "--db", db, "notes/garden.txt"])
        #expect(deleted.status == 0 && deleted.stdout.contains("deleted 1 of 1"), "\(deleted.stderr)")
        #expect(try CLIRunner.run(["stats", "--db", db, "--json"]).json()["documents"] as? Int == 2)

        let gone = folder.appendingPathComponent("gone-model").path
        let missing = try CLIRunner.run(["search", "--db", db, "--model", gone, "ferry"])
        #expect(missing.status != 0 && missing.stderr.contains(gone), "\(missing.stderr)")
    }

    /// A file made with a model Hush knows that is not installed here: reads and deletes work without it;
    /// indexing, and a --model that cannot load, say how to fetch it.
    @Test func aKnownModelThatIsNotInstalledIsNeededOnlyToEmbed() async throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("minilm.hush").path
        let miniLM = EmbedderIdentity(
            model: "all-MiniLM-L6-v2", weightsSHA256: BERTEmbedder.knownSHA256, dimension: 384, pooling: .mean,
            normalized: true)
        do {
            let store = try await HushStore.open(path: db, embedder: StampedEmbedder(identity: miniLM))
            try await store.upsert([
                Document(id: "ferry", body: "The harbour ferry leaves at noon."),
                Document(id: "garden", body: "Tomatoes go in after the last frost."),
            ])
            try await store.close()
        }
        let missing = [
            "HUSH_MODEL_DIR": folder.appendingPathComponent("no-model-here").path,
            "HUSH_E5_MODEL": folder.appendingPathComponent("no-model-here.bin").path,
        ]
        let stats = try CLIRunner.run(["stats", "--db", db], environment: missing)
        #expect(stats.status == 0 && stats.stdout.contains("model:     not installed"), "\(stats.stderr)")
        let keyword = try CLIRunner.run(["search", "--db", db, "ferry"], environment: missing)
        #expect(keyword.status == 0 && keyword.stdout.contains("[ferry]"), "\(keyword.stderr)")
        let note = folder.appendingPathComponent("note.txt")
        try "Bread rises overnight.".write(to: note, atomically: true, encoding: .utf8)
        let index = try CLIRunner.run(["index", "--quiet", "--db", db, note.path], environment: missing)
        #expect(index.status != 0 && index.stderr.contains("scripts/fetch-model"), "\(index.stderr)")
        let named = try CLIRunner.run(["search", "--db", db, "--model", "minilm", "ferry"], environment: missing)
        #expect(named.status != 0 && named.stderr.contains("no-model-here"), "\(named.stderr)")
        let deleted = try CLIRunner.run(["delete", "--db", db, "garden"], environment: missing)
        #expect(deleted.status == 0 && deleted.stdout.contains("deleted 1 of 1"), "\(deleted.stderr)")
    }

    /// --lexical on a file made with the lexical fallback uses the file's dimension (a library-made file can
    /// have any), as the file's own model does without the flag.
    @Test func theLexicalFlagOpensALexicalFileOfAnyDimension() async throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("lexical.hush").path
        do {
            let store = try await HushStore.open(path: db, embedder: HashingEmbedder(dimension: 128))
            try await store.upsert([
                Document(id: "ferry", body: "The harbour ferry leaves at noon."),
                Document(id: "garden", body: "Tomatoes go in after the last frost."),
            ])
            try await store.close()
        }
        for flags in [["--lexical"], []] {
            let result = try CLIRunner.run(
                ["search", "--db", db, "--mode", "semantic", "--json", "--k", "1"] + flags + ["harbour ferry"])
            #expect(result.status == 0, "\(flags): \(result.stderr)")
            #expect((try result.json()["results"] as? [[String: Any]])?.first?["id"] as? String == "ferry")
        }
    }

    @Test func badArgumentsAreExplained() throws {
        let noDB = try CLIRunner.run(["search", "--db", "/nonexistent/x.hush", "hello"])
        #expect(noDB.status != 0)
        #expect(noDB.stderr.contains("no database at /nonexistent/x.hush"))
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("x.hush").path
        _ = try CLIRunner.run([
            "index", "--db", db, "--quiet", "--lexical", CLIRunner.samples.appendingPathComponent("notes").path,
        ])
        let badFilter = try CLIRunner.run(["search", "--db", db, "--filter", "nonsense", "hello"])
        #expect(badFilter.status != 0)
        #expect(badFilter.stderr.contains("key=value"))
        let garbage = folder.appendingPathComponent("garbage.hush")
        try Data(repeating: 0x42, count: 4096).write(to: garbage)
        let notAStore = try CLIRunner.run(["stats", "--db", garbage.path])
        #expect(notAStore.status != 0)
        #expect(!notAStore.stderr.isEmpty)
        // A negative count reaches the command's own check (it was "Missing value for --k").
        for arguments in [
            ["search", "--db", db, "--k", "-1", "hello"], ["summarize", "--db", db, "--sentences", "-3", "x"],
        ] {
            let negative = try CLIRunner.run(arguments)
            #expect(negative.status != 0 && !negative.stderr.contains("Missing value"), "\(negative.stderr)")
            #expect(negative.stderr.contains("at least"), "\(negative.stderr)")
        }
        let neither = try CLIRunner.run(["summarize", "--db", db])
        #expect(neither.stderr.contains("give the ids of the documents to summarise, or --query"), "\(neither.stderr)")
        let keep = try CLIRunner.run(["prune", "--db", db, "--keep", "100", "--dry-run"])
        #expect(!keep.stderr.contains("Unknown option"), "\(keep.stderr)")
    }
}
