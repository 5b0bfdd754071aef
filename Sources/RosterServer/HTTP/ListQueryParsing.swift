import Foundation
import RosterKit

/// Reads `GET /api/v1/users`'s query string into a `UserListQuery`, or says which parameter is
/// bad (400). Unknown parameters are ignored, as HTTP caches and proxies may add their own.
enum ListQueryParsing {
    /// The highest page number accepted; with per_page 200 the offset still fits any integer.
    static let maximumPage = 10_000_000
    /// The longest search, in Unicode scalars.
    static let maximumSearchLength = 200
    /// The parameters read; any other is ignored.
    private static let names = ["page", "per_page", "q", "sort", "role", "status", "group"]

    static func parse(_ query: String?) throws(APIProblem) -> UserListQuery {
        let parameters = try pairs(query ?? "")
        var result = UserQuery()
        var group: String?
        var seen: UInt8 = 0 // one bit per name in `names`
        for (name, value) in parameters {
            guard let bit = names.firstIndex(of: name) else { continue }
            guard seen & (1 << bit) == 0 else { throw .badQuery("Give \(name) at most once.") }
            seen |= 1 << bit
            switch name {
            case "page":
                result.page = try page(value)
            case "per_page":
                result.perPage = try perPage(value)
            case "q":
                result.search = try search(value)
            case "sort":
                guard let sort = UserSort(rawValue: value) else {
                    throw .badQuery("sort must be one of \(UserSort.allCases.map(\.rawValue).joined(separator: ", ")).")
                }
                // roster-server always answers sorted: its own order is its default, name ↑.
                result.sort = sort == .directory ? .default : sort
            case "role":
                let role = Role(rawValue: value)
                guard role.isKnown else { throw .badQuery("role must be one of \(Role.known.map(\.rawValue).joined(separator: ", ")).") }
                result.role = role
            case "status":
                let status = Status(rawValue: value)
                guard status.isKnown else { throw .badQuery("status must be one of \(Status.known.map(\.rawValue).joined(separator: ", ")).") }
                result.status = status
            default: // group: an id no group has matches no one, as any filter would
                group = value.isEmpty ? nil : value
            }
        }
        return UserListQuery(result, group: group)
    }

    /// Reads `page` and `per_page` as a user list does.
    static func page(_ value: String) throws(APIProblem) -> Int {
        guard let page = Int(value), (1...maximumPage).contains(page) else {
            throw .badQuery("page must be a whole number from 1 to \(maximumPage).")
        }
        return page
    }

    static func perPage(_ value: String) throws(APIProblem) -> Int {
        guard let perPage = Int(value), UserQuery.perPageRange.contains(perPage) else {
            throw .badQuery("per_page must be a whole number from \(UserQuery.perPageRange.lowerBound) to \(UserQuery.perPageRange.upperBound).")
        }
        return perPage
    }

    static func search(_ value: String) throws(APIProblem) -> String? {
        guard value.unicodeScalars.count <= maximumSearchLength else {
            throw .badQuery("q must be at most \(maximumSearchLength) characters.")
        }
        return value.isEmpty ? nil : value
    }

    /// Splits `a=1&b=2` into decoded pairs. "+" is a space (HTML forms and most HTTP libraries
    /// send it so; RosterKit's client writes "+" itself as %2B, so the two readings agree).
    /// A value that is not valid percent-encoded UTF-8 is a bad query, not a guess.
    static func pairs(_ query: String) throws(APIProblem) -> [(String, String)] {
        // One pass over the UTF-8, slicing in place: `split` made two arrays per request and
        // showed in a profile of the uncached list call.
        var result: [(String, String)] = []
        var rest = query[...]
        while !rest.isEmpty {
            let end = rest.utf8.firstIndex(of: UInt8(ascii: "&")) ?? rest.endIndex
            let item = rest[..<end]
            rest = end == rest.endIndex ? "" : rest[rest.utf8.index(after: end)...]
            if item.isEmpty { continue }
            let equals = item.utf8.firstIndex(of: UInt8(ascii: "="))
            let rawName = equals.map { item[..<$0] } ?? item
            let rawValue = equals.map { item[item.utf8.index(after: $0)...] } ?? ""
            guard let name = decode(rawName), let value = decode(rawValue) else {
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
