import Foundation
import RosterTUI

/// `--help` and the usage line of an error, laid out as swift-argument-parser laid them out
/// (OVERVIEW, USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS), wrapped to 80 columns.
enum HelpText {
    static let width = 80
    /// Where an option's help starts, after its synopsis.
    private static let helpColumn = 26

    static func help(for spec: CommandSpec, isRoot: Bool) -> String {
        var lines = wrap("OVERVIEW: " + spec.abstract, indent: 0)
        if !spec.discussion.isEmpty {
            for paragraph in spec.discussion.components(separatedBy: "\n\n") {
                lines += [""] + wrap(paragraph, indent: 0)
            }
        }
        lines += ["", usage(for: spec, prefix: "USAGE: ")]
        if !spec.arguments.isEmpty {
            lines += ["", "ARGUMENTS:"]
            for argument in spec.arguments { lines += entry("<\(argument.valueName)>", argument.help) }
        }
        lines += ["", "OPTIONS:"]
        for option in spec.options { lines += entry(option.synopsis, option.help) }
        if isRoot { lines += entry("--version", "Show the version.") }
        lines += entry("-h, --help", "Show help information.")
        if !spec.subcommands.isEmpty {
            lines += ["", "SUBCOMMANDS:"]
            for subcommand in spec.subcommands { lines += entry(subcommand.word, subcommand.abstract) }
            lines += ["", "  See '\(spec.name) help <subcommand>' for detailed help."]
        }
        return lines.joined(separator: "\n")
    }

    /// `roster [--server <url>] ... <subcommand>`, wrapped under its first word.
    static func usage(for spec: CommandSpec, prefix: String) -> String {
        var items = spec.arguments.map { "<\($0.valueName)>" }
        items += spec.options.map { "[\($0.synopsis)]" }
        if !spec.subcommands.isEmpty { items.append("[<subcommand>]") }
        let lead = prefix + spec.name
        return wrap(([lead] + items).joined(separator: " "), indent: lead.count + 1).joined(separator: "\n")
    }

    /// What an error prints to standard error, after which the command exits with 64.
    static func error(_ message: String, for spec: CommandSpec) -> String {
        "Error: \(message)\n\(usage(for: spec, prefix: "Usage: "))\n  See '\(spec.name) --help' for more information."
    }

    /// Two spaces, the name, then the help from column 26 (or on the next line if the name is longer).
    private static func entry(_ name: String, _ help: String) -> [String] {
        let head = "  " + name
        let margin = String(repeating: " ", count: helpColumn)
        let helpLines = TextWrap.lines(help, width: width - helpColumn).map { margin + $0 }
        guard head.count + 2 <= helpColumn, let first = helpLines.first else { return [head] + helpLines }
        return [head + first.dropFirst(head.count)] + helpLines.dropFirst()
    }

    /// `text` wrapped to `width`, continuation lines indented by `indent` spaces.
    static func wrap(_ text: String, indent: Int) -> [String] {
        let all = TextWrap.lines(text, width: width)
        guard let first = all.first, all.count > 1 else { return all }
        let rest = TextWrap.lines(all.dropFirst().joined(separator: " "), width: width - indent)
        return [first] + rest.map { String(repeating: " ", count: indent) + $0 }
    }
}
