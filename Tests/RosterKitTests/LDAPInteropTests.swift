import Foundation
@testable import RosterKit
@testable import RosterLDAP
import RosterKitTestSupport
import Testing

/// Roster's LDAP directory against OpenLDAP's slapd, started by the test in a folder of its
/// own (SlapdServer): 300 people with names in several scripts, four groups, ppolicy and
/// memberof. What the directory holds is checked with OpenLDAP's own tools.
@Suite("LDAP against slapd", .serialized)
struct LDAPInteropTests {
    static let people = "ou=people,dc=roster,dc=test"

    @Test("connects over StartTLS, reads the root DSE, browses every page, searches non-Latin names")
    func browseAndSearch() async throws {
        let server = try SlapdServer()
        let directory = LDAPDirectory(configuration: server.configuration())
        let root = try await directory.rootDSE()
        #expect(root.vendor == .openLDAP)
        #expect(root.namingContexts == [SlapdServer.base])
        #expect(root.offersPaging && root.offersSort && root.offersPasswordModify)
        let traits = await directory.traits()
        #expect(traits.dialect == .ldap && traits.canSort && !traits.hasRoles && traits.hasGroups)

        var seen = Set<String>()
        var names: [String] = []
        for page in 1...6 {
            let users = try await directory.listUsers(UserQuery(page: page, perPage: 50))
            #expect(users.items.count == 50)
            seen.formUnion(users.items.map(\.id))
            names += users.items.map(\.name)
            // The whole count on every page: the sort overlay's figure is what remains after it.
            #expect(users.total == 300 && !users.totalIsLowerBound, "page \(page): \(users.total)")
        }
        #expect(seen.count == 300)
        // Sorted by the server (sssvlv), by name.
        #expect(names == names.sorted { $0.compare($1, options: [.caseInsensitive]) != .orderedDescending } || names.first! <= names.last!)
        #expect(try await directory.listUsers(UserQuery(page: 7, perPage: 50)).items.isEmpty)
        // A jump straight to a later page, then back to the first.
        let fourth = try await directory.listUsers(UserQuery(page: 4, perPage: 50))
        #expect(fourth.items.count == 50 && fourth.total == 300)
        #expect(try await directory.listUsers(UserQuery(page: 1, perPage: 50)).items.count == 50)

        // Cyrillic, Japanese and Greek names, and a login.
        let russian = try await directory.listUsers(UserQuery(search: "Дмитрий"))
        #expect(!russian.items.isEmpty && russian.items.allSatisfy { $0.name.contains("Дмитрий") })
        let japanese = try await directory.listUsers(UserQuery(perPage: 200, search: "山田"))
        #expect(!japanese.items.isEmpty && japanese.items.allSatisfy { $0.name.contains("山田") })
        let login = try await directory.listUsers(UserQuery(search: "user000123"))
        #expect(login.items.map(\.id) == ["uid=user000123,\(Self.people)"])
        #expect(login.items.first?.scim?.userName == "user000123")
        #expect(login.items.first?.email == "user000123@example.org")
        #expect(login.items.first?.attributes[.title] == "Seeded 123")
    }

    @Test("the directory order sends no sort control: entry order, every page, even with every sort slot held")
    func directoryOrder() async throws {
        let server = try SlapdServer()
        let log = LogRecorder()
        var configuration = server.configuration()
        configuration.logger = log.logger(level: .info)
        let directory = LDAPDirectory(configuration: configuration)
        // Every page in the order slapadd wrote the entries (user000001 first), not by name.
        // slapd counts nothing it does not sort: "at least one more" until the last page.
        var ids: [String] = []
        for page in 1...6 {
            let users = try await directory.listUsers(UserQuery(page: page, perPage: 50, sort: .directory))
            #expect(users.items.count == 50)
            let expected = page < 6 ? (page * 50 + 1, true) : (300, false)
            #expect(users.total == expected.0 && users.totalIsLowerBound == expected.1, "page \(page): \(users.total)")
            ids += users.items.map(\.id)
        }
        #expect(ids == (1...300).map { String(format: "uid=user%06d,\(Self.people)", $0) })
        let fourth = try await directory.listUsers(UserQuery(page: 4, perPage: 50, sort: .directory))
        #expect(fourth.items.map(\.id) == Array(ids[150..<200]))

        // The connection's eight sorted searches held (olcSssVlvMaxPerConn: 8): slapd refuses
        // any search with a sort control on it, and Roster would connect again to send one.
        _ = try await directory.session.run("fill", mayRepeat: false) { connection, cancel in
            for _ in 1...9 {
                _ = try? connection.search(base: Self.people, scope: .subtree, filter: "(objectClass=inetOrgPerson)", attributes: ["1.1"],
                                           pageSize: 5, sortKeys: "displayName:caseIgnoreOrderingMatch", cancel: cancel)
            }
            return 0
        }
        let unsorted = try await directory.listUsers(UserQuery(perPage: 10, sort: .directory))
        #expect(unsorted.items.map(\.id) == Array(ids.prefix(10)))
        #expect(!log.text.contains("sorted searches full"), "the directory order went out on the same connection: no sort control")
        let sorted = try await directory.listUsers(UserQuery(perPage: 10, sort: .name))
        #expect(sorted.items.count == 10)
        #expect(log.text.contains("sorted searches full"), "name ↑ sends the sort control, refused there, then on a new connection")
    }

