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
}
