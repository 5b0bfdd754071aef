import Foundation
import RosterKit

/// Reads `GET /api/v1/users`'s query string into a `UserQuery`, or says which parameter is bad
/// (400). Unknown parameters are ignored, as HTTP caches and proxies may add their own.
enum ListQueryParsing {
    /// The highest page number accepted; with per_page 200 the offset still fits any integer.
    static let maximumPage = 10_000_000
    /// The longest search, in Unicode scalars.
    static let maximumSearchLength = 200

    static func parse(_ query: String?) throws(APIProblem) -> UserQuery {
        let parameters = try pairs(query ?? "")
        var result = UserQuery()
        var seen: Set<String> = []
        for (name, value) in parameters {
            guard ["page", "per_page", "q", "sort", "role", "status"].contains(name) else { continue }
            guard seen.insert(name).inserted else { throw .badQuery("Give \(name) at most once.") }
            switch name {
            case "page":
                guard let page = Int(value), (1...maximumPage).contains(page) else {
                    throw .badQuery("page must be a whole number from 1 to \(maximumPage).")
                }
                result.page = page
            case "per_page":
                guard let perPage = Int(value), UserQuery.perPageRange.contains(perPage) else {
                    throw .badQuery("per_page must be a whole number from \(UserQuery.perPageRange.lowerBound) to \(UserQuery.perPageRange.upperBound).")
                }
                result.perPage = perPage
            case "q":
                guard value.unicodeScalars.count <= maximumSearchLength else {
                    throw .badQuery("q must be at most \(maximumSearchLength) characters.")
                }
                result.search = value.isEmpty ? nil : value
            case "sort":
                guard let sort = UserSort(rawValue: value) else {
                    throw .badQuery("sort must be one of \(UserSort.allCases.map(\.rawValue).joined(separator: ", ")).")
                }
                result.sort = sort
            case "role":
                let role = Role(rawValue: value)
                guard role.isKnown else { throw .badQuery("role must be one of \(Role.known.map(\.rawValue).joined(separator: ", ")).") }
                result.role = role
            default: // status
                let status = Status(rawValue: value)
                guard status.isKnown else { throw .badQuery("status must be one of \(Status.known.map(\.rawValue).joined(separator: ", ")).") }
                result.status = status
            }
        }
        return result
    }

    /// Splits `a=1&b=2` into decoded pairs. "+" is a space (HTML forms and most HTTP libraries
    /// send it so; RosterKit's client writes "+" itself as %2B, so the two readings agree).
    /// A value that is not valid percent-encoded UTF-8 is a bad query, not a guess.
    static func pairs(_ query: String) throws(APIProblem) -> [(String, String)] {
        var result: [(String, String)] = []
        for item in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]), let value = decode(parts.count > 1 ? parts[1] : "") else {
                throw .badQuery("The query string is not valid percent-encoded UTF-8.")
            }
            result.append((name, value))
        }
        return result
    }

    private static func decode(_ text: Substring) -> String? {
        // Most names and values need no decoding; Foundation's decoding is slow enough to show
        // in a profile of the list call.
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else { return String(text) }
        return text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