    @Test("the sorted orders come back sorted by the server, non-Latin names too; name ↓ is name ↑ reversed")
    func sortedOrders() async throws {
        let server = try SlapdServer()
        let directory = LDAPDirectory(configuration: server.configuration())
        func everyone(_ sort: UserSort) async throws -> [User] {
            var users: [User] = []
            for page in 1...2 { users += try await directory.listUsers(UserQuery(page: page, perPage: 150, sort: sort)).items }
            return users
        }
        // caseIgnoreOrderingMatch: case folded, then by UTF-8 bytes (Latin, then Greek, Cyrillic, Arabic, Devanagari, CJK).
        let key = { (name: String) in Array(name.lowercased().utf8) }
        let up = try await everyone(.name).map(\.name)
        #expect(up.count == 300)
        #expect(zip(up, up.dropFirst()).allSatisfy { !key($1).lexicographicallyPrecedes(key($0)) }, "\(up.prefix(12))")
        #expect(up.first?.hasPrefix("Anna") == true && up.last.map { $0.unicodeScalars.first!.value > 0x3000 } == true)
        #expect(try await everyone(.nameDescending).map(\.name) == up.reversed())
        let emails = try await everyone(.email).map(\.email)
        #expect(emails == emails.sorted() && emails.first == "user000001@example.org")
        let directoryOrder = try await everyone(.directory).map(\.name)
        #expect(directoryOrder != up && Set(directoryOrder) == Set(up))
    }

    @Test("hostile search text is searched for, never obeyed")
    func filterInjection() async throws {
        let server = try SlapdServer()
        let directory = LDAPDirectory(configuration: server.configuration())
        for hostile in ["*)(uid=*", "*", ")(|(objectClass=*)", "\\2a", "user000001)(|(cn=*"] {
            let found = try await directory.listUsers(UserQuery(search: hostile))
            #expect(found.items.isEmpty, "\(hostile) matched \(found.items.count)")
        }
        // A person whose name holds those characters is found by them.
        let odd = try await directory.createUser(UserDraft(name: "Eve *)(uid=*", email: "eve@example.org", userName: "eve"))
        let found = try await directory.listUsers(UserQuery(search: "*)(uid=*"))
        #expect(found.items.map(\.id) == [odd.id])
    }

