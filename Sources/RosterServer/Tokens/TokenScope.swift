/// What a named token may do. Each route needs exactly one (`RequiredScope`); none implies another.
public enum TokenScope: String, CaseIterable, Sendable, Comparable {
    /// List and get users and groups.
    case read
    /// Create, edit, suspend, delete users and groups, and change memberships.
    case write
    /// The `/scim/v2` endpoints, for an identity provider.
    case scim
    /// Read the audit log (token management is the `roster-server token` command's).
    case admin

    public static func < (lhs: TokenScope, rhs: TokenScope) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// "read,write" → [.read, .write]; an unknown or missing scope is refused with the known ones named.
    public static func parseList(_ text: String) throws(TokenError) -> Set<TokenScope> {
        let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !names.isEmpty else { throw TokenError("Give at least one scope: \(known).") }
        var scopes: Set<TokenScope> = []
        for name in names {
            guard let scope = TokenScope(rawValue: name.lowercased()) else {
                throw TokenError("“\(name)” is not a scope; the scopes are \(known).")
            }
            scopes.insert(scope)
        }
        return scopes
    }

    /// The scopes as stored and shown: "read,write", in this enum's order.
    public static func list(_ scopes: Set<TokenScope>) -> String {
        scopes.sorted().map(\.rawValue).joined(separator: ",")
    }

    private static var known: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// A token command that cannot be done, in a sentence for the person who typed it.
public struct TokenError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

import Foundation
