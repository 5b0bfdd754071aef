import Crypto
import Foundation

/// A named token as the database keeps it: never the secret, only its SHA-256.
public struct TokenRecord: Sendable, Equatable {
    public var name: String
    /// Hex SHA-256 of the secret (`TokenRecord.hash`).
    var secretHash: String
    public var scopes: Set<TokenScope>
    public var createdAt: Date
    public var expiresAt: Date?
    public var revokedAt: Date?
    public var lastUsedAt: Date?

    /// Whether the token is accepted at `now`: not revoked, not expired.
    func isLive(at now: Date) -> Bool {
        revokedAt == nil && (expiresAt.map { now < $0 } ?? true)
    }

    /// The secret's SHA-256 in hex. A token is 256 random bits, so a plain hash is enough: no
    /// salt or slow hash is needed against guessing where there is nothing short to guess.
    static func hash(_ secret: some DataProtocol) -> String {
        hex(SHA256.hash(data: secret))
    }

    /// A digest as the database keeps it: 64 lowercase hex digits.
    static func hex(_ digest: SHA256.Digest) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Names as the log and the audit show them: letters, digits, `.`, `-`, `_`, `@`, 1 to 64.
    static func checkName(_ name: String) throws(TokenError) {
        guard (1...64).contains(name.count),
              name.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) && $0.isASCII || ".-_@".unicodeScalars.contains($0) })
        else {
            throw TokenError("A token's name is 1 to 64 letters, digits, “.”, “-”, “_” or “@”; “\(name.prefix(80))” is not.")
        }
    }
}

/// Who a request's token says it is: the name the log and audit record, and what it may do.
struct TokenIdentity: Sendable, Equatable {
    var name: String
    var scopes: Set<TokenScope>

    /// `--token` / `ROSTER_TOKEN`: the bootstrap token, with every scope.
    static let bootstrap = TokenIdentity(name: "bootstrap", scopes: Set(TokenScope.allCases))
}
