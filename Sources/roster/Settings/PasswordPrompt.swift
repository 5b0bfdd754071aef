import Foundation

/// Reads a password from the terminal with echo off, before the UI starts.
enum PasswordPrompt {
    static func read(_ prompt: String) throws -> String {
        let tty = open("/dev/tty", O_RDWR)
        guard tty >= 0 else {
            throw SettingsError("No password: set ROSTER_PASSWORD, passwordFile or passwordCommand (there is no terminal to ask on).")
        }
        defer { close(tty) }
        _ = prompt.withCString { write(tty, $0, strlen($0)) }
        var saved = termios()
        tcgetattr(tty, &saved)
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(tty, TCSAFLUSH, &silent)
        defer {
            tcsetattr(tty, TCSAFLUSH, &saved)
            _ = write(tty, "\n", 1)
        }
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while Foundation.read(tty, &byte, 1) == 1, byte != 10, byte != 13 {
            bytes.append(byte)
        }
        defer { for index in bytes.indices { bytes[index] = 0 } }
        return String(decoding: bytes, as: UTF8.self)
    }
}
