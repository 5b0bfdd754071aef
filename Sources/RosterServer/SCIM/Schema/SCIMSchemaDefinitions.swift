import RosterKit

/// The schemas roster-server serves: RFC 7643's core User (without `password`: Roster keeps no
/// passwords), the enterprise User extension, and Group. Where Roster needs more than the RFC
/// asks, the schema says so: `emails` is required, because every Roster user has an email.
enum SCIMSchemaDefinitions {
    static let user = SCIMSchema(
        id: SCIMSchemas.user, name: "User", description: "User Account",
        attributes: [
            .text("userName", "Unique identifier for the User, typically used to sign in. Defaults to the email for users made through the Roster API.",
                  required: true, uniqueness: .server),
            .complex("name", "The components of the user's real name.", [
                .text("formatted", "The full name, formatted for display."),
                .text("familyName", "The family name of the User."),
                .text("givenName", "The given name of the User."),
                .text("middleName", "The middle name(s) of the User."),
                .text("honorificPrefix", "The honorific prefix(es) of the User."),
                .text("honorificSuffix", "The honorific suffix(es) of the User."),
            ]),
            .text("displayName", "The name of the User, suitable for display. Roster's name."),
            .text("nickName", "The casual way to address the user."),
            .reference("profileUrl", "A fully qualified URL pointing to a page representing the User's online profile.", types: ["external"]),
            .text("title", "The user's title, such as \"Vice President\"."),
            .text("userType", "The relationship between the organization and the user."),
            .text("preferredLanguage", "The User's preferred written or spoken language."),
            .text("locale", "The User's default location for localizing items."),
            .text("timezone", "The User's time zone in the 'Olson' time zone database format."),
            .flag("active", "The User's administrative status: Roster's active (true) or suspended (false)."),
            .multiValued("emails", "Email addresses for the user. Roster's email is the primary one (else the first); at least one is required.",
                         value: .text("value", "Email address for the User.", required: true), types: ["work", "home", "other"], required: true),
            .multiValued("phoneNumbers", "Phone numbers for the User.",
                         value: .text("value", "Phone number of the User."), types: ["work", "home", "mobile", "fax", "pager", "other"]),
            .multiValued("ims", "Instant messaging addresses for the User.",
                         value: .text("value", "Instant messaging address for the User."),
                         types: ["aim", "gtalk", "icq", "xmpp", "msn", "skype", "qq", "yahoo"]),
            .multiValued("photos", "URLs of photos of the User.",
                         value: .reference("value", "URL of a photo of the User.", types: ["external"]), types: ["photo", "thumbnail"]),
            .complex("addresses", "A physical mailing address for this User.", multiValued: true, [
                .text("formatted", "The full mailing address, formatted for display."),
                .text("streetAddress", "The full street address component."),
                .text("locality", "The city or locality component."),
                .text("region", "The state or region component."),
                .text("postalCode", "The zip code or postal code component."),
                .text("country", "The country name component."),
                .text("type", "A label indicating the attribute's function.", canonical: ["work", "home", "other"]),
                .flag("primary", "Whether this is the primary address."),
            ]),
            .complex("groups", "The groups the user belongs to. Read-only: membership changes through the Group.",
                     multiValued: true, mutability: .readOnly, [
                         .text("value", "The identifier of the User's group.", mutability: .readOnly),
                         .reference("$ref", "The URI of the corresponding Group resource.", types: ["Group"], mutability: .readOnly),
                         .text("display", "The group's displayName.", mutability: .readOnly),
                         .text("type", "How the membership was derived: always direct.", mutability: .readOnly, canonical: ["direct", "indirect"]),
                     ]),
            .multiValued("entitlements", "A list of entitlements for the User.", value: .text("value", "The value of an entitlement.")),
            .multiValued("roles", "Roles of the User. The primary one (else the first) is Roster's role when it is admin, member or viewer.",
                         value: .text("value", "The value of a role.")),
            .multiValued("x509Certificates", "A list of certificates issued to the User.",
                         value: SCIMAttribute(name: "value", kind: .binary, description: "The value of an X.509 certificate.")),
        ])

    static let enterpriseUser = SCIMSchema(
        id: SCIMSchemas.enterpriseUser, name: "EnterpriseUser", description: "Enterprise User",
        attributes: [
            .text("employeeNumber", "Numeric or alphanumeric identifier assigned to a person."),
            .text("costCenter", "Identifies the name of a cost center."),
            .text("organization", "Identifies the name of an organization."),
            .text("division", "Identifies the name of a division."),
            .text("department", "Identifies the name of a department."),
            .complex("manager", "The User's manager.", [
                .text("value", "The id of the SCIM resource representing the User's manager."),
                .reference("$ref", "The URI of the SCIM resource representing the User's manager.", types: ["User"]),
                .text("displayName", "The displayName of the User's manager.", mutability: .readOnly),
            ]),
        ])

    static let group = SCIMSchema(
        id: SCIMSchemas.group, name: "Group", description: "Group",
        attributes: [
            .text("displayName", "A human-readable name for the Group; unique, ignoring case.", required: true, uniqueness: .server),
            .complex("members", "The users in the group. Every value must be a user's id: a group's members are users only.",
                     multiValued: true, [
                         .text("value", "The id of a User.", mutability: .immutable),
                         .reference("$ref", "The URI of the User.", types: ["User"], mutability: .immutable),
                         .text("type", "The type of the member: User.", mutability: .immutable, canonical: ["User"]),
                     ]),
        ])

    /// Attributes every resource has (RFC 7643 section 3.1), resolved before the schema's own.
    static let common: [SCIMAttribute] = [
        .text("id", "Unique identifier for the resource, assigned by the server.", caseExact: true,
              mutability: .readOnly, returned: .always, uniqueness: .server),
        .text("externalId", "An identifier for the resource as defined by the provisioning client.", caseExact: true),
        .complex("meta", "Resource metadata.", mutability: .readOnly, [
            .text("resourceType", "The name of the resource type.", caseExact: true, mutability: .readOnly),
            SCIMAttribute(name: "created", kind: .dateTime, description: "When the resource was added.", mutability: .readOnly),
            SCIMAttribute(name: "lastModified", kind: .dateTime, description: "When the resource was last changed.", mutability: .readOnly),
            .reference("location", "The URI of the resource.", types: ["uri"], caseExact: true, mutability: .readOnly),
            .text("version", "The version of the resource (its weak ETag).", caseExact: true, mutability: .readOnly),
        ]),
    ]

    static let all = [user, enterpriseUser, group]
}
