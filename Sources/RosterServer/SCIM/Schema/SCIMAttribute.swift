/// One attribute of a SCIM schema (RFC 7643 section 7): what `/Schemas` publishes, and what
/// filters, sorting, PATCH paths and input checking resolve names against.
struct SCIMAttribute: Sendable {
    enum Kind: String, Sendable { case string, boolean, decimal, integer, dateTime, reference, complex, binary }
    enum Mutability: String, Sendable { case readOnly, readWrite, immutable, writeOnly }
    enum Returned: String, Sendable { case always, never, `default`, request }
    enum Uniqueness: String, Sendable { case none, server, global }

    var name: String
    var kind: Kind
    var multiValued = false
    var description: String
    var required = false
    var caseExact = false
    var mutability = Mutability.readWrite
    var returned = Returned.default
    var uniqueness = Uniqueness.none
    var canonicalValues: [String] = []
    var referenceTypes: [String] = []
    var subAttributes: [SCIMAttribute] = []

    /// The sub-attribute called `name`, ignoring case.
    func subAttribute(_ name: String) -> SCIMAttribute? {
        subAttributes.first { $0.name.caseInsensitiveEquals(name) }
    }

    var json: SCIMValue {
        var object = SCIMObject([
            "name": .string(name), "type": .string(kind.rawValue), "multiValued": .bool(multiValued),
            "description": .string(description), "required": .bool(required),
        ])
        if kind != .complex && kind != .boolean { object["caseExact"] = .bool(caseExact) }
        if !canonicalValues.isEmpty { object["canonicalValues"] = .array(canonicalValues.map(SCIMValue.string)) }
        if !referenceTypes.isEmpty { object["referenceTypes"] = .array(referenceTypes.map(SCIMValue.string)) }
        object["mutability"] = .string(mutability.rawValue)
        object["returned"] = .string(returned.rawValue)
        if kind != .complex && kind != .boolean { object["uniqueness"] = .string(uniqueness.rawValue) }
        if !subAttributes.isEmpty { object["subAttributes"] = .array(subAttributes.map(\.json)) }
        return .object(object)
    }
}

/// A schema: its URN and attributes.
struct SCIMSchema: Sendable {
    var id: String
    var name: String
    var description: String
    var attributes: [SCIMAttribute]

    func attribute(_ name: String) -> SCIMAttribute? {
        attributes.first { $0.name.caseInsensitiveEquals(name) }
    }

    func json(location: String) -> SCIMValue {
        .object(SCIMObject([
            "schemas": .array([.string("urn:ietf:params:scim:schemas:core:2.0:Schema")]),
            "id": .string(id), "name": .string(name), "description": .string(description),
            "attributes": .array(attributes.map(\.json)),
            "meta": .object(SCIMObject(["resourceType": .string("Schema"), "location": .string(location)])),
        ]))
    }
}

// Builders for the tables of attributes in `SCIMSchemas+Definitions`, which would otherwise
// spell out every default.
extension SCIMAttribute {
    static func text(
        _ name: String, _ description: String, required: Bool = false, caseExact: Bool = false,
        mutability: Mutability = .readWrite, returned: Returned = .default, uniqueness: Uniqueness = .none,
        canonical: [String] = []
    ) -> SCIMAttribute {
        SCIMAttribute(
            name: name, kind: .string, description: description, required: required, caseExact: caseExact,
            mutability: mutability, returned: returned, uniqueness: uniqueness, canonicalValues: canonical)
    }

    static func flag(_ name: String, _ description: String, mutability: Mutability = .readWrite) -> SCIMAttribute {
        SCIMAttribute(name: name, kind: .boolean, description: description, mutability: mutability)
    }

    static func reference(
        _ name: String, _ description: String, types: [String], caseExact: Bool = false, mutability: Mutability = .readWrite
    ) -> SCIMAttribute {
        SCIMAttribute(
            name: name, kind: .reference, description: description, caseExact: caseExact,
            mutability: mutability, referenceTypes: types)
    }

    static func complex(
        _ name: String, _ description: String, multiValued: Bool = false, required: Bool = false,
        mutability: Mutability = .readWrite, returned: Returned = .default, _ subAttributes: [SCIMAttribute]
    ) -> SCIMAttribute {
        SCIMAttribute(
            name: name, kind: .complex, multiValued: multiValued, description: description, required: required,
            mutability: mutability, returned: returned, subAttributes: subAttributes)
    }

    /// The shape RFC 7643 gives emails, phoneNumbers, ims, photos, entitlements, roles and
    /// x509Certificates: value, display, type, primary.
    static func multiValued(
        _ name: String, _ description: String, value: SCIMAttribute, types: [String] = [], required: Bool = false
    ) -> SCIMAttribute {
        complex(name, description, multiValued: true, required: required, [
            value,
            .text("display", "A human-readable name, primarily used for display purposes."),
            .text("type", "A label indicating the attribute's function.", canonical: types),
            .flag("primary", "Whether this is the primary value of the attribute."),
        ])
    }
}
