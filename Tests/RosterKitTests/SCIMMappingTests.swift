import Foundation
import RosterKit
import Testing

func scimJSON(_ text: String) -> JSONValue {
    try! JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
}

/// A user as scim2-server returns one, with attributes Roster does not model.
let barbaraJSON = """
{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User","urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"],
 "id":"2819c223","meta":{"resourceType":"User","created":"2026-11-23T06:43:56.026Z","lastModified":"2026-11-23T07:00:00Z","version":"W/\\"3\\""},
 "userName":"bjensen","name":{"formatted":"Barbara Jensen","familyName":"Jensen","givenName":"Barbara"},
 "displayName":"Babs Jensen","title":"Tour Guide","active":true,
 "emails":[{"value":"babs@home.example","type":"home"},{"value":"bjensen@example.com","type":"work","primary":true}],
 "phoneNumbers":[{"value":"+1 555 555 5555","type":"work"}],
 "roles":[{"value":"admin","primary":true}],
 "groups":[{"value":"g1","display":"Tour Guides"}],
 "x-custom":{"shoeSize":44,"ratio":1.5,"tags":["a",null,true]},
 "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User":{"employeeNumber":"701984","department":"Tour Operations","manager":{"value":"26118915","displayName":"John Smith"}}}
"""

@Suite("SCIM users as Roster users")
struct SCIMMappingTests {
    let barbara = scimJSON(barbaraJSON)

