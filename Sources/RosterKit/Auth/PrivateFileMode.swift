import Foundation

/// Whether a file holding a secret (a token file, a password file, a TLS key) is its owner's
/// alone, as ssh asks of a key: the secret may already be known to another account otherwise.
public enum PrivateFileMode {
    /// The file's mode in octal ("644") when group or others may read or write it; nil when
    /// it is private or cannot be read (the caller's read says why).
    public static func looseMode(of path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & 0o077 != 0 else { return nil }
        return String(info.st_mode & 0o777, radix: 8)
    }

    /// Replaces the file at `path` with `data`, readable by its owner only: 0600 in a folder made
    /// 0700 when missing. Written beside it and renamed over it, so a reader (another Roster)
    /// sees the old file or the new one, never half of one.
    public static func replace(_ path: String, with data: Data) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let partial = path + ".part"
        guard FileManager.default.createFile(atPath: partial, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown)
        }
        guard rename(partial, path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: partial)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot rename \(partial) to \(path): \(reason)"])
        }
    }
}
