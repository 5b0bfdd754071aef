import Foundation

/// Any JSON value, kept whole: how Roster holds a SCIM resource, so that every attribute it
/// does not model (other schemas, extensions, multi-valued entries) goes back to the server
/// exactly as it came.
public indirect enum JSONValue: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    /// An integer that fits in 64 bits, kept exact.
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Tried in the order a SCIM resource's values come most often: strings, then objects and
    /// arrays, then the scalars. Codable cannot ask a value's kind, and each wrong guess throws
    /// a DecodingError (its coding path and message built): strings tried fourth cost the first
    /// SCIM page of a start 12 ms (docs/benchmarks.md, "Issue 28, eleventh pass"). An integer is
    /// still tried before a Double, so it stays exact; no two kinds accept the same value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else {
            self = .number(try container.decode(Double.self))
        }
    }

    /// `body` read by `JSONTextReader` (`JSONValueBuilder`): what `init(from:)` gives through
    /// `JSONDecoder`, in about a sixth of the time. A body that is not JSON throws
    /// `DecodingError.dataCorrupted` with an empty coding path, as JSONDecoder does.
    public init(parsing body: Data) throws {
        do {
            self = try JSONTextReader.read(body, with: JSONValueBuilder())
        } catch {
            throw DecodingError.dataCorrupted(.init(
                codingPath: [], debugDescription: "The given data was not valid JSON: \(error.reason) at byte \(error.offset).", underlyingError: error))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// SCIM attribute names are case-insensitive (RFC 7643 section 2.1): the member whose
    /// name equals `name` ignoring case.
    public subscript(attribute name: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        if let exact = members[name] { return exact }
        let lowered = name.lowercased()
        return members.first { $0.key.lowercased() == lowered }?.value
    }

    /// The actual key under which `name` is stored, ignoring case, if any.
    func key(matching name: String) -> String? {
        guard case .object(let members) = self else { return nil }
        if members[name] != nil { return name }
        let lowered = name.lowercased()
        return members.keys.first { $0.lowercased() == lowered }
    }

    /// Sets `name` (keeping the spelling the resource already uses), or removes it for nil.
    public mutating func set(_ name: String, _ value: JSONValue?) {
        guard case .object(var members) = self else { return }
        let key = key(matching: name) ?? name
        members[key] = value
        self = .object(members)
    }
}
