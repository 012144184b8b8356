import ArgumentParser
import Foundation
import Hush
import HushEmbedding
import HushToolSupport

@main
struct HushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hush",
        abstract: "Private, on-device semantic search.",
        discussion: "Everything runs on this machine: no network, ever.",
        subcommands: [
            IndexCommand.self,
            BuildCommand.self,
            ImportCommand.self,
            SearchCommand.self,
            GetCommand.self,
            ListCommand.self,
            ExportCommand.self,
            DeleteCommand.self,
            StatsCommand.self,
            ReembedCommand.self,
            RelatedCommand.self,
            RankCommand.self,
            SummarizeCommand.self,
            PruneCommand.self,
            CompactCommand.self,
            EvalCommand.self,
            EmbedCommand.self,
            ModelCommand.self,
        ]
    )

    /// Runs the command, saying store conditions in the command line's terms (`--model`, `hush reembed`)
    /// instead of the library's.
    static func main() async {
        do {
            try await execute(Array(CommandLine.arguments.dropFirst()))
        } catch let unknown as UnknownOption {
            Console.error(unknown.description)
            Foundation.exit(ExitCode.validationFailure.rawValue)
        } catch let interrupted as CommandInterrupted {
            // The work stopped at a checkpoint: the stores are closed (their log moved into the file) first.
            await OpenStores.shared.closeAll()
            Console.error(interrupted.description)
            Foundation.exit(interrupted.exitStatus)
        } catch {
            await OpenStores.shared.closeAll()
            exit(withError: CommandLineMessage.explaining(error))
        }
        await OpenStores.shared.closeAll()
    }

    /// Parses and runs one command line (off the main actor, so the command value never crosses isolation).
    nonisolated static func execute(_ arguments: [String]) async throws {
        if let unknown = UnknownOption(in: arguments) { throw unknown }
        try refuseDashValues(arguments)
        let arguments = joiningNegativeValues(arguments)
        let (head, trailing) = TrailingArguments.split(arguments)
        var command: any ParsableCommand
        if !trailing.isEmpty, var receiver = try parseAsRoot(head) as? any ParsableCommand & TakesTrailingValues {
            receiver.appendTrailingValues(trailing)
            command = receiver
        } else {
            command = try parseAsRoot(arguments)
        }
        if var asyncCommand = command as? any AsyncParsableCommand {
            try await asyncCommand.run()
        } else {
            try command.run()
        }
    }
}

extension HushCommand {
    /// `hush` has no short options but `-h`, so a value that starts with a single `-` (a path or an id such
    /// as `-dash dir/-n.txt`) would be read as a cluster of options: with an `h` in it, as a request for help
    /// that exits 0 having done nothing. Such a value is refused with how to pass it: after `--`. Negative
    /// numbers (`--min-score -0.5`) and `-` alone pass.
    static func refuseDashValues(_ arguments: [String]) throws {
        for argument in arguments {
            if argument == "--" { return }
            guard argument.hasPrefix("-"), !argument.hasPrefix("--"), argument != "-", argument != "-h",
                Double(argument) == nil
            else { continue }
            let shown = argument.contains(" ") ? "\"\(argument)\"" : argument
            throw ValidationError(
                "\(shown) starts with - and would be read as options; to pass it as a value, put -- before it "
                    + "(for example: hush get --db FILE -- \(shown))")
        }
    }
}

extension HushCommand {
    /// `--k -1` as `--k=-1`: a negative number after an option is its value (ArgumentParser reads `-1` as a short
    /// option and said "Missing value for --k"), so the command's own check says what is wrong with it.
    static func joiningNegativeValues(_ arguments: [String]) -> [String] {
        var joined: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                joined += arguments[index...]
                break
            }
            if argument.hasPrefix("--"), !argument.contains("="), index + 1 < arguments.count,
                arguments[index + 1].hasPrefix("-"), Double(arguments[index + 1]) != nil
            {
                joined.append(argument + "=" + arguments[index + 1])
                index += 2
                continue
            }
            joined.append(argument)
            index += 1
        }
        return joined
    }
}

/// A library error restated for a person at the command line.
struct CommandLineMessage: Error, CustomStringConvertible {
    var description: String

    /// How a person at the command line installs a model or points Hush at one.
    static let fetchHint =
        "run scripts/fetch-model, or pass the model with --model (HUSH_E5_MODEL names the e5 file, HUSH_MODEL_DIR "
        + "MiniLM's folder)"

