import Foundation

/// Reads a page of users written exactly as RosterServer writes it (`UserJSON`): no whitespace,
/// keys in their fixed order, strings without escapes. Anything else gives nil, and the caller
/// decodes the body with `JSONDecoder` instead, so this can only be faster, never different.
///
/// `JSONDecoder` builds a dictionary of every object's keys and a decoder per value: on a page
/// of 50 users it took most of `APIClient`'s own time, and the TUI fetches a page per keystroke
/// of a search. `PageScannerTests` holds the two readings equal.
struct PageScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The page in a success envelope, or nil when the body is not in the server's own layout.
    static func page(in body: Data) -> Page<User>? {
        body.withUnsafeBytes { raw in
            var scanner = PageScanner(bytes: raw.bindMemory(to: UInt8.self))
            return scanner.envelope()
        }
    }

    private mutating func envelope() -> Page<User>? {
        guard expect(#"{"success":true,"data":{"items":["#) else { return nil }
        var items: [User] = []
        if !expect("]") {
            repeat {
                guard let user = user() else { return nil }
                items.append(user)
            } while expect(",")
            guard expect("]") else { return nil }
        }
        guard expect(#","page":"#), let page = integer(),
              expect(#","per_page":"#), let perPage = integer(),
              expect(#","total":"#), let total = integer(),
              expect(#"},"error":null}"#), index == bytes.count
        else { return nil }
        return Page(items: items, page: page, perPage: perPage, total: total)
    }

    private mutating func user() -> User? {
        guard expect(#"{"id":"#), let id = string(),
              expect(#","name":"#), let name = string(),
              expect(#","email":"#), let email = string(),
              expect(#","role":"#), let role = string(),
              expect(#","status":"#), let status = string(),
              expect(#","created_at":"#), let createdAt = timestamp(),
              expect(#","updated_at":"#), let updatedAt = timestamp(),
              let groups = groups(),
              expect("}")
        else { return nil }
        return User(id: id, name: name, email: email, role: Role(rawValue: role), status: Status(rawValue: status),
                    createdAt: createdAt, updatedAt: updatedAt, groups: groups)
    }

    /// `,"groups":[{"id":…,"name":…},…]`, or nothing at all (a server from before groups).
    private mutating func groups() -> [GroupReference]? {
        guard expect(#","groups":["#) else { return [] }
        var groups: [GroupReference] = []
        if expect("]") { return groups }
        repeat {
            guard expect(#"{"id":"#), let id = string(), expect(#","name":"#), let name = string(), expect("}") else { return nil }
            groups.append(GroupReference(id: id, name: name))
        } while expect(",")
        return expect("]") ? groups : nil
    }

    private mutating func expect(_ text: StaticString) -> Bool {
        text.withUTF8Buffer { expected in
            guard bytes.count - index >= expected.count,
                  let here = bytes.baseAddress, let there = expected.baseAddress,
                  memcmp(here + index, there, expected.count) == 0
            else { return false }
            index += expected.count
            return true
        }
    }

    /// The bytes between quotes, when none needs unescaping. JSON forbids raw control characters
    /// in strings; invalid UTF-8 is left to `JSONDecoder` to refuse.
    private mutating func stringBytes() -> UnsafeBufferPointer<UInt8>? {
        guard expect("\"") else { return nil }
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return UnsafeBufferPointer(rebasing: bytes[start..<index - 1])
            }
            guard byte != UInt8(ascii: "\\"), byte >= 0x20 else { return nil }
            index += 1
        }
        return nil
    }

    private mutating func string() -> String? {
        stringBytes().flatMap { String(validating: $0, as: UTF8.self) }
    }

    private mutating func timestamp() -> Date? {
        stringBytes().flatMap(ISO8601Timestamp.parse(bytes:))
    }

    /// A non-negative JSON integer: digits only, no leading zero, no fraction or exponent.
    private mutating func integer() -> Int? {
        let start = index
        var value = 0
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(bytes[index] - 0x30))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
            index += 1
        }
        let digits = index - start
        guard digits > 0, digits == 1 || bytes[start] != 0x30 else { return nil }
        return value
    }
}
