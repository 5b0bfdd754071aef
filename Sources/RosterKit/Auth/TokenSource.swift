/// Where the bearer token comes from. A literal token is fixed; a file or a command is read
/// again when the server refuses the token (401), so a rotated or expired token is picked up
/// without restarting Roster.
public enum TokenSource: Sendable, Equatable {
    /// Given on the command line, in the environment or in the configuration file.
    case literal(String, origin: String)
    /// A file whose first line is the token (`tokenFile`).
    case file(path: String)
    /// A command whose standard output is the token (`tokenCommand`), as git credential
    /// helpers and kubectl's exec plugins work. Run with `/bin/sh -c`.
    case command(String)

    /// Whether asking again can give a different token.
    public var canRefresh: Bool {
        switch self {
        case .literal: false
        case .file, .command: true
        }
    }

    /// Where the token comes from, in words, without the token (or the command, which may
    /// hold a secret of its own).
    public var summary: String {
        switch self {
        case .literal(_, let origin): origin
        case .file(let path): "tokenFile \(path)"
        case .command: "tokenCommand"
        }
    }
}
