/// What a SCIM service can do, from its `/ServiceProviderConfig` and `/Schemas` and from what it
/// answers. The models and views never ask which dialect they talk to; they ask this.
public struct SCIMCapabilities: Sendable, Equatable {
    public var patch: Bool
    public var sort: Bool
    public var etags: Bool
    public var filter: Bool
    /// The most results the service returns in one page, when it says.
    public var maximumResults: Int?
    /// Whether the User schema declares `roles`.
    public var hasRoles: Bool
    /// Whether the service accepts a `password` write (`changePassword` in its configuration).
    public var changePassword: Bool
    /// The profile attributes the schemas declare: `title` in the User schema,
    /// `department` and `employeeNumber` in the enterprise extension's.
    public var attributes: [UserAttribute]

    public init(patch: Bool = false, sort: Bool = false, etags: Bool = false, filter: Bool = false,
                maximumResults: Int? = nil, hasRoles: Bool = false, changePassword: Bool = false, attributes: [UserAttribute] = []) {
        self.patch = patch
        self.sort = sort
        self.etags = etags
        self.filter = filter
        self.maximumResults = maximumResults
        self.hasRoles = hasRoles
        self.changePassword = changePassword
        self.attributes = attributes
    }

    /// Reads a `/ServiceProviderConfig` body and the User schema and enterprise extension
    /// schema (nil where the service has none). Anything missing counts as not supported.
    public static func from(serviceProviderConfig config: JSONValue, userSchema: JSONValue?,
                            enterpriseSchema: JSONValue? = nil) -> SCIMCapabilities {
        func supported(_ name: String) -> Bool { config[attribute: name]?[attribute: "supported"]?.boolValue ?? false }
        var maximum: Int?
        if case .integer(let value)? = config[attribute: "filter"]?[attribute: "maxResults"], value > 0 {
            maximum = Int(value)
        }
        let attributes = userSchema?[attribute: "attributes"]?.arrayValue ?? []
        func declares(_ name: String, in schema: [JSONValue]) -> Bool {
            schema.contains { $0[attribute: "name"]?.stringValue?.lowercased() == name.lowercased() }
        }
        let hasRoles = declares("roles", in: attributes)
        let enterprise = enterpriseSchema?[attribute: "attributes"]?.arrayValue ?? []
        var profile: [UserAttribute] = []
        for attribute in UserAttribute.allCases where declares(attribute.rawValue, in: attribute == .title ? attributes : enterprise) {
            profile.append(attribute)
        }
        return SCIMCapabilities(patch: supported("patch"), sort: supported("sort"), etags: supported("etag"),
                                filter: supported("filter"), maximumResults: maximum, hasRoles: hasRoles,
                                changePassword: supported("changePassword"), attributes: profile)
    }
}
