import Foundation

/// Any JSON value, kept whole: how Roster holds a SCIM resource, so that every attribute it
/// does not model (other schemas, extensions, multi-valued entries) goes back to the server
/// exactly as it came.
public indirect enum JSONValue: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    /// An integer that fits in 64 bits, kept exact.
    case integer(Int64)
    /// A number a Double writes back as the same value: `1.5`, `0.1`, `1e-7`.
    case number(Double)
    /// A number a Double would round (more significant digits than it keeps, or an integer past
    /// 64 bits, as `18446744073709551615`), kept to Decimal's 38 digits so that an attribute
    /// Roster does not model goes back to the server as it came.
    case decimal(Decimal)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Tried in the order a SCIM resource's values come most often: strings, then objects and
    /// arrays, then the scalars. Codable cannot ask a value's kind, and each wrong guess throws
    /// a DecodingError (its coding path and message built): strings tried fourth cost the first
    /// SCIM page of a start 12 ms (docs/benchmarks.md, "Issue 28, eleventh pass"). A number is
    /// read both as a Double and exactly (`number(_:exactly:)`); no two kinds accept the same value.
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
        } else {
            self = .number(try container.decode(Double.self), exactly: try? container.decode(Decimal.self))
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
        case .decimal(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// A number from its nearest Double and its exact value (nil beyond Decimal's range): an
    /// integer when it is a whole number that fits in 64 bits (`1.0` and `1e3` too), else the
    /// Double when it writes back as the same value, else the Decimal. JSONDecoder's own Int64
    /// reading would take `123.0000000000000001` for 123.
    /// Decimal compares the values: the Double's shortest text, read as a Decimal, against the
    /// exact one; a whole Decimal's text is its digits, which Int64 reads when they fit.
    static func number(_ double: Double, exactly exact: Decimal?) -> JSONValue {
        guard let exact else {
            if double.rounded() == double, let integer = Int64(exactly: double) { return .integer(integer) }
            return .number(double)
        }
        if let integer = Int64(exact.description) { return .integer(integer) }
        return Decimal(string: double.description) == exact ? .number(double) : .decimal(exact)
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