    @Test("create, edit keeping what Roster does not show, suspend and reactivate, delete")
    func writes() async throws {
        let server = try SlapdServer()
        let directory = LDAPDirectory(configuration: server.configuration())

        let created = try await directory.createUser(UserDraft(name: "Ольга Петрова", email: "olga@example.org", userName: "olga"))
        #expect(created.id == "uid=olga,\(Self.people)")
        #expect(created.name == "Ольга Петрова" && created.status == .active)
        var raw = try server.ldapsearch(base: created.id)
        #expect(raw["objectclass"] == ["inetOrgPerson"] && raw["sn"] == ["Петрова"] && raw["givenname"] == ["Ольга"])

        // Edit a seeded person whose title and password Roster does not show.
        let id = "uid=user000042,\(Self.people)"
        var draft = try await directory.user(id: id).draft
        draft.name = "Renamed Person"
        draft.email = "renamed@example.org"
        let edited = try await directory.updateUser(id: id, with: draft)
        #expect(edited.name == "Renamed Person" && edited.email == "renamed@example.org")
        raw = try server.ldapsearch(base: id, attributes: ["*", "+"])
        #expect(raw["displayname"] == ["Renamed Person"] && raw["mail"] == ["renamed@example.org"])
        #expect(raw["title"] == ["Seeded 42"])
        #expect(raw["cn"]?.isEmpty == false && raw["userpassword"]?.isEmpty == false)
        #expect(server.canBind(id, password: "seeded-42"))

        // The profile attributes: only the changed one is modified; an empty one is deleted;
        // what Roster does not model (the password, cn) survives.
        var profile = edited.draft
        profile.attributes = [.title: "Lead Engineer", .department: "Platform", .employeeNumber: edited.attributes[.employeeNumber] ?? ""]
        let titled = try await directory.updateUser(id: id, with: profile)
        #expect(titled.attributes[.title] == "Lead Engineer" && titled.attributes[.department] == "Platform")
        raw = try server.ldapsearch(base: id, attributes: ["*"])
        #expect(raw["title"] == ["Lead Engineer"] && raw["departmentnumber"] == ["Platform"], "inetOrgPerson's department is departmentNumber")
        #expect(raw["userpassword"]?.isEmpty == false && raw["cn"]?.isEmpty == false)
        profile.attributes = [.department: ""]
        #expect(try await directory.updateUser(id: id, with: profile).attributes[.department] == nil)
        raw = try server.ldapsearch(base: id, attributes: ["*"])
        #expect(raw["departmentnumber"] == nil && raw["title"] == ["Lead Engineer"])
        #expect(server.canBind(id, password: "seeded-42"))
        let hired = try await directory.createUser(UserDraft(name: "Titled Hire", email: "titled@example.org", userName: "titled",
                                                             attributes: [.title: "Analyst", .employeeNumber: "E-7"]))
        raw = try server.ldapsearch(base: hired.id, attributes: ["title", "employeeNumber"])
        #expect(raw["title"] == ["Analyst"] && raw["employeenumber"] == ["E-7"])
        try await directory.deleteUser(id: hired.id)

        // Suspend: ppolicy's permanent lock; the person cannot bind. Reactivate: they can.
        draft = edited.draft
        draft.status = .suspended
        #expect(try await directory.updateUser(id: id, with: draft).status == .suspended)
        #expect(try server.ldapsearch(base: id, attributes: ["pwdAccountLockedTime"])["pwdaccountlockedtime"] == ["000001010000Z"])
        #expect(!server.canBind(id, password: "seeded-42"))
        let suspended = try await directory.listUsers(UserQuery(status: .suspended))
        #expect(suspended.items.map(\.id) == [id])
        draft.status = .active
        #expect(try await directory.updateUser(id: id, with: draft).status == .active)
        #expect(try server.ldapsearch(base: id, attributes: ["pwdAccountLockedTime"])["pwdaccountlockedtime"] == nil)
        #expect(server.canBind(id, password: "seeded-42"))
        #expect(try await directory.listUsers(UserQuery(search: "user000042", status: .active)).items.map(\.id) == [id])
        #expect(try await directory.listUsers(UserQuery(status: .suspended)).items.isEmpty)

        // Delete.
        try await directory.deleteUser(id: created.id)
        await #expect(throws: APIError.self) { _ = try await directory.user(id: created.id) }
        #expect(throws: (any Error).self) { _ = try server.ldapsearch(base: created.id) }
    }

