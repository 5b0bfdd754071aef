/// The protocols Roster speaks (docs/design.md, "Two dialects, one seam"): two HTTP APIs,
/// and LDAP.
public enum Dialect: String, Sendable, CaseIterable {
    case roster
    case scim
    case ldap

    /// How the header names it.
    public var label: String {
        switch self {
        case .roster: "Roster API"
        case .scim: "SCIM 2.0"
        case .ldap: "LDAP"
        }
    }
}

/// What `--api` asks for: one dialect, or `auto` to find out.
public enum DialectChoice: String, Sendable, CaseIterable {
    case auto, roster, scim
}

/// Finds the dialect a server speaks by asking both at once: the Roster API's health call and
/// SCIM's `/ServiceProviderConfig`. The first to answer with its own kind of body wins; the
/// other request is cancelled.
public enum DialectProbe {
    public static func detect(_ client: APIClient) async throws -> Dialect {
        try await withThrowingTaskGroup(of: Dialect?.self) { group in
            group.addTask {
                let health: HealthStatus = try await client.send(UserEndpoint.health)
                return health.status.isEmpty ? nil : .roster
            }
            group.addTask {
                let response = try await client.response(for: SCIMEndpoint.serviceProviderConfig)
                let config = try SCIMDirectory.decode(response)
                return config[attribute: "patch"] != nil || config[attribute: "filter"] != nil
                    || config[attribute: "schemas"]?.arrayValue?.contains(.string(SCIMSchemas.serviceProviderConfig)) == true
                    ? .scim : nil
            }
            var firstError: (any Error)?
            while let outcome = await group.nextResult() {
                switch outcome {
                case .success(let dialect?):
                    group.cancelAll()
                    return dialect
                case .success(nil):
                    continue
                case .failure(let error):
                    firstError = firstError ?? error
                }
            }
            throw firstError ?? APIError.unexpectedStatus(status: 404, ErrorBody(
                code: "unknown_api", message: "The server speaks neither the Roster API nor SCIM 2.0."))
        }
    }
}
