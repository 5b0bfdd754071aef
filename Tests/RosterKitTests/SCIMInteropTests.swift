import Foundation
import NIOConcurrencyHelpers
import RosterKit
import RosterKitTestSupport
import Testing

/// Roster's SCIM client against PyPI's scim2-server: once with everything the service offers,
/// once with PATCH, sort, ETags and filtering turned off in its ServiceProviderConfig.
@Suite("SCIM against scim2-server", .serialized)
struct SCIMInteropTests {
    static let everythingOff = "scripts/scim/service-provider-config-off.json"

    /// A user made outside Roster with attributes Roster does not model.
    static let rich = """
        {"schemas":["urn:ietf:params:scim:schemas:core:2.0:User","urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"],
         "userName":"bjensen","name":{"formatted":"Barbara Jensen","familyName":"Jensen","givenName":"Barbara"},
         "displayName":"Babs Jensen","title":"Tour Guide","active":true,
         "emails":[{"value":"bjensen@example.com","type":"work","primary":true},{"value":"babs@home.example","type":"home"}],
         "phoneNumbers":[{"value":"+1 555 555 5555","type":"work"}],
         "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User":{"employeeNumber":"701984","department":"Tour Operations"}}
        """

    @Test("browse, search, create, edit keeping what Roster does not know, suspend, delete, duplicate", arguments: [nil, everythingOff])
    func everyday(config: String?) async throws {
        let full = config == nil
        let peer = try SCIMPeer(serviceProviderConfig: config)
        defer { peer.stop() }
        try await peer.seed(300, bulk: full)
        let users = SCIMDirectory(client: peer.client())
        let capabilities = try await users.capabilities()
        #expect(capabilities == SCIMCapabilities(patch: full, sort: full, etags: full, filter: full,
                                                 maximumResults: full ? 1000 : nil, hasRoles: capabilities.hasRoles,
                                                 changePassword: full, attributes: [.title, .department, .employeeNumber]),
                "scim2-server's schemas declare title and the enterprise extension's department and employeeNumber")

        // Browse: six pages of fifty, every user once.
        var seen = Set<String>()
        for page in 1...6 {
            let users = try await users.listUsers(UserQuery(page: page, perPage: 50))
            #expect(users.total == 300)
            #expect(users.items.count == 50)
            seen.formUnion(users.items.map(\.id))
        }
        #expect(seen.count == 300)
        #expect(try await users.listUsers(UserQuery(page: 7, perPage: 50)).items.isEmpty)

        // Search.
        if full {
            let found = try await users.listUsers(UserQuery(search: "user-012"))
            #expect(Set(found.items.compactMap { $0.scim?.userName }) == Set((120...129).map { "user-0\($0)" }))
        } else {
            await #expect(throws: APIError.badRequest(ErrorBody(code: "search_unavailable", message: "This server cannot search users."))) {
                _ = try await users.listUsers(UserQuery(search: "user-012"))
            }
            #expect(await users.searchMode == .unavailable)
        }

        // Create.
        let created = try await users.createUser(UserDraft(name: "Ana Silva", email: "ana@example.com"))
        #expect(created.scim?.userName == "ana@example.com")
        #expect(try await users.user(id: created.id).email == "ana@example.com")

        // Edit a user whose title, phones and enterprise attributes were set elsewhere.
        let barbara = try await peer.post(Self.rich)
        let id = try #require(barbara[attribute: "id"]?.stringValue)
        var draft = try await users.user(id: id).draft
        draft.name = "Barbara J."
        let renamed = try await users.updateUser(id: id, with: draft)
        #expect(renamed.name == "Barbara J.")
        let after = try await peer.raw(id: id)
        for attribute in ["name", "title", "emails", "phoneNumbers", SCIMSchemas.enterpriseUser, "userName", "active"] {
            #expect(after[attribute: attribute] == barbara[attribute: attribute], "\(attribute) kept byte for byte")
        }

        // The profile attributes: PATCH (or PUT without it) of only those named; clearing one;
        // the extension's manager and the phones kept.
        draft = renamed.draft
        draft.attributes = [.title: "Chief Guide", .department: "Tours", .employeeNumber: ""]
        let titled = try await users.updateUser(id: id, with: draft)
        #expect(titled.attributes == [.title: "Chief Guide", .department: "Tours"])
        let attributed = try await peer.raw(id: id)
        #expect(attributed[attribute: "title"] == .string("Chief Guide"))
        #expect(attributed[attribute: SCIMSchemas.enterpriseUser]?[attribute: "department"] == .string("Tours"))
        #expect(attributed[attribute: SCIMSchemas.enterpriseUser]?[attribute: "employeeNumber"] == nil)
        #expect(attributed[attribute: "phoneNumbers"] == barbara[attribute: "phoneNumbers"])

        // Suspend, then reactivate.
        draft = renamed.draft
        draft.status = .suspended
        #expect(try await users.updateUser(id: id, with: draft).status == .suspended)
        #expect(try await peer.raw(id: id)[attribute: "active"] == .bool(false))

        // A duplicate userName shows under its field.
        do {
            _ = try await users.createUser(UserDraft(name: "Again", email: "other@example.com", userName: "bjensen"))
            Issue.record("a taken userName must be refused")
        } catch let error as APIError {
            #expect(error.status == 409)
            #expect(error.fieldErrors.first?.field == "userName")
        }

        // Delete.
        try await users.deleteUser(id: created.id)
        await #expect(throws: APIError.self) { _ = try await users.user(id: created.id) }
    }

    @Test("a concurrent change is a 412, and the next save starts from the server's version")
    func concurrentChange() async throws {
        let peer = try SCIMPeer()
        defer { peer.stop() }
        let barbara = try await peer.post(Self.rich)
        let id = try #require(barbara[attribute: "id"]?.stringValue)
        let users = SCIMDirectory(client: peer.client())
        var draft = try await users.user(id: id).draft
        try await peer.patchTitle(id: id, "Changed elsewhere")
        draft.name = "Mine"
        do {
            _ = try await users.updateUser(id: id, with: draft)
            Issue.record("a stale If-Match must be refused")
        } catch let error as APIError {
            #expect(error == .preconditionFailed(ErrorBody(code: "scim_error", message: "Failed to update. Resource has changed on the server")))
        }
        _ = try await users.updateUser(id: id, with: draft)
        let stored = try await peer.raw(id: id)
        #expect(stored[attribute: "title"] == .string("Changed elsewhere"), "the other change survives")
        #expect(stored[attribute: "displayName"] == .string("Mine"))
    }

    @Test("a service that takes a password write gets the reset, sent once and never read back")
    func passwordReset() async throws {
        let peer = try SCIMPeer()
        defer { peer.stop() }
        let barbara = try await peer.post(Self.rich)
        let id = try #require(barbara[attribute: "id"]?.stringValue)
        let users = SCIMDirectory(client: peer.client())
        _ = try await users.listUsers(UserQuery())
        let traits = await users.traits()
        #expect(traits.canResetPassword && !traits.canRequirePasswordChange && !traits.canUnlock)
        try await users.resetPassword(id: id, to: "Fresh-Scim-Pass-1", mustChange: false)
        // SCIM returns a password never; everything else is as it was.
        let stored = try await peer.raw(id: id)
        #expect(stored[attribute: "password"] == nil)
        #expect(stored[attribute: "title"] == .string("Tour Guide") && stored[attribute: "displayName"] == .string("Babs Jensen"))
        #expect(try await users.user(id: id).name == "Babs Jensen")
        // The same through what `roster` gives the app (the dialect found by probing).
        let remote = RemoteDirectory(client: peer.client(), choice: .auto)
        _ = try await remote.listUsers(UserQuery())
        #expect(await remote.traits().canResetPassword)
        try await remote.resetPassword(id: id, to: "Fresh-Scim-Pass-2", mustChange: false)

        // A service whose configuration says no: no trait, and the call refuses without sending.
        let off = try SCIMPeer(serviceProviderConfig: Self.everythingOff)
        defer { off.stop() }
        let plain = SCIMDirectory(client: off.client())
        _ = try await plain.listUsers(UserQuery())
        #expect(await !plain.traits().canResetPassword)
        let other = try await off.post(Self.rich)
        let otherID = try #require(other[attribute: "id"]?.stringValue)
        await #expect(throws: APIError.self) { try await plain.resetPassword(id: otherID, to: "Never-Sent-1", mustChange: false) }
    }

    @Test("auto finds SCIM, and the Roster API is not mistaken for it")
    func dialectProbe() async throws {
        let peer = try SCIMPeer()
        defer { peer.stop() }
        #expect(try await DialectProbe.detect(peer.client()) == .scim)
        let repository = RemoteDirectory(client: peer.client(), choice: .auto)
        _ = try await repository.listUsers(UserQuery())
        #expect(await repository.dialect == .scim)
        // Kept as the Roster API last time (KnownDialects): the probe corrects it, and SCIM is kept.
        let found = NIOLockedValueBox<[Dialect]>([])
        let corrected = RemoteDirectory(client: peer.client(), choice: .auto, lastFound: .roster) { dialect in
            found.withLockedValue { $0.append(dialect) }
        }
        _ = try await corrected.listUsers(UserQuery())
        #expect(await corrected.dialect == .scim)
        #expect(found.withLockedValue { $0 } == [.scim])
        // Kept as SCIM: found again without a probe.
        let asLastTime = RemoteDirectory(client: peer.client(), choice: .auto, lastFound: .scim)
        _ = try await asLastTime.listUsers(UserQuery())
        #expect(await asLastTime.dialect == .scim)
    }
}
