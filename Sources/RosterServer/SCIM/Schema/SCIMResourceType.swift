/// A resource type (RFC 7643 section 6): its endpoint, core schema and extensions, and how
/// attribute names resolve against them.
struct SCIMResourceType: Sendable {
    var name: String
    var endpoint: String
    var description: String
    var schema: SCIMSchema
    var extensions: [SCIMSchema]

    static let user = SCIMResourceType(
        name: "User", endpoint: "/Users", description: "User Account",
        schema: SCIMSchemaDefinitions.user, extensions: [SCIMSchemaDefinitions.enterpriseUser])
    static let group = SCIMResourceType(
        name: "Group", endpoint: "/Groups", description: "Group",
        schema: SCIMSchemaDefinitions.group, extensions: [])

    /// The extension schema whose URN is `urn`, ignoring case.
    func extensionSchema(_ urn: String) -> SCIMSchema? {
        extensions.first { $0.id.caseInsensitiveEquals(urn) }
    }

    /// Nil when no schema of this type has the attribute (or the sub-attribute).
    func resolve(_ path: SCIMAttributePath) -> ResolvedAttribute? {
        let found: (String?, SCIMAttribute)?
        if let urn = path.schema {
            if urn.caseInsensitiveEquals(schema.id) {
                found = (SCIMSchemaDefinitions.common + schema.attributes).first { $0.name.caseInsensitiveEquals(path.name) }.map { (nil, $0) }
            } else if let extensionSchema = extensionSchema(urn) {
                found = extensionSchema.attribute(path.name).map { (extensionSchema.id, $0) }
            } else {
                found = nil
            }
        } else {
            found = (SCIMSchemaDefinitions.common + schema.attributes).first { $0.name.caseInsensitiveEquals(path.name) }.map { (nil, $0) }
        }
        guard let (urn, attribute) = found else { return nil }
        guard let subName = path.subAttribute else { return ResolvedAttribute(extensionURN: urn, attribute: attribute) }
        guard let sub = attribute.subAttribute(subName) else { return nil }
        return ResolvedAttribute(extensionURN: urn, attribute: attribute, subAttribute: sub)
    }

    func json(baseURL: String) -> SCIMValue {
        var object = SCIMObject([
            "schemas": .array([.string("urn:ietf:params:scim:schemas:core:2.0:ResourceType")]),
            "id": .string(name), "name": .string(name), "endpoint": .string(endpoint),
            "description": .string(description), "schema": .string(schema.id),
        ])
        object["schemaExtensions"] = .array(extensions.map {
            .object(SCIMObject(["schema": .string($0.id), "required": .bool(false)]))
        })
        object["meta"] = .object(SCIMObject([
            "resourceType": .string("ResourceType"), "location": .string("\(baseURL)/ResourceTypes/\(name)"),
        ]))
        return .object(object)
    }
}
