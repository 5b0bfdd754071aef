/// What one command accepts, as its `--help` shows it and `CommandLineParser` reads it: a table
/// per command instead of swift-argument-parser's property wrappers, whose reflection cost
/// every start about 3 ms (docs/design.md, "The command line").
struct CommandSpec: Sendable {
    /// As typed: `roster`, `roster journal`.
    var name: String
    var abstract: String
    var discussion = ""
    /// Positional arguments, in order; each may be left out (the command says what is missing).
    var arguments: [Argument] = []
    var options: [Option]
    /// Commands typed after this one's name (`roster journal`).
    var subcommands: [CommandSpec] = []

    struct Option: Sendable {
        /// The long name without dashes: `server` for `--server`.
        var name: String
        /// `url` for `--server <url>`; nil for a flag, which takes no value.
        var valueName: String?
        var help: String

        var isFlag: Bool { valueName == nil }
        var synopsis: String { "--\(name)" + (valueName.map { " <\($0)>" } ?? "") }
    }

    struct Argument: Sendable {
        var valueName: String
        var help: String
    }

    /// Every command but the root is named by its last word.
    var word: String { String(name.split(separator: " ").last ?? "") }

    func option(named name: String) -> Option? { options.first { $0.name == name } }
}
