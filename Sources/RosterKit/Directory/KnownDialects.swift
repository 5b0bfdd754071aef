import Foundation

/// The dialect each server spoke when `--api auto` last found it out, kept in the state folder
/// (`dialects.json`, 0600 in a 0700 folder), as kubectl keeps a server's API discovery: the next
/// start sends its first list in that dialect alone, one request where finding out sends seven
/// (the probe's two, and the first list in both dialects beside them). A wrong entry costs one
/// request: an answer that is not that dialect's list sends `RemoteDirectory` to the probe.
public struct KnownDialects: Sendable {
    public let path: String
    /// Servers kept at most; the one found longest ago goes first.
    public static let limit = 100

    public init(path: String) { self.path = path }

    struct Entry: Codable {
        var dialect: String
        var found: Date
    }

    /// What `server` spoke when last found out; nil when never, or when the file cannot be read.
    public func dialect(for server: URL) -> Dialect? {
        read()[Self.key(for: server)].flatMap { Dialect(rawValue: $0.dialect) }
    }

    /// Keeps that `server` speaks `dialect`.
    public func remember(_ dialect: Dialect, for server: URL) throws {
        var entries = read()
        entries[Self.key(for: server)] = Entry(dialect: dialect.rawValue, found: Date())
        while entries.count > Self.limit, let oldest = entries.min(by: { $0.value.found < $1.value.found }) {
            entries[oldest.key] = nil
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        try PrivateFileMode.replace(path, with: try encoder.encode(entries))
    }

    /// The server as the file names it: scheme, host, port and path, never the user and
    /// password a URL may carry, nor its query.
    static func key(for server: URL) -> String {
        guard var components = URLComponents(url: server, resolvingAgainstBaseURL: false) else { return "" }
        components.user = nil
        components.password = nil
        components.query = nil
        components.fragment = nil
        components.host = components.host?.lowercased()
        components.scheme = components.scheme?.lowercased()
        var key = components.string ?? ""
        while key.hasSuffix("/") { key.removeLast() }
        return key
    }

    private func read() -> [String: Entry] {
        guard let data = FileManager.default.contents(atPath: path) else { return [:] }
        return (try? JSONDecoder().decode([String: Entry].self, from: data)) ?? [:]
    }
}
