import Foundation

/// Hands out the bearer token and fetches a new one when the server refuses it.
///
/// The token is read once at first use and kept. `refresh(rejected:)` reads the file or runs
/// the command again, at most once per rejected token: when several requests get a 401 for the
/// same token at the same time, the first refresh serves them all.
public actor TokenProvider {
    public nonisolated let source: TokenSource
    private let readFile: @Sendable (String) throws(APIError) -> String
    private let runCommand: @Sendable (String) async throws(APIError) -> String
    private var token: String?
    private var loading: Task<String, any Error>?

    public init(_ source: TokenSource) {
        self.init(source, readFile: { path throws(APIError) in try TokenProvider.firstLine(of: path) }, runCommand: { command throws(APIError) in
            try await TokenCommand.run(command)
        })
    }

    init(
        _ source: TokenSource,
        readFile: @escaping @Sendable (String) throws(APIError) -> String,
        runCommand: @escaping @Sendable (String) async throws(APIError) -> String
    ) {
        self.source = source
        self.readFile = readFile
        self.runCommand = runCommand
        if case .literal(let token, _) = source { self.token = token }
    }

    /// The token to send now, read on first use.
    public func current() async throws -> String {
        if let token { return token }
        return try await load()
    }

    /// A new token after the server refused `rejected`, or nil when the source cannot give
    /// another (a literal token, or the file or command gave the same one again).
    public func refresh(rejected: String) async throws -> String? {
        guard source.canRefresh else { return nil }
        if let token, token != rejected { return token } // another request refreshed already
        if loading == nil { token = nil }
        let fresh = try await load()
        return fresh == rejected ? nil : fresh
    }

    private func load() async throws -> String {
        if let loading { return try await loading.value }
        let source = source
        let readFile = readFile
        let runCommand = runCommand
        let task = Task<String, any Error> {
            switch source {
            case .literal(let token, _): return token
            case .file(let path): return try readFile(path)
            case .command(let command): return try await runCommand(command)
            }
        }
        loading = task
        defer { loading = nil }
        let value = try await task.value
        token = value
        return value
    }

    /// The first line of a secret file, trimmed: the token file, and every other file a secret
    /// is read from. A file that group or others may read or write is refused, as ssh refuses
    /// such a key: the secret may already be known to another account on this machine.
    public static func firstLine(of path: String, kind: String = "token file") throws(APIError) -> String {
        if let mode = PrivateFileMode.looseMode(of: path) {
            throw .tokenUnavailable("The \(kind) \(path) can be read by others (mode \(mode)); make it yours alone: chmod 600 \(path)")
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw .tokenUnavailable("Cannot read the \(kind) \(path).")
        }
        guard let line = text.split(whereSeparator: \.isNewline).first?.trimmingCharacters(in: .whitespaces), !line.isEmpty else {
            throw .tokenUnavailable("The \(kind) \(path) is empty.")
        }
        return line
    }
}
