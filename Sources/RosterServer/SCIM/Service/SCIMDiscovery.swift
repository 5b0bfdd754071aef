import RosterKit

/// The discovery endpoints (RFC 7644 section 4): what this service provider supports, its
/// resource types and their schemas. Public, like `/api/v1/health`: they describe the
/// service, not the directory.
enum SCIMDiscovery {
    static func serviceProviderConfig(baseURL: String) -> SCIMValue {
        .object(SCIMObject([
            "schemas": .array([.string(SCIMSchemas.serviceProviderConfig)]),
            "patch": .object(SCIMObject(["supported": .bool(true)])),
            "bulk": .object(SCIMObject([
                "supported": .bool(true), "maxOperations": .number(SCIMBulk.maximumOperations),
                "maxPayloadSize": .number(SCIMBody.maximumBytes),
            ])),
            "filter": .object(SCIMObject(["supported": .bool(true), "maxResults": .number(SCIMListRequest.maximumCount)])),
            "changePassword": .object(SCIMObject(["supported": .bool(false)])),
            "sort": .object(SCIMObject(["supported": .bool(true)])),
            "etag": .object(SCIMObject(["supported": .bool(true)])),
            "authenticationSchemes": .array([.object(SCIMObject([
                "type": .string("oauthbearertoken"), "name": .string("Bearer token"),
                "description": .string("The roster-server token, sent as “Authorization: Bearer <token>” (the same token as /api/v1)."),
                "primary": .bool(true),
            ]))]),
            "meta": .object(SCIMObject([
                "resourceType": .string("ServiceProviderConfig"), "location": .string("\(baseURL)/ServiceProviderConfig"),
            ])),
        ]))
    }

    static let resourceTypes: [SCIMResourceType] = [.user, .group]

    static func resourceTypesList(baseURL: String) -> SCIMValue {
        SCIMListRequest.listResponse(total: resourceTypes.count, startIndex: 1, resources: resourceTypes.map { $0.json(baseURL: baseURL) })
    }

    static func resourceType(named name: String, baseURL: String) throws(SCIMProblem) -> SCIMValue {
        guard let type = resourceTypes.first(where: { $0.name.caseInsensitiveEquals(name) }) else {
            throw .notFound("No resource type is called “\(name.prefix(100))”.")
        }
        return type.json(baseURL: baseURL)
    }

    static func schemasList(baseURL: String) -> SCIMValue {
        let all = SCIMSchemaDefinitions.all
        return SCIMListRequest.listResponse(total: all.count, startIndex: 1, resources: all.map { $0.json(location: "\(baseURL)/Schemas/\($0.id)") })
    }

    static func schema(id: String, baseURL: String) throws(SCIMProblem) -> SCIMValue {
        guard let schema = SCIMSchemaDefinitions.all.first(where: { $0.id.caseInsensitiveEquals(id) }) else {
            throw .notFound("No schema has the id “\(id.prefix(200))”.")
        }
        return schema.json(location: "\(baseURL)/Schemas/\(schema.id)")
    }
}
