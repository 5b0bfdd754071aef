import Foundation

/// A folder of one test's own under the system's temporary directory, private to the user
/// (0700, as Roster keeps its files), removed with everything in it when the last reference
/// goes: a suite keeps it in a stored property (Swift Testing makes a suite value per test), a
/// test function in a local it also uses after its last file. A run of `make test` otherwise
/// left some 160 folders of journals, settings and tokens behind in /tmp.
///
/// Creating it cannot fail the test where it is declared: if the folder cannot be made, the
/// first file the test writes in it fails with the path in the error.
public final class TemporaryFolder: Sendable {
    public let url: URL

    /// `roster-NAME-UUID` in the temporary directory.
    public init(_ name: String) {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("roster-\(name)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(
            at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    deinit { remove() }

    /// The folder's own path.
    public var path: String { url.path }

    /// The path of `name` in the folder.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` to `name` in the folder and returns its path.
    public func write(_ name: String, _ text: String) throws -> String {
        let path = path(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    public func read(_ name: String) throws -> String {
        try String(contentsOfFile: path(name), encoding: .utf8)
    }

    /// The names in the folder, sorted.
    public var names: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted() }

    /// Removes the folder now (a test that wants it gone before it ends); the end removes it anyway.
    public func remove() { try? FileManager.default.removeItem(at: url) }
}
