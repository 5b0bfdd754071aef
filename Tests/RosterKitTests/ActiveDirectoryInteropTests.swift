import Foundation
@testable import RosterKit
@testable import RosterLDAP
import RosterKitTestSupport
import Testing

/// Roster's LDAP directory against Samba's Active Directory domain controller (SambaServer):
/// 120 seeded people with names in several scripts and two groups, StartTLS and ldaps for
/// real (Samba refuses a simple bind in clear). What the directory holds is checked with
/// `ldapsearch` and by binding as the people.
@Suite("LDAP against Samba's AD DC", .serialized)
struct ActiveDirectoryInteropTests {
    static let users = SambaServer.users

    @Test("the root DSE says AD; pages, sort and non-Latin search; ldaps; no bind in clear")
    func browseAndSearch() async throws {
        let server = try SambaServer()
        let directory = LDAPDirectory(configuration: server.configuration())
        let root = try await directory.rootDSE()
        #expect(root.vendor == .activeDirectory)
        #expect(root.defaultNamingContext == SambaServer.base)
        var seen = Set<String>()
        var totals = Set<Int>()
        for page in 1...3 {
            let users = try await directory.listUsers(UserQuery(page: page, perPage: 50))
            seen.formUnion(users.items.map(\.id))
            totals.insert(users.total)
        }
        #expect(seen.count >= 121, "120 seeded and the administrator: \(seen.count)")
        // Samba's paged results figure is the whole count, on every page.
        #expect(totals == [seen.count])
        let greek = try await directory.listUsers(UserQuery(search: "Νίκος"))
        #expect(!greek.items.isEmpty && greek.items.allSatisfy { $0.name.contains("Νίκος") })
        let one = try await directory.listUsers(UserQuery(search: "user0042"))
        #expect(one.items.map(\.id) == ["CN=user0042,\(Self.users)"])
        #expect(one.items.first?.scim?.userName == "user0042" && one.items.first?.status == .active)
        #expect(try await directory.listUsers(UserQuery(search: "*)(sAMAccountName=*")).items.isEmpty)

        #expect(try await LDAPDirectory(configuration: server.configuration(url: server.ldapsURL)).listUsers(UserQuery(perPage: 5)).items.count == 5)
        var clear = server.configuration()
        clear.startTLS = false
        do {
            _ = try await LDAPDirectory(configuration: clear).listUsers(UserQuery())
            Issue.record("a simple bind in clear was accepted")
        } catch let error as APIError {
            guard case .insecureConnection = error else { Issue.record("expected an insecure connection, got \(error)"); return }
            #expect(error.localizedDescription.contains("requires an encrypted connection"))
        }
    }

    @Test("the directory order: every person once, no sort asked; name ↑ sorted by the server, name ↓ its reverse")
    func directoryAndSortedOrders() async throws {
        let server = try SambaServer()
        let directory = LDAPDirectory(configuration: server.configuration())
        func everyone(_ sort: UserSort) async throws -> (users: [User], totals: Set<Int>) {
            var users: [User] = []
            var totals = Set<Int>()
            for page in 1...3 {
                let answer = try await directory.listUsers(UserQuery(page: page, perPage: 50, sort: sort))
                users += answer.items
                totals.insert(answer.total)
            }
            return (users, totals)
        }
        let own = try await everyone(.directory)
        let up = try await everyone(.name)
        #expect(own.users.count >= 121 && Set(own.users.map(\.id)).count == own.users.count)
        #expect(Set(own.users.map(\.id)) == Set(up.users.map(\.id)))
        #expect(own.totals == [own.users.count], "Samba counts the whole result unsorted too")
        #expect(own.users.map(\.name) != up.users.map(\.name), "the directory's order is not the name order")
        // The seeded people (Samba's own accounts have no displayName, and sort after them both ways).
        let seeded = { (users: [User]) in users.map(\.name).filter { $0.contains(" ") } }
        let names = seeded(up.users)
        #expect(names.count == 120 && names.contains { $0.contains("Νίκος") })
        let down = seeded(try await everyone(.nameDescending).users)
        #expect(down == names.reversed(), "up \(names.prefix(5)) … \(names.suffix(5)); down \(down.prefix(5)) … \(down.suffix(5))")
    }

