import RosterTUI

/// The program's entry: `roster`'s command runs on the main actor while `MainLoop` serves the
/// main thread, so the terminal's keys are read and drawn there (Sources/RosterTUI/Terminal/MainLoop.swift).
@main
enum RosterMain {
    static func main() {
        MainLoop.run {
            await RosterCLI.run(Array(CommandLine.arguments.dropFirst()))
        }
    }
}
