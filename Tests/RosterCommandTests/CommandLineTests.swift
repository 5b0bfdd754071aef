import Testing
@testable import roster

@Suite("roster's command line: options, subcommands, help and usage errors")
struct CommandLineTests {
    private func parse(_ words: [String], _ spec: CommandSpec = RosterCommand.spec) throws(CommandLineError) -> ParsedCommandLine {
        try CommandLineParser.parse(words, as: spec, isRoot: spec.name == "roster")
    }

    @Test("values with a space or an =, flags, the last of a repeated option, and -- before positionals")
    func valuesAndFlags() throws {
        let line = try parse(["--server", "https://a.example", "--token=t=1", "--check", "--api", "scim", "--api", "roster"])
        #expect(line.value("server") == "https://a.example")
        #expect(line.value("token") == "t=1", "everything after the first = is the value")
        #expect(line.value("api") == "roster")
        #expect(line.flag("check") && !line.flag("all"))
        let compare = try parse(["--report", "r.csv", "--", "--odd-profile", "b"], CompareCommand.spec)
        #expect(compare.arguments == ["--odd-profile", "b"])
        #expect(try parse(["--token=-starts-with-a-dash"]).value("token") == "-starts-with-a-dash")
        #expect(try parse(["--demo-faults", "-1"]).value("demo-faults") == "-1", "a negative number is a value")
    }

    @Test("what does not fit is a sentence that names the option, never the value typed")
    func usageErrors() throws {
        func message(_ words: [String], _ spec: CommandSpec = RosterCommand.spec) -> String? {
            do { _ = try parse(words, spec); return nil } catch { return error.message }
        }
        #expect(message(["--bogus=secret-token"]) == "Unknown option '--bogus'")
        #expect(message(["-x"]) == "Unknown option '-x'")
        #expect(message(["--server"]) == "Missing value for '--server <url>'")
        #expect(message(["--token", "--check"]) == "Missing value for '--token <token>'", "an option is not a value")
        #expect(message(["--check=yes"]) == "'--check' takes no value")
        #expect(message(["stray"]) == "Unexpected argument 'stray'")
        #expect(message(["a", "b", "c"], CompareCommand.spec) == "Unexpected argument 'c'")
        #expect(message(["--config", "x"], JournalCommand.spec) == "Unknown option '--config'")
        #expect(throws: CommandLineError.self) { _ = try RosterCommand(try parse(["--demo-faults", "lots"])) }
        #expect(try RosterCommand(try parse(["--demo-faults", "0.25"])).demoFaults == 0.25)
    }

    @Test("the subcommand is the first word that is neither an option nor an option's value")
    func subcommands() {
        let root = RosterCommand.spec
        #expect(RosterCLI.subcommandPosition(in: ["journal", "--since", "2w"], of: root) == 0)
        #expect(RosterCLI.subcommandPosition(in: ["--config", "c.json", "compare", "hr", "saas"], of: root) == 2)
        #expect(RosterCLI.subcommandPosition(in: ["--config=c.json", "--check", "compare"], of: root) == 2)
        #expect(RosterCLI.subcommandPosition(in: ["--profile", "compare"], of: root) == nil, "a profile named compare")
        #expect(RosterCLI.subcommandPosition(in: ["--", "journal"], of: root) == nil)
        #expect(RosterCLI.subcommandPosition(in: ["hr"], of: root) == nil)
    }

    @Test("help: -h, --help and `roster help journal`, every option shown, 80 columns at most")
    func help() async throws {
        #expect(try parse(["--server", "x", "-h"]).wantsHelp)
        #expect(try parse(["--help"], JournalCommand.spec).wantsHelp)
        #expect(try parse(["--version"]).wantsVersion)
        #expect(throws: CommandLineError.self) { _ = try parse(["--version"], JournalCommand.spec) }
        for spec in [RosterCommand.spec, JournalCommand.spec, CompareCommand.spec] {
            let text = HelpText.help(for: spec, isRoot: spec.name == "roster")
            for option in spec.options { #expect(text.contains(option.synopsis), "\(spec.name) --help shows \(option.synopsis)") }
            for argument in spec.arguments { #expect(text.contains("<\(argument.valueName)>")) }
            for line in text.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
        }
        #expect(HelpText.help(for: RosterCommand.spec, isRoot: true).contains("  journal "))
        let error = HelpText.error("Unknown option '--x'", for: RosterCommand.spec)
        #expect(error.hasPrefix("Error: Unknown option '--x'\nUsage: roster [--server <url>]"))
        #expect(error.hasSuffix("See 'roster --help' for more information."))
        #expect(await RosterCLI.run(["--check=yes"]) == RosterCLI.usageStatus)
        #expect(await RosterCLI.run(["help", "nothing"]) == RosterCLI.usageStatus)
    }
}