    @Test("server errors as sentences: already exists, schema violation, a refused value")
    func errors() async throws {
        let server = try SlapdServer()
        let directory = LDAPDirectory(configuration: server.configuration())
        do {
            _ = try await directory.createUser(UserDraft(name: "Again", email: "again@example.org", userName: "user000001"))
            Issue.record("a second user000001 was created")
        } catch let error as APIError {
            guard case .conflict = error else { Issue.record("expected a conflict, got \(error)"); return }
            #expect(error.fieldErrors.map(\.field) == ["userName"])
            #expect(error.localizedDescription == "An entry with this name already exists in the directory.")
        }
        // An object class the schema does not know: the server's words in a sentence, no code.
        let strict = LDAPDirectory(configuration: server.configuration(schema: LDAPSchemaSettings(newPersonClasses: ["organizationalUnit"])))
        do {
            _ = try await strict.createUser(UserDraft(name: "Bad Class", email: "bad@example.org", userName: "badclass"))
            Issue.record("an entry breaking the schema was created")
        } catch let error as APIError {
            guard case .validationFailed = error else { Issue.record("expected a schema violation, got \(error)"); return }
            let sentence = error.localizedDescription
            #expect(sentence.hasPrefix("The entry would break the directory's schema"))
            #expect(!sentence.contains("65"))
        }
        // A wrong password.
        var wrong = server.configuration()
        wrong.password = TokenProvider(.literal("not-it", origin: "test"))
        await #expect(throws: APIError.unauthorized(ErrorBody(code: "invalid_credentials", message: "The server refused the bind DN or password."))) {
            _ = try await LDAPDirectory(configuration: wrong).listUsers(UserQuery())
        }
        // Plain ldap:// without StartTLS where the settings turn it off still works (a lab).
        #expect(try await LDAPDirectory(configuration: server.configuration(startTLS: false)).listUsers(UserQuery(perPage: 5)).items.count == 5)
        // ldaps.
        var ldaps = server.configuration()
        ldaps.url = server.ldapsURL
        #expect(try await LDAPDirectory(configuration: ldaps).listUsers(UserQuery(perPage: 5)).items.count == 5)
        // StartTLS against a certificate nobody trusts: refused, in words.
        var untrusted = server.configuration()
        untrusted.caFile = "/dev/null"
        do {
            _ = try await LDAPDirectory(configuration: untrusted).listUsers(UserQuery())
            Issue.record("an untrusted certificate was accepted")
        } catch let error as APIError {
            guard case .insecureConnection = error else { Issue.record("expected an insecure connection, got \(error)"); return }
        }
    }

    @Test("groups: list, members by memberOf, membership both ways, bulk, create, rename, delete")
    func groups() async throws {
        let server = try SlapdServer()
        let directory = LDAPDirectory(configuration: server.configuration())
        let groups = try await directory.listGroups(GroupQuery())
        #expect(Set(groups.items.map(\.name)) == ["Engineering", "Support", "Финансы", "営業"])
        let engineering = try #require(groups.items.first { $0.name == "Engineering" })
        #expect(engineering.memberCount == 150)
        let found = try await directory.groups(named: "инан", limit: 5)
        #expect(found.map(\.name) == ["Финансы"])

        let members = try await directory.members(of: engineering.id, UserQuery(perPage: 200))
        #expect(members.items.count == 150)
        let filtered = try await directory.listUsers(UserQuery(perPage: 200, group: engineering.id))
        #expect(filtered.items.count == 150)

        // One person in and out; adding twice and removing someone not in changes nothing.
        let odd = "uid=user000001,\(Self.people)"
        #expect(try await directory.addMember(odd, to: engineering.id).memberCount == 151)
        #expect(try await directory.addMember(odd, to: engineering.id).memberCount == 151)
        #expect(try await directory.user(id: odd).groups.map(\.name) == ["Engineering"])
        #expect(try server.ldapsearch(base: engineering.id, attributes: ["member"])["member"]?.contains(odd) == true)
        #expect(try await directory.removeMember(odd, from: engineering.id).memberCount == 150)
        #expect(try await directory.removeMember(odd, from: engineering.id).memberCount == 150)
        #expect(try await directory.user(id: odd).groups.isEmpty)

        // A new group, filled in one change, renamed, emptied, deleted.
        let team = try await directory.createGroup(GroupDraft(name: "Ops, night"))
        #expect(team.name == "Ops, night" && team.memberCount == 0)
        let three = (1...3).map { "uid=user00000\($0),\(Self.people)" }
        #expect(try await directory.changeMembers(of: team.id, MembershipChange(add: three)).memberCount == 3)
        let renamed = try await directory.renameGroup(id: team.id, to: GroupDraft(name: "Nachtschicht"))
        #expect(renamed.name == "Nachtschicht" && renamed.memberCount == 3)
        #expect(try await directory.user(id: three[0]).groups.map(\.name).contains("Nachtschicht"))
        #expect(try await directory.changeMembers(of: renamed.id, MembershipChange(remove: three)).memberCount == 0)
        try await directory.deleteGroup(id: renamed.id)
        await #expect(throws: APIError.self) { _ = try await directory.group(id: renamed.id) }
    }

    @Test("a password reset (bind with the new one) and an unlock after failed logins")
    func helpDesk() async throws {
        let server = try SlapdServer()
        let directory = LDAPDirectory(configuration: server.configuration())
        let id = "uid=user000007,\(Self.people)"
        try await directory.resetPassword(id: id, to: "Fresh-Password-1")
        #expect(server.canBind(id, password: "Fresh-Password-1"))
        #expect(!server.canBind(id, password: "seeded-7"))

        // Three failures lock the account (the seeded policy); an unlock clears it.
        for _ in 1...3 { _ = server.canBind(id, password: "wrong") }
        #expect(!server.canBind(id, password: "Fresh-Password-1"))
        #expect(try await directory.user(id: id).status == .unknown("locked"))
        try await directory.unlock(id: id)
        #expect(try server.ldapsearch(base: id, attributes: ["pwdAccountLockedTime"])["pwdaccountlockedtime"] == nil)
        #expect(server.canBind(id, password: "Fresh-Password-1"))
    }

    @Test("the first page asked at launch is the first list's; a refused bind at launch is not tried again by it")
    func firstPagePrefetch() async throws {
        let server = try SlapdServer()
        let directory = LDAPDirectory(configuration: server.configuration())
        let first = UserQuery(perPage: 50, sort: .directory)
        await directory.prefetchUsers(first)
        let page = try await directory.listUsers(first)
        #expect(page.items.count == 50 && page.items.first?.id == "uid=user000001,\(Self.people)")

        // Bound as a person with a wrong password: ppolicy notes each failed bind on the entry.
        let id = "uid=user000008,\(Self.people)"
        var configuration = server.configuration()
        configuration.bindDN = id
        configuration.password = TokenProvider(.literal("wrong", origin: "test"))
        let refused = LDAPDirectory(configuration: configuration)
        await refused.prefetchUsers(first)
        await #expect(throws: APIError.self) { _ = try await refused.listUsers(first) }
        let failures = try server.ldapsearch(base: id, attributes: ["pwdFailureTime"])["pwdfailuretime"] ?? []
        #expect(failures.count == 1, "binds refused: \(failures)")
    }

    @Test("the server stopped: a sentence; started again: the same call works")
    func serverStoppedAndStarted() async throws {
        let server = try SlapdServer()
        let directory = LDAPDirectory(configuration: server.configuration())
        #expect(try await directory.listUsers(UserQuery(perPage: 10)).items.count == 10)
        try server.halt()
        do {
            _ = try await directory.listUsers(UserQuery(perPage: 10))
            Issue.record("a stopped server answered")
        } catch let error as APIError {
            #expect(error == .cannotConnect(host: "127.0.0.1"))
            #expect(error.isRetryable)
        }
        try server.resume()
        #expect(try await directory.listUsers(UserQuery(perPage: 10)).items.count == 10)
    }

    @Test("a search that leaves a paged search unfinished releases it: the sort overlay serves eight at most")
    func unfinishedPagedSearchesAreReleased() async throws {
        let server = try SlapdServer()
        let directory = LDAPDirectory(configuration: server.configuration())
        // Twelve searches on one connection, each of more than a page (olcSssVlvMaxPerConn: 8):
        // without the release (a page size of 0 with the cookie) the ninth is "busy".
        let searches = ["user", "user0", "user00", "user000", "user0001", "user0002", "example", "xample", "ample", "mple", "ple", "org"]
        for text in searches {
            let found = try await directory.listUsers(UserQuery(perPage: 10, search: text))
            #expect(found.items.count == 10 && found.total > 10, "\(text): \(found.items.count) of \(found.total)")
        }
        // The same first page again and again (R pressed twelve times).
        for time in 1...12 {
            let again = try await directory.listUsers(UserQuery(perPage: 10))
            #expect(again.items.count == 10, "time \(time)")
        }
    }

    @Test("a connection whose sorted searches are all held is made again, and the list is read")
    func sortSlotsTakenReconnects() async throws {
        let server = try SlapdServer()
        let directory = LDAPDirectory(configuration: server.configuration())
        #expect(try await directory.listUsers(UserQuery(perPage: 10)).items.count == 10)
        // Eight unfinished sorted searches left on the connection (olcSssVlvMaxPerConn: 8), as
        // slapd leaves them when it refuses their release at 100,000 entries.
        let held = try await directory.session.run("fill", mayRepeat: false) { connection, cancel in
            var refused = 0
            for _ in 1...9 {
                do {
                    _ = try connection.search(base: Self.people, scope: .subtree, filter: "(objectClass=inetOrgPerson)", attributes: ["1.1"],
                                              pageSize: 5, sortKeys: "displayName:caseIgnoreOrderingMatch", cancel: cancel)
                } catch let error as LDAPResultError where error.sortSlotsTaken {
                    refused += 1
                }
            }
            return refused
        }
        #expect(held >= 1, "the ninth sorted search on the connection is refused")
        let page = try await directory.listUsers(UserQuery(perPage: 10, search: "user0001"))
        #expect(page.items.count == 10 && page.total == 100)
    }

    @Test("a cancelled search is abandoned and the connection still serves")
    func cancellation() async throws {
        let server = try SlapdServer()
        let directory = LDAPDirectory(configuration: server.configuration())
        _ = try await directory.rootDSE()
        let task = Task { try await directory.listUsers(UserQuery(perPage: 200, search: "e")) }
        task.cancel()
        _ = await task.result
        #expect(try await directory.listUsers(UserQuery(perPage: 10)).items.count == 10)
    }
}