    @Test("create (disabled until it has a password), reset a password, enable, edit keeping the title, suspend, delete")
    func writes() async throws {
        let server = try SambaServer()
        let directory = LDAPDirectory(configuration: server.configuration())
        let created = try await directory.createUser(UserDraft(name: "Zoë Ødegård", email: "zoe@example.org", userName: "zoe"))
        #expect(created.id == "CN=Zoë Ødegård,\(Self.users)")
        // Created disabled, enabled as a second step where the domain's policy lets an account
        // without a password be enabled (Samba's does); the status shown is the directory's.
        let control = try server.ldapsearch(base: created.id, attributes: ["userAccountControl"])["useraccountcontrol"]
        #expect(control == (created.status == .active ? ["512"] : ["514"]))

        try await directory.resetPassword(id: created.id, to: "New-Pass-2026!")
        var draft = created.draft
        draft.status = .active
        #expect(try await directory.updateUser(id: created.id, with: draft).status == .active)
        #expect(try server.ldapsearch(base: created.id, attributes: ["userAccountControl"])["useraccountcontrol"] == ["512"])
        #expect(server.canBind("zoe@roster.test", password: "New-Pass-2026!"))
        // "Must change at next logon": pwdLastSet 0 in the same modify as the password.
        #expect(await directory.traits().canRequirePasswordChange)
        #expect(try server.ldapsearch(base: created.id, attributes: ["pwdLastSet"])["pwdlastset"] != ["0"])
        try await directory.resetPassword(id: created.id, to: "Next-Pass-2026!", mustChange: true)
        #expect(try server.ldapsearch(base: created.id, attributes: ["pwdLastSet"])["pwdlastset"] == ["0"])
        #expect(!server.canBind("zoe@roster.test", password: "New-Pass-2026!"), "the old password no longer binds")

        let id = "CN=user0007,\(Self.users)"
        draft = try await directory.user(id: id).draft
        draft.email = "seven@example.org"
        #expect(try await directory.updateUser(id: id, with: draft).email == "seven@example.org")
        let raw = try server.ldapsearch(base: id, attributes: ["mail", "title"])
        #expect(raw["mail"] == ["seven@example.org"] && raw["title"] == ["Seeded 7"])

        #expect(server.canBind("user0007@roster.test", password: "Seeded-7-Pass"))
        draft.status = .suspended
        #expect(try await directory.updateUser(id: id, with: draft).status == .suspended)
        #expect(try server.ldapsearch(base: id, attributes: ["userAccountControl"])["useraccountcontrol"] == ["514"])
        #expect(!server.canBind("user0007@roster.test", password: "Seeded-7-Pass"))
        #expect(try await directory.listUsers(UserQuery(status: .suspended)).items.map(\.id).contains(id))
        draft.status = .active
        #expect(try await directory.updateUser(id: id, with: draft).status == .active)
        #expect(server.canBind("user0007@roster.test", password: "Seeded-7-Pass"))

        try await directory.deleteUser(id: created.id)
        await #expect(throws: APIError.self) { _ = try await directory.user(id: created.id) }

        // An object class AD's schema refuses for a person: the server's words in a sentence.
        var strictSettings = server.configuration()
        strictSettings.schema = LDAPSchemaSettings(newPersonClasses: ["organizationalUnit"])
        do {
            _ = try await LDAPDirectory(configuration: strictSettings).createUser(UserDraft(name: "Bad Class", email: "bad@example.org", userName: "badclass"))
            Issue.record("an entry breaking the schema was created")
        } catch let error as APIError {
            guard case .validationFailed = error else { Issue.record("expected a schema violation, got \(error)"); return }
            #expect(error.localizedDescription.hasPrefix("The entry would break the directory's schema"))
            #expect(!error.localizedDescription.contains("(65)"))
        }

        // A password AD's policy refuses, and a duplicate login: sentences, not codes.
        await #expect(throws: APIError.self) { try await directory.resetPassword(id: id, to: "short") }
        do {
            _ = try await directory.createUser(UserDraft(name: "user0008", email: "x@example.org", userName: "user0008"))
            Issue.record("a duplicate was created")
        } catch let error as APIError {
            #expect(!error.localizedDescription.isEmpty && !error.localizedDescription.contains("68"))
        }
    }

