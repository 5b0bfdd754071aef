import Foundation
import RosterKit

/// A command's own way out with a status other than 0 (a check that failed, leavers found),
/// having said what it had to.
struct ExitStatus: Error {
    var code: Int32
    init(_ code: Int32) { self.code = code }
}

/// `roster`'s command line: which command, its options, `--help` and `--version`, then the
/// command's run and its exit status. Usage errors print the usage and exit 64 (EX_USAGE),
/// other failures print one line and exit 1.
enum RosterCLI {
    static let usageStatus: Int32 = 64

    static func run(_ arguments: [String]) async -> Int32 {
        let root = RosterCommand.spec
        var words = arguments
        var spec = root
        if words.first == "help" {
            var shown = root
            if let name = words.dropFirst().first {
                guard let named = root.subcommands.first(where: { $0.word == name }) else {
                    return fail(CommandLineError(message: "Unknown subcommand '\(name.prefix(40))'"), spec: root)
                }
                shown = named
            }
            print(HelpText.help(for: shown, isRoot: shown.name == root.name))
            return 0
        }
        if let position = subcommandPosition(in: words, of: root) {
            spec = root.subcommands.first { $0.word == words[position] } ?? root
            words.remove(at: position)
        }
        let isRoot = spec.name == root.name
        do {
            let line = try CommandLineParser.parse(words, as: spec, isRoot: isRoot)
            if line.wantsHelp {
                print(HelpText.help(for: spec, isRoot: isRoot))
                return 0
            }
            if line.wantsVersion {
                print(RosterVersion.current)
                return 0
            }
            switch spec.word {
            case JournalCommand.spec.word: try await JournalCommand(line).run()
            case CompareCommand.spec.word: try await CompareCommand(line).run()
            default: try await RosterCommand(line).run()
            }
            return 0
        } catch let error as CommandLineError {
            return fail(error, spec: spec)
        } catch let status as ExitStatus {
            return status.code
        } catch {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            return 1
        }
    }

    private static func fail(_ error: CommandLineError, spec: CommandSpec) -> Int32 {
        FileHandle.standardError.write(Data((HelpText.error(error.message, for: spec) + "\n").utf8))
        return usageStatus
    }

    /// Where the first word that is neither an option nor an option's value names a
    /// subcommand; nil when none does (`--` ends the options, and what follows is not one).
    static func subcommandPosition(in words: [String], of root: CommandSpec) -> Int? {
        var index = 0
        while index < words.count {
            let word = words[index]
            if word == "--" { return nil }
            if word.hasPrefix("--"), !word.contains("="), root.option(named: String(word.dropFirst(2)))?.isFlag == false {
                index += 2 // the option's value
                continue
            }
            if !word.hasPrefix("-") || word == "-" {
                return root.subcommands.contains { $0.word == word } ? index : nil
            }
            index += 1
        }
        return nil
    }
}
