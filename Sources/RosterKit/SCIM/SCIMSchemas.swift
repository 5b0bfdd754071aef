/// The URNs of RFC 7643 and 7644 that Roster reads and writes.
public enum SCIMSchemas {
    public static let user = "urn:ietf:params:scim:schemas:core:2.0:User"
    public static let enterpriseUser = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"
    public static let group = "urn:ietf:params:scim:schemas:core:2.0:Group"
    public static let listResponse = "urn:ietf:params:scim:api:messages:2.0:ListResponse"
    public static let patchOp = "urn:ietf:params:scim:api:messages:2.0:PatchOp"
    public static let error = "urn:ietf:params:scim:api:messages:2.0:Error"
    public static let serviceProviderConfig = "urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"
    /// The media type of SCIM bodies (RFC 7644 section 3.1).
    public static let mediaType = "application/scim+json"
}