    @Test("groups: members by memberOf, membership both ways")
    func groups() async throws {
        let server = try SambaServer()
        let directory = LDAPDirectory(configuration: server.configuration())
        let found = try await directory.listGroups(GroupQuery(search: "Engineering"))
        let engineering = try #require(found.items.first { $0.name == "Engineering" })
        #expect(engineering.memberCount == 60)
        #expect(try await directory.members(of: engineering.id, UserQuery(perPage: 200)).items.count == 60)
        let odd = "CN=user0001,\(Self.users)"
        #expect(try await directory.addMember(odd, to: engineering.id).memberCount == 61)
        #expect(try await directory.user(id: odd).groups.map(\.name).contains("Engineering"))
        #expect(try await directory.addMember(odd, to: engineering.id).memberCount == 61)
        #expect(try await directory.removeMember(odd, from: engineering.id).memberCount == 60)
        #expect(try await directory.removeMember(odd, from: engineering.id).memberCount == 60)
        #expect(try await directory.user(id: odd).groups.map(\.name) == ["Support"])

        // A new group, filled in one change, renamed, emptied, deleted.
        let team = try await directory.createGroup(GroupDraft(name: "Nachtschicht, Ops"))
        #expect(team.name == "Nachtschicht, Ops" && team.memberCount == 0)
        #expect(try server.ldapsearch(base: team.id, attributes: ["objectClass"])["objectclass"]?.contains("group") == true)
        let three = (1...3).map { "CN=user000\($0),\(Self.users)" }
        #expect(try await directory.changeMembers(of: team.id, MembershipChange(add: three)).memberCount == 3)
        let renamed = try await directory.renameGroup(id: team.id, to: GroupDraft(name: "Ночная смена"))
        #expect(renamed.name == "Ночная смена" && renamed.memberCount == 3)
        #expect(renamed.id == "CN=Ночная смена,\(Self.users)")
        #expect(try server.ldapsearch(base: renamed.id, attributes: ["cn"])["cn"] == ["Ночная смена"])
        #expect(try await directory.user(id: three[0]).groups.map(\.name).contains("Ночная смена"))
        #expect(try await directory.changeMembers(of: renamed.id, MembershipChange(remove: three)).memberCount == 0)
        try await directory.deleteGroup(id: renamed.id)
        await #expect(throws: APIError.self) { _ = try await directory.group(id: renamed.id) }
    }

    @Test("a group of 1,600 is read in ranges of 1,500 and changed without losing any")
    func rangedMembers() async throws {
        let server = try SambaServer()
        let directory = LDAPDirectory(configuration: server.configuration())
        let id = "CN=Address book,\(Self.users)"
        // What the server sends for the first range: 1,500 values, not all.
        let first = try server.ldapsearch(base: id, attributes: ["member;range=0-1499"])
        #expect(first["member;range=0-1499"]?.count == 1500)
        #expect(try await directory.group(id: id).memberCount == 1600)
        let listed = try await directory.listGroups(GroupQuery(search: "Address"))
        #expect(listed.items.map(\.memberCount) == [1600])
        // One in and one out: the other 1,599 stay, checked with ldapsearch.
        let person = "CN=user0001,\(Self.users)"
        #expect(try await directory.addMember(person, to: id).memberCount == 1601)
        #expect(try await directory.removeMember("CN=contact1600,OU=Contacts,\(SambaServer.base)", from: id).memberCount == 1600)
        let members = try server.ldapsearch(base: id, attributes: ["member"])["member"] ?? []
        #expect(members.count == 1600 && members.contains(person) && !members.contains { $0.hasPrefix("CN=contact1600,") })
    }

    @Test("an account locked by three bad passwords is unlocked and binds again")
    func unlock() async throws {
        let server = try SambaServer()
        let directory = LDAPDirectory(configuration: server.configuration())
        let id = "CN=user0011,\(Self.users)"
        #expect(try await directory.unlock(id: id) == false, "not locked: nothing to do")
        for _ in 1...3 { _ = server.canBind("user0011@roster.test", password: "wrong") }
        #expect(!server.canBind("user0011@roster.test", password: "Seeded-11-Pass"), "locked out (the template's threshold is 3)")
        #expect(try await directory.user(id: id).status == .unknown("locked"))
        #expect(try await directory.unlock(id: id))
        #expect(try server.ldapsearch(base: id, attributes: ["lockoutTime"])["lockouttime"] == ["0"])
        #expect(server.canBind("user0011@roster.test", password: "Seeded-11-Pass"))
        #expect(try await directory.user(id: id).status == .active)
    }

    @Test("the server stopped: a sentence; started again: the same call works")
    func serverStoppedAndStarted() async throws {
        let server = try SambaServer()
        let directory = LDAPDirectory(configuration: server.configuration())
        #expect(try await directory.listUsers(UserQuery(perPage: 10)).items.count == 10)
        try server.halt()
        await #expect(throws: APIError.cannotConnect(host: server.url.host ?? "")) { _ = try await directory.listUsers(UserQuery(perPage: 10)) }
        try server.resume()
        #expect(try await directory.listUsers(UserQuery(perPage: 10)).items.count == 10)
    }
}
