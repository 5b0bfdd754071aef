import Foundation

/// The dialect each server spoke when `--api auto` last found it out, kept in the state folder
/// (`dialects.tsv`, 0600 in a 0700 folder), as kubectl keeps a server's API discovery: the next
/// start sends its first list in that dialect alone, one request where finding out sends seven
/// (the probe's two, and the first list in both dialects beside them). A wrong entry costs one
/// request: an answer that is not that dialect's list sends `RemoteDirectory` to the probe.
///
/// One line a server: the dialect, when it was found (seconds since 1970) and the server, tab
/// between. Not JSON: each start reads it before its first request, and JSONDecoder's first
/// use cost that request 1 ms (docs/benchmarks.md, "Issue 28, eleventh pass").
public struct KnownDialects: Sendable {
    public let path: String
    /// Servers kept at most; the one found longest ago goes first.
    public static let limit = 100

    public init(path: String) { self.path = path }

    struct Entry {
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
        let lines = entries.sorted { $0.key < $1.key }.map { key, entry in
            "\(entry.dialect)\t\(entry.found.timeIntervalSince1970)\t\(key)\n"
        }
        try PrivateFileMode.replace(path, with: Data(lines.joined().utf8))
    }

    /// The server as the file names it: scheme, host, port and path, never the user and
    /// password a URL may carry, nor its query. Put together from the parts as written:
    /// URLComponents' `host` (and setting its scheme, which reads it) would load ICU's IDNA
    /// tables, 0.6 MB of a start's memory, for a name Roster only compares (docs/benchmarks.md,
    /// "Issue 28, fifteenth pass").
    static func key(for server: URL) -> String {
        guard let components = URLComponents(url: server, resolvingAgainstBaseURL: false) else { return "" }
        var key = (components.scheme?.lowercased() ?? "") + "://" + (components.encodedHost?.lowercased() ?? "")
        if let port = components.port { key += ":\(port)" }
        key += components.percentEncodedPath
        while key.hasSuffix("/") { key.removeLast() }
        return key
    }

    /// The file's entries; a line that is not three fields with a time between is skipped.
    private func read() -> [String: Entry] {
        guard let data = FileManager.default.contents(atPath: path) else { return [:] }
        var entries: [String: Entry] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, let seconds = Double(fields[1]), !fields[2].isEmpty else { continue }
            entries[String(fields[2])] = Entry(dialect: String(fields[0]), found: Date(timeIntervalSince1970: seconds))
        }
        return entries
    }
}
