import Foundation
import RosterApp

/// The terminal's clipboard: `copy` writes OSC 52 to the terminal, between frames.
@MainActor
final class TerminalClipboard: Clipboard {
    private weak var terminal: Terminal?
    private let environment: [String: String]

    init(terminal: Terminal, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.terminal = terminal
        self.environment = environment
    }

    func copy(_ text: String) {
        terminal?.send(OSC52.sequences(copying: text, environment: environment))
    }
}
