import RosterKit
import Foundation

/// One entry as a search returned it: its DN and the values of the attributes asked for, by
/// attribute name in lower case (LDAP names are case-insensitive).
public struct LDAPEntry: Sendable, Equatable {
    public var dn: String
    public var attributes: [String: [String]]

    public init(dn: String, attributes: [String: [String]] = [:]) {
        self.dn = dn
        self.attributes = attributes
    }

    public func values(_ attribute: String) -> [String] {
        attributes[Self.key(attribute)] ?? []
    }

    /// An attribute's name as `attributes` keys it: lower case. Names are ASCII (RFC 4512's
    /// keystring, or an OID), so only A to Z change, and a name in lower case is kept as it is.
    static func key(_ name: String) -> String {
        let utf8 = name.utf8
        guard utf8.contains(where: { $0 &- UInt8(ascii: "A") < 26 }) else { return name }
        return String(unsafeUninitializedCapacity: utf8.count) { buffer in
            for (index, byte) in utf8.enumerated() { buffer[index] = byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte }
            return utf8.count
        }
    }

    public func first(_ attribute: String) -> String? {
        values(attribute).first
    }

    /// The first value, when it holds more than white space.
    public func text(_ attribute: String) -> String? {
        // Blank as `CharacterSet.whitespaces` says (Zs and tab), without trimmingCharacters(in:),
        // which goes through NSString here for every value of every entry read.
        guard let value = first(attribute),
              value.unicodeScalars.contains(where: { $0 != "\t" && $0.properties.generalCategory != .spaceSeparator })
        else { return nil }
        return value
    }
}

/// One change of a modify operation (RFC 4511 section 4.6).
public struct LDAPModification: Sendable, Equatable {
    public enum Operation: Sendable, Equatable {
        case add, delete, replace
    }

    public var operation: Operation
    public var attribute: String
    /// Raw values: UTF-8 text for most attributes, UTF-16LE for AD's `unicodePwd`. A delete
    /// without values removes the attribute.
    public var values: [Data]

    public init(_ operation: Operation, _ attribute: String, _ values: [String]) {
        self.init(operation, attribute, data: values.map { Data($0.utf8) })
    }

    public init(_ operation: Operation, _ attribute: String, data: [Data]) {
        self.operation = operation
        self.attribute = attribute
        self.values = data
    }
}
