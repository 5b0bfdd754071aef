import Glibc
import RosterLDAP
import RosterTUI

/// The program's entry: `roster`'s command runs on the main actor while `MainLoop` serves the
/// main thread, so the terminal's keys are read and drawn there (Sources/RosterTUI/Terminal/MainLoop.swift).
@main
enum RosterMain {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        // An LDAP server's library loads beside the rest of the start, not after the settings.
        if LDAPLibrary.isNamed(inArguments: arguments, serverVariable: getenv("ROSTER_SERVER").map { String(cString: $0) }) {
            LDAPLibrary.preload()
        }
        MainLoop.run {
            await RosterCLI.run(arguments)
        }
    }
}
