/// What a command line said, by option name: values, flags and positional arguments.
struct ParsedCommandLine: Equatable, Sendable {
    var values: [String: String] = [:]
    var flags: Set<String> = []
    var arguments: [String] = []
    /// `-h` or `--help` anywhere: the help is shown and nothing runs.
    var wantsHelp = false
    /// `--version` (the root command only).
    var wantsVersion = false

    func value(_ name: String) -> String? { values[name] }
    func flag(_ name: String) -> Bool { flags.contains(name) }
}

/// A command line that does not fit its command. The message names the option by its name
/// alone, never the value typed (which may be a token).
struct CommandLineError: Error, Equatable, Sendable {
    var message: String
}

/// Reads `--name value`, `--name=value`, flags, positional arguments and `--` (after which all
/// is positional) against a `CommandSpec`. The last of a repeated option wins.
enum CommandLineParser {
    static func parse(_ arguments: [String], as spec: CommandSpec, isRoot: Bool = false) throws(CommandLineError) -> ParsedCommandLine {
        var parsed = ParsedCommandLine()
        var index = arguments.startIndex
        var onlyPositionals = false
        while index < arguments.endIndex {
            let word = arguments[index]
            index += 1
            if onlyPositionals || word == "-" || !word.hasPrefix("-") {
                parsed.arguments.append(word)
                continue
            }
            if word == "--" {
                onlyPositionals = true
                continue
            }
            if word == "-h" || word == "--help" {
                parsed.wantsHelp = true
                continue
            }
            if isRoot && word == "--version" {
                parsed.wantsVersion = true
                continue
            }
            guard word.hasPrefix("--") else { throw CommandLineError(message: "Unknown option '\(word.prefix(2))'") }
            let body = word.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            let inlineValue = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
            guard let option = spec.option(named: name) else { throw CommandLineError(message: "Unknown option '--\(name)'") }
            if option.isFlag {
                guard inlineValue == nil else { throw CommandLineError(message: "'--\(name)' takes no value") }
                parsed.flags.insert(name)
                continue
            }
            if let inlineValue {
                parsed.values[name] = inlineValue
                continue
            }
            // The next word is the value unless it is itself an option (`--token --check` is
            // a token left out, not the token "--check"); `--token=-x` passes such a value.
            guard index < arguments.endIndex, !isOptionLike(arguments[index]) else {
                throw CommandLineError(message: "Missing value for '\(option.synopsis)'")
            }
            parsed.values[name] = arguments[index]
            index += 1
        }
        guard parsed.arguments.count <= spec.arguments.count || parsed.wantsHelp else {
            let extra = parsed.arguments[spec.arguments.count]
            throw CommandLineError(message: "Unexpected argument '\(extra.prefix(60))'")
        }
        return parsed
    }

    /// A word that starts an option: a dash and a letter, or two dashes. "-" and numbers are values.
    private static func isOptionLike(_ word: String) -> Bool {
        guard word.count > 1, word.hasPrefix("-") else { return false }
        return word.hasPrefix("--") || word.dropFirst().first?.isLetter == true
    }
}