    @Test func everyFieldMapsAsTheDesignSays() throws {
        let user = try #require(SCIMUserMapping.user(from: barbara))
        #expect(user.id == "2819c223")
        #expect(user.name == "Babs Jensen", "displayName first")
        #expect(user.email == "bjensen@example.com", "the primary email, not the first")
        #expect(user.status == .active)
        #expect(user.role == Role(rawValue: "admin"))
        #expect(user.createdAt == ISO8601Timestamp.parse("2026-11-23T06:43:56.026Z"))
        #expect(user.updatedAt == ISO8601Timestamp.parse("2026-11-23T07:00:00Z"))
        let details = try #require(user.scim)
        #expect(details.userName == "bjensen")
        #expect(details.emails == ["bjensen@example.com", "babs@home.example"])
        #expect(details.phoneNumbers == ["+1 555 555 5555"])
        #expect(details.groups == ["Tour Guides"])
        #expect(user.attributes == [.title: "Tour Guide", .department: "Tour Operations", .employeeNumber: "701984"],
                "the core title and the enterprise extension's department and employee number")
        #expect(details.manager == "John Smith")
        #expect(details.version == #"W/"3""#)
        #expect(!details.fields.map(\.label).contains("Title"), "the title is held once, in the attributes")
        #expect(details.fields.allSatisfy { $0.label.count <= 8 }, "labels fit the pane's label column")
    }

    @Test(arguments: [
        (#"{"id":"1","userName":"u","displayName":"D","name":{"formatted":"F"}}"#, "D"),
        (#"{"id":"1","userName":"u","name":{"formatted":"F","givenName":"G"}}"#, "F"),
        (#"{"id":"1","userName":"u","name":{"givenName":"G","familyName":"H"}}"#, "G H"),
        (#"{"id":"1","userName":"u","displayName":"  "}"#, "u"),
        (#"{"ID":"1","USERNAME":"upper"}"#, "upper"),
    ])
    func theNameFallsBackInOrder(json: String, expected: String) throws {
        #expect(SCIMUserMapping.user(from: scimJSON(json))?.name == expected)
    }

    @Test func inactiveIsSuspendedAndAMissingEmailIsEmpty() throws {
        let user = try #require(SCIMUserMapping.user(from: scimJSON(#"{"id":"1","userName":"u","active":false}"#)))
        #expect(user.status == .suspended)
        #expect(user.email == "")
        #expect(SCIMUserMapping.user(from: scimJSON(#"{"userName":"no id"}"#)) == nil)
    }

    @Test func aNewUserTakesTheEmailAsUserNameUnlessGiven() {
        let capabilities = SCIMCapabilities(hasRoles: true)
        let resource = SCIMUserMapping.newResource(from: UserDraft(name: "Ana", email: "ana@example.com", role: .viewer, status: .suspended), capabilities: capabilities)
        #expect(resource[attribute: "userName"] == .string("ana@example.com"))
        #expect(resource[attribute: "displayName"] == .string("Ana"))
        #expect(resource[attribute: "active"] == .bool(false))
        #expect(resource[attribute: "roles"] == .array([.object(["value": .string("viewer"), "primary": .bool(true)])]))
        let named = SCIMUserMapping.newResource(from: UserDraft(name: "Ana", email: "ana@example.com", userName: "asilva"), capabilities: SCIMCapabilities())
        #expect(named[attribute: "userName"] == .string("asilva"))
        #expect(named[attribute: "roles"] == nil, "no roles where the schema declares none")
    }

    @Test func patchSendsOnlyWhatChanged() throws {
        let user = try #require(SCIMUserMapping.user(from: barbara))
        var draft = user.draft
        #expect(SCIMUserMapping.patchOperations(from: draft, comparedWith: barbara, capabilities: SCIMCapabilities()).isEmpty)
        draft.status = .suspended
        #expect(SCIMUserMapping.patchOperations(from: draft, comparedWith: barbara, capabilities: SCIMCapabilities())
            == [.init(op: "replace", path: "active", value: .bool(false))])
        draft.email = "barbara@example.com"
        let operations = SCIMUserMapping.patchOperations(from: draft, comparedWith: barbara, capabilities: SCIMCapabilities())
        let emails = try #require(operations.first { $0.path == "emails" }?.value?.arrayValue)
        #expect(emails.count == 2, "the home email is kept")
        #expect(emails.contains(scimJSON(#"{"value":"babs@home.example","type":"home"}"#)))
        #expect(emails.contains(scimJSON(#"{"value":"barbara@example.com","type":"work","primary":true}"#)))
    }

    @Test func aPutCarriesEveryUnknownAttributeBackUnchanged() throws {
        var draft = try #require(SCIMUserMapping.user(from: barbara)).draft
        draft.name = "Barbara J."
        let replaced = SCIMUserMapping.applying(draft, to: barbara, capabilities: SCIMCapabilities())
        #expect(replaced[attribute: "displayName"] == .string("Barbara J."))
        for attribute in ["x-custom", "phoneNumbers", "title", "groups", "name", SCIMSchemas.enterpriseUser, "schemas", "roles", "emails"] {
            #expect(replaced[attribute: attribute] == barbara[attribute: attribute], "\(attribute) unchanged")
        }
        // Through JSON and back, numbers and nulls stay what they were.
        let again = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(replaced))
        #expect(again == replaced)
        #expect(again[attribute: "x-custom"]?[attribute: "shoeSize"] == .integer(44))
    }

    static let everyAttribute = SCIMCapabilities(patch: true, attributes: UserAttribute.allCases)

    @Test func aDraftsAttributesBecomePatchOperationsOfOnlyWhatChanged() throws {
        var draft = try #require(SCIMUserMapping.user(from: barbara)).draft
        draft.attributes = [.title: "Chief Guide", .department: "", .employeeNumber: "701984"]
        let operations = SCIMUserMapping.patchOperations(from: draft, comparedWith: barbara, capabilities: Self.everyAttribute)
        #expect(operations.map(\.json) == [
            scimJSON(#"{"op":"replace","path":"title","value":"Chief Guide"}"#),
            scimJSON(#"{"op":"remove","path":"urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department"}"#),
        ], "the employee number is unchanged, so not sent; an empty department is a remove without a value")
        // The body on the wire.
        let body = try #require(try SCIMEndpoint.patchUser(id: "2819c223", operations, ifMatch: nil).encodeBody(with: JSONEncoder()))
        let sent = try JSONDecoder().decode(JSONValue.self, from: body)
        #expect(sent[attribute: "Operations"]?.arrayValue?.count == 2)
        #expect(sent[attribute: "Operations"]?.arrayValue?.last?[attribute: "value"] == nil)
        // A service whose schemas lack them is sent none.
        #expect(SCIMUserMapping.patchOperations(from: draft, comparedWith: barbara, capabilities: SCIMCapabilities(patch: true)).isEmpty)
    }

    @Test func aPutSetsTheAttributesInTheirSchemaAndKeepsTheRest() throws {
        var draft = try #require(SCIMUserMapping.user(from: barbara)).draft
        draft.attributes = [.title: "Chief Guide", .department: "Tours"]
        var capabilities = Self.everyAttribute
        capabilities.patch = false
        let replaced = SCIMUserMapping.applying(draft, to: barbara, capabilities: capabilities)
        #expect(replaced[attribute: "title"] == .string("Chief Guide"))
        let enterprise = replaced[attribute: SCIMSchemas.enterpriseUser]
        #expect(enterprise?[attribute: "department"] == .string("Tours"))
        #expect(enterprise?[attribute: "employeeNumber"] == .string("701984") && enterprise?[attribute: "manager"] != nil)
        #expect(replaced[attribute: "x-custom"] == barbara[attribute: "x-custom"])

        // A user without the extension gets it, and its URN in schemas.
        let plain = scimJSON(#"{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"id":"9","userName":"p","emails":[{"value":"p@example.com","primary":true}]}"#)
        var draftForPlain = try #require(SCIMUserMapping.user(from: plain)).draft
        draftForPlain.attributes = [.department: "Sales"]
        let extended = SCIMUserMapping.applying(draftForPlain, to: plain, capabilities: capabilities)
        #expect(extended[attribute: "schemas"] == .array([.string(SCIMSchemas.user), .string(SCIMSchemas.enterpriseUser)]))
        #expect(extended[attribute: SCIMSchemas.enterpriseUser]?[attribute: "department"] == .string("Sales"))
    }

    @Test func aNewUserCarriesItsAttributesWhereTheServiceHasThem() {
        let draft = UserDraft(name: "Ana", email: "ana@example.com", attributes: [.title: "Engineer", .employeeNumber: "42", .department: ""])
        let resource = SCIMUserMapping.newResource(from: draft, capabilities: Self.everyAttribute)
        #expect(resource[attribute: "title"] == .string("Engineer"))
        #expect(resource[attribute: SCIMSchemas.enterpriseUser] == scimJSON(#"{"employeeNumber":"42"}"#), "an empty value is not sent")
        #expect(resource[attribute: "schemas"]?.arrayValue?.contains(.string(SCIMSchemas.enterpriseUser)) == true)
        let bare = SCIMUserMapping.newResource(from: draft, capabilities: SCIMCapabilities())
        #expect(bare[attribute: "title"] == nil && bare[attribute: SCIMSchemas.enterpriseUser] == nil)
    }

    @Test func theAttributesComeFromTheUserSchemaAndTheEnterpriseExtension() {
        let config = scimJSON("{}")
        let core = scimJSON(#"{"attributes":[{"name":"userName"},{"name":"title"}]}"#)
        let enterprise = scimJSON(#"{"attributes":[{"name":"employeeNumber"},{"name":"department"},{"name":"manager"}]}"#)
        #expect(SCIMCapabilities.from(serviceProviderConfig: config, userSchema: core, enterpriseSchema: enterprise).attributes
            == [.title, .department, .employeeNumber])
        #expect(SCIMCapabilities.from(serviceProviderConfig: config, userSchema: core).attributes == [.title], "no extension: no department")
        #expect(SCIMCapabilities.from(serviceProviderConfig: config, userSchema: scimJSON(#"{"attributes":[]}"#),
                                      enterpriseSchema: enterprise).attributes == [.department, .employeeNumber])
    }

    @Test func capabilitiesComeFromTheConfigAndTheSchema() {
        let config = scimJSON(#"{"patch":{"supported":true},"sort":{"supported":false},"etag":{"supported":true},"filter":{"supported":true,"maxResults":50}}"#)
        let schema = scimJSON(#"{"attributes":[{"name":"userName"},{"name":"roles"}]}"#)
        #expect(SCIMCapabilities.from(serviceProviderConfig: config, userSchema: schema)
            == SCIMCapabilities(patch: true, sort: false, etags: true, filter: true, maximumResults: 50, hasRoles: true))
        #expect(SCIMCapabilities.from(serviceProviderConfig: scimJSON("{}"), userSchema: nil) == SCIMCapabilities())
    }

    @Test func searchTextIsQuotedAndFallsBackStepByStep() {
        #expect(SCIMSearchMode.contains.filter(for: #"a"b\c"#) == #"userName co "a\"b\\c" or displayName co "a\"b\\c" or emails co "a\"b\\c""#)
        #expect(SCIMSearchMode.contains.filter(for: "x\u{1B}[2Jy") == #"userName co "x[2Jy" or displayName co "x[2Jy" or emails co "x[2Jy""#)
        #expect(SCIMSearchMode.contains.fallback == .startsWith)
        #expect(SCIMSearchMode.startsWith.fallback == .equals)
        #expect(SCIMSearchMode.equals.fallback == .unavailable)
        #expect(SCIMSearchMode.unavailable.filter(for: "x") == nil)
    }
}