    static func explaining(_ error: any Error) -> any Error {
        func mismatch(_ stored: EmbedderIdentity, _ current: EmbedderIdentity) -> CommandLineMessage {
            CommandLineMessage(
                description: "the database was indexed with \(stored), but this command loaded \(current): pass "
                    + "the model it was made with (--model FOLDER, or --lexical), or convert the database with "
                    + "`hush reembed --db FILE --model FOLDER`")
        }
        switch error {
        case StoreError.embedderMismatch(let stored, let current): return mismatch(stored, current)
        case StoreError.modelNotLoaded(let stored) where !StoreModelResolver.findsModel(of: stored):
            return CommandLineMessage(
                description: "the database's vectors were made with \(stored), a model Hush cannot find by "
                    + "itself: pass its folder with --model FOLDER; without it, `hush get`, `hush list`, "
                    + "`hush export`, `hush stats`, `hush delete` and `hush search --mode keyword` work")
        case StoreError.modelNotLoaded(let stored):
            return CommandLineMessage(
                description: "the database's vectors were made with \(stored), which is not installed here: "
                    + "\(fetchHint); without it, `hush get`, `hush list`, `hush export`, "
                    + "`hush stats`, `hush delete` and `hush search --mode keyword` work")
        case StoreError.modelUnavailable(let path, let model, _):
            return CommandLineMessage(
                description: "\(path) was made with \(model), a model Hush cannot find by itself: pass its folder "
                    + "with --model FOLDER to add to it, or convert the database with "
                    + "`hush reembed --db \(path) --model e5-small`")
        case StoreError.reembeddedMeanwhile(let stored, _):
            return CommandLineMessage(
                description: "another process re-embedded the database with \(stored) while this command ran: "
                    + "what it had not written yet was left out (its vectors were of the old model); run the "
                    + "command again, it will use \(stored)")
        case StoreError.keywordIndexMissing(let path):
            return CommandLineMessage(
                description: "the keyword index of \(path) is missing or damaged: run `hush compact --db \(path)` to "
                    + "build it again from the stored text (`hush search --mode semantic` works meanwhile)")
        case BuildError.wouldReplace(let path, let reason):
            return CommandLineMessage(
                description: "\(path) already exists and \(reason), so a build will not replace it: choose another "
                    + "--out, or pass --force to replace it anyway")
        case EmbeddingError.modelNotFound(let path):
            return CommandLineMessage(description: "no model at \(path): \(fetchHint)")
        case EmbeddingError.corruptModel(let path, let reason):
            return CommandLineMessage(
                description: "the model file \(path) is unusable: \(reason); fetch it again with scripts/fetch-model")
        case EmbeddingError.modelChanged(let path, let reason):
            return CommandLineMessage(
                description: "the model file \(path) changed while the command used it (\(reason)): run the "
                    + "command again; to replace a model file, write the new one beside it and rename it over the old")
        case EmbeddingError.identityChanged(let path, let expected, let found):
            return CommandLineMessage(
                description: "the model at \(path) is \(found), not \(expected) as the database expects: put back "
                    + "the model it was made with, or convert it with `hush reembed --db FILE --model \(path)`")
        case StoreError.reembedUnfinished(let target, let completed, let total):
            return CommandLineMessage(
                description: "a re-embed to \(target) stopped after \(completed) of \(total) chunks: run "
                    + "`hush reembed --db FILE` with that model to finish it (until then, search with the old model)")
        default:
            // A database error that reached here unwrapped: its description ends with the SQL that failed,
            // which says nothing to a person and must not be shown.
            let text = String(describing: error)
            if let statement = text.range(of: " - while executing `") {
                return CommandLineMessage(description: String(text[..<statement.lowerBound]))
            }
            return error
        }
    }
}

/// An option the command does not have (`--like` for `hush rank`'s `--liked`, `--dbb`), named with the nearest
/// option it has, and the command's usage. It is looked for before anything else: ArgumentParser checks a
/// command's values before it looks for options it did not use, so a mistyped option was reported as a missing
/// `--db` or as the check of the option meant ("--liked needs at least one document id").
struct UnknownOption: Error, CustomStringConvertible {
    var description: String

    /// The first option in `arguments` (before `--`) that their command does not have, or a long option written
    /// with one dash (`-k`); `nil` when there is none.
    init?(in arguments: [String]) {
        var command: any ParsableCommand.Type = HushCommand.self
        var path = ["hush"]
        var rest = arguments[...]
        while let name = rest.first,
            let subcommand = command.configuration.subcommands.first(where: { $0.configuration.commandName == name })
        {
            command = subcommand
            path.append(name)
            rest = rest.dropFirst()
        }
        let help = HushCommand.helpMessage(for: command, includeHidden: true, columns: 10_000)
        var known: Set<String> = ["--help", "--experimental-dump-help", "--generate-completion-script"]
        var word = ""
        for character in help + " " {
            if character.isLetter || character.isNumber || character == "-" {
                word.append(character)
            } else {
                if word.hasPrefix("--"), word.count > 2 { known.insert(word) }
                word = ""
            }
        }
        for argument in rest {
            if argument == "--" { return nil }
            let name = String(argument.prefix(while: { $0 != "=" }))
            let hint: String?
            if argument.hasPrefix("--"), argument.count > 2 {
                guard !known.contains(name) else { continue }
                // The nearest, and of as near ones the first by name: the same hint on every run.
                let nearest = known.map { (option: $0, distance: Self.editDistance($0, name)) }.min {
                    ($0.distance, $0.option) < ($1.distance, $1.option)
                }
                hint = nearest.flatMap { $0.distance <= max(2, name.count / 3) ? $0.option : nil }
            } else if argument.hasPrefix("-"), known.contains("-" + name) {
                // A long option written with one dash (`-k 5`, `-json`); any other value with one dash is
                // refused with how to pass it (`refuseDashValues`).
                hint = "-" + name
            } else {
                continue
            }
            description =
                "Error: Unknown option '\(name)'." + (hint.map { " Did you mean '\($0)'?" } ?? "")
                + "\nUsage: \(HushCommand.usageString(for: command))"
                + "\n  See '\(path.joined(separator: " ")) --help' for more information."
            return
        }
        return nil
    }

    /// The Levenshtein distance between two option names.
    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
