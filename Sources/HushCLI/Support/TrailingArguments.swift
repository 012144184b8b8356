import ArgumentParser

/// A command whose last positional argument takes many values (query words, texts, paths, ids).
///
/// ArgumentParser stores each value of an array argument by copying the array so far, so 16,000 query
/// words took 11 s to parse. `TrailingArguments` keeps all but the first of the values at the end of the
/// command line out of the parse and hands them to the command afterwards, in order: linear in their count.
protocol TakesTrailingValues {
    /// Appends values that followed the parsed ones on the command line.
    mutating func appendTrailingValues(_ values: [String])
}

enum TrailingArguments {
    /// Below this many trailing values the parse is fast enough as it is.
    static let threshold = 64

    /// Splits the command line: the arguments to parse, and the trailing values kept out of the parse. The
    /// trailing run is the values at the end that start with no `-`; its first value stays in the parse (it
    /// may belong to the option before it, and if not, it gives the command its first positional value, so
    /// validation sees a non-empty list). Nothing is split when `--` appears (values after it may start
    /// with `-`) or the run is short.
    static func split(_ arguments: [String]) -> (parse: [String], trailing: [String]) {
        guard !arguments.contains("--") else { return (arguments, []) }
        var start = arguments.endIndex
        while start > arguments.startIndex, !arguments[start - 1].hasPrefix("-") { start -= 1 }
        let keep = start + 2  // the value that may belong to an option, then one certain positional value
        guard arguments.endIndex - keep > threshold else { return (arguments, []) }
        return (Array(arguments[..<keep]), Array(arguments[keep...]))
    }
}

extension SearchCommand: TakesTrailingValues {
    mutating func appendTrailingValues(_ values: [String]) { query.append(contentsOf: values) }
}

extension EmbedCommand: TakesTrailingValues {
    mutating func appendTrailingValues(_ values: [String]) { texts.append(contentsOf: values) }
}

extension IndexCommand: TakesTrailingValues {
    mutating func appendTrailingValues(_ values: [String]) { paths.append(contentsOf: values) }
}

extension DeleteCommand: TakesTrailingValues {
    mutating func appendTrailingValues(_ values: [String]) { ids.append(contentsOf: values) }
}

extension SummarizeCommand: TakesTrailingValues {
    mutating func appendTrailingValues(_ values: [String]) { ids.append(contentsOf: values) }
}
