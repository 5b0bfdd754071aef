import Foundation
import RosterKit
import RosterKitTestSupport
import NIOConcurrencyHelpers
import Testing

/// A SCIM service in memory, with the quirks real ones have: a cap below the asked count, a
/// missing or wrong totalResults, filters it refuses, 204 answers to PATCH.
final class FakeSCIMService: Sendable {
    struct Quirks: Sendable {
        var cap = 1000
        var omitTotal = false
        var totalOffset = 0
        var acceptedFilterOperators: Set<String> = ["co", "sw", "eq"]
        var patch = true
        var patchAnswers204 = false
        var etags = true
        /// Lists matching more than this are refused with `tooMany`.
        var tooManyAbove: Int?
        var sort = true
    }
    let quirks: Quirks
    let users: NIOLockedValueBox<[JSONValue]>
    let requests = NIOLockedValueBox<[TransportRequest]>([])
    let version = NIOLockedValueBox(1)

    init(count: Int, quirks: Quirks = Quirks()) {
        self.quirks = quirks
        users = NIOLockedValueBox((1...max(1, count)).prefix(count).map { n in
            scimJSON(#"{"id":"u\#(n)","userName":"user\#(n)","displayName":"User \#(n)","emails":[{"value":"user\#(n)@example.com","primary":true}],"active":true,"meta":{"version":"W/\"1\""}}"#)
        })
    }

    var transport: ScriptedTransport {
        ScriptedTransport(.handler { [self] request in try respond(request) })
    }

    func sent(_ method: RosterKit.HTTPMethod) -> [TransportRequest] { requests.withLockedValue { $0.filter { $0.method == method } } }

    private func error(_ status: Int, _ scimType: String?, _ detail: String) -> TransportResponse {
        let type = scimType.map { #","scimType":"\#($0)""# } ?? ""
        return .text(#"{"schemas":["urn:ietf:params:scim:api:messages:2.0:Error"],"status":"\#(status)"\#(type),"detail":"\#(detail)"}"#,
                     status: status, contentType: "application/scim+json")
    }

    func respond(_ request: TransportRequest) throws -> TransportResponse {
        requests.withLockedValue { $0.append(request) }
        let path = request.url.path
        let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        func parameter(_ name: String) -> String? { query.first { $0.name == name }?.value }
        if path.hasSuffix("/ServiceProviderConfig") {
            return .text(#"{"patch":{"supported":\#(quirks.patch)},"sort":{"supported":\#(quirks.sort)},"etag":{"supported":\#(quirks.etags)},"filter":{"supported":true,"maxResults":\#(quirks.cap)}}"#)
        }
        if path.contains("/Schemas/") { return .text(#"{"attributes":[{"name":"userName"}]}"#) }
        let all = users.withLockedValue { $0 }
        if request.method == .get, path.hasSuffix("/Users") {
            var matching = all
            if let filter = parameter("filter") {
                let operators = Set(filter.split(separator: " ").map(String.init).filter { ["co", "sw", "eq"].contains($0) })
                guard operators.isSubset(of: quirks.acceptedFilterOperators) else { return error(400, "invalidFilter", "operator not supported") }
                let needle = filter.split(separator: "\"")[1].lowercased()
                matching = all.filter { user in
                    let name = user[attribute: "userName"]?.stringValue?.lowercased() ?? ""
                    if operators.contains("co") { return name.contains(needle) }
                    if operators.contains("sw") { return name.hasPrefix(needle) }
                    return name == needle
                }
            }
            if let limit = quirks.tooManyAbove, matching.count > limit {
                return error(400, "tooMany", "Result set exceeds \(limit)")
            }
            let start = max(1, Int(parameter("startIndex") ?? "1") ?? 1)
            let count = min(quirks.cap, Int(parameter("count") ?? "100") ?? 100)
            let slice = Array(matching.dropFirst(start - 1).prefix(count))
            var body: [String: JSONValue] = ["Resources": .array(slice), "startIndex": .integer(Int64(start)), "itemsPerPage": .integer(Int64(slice.count))]
            if !quirks.omitTotal { body["totalResults"] = .integer(Int64(matching.count + quirks.totalOffset)) }
            return .json(JSONValue.object(body))
        }
        let id = request.url.lastPathComponent
        guard let index = all.firstIndex(where: { $0[attribute: "id"]?.stringValue == id }) else {
            if request.method == .post {
                let posted = try JSONDecoder().decode(JSONValue.self, from: request.body ?? Data())
                if all.contains(where: { $0[attribute: "userName"] == posted[attribute: "userName"] }) {
                    return error(409, "uniqueness", "One or more of the attribute values are already in use or are reserved")
                }
                var created = posted
                created.set("id", .string("new\(all.count + 1)"))
                created.set("meta", .object(["version": .string(#"W/"1""#)]))
                users.withLockedValue { $0.append(created) }
                return .json(created, status: 201)
            }
            return error(404, nil, "User '\(id)' not found")
        }
        let current = all[index]
        let currentTag = current[attribute: "meta"]?[attribute: "version"]?.stringValue
        if let tag = request.headers["If-Match"], tag != currentTag {
            return error(412, nil, "Failed to update. Resource has changed on the server")
        }
        func store(_ resource: JSONValue) -> JSONValue {
            var resource = resource
            let next = version.withLockedValue { $0 += 1; return $0 }
            resource.set("meta", .object(["version": .string(#"W/"\#(next)""#)]))
            users.withLockedValue { $0[index] = resource }
            return resource
        }
        switch request.method {
        case .get:
            return .json(current, headers: currentTag.map { ["ETag": $0] } ?? [:])
        case .put:
            return .json(store(try JSONDecoder().decode(JSONValue.self, from: request.body ?? Data())))
        case .patch:
            guard quirks.patch else { return error(501, nil, "PATCH is not supported") }
            let body = try JSONDecoder().decode(JSONValue.self, from: request.body ?? Data())
            var updated = current
            for operation in body[attribute: "Operations"]?.arrayValue ?? [] {
                if let path = operation[attribute: "path"]?.stringValue, let value = operation[attribute: "value"] {
                    updated.set(path, value)
                }
            }
            let stored = store(updated)
            return quirks.patchAnswers204 ? TransportResponse(status: 204) : .json(stored)
        case .delete:
            _ = users.withLockedValue { $0.remove(at: index) }
            return TransportResponse(status: 204)
        default:
            return error(405, nil, "no")
        }
    }

    /// Changes a user behind Roster's back (a concurrent edit), moving its version.
    func editBehindTheBack(id: String, title: String) {
        users.withLockedValue { users in
            guard let index = users.firstIndex(where: { $0[attribute: "id"]?.stringValue == id }) else { return }
            users[index].set("title", .string(title))
            let next = version.withLockedValue { $0 += 1; return $0 }
            users[index].set("meta", .object(["version": .string(#"W/"\#(next)""#)]))
        }
    }
}

@Suite("SCIMDirectory against a fake service with real quirks")
struct SCIMRepositoryTests {
    func repository(_ service: FakeSCIMService) -> SCIMDirectory {
        SCIMDirectory(client: makeClient(service.transport, clock: ContinuousClock(), retry: .never))
    }

    @Test func filtersJoinTheSearchWithAndAndLeaveOutRolesTheServiceDoesNotDeclare() async throws {
        let service = FakeSCIMService(count: 30) // its User schema declares no roles
        let users = repository(service)
        _ = try await users.listUsers(UserQuery(search: "user1", role: .admin, status: .suspended, group: "g-1"))
        let filter = service.sent(.get).last.flatMap {
            URLComponents(url: $0.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "filter" }?.value
        }
        #expect(filter == #"(userName co "user1" or displayName co "user1" or emails co "user1") and (active eq false) and (groups[value eq "g-1"])"#)
        #expect(await users.traits().hasRoles == false)
    }

    @Test func pagesMapToStartIndexAndCount() async throws {
        let service = FakeSCIMService(count: 120)
        let page = try await repository(service).listUsers(UserQuery(page: 2, perPage: 50))
        #expect(page.items.first?.id == "u51")
        #expect(page.items.count == 50)
        #expect(page.total == 120 && !page.totalIsLowerBound)
        // The capabilities are read beside the first list: the list is the GET of /Users.
        let list = try #require(service.sent(.get).last { $0.url.path.hasSuffix("/Users") })
        #expect(list.url.query?.contains("startIndex=51&count=50") == true)
        #expect(list.headers["Accept"]?.contains("application/scim+json") == true)
    }

    /// A transport to `service` whose capability reads answer only once a list has arrived
    /// (or after two seconds): `listArrivedFirst` says whether the list went out beside them.
    final class CapabilitiesAfterTheList: Sendable {
        let service: FakeSCIMService
        let listArrivedFirst = NIOLockedValueBox(false)
        init(_ service: FakeSCIMService) { self.service = service }

        var transport: ScriptedTransport {
            ScriptedTransport(.handler { [self] request in
                let path = request.url.path
                if path.hasSuffix("/ServiceProviderConfig") || path.contains("/Schemas/") {
                    func listSeen() -> Bool { service.sent(.get).contains { $0.url.path.hasSuffix("/Users") } }
                    if await eventually(within: .seconds(2), poll: .milliseconds(20), { listSeen() }) {
                        listArrivedFirst.withLockedValue { $0 = true }
                    }
                }
                return try service.respond(request)
            })
        }

        var lists: [TransportRequest] { service.sent(.get).filter { $0.url.path.hasSuffix("/Users") } }
    }

    @Test func theFirstPageIsAskedBesideTheCapabilitiesAndKept() async throws {
        let held = CapabilitiesAfterTheList(FakeSCIMService(count: 120))
        let users = SCIMDirectory(client: makeClient(held.transport, clock: ContinuousClock(), retry: .never))
        let page = try await users.listUsers(UserQuery(page: 1, perPage: 50))
        #expect(page.items.first?.id == "u1" && page.items.count == 50 && page.total == 120)
        #expect(held.listArrivedFirst.withLockedValue { $0 }, "the list waited for the capabilities")
        #expect(held.lists.count == 1, "the page asked beside them is the one kept")
        #expect(held.lists.first?.url.query?.contains("sortBy=displayName") == true)
        #expect(await users.traits().canSort)
        // Later pages wait for nothing: the capabilities are known.
        _ = try await users.listUsers(UserQuery(page: 2, perPage: 50))
        #expect(held.service.sent(.get).filter { $0.url.path.hasSuffix("/ServiceProviderConfig") }.count == 1)
    }

    @Test func aServiceThatCannotSortIsAskedAgainWithoutTheSort() async throws {
        let held = CapabilitiesAfterTheList(FakeSCIMService(count: 120, quirks: .init(sort: false)))
        let users = SCIMDirectory(client: makeClient(held.transport, clock: ContinuousClock(), retry: .never))
        let page = try await users.listUsers(UserQuery(page: 1, perPage: 50))
        #expect(page.items.first?.id == "u1" && page.items.count == 50)
        #expect(held.lists.count == 2, "the guess (sorted) and the right question")
        #expect(held.lists.last?.url.query?.contains("sortBy") == false)
        #expect(await users.traits().canSort == false)
    }

    @Test func withAutoTheFirstListGoesOutBesideTheProbe() async throws {
        let held = CapabilitiesAfterTheList(FakeSCIMService(count: 120))
        let directory = RemoteDirectory(client: makeClient(held.transport, clock: ContinuousClock(), retry: .never), choice: .auto)
        let page = try await directory.listUsers(UserQuery(page: 1, perPage: 50))
        #expect(page.items.first?.id == "u1" && page.items.count == 50 && page.total == 120)
        #expect(await directory.dialect == .scim)
        #expect(held.listArrivedFirst.withLockedValue { $0 }, "the list waited for the probe")
        #expect(held.lists.count == 1)
        _ = try await directory.listUsers(UserQuery(page: 2, perPage: 50))
        #expect(held.lists.count == 2 && held.lists.last?.url.query?.contains("startIndex=51") == true)
    }

    @Test func aCapBelowTheCountIsFilledByMoreRequests() async throws {
        let service = FakeSCIMService(count: 120, quirks: .init(cap: 20))
        let users = repository(service)
        let page = try await users.listUsers(UserQuery(page: 2, perPage: 50))
        #expect(page.items.map(\.id) == (51...100).map { "u\($0)" }, "no user skipped, none twice")
        #expect(page.total == 120)
        let last = try await users.listUsers(UserQuery(page: 3, perPage: 50))
        #expect(last.items.map(\.id) == (101...120).map { "u\($0)" })
    }

    @Test func withoutTotalResultsThePositionSaysWhatIsKnownAndAShortPageIsTheEnd() async throws {
        let service = FakeSCIMService(count: 120, quirks: .init(omitTotal: true))
        let users = repository(service)
        let first = try await users.listUsers(UserQuery(page: 1, perPage: 50))
        #expect(first.items.count == 50)
        #expect(first.total == 51 && first.totalIsLowerBound, "at least one more")
        let last = try await users.listUsers(UserQuery(page: 3, perPage: 50))
        #expect(last.items.count == 20)
        #expect(last.total == 120 && !last.totalIsLowerBound, "the end was seen")
    }

    @Test func aWrongTotalIsCorrectedByWhatWasSeen() async throws {
        let tooHigh = FakeSCIMService(count: 30, quirks: .init(totalOffset: 500))
        let page = try await repository(tooHigh).listUsers(UserQuery(page: 1, perPage: 50))
        #expect(page.items.count == 30)
        #expect(page.total == 30, "a short page at the end decides")
        let tooLow = FakeSCIMService(count: 120, quirks: .init(totalOffset: -100))
        let low = try await repository(tooLow).listUsers(UserQuery(page: 1, perPage: 50))
        #expect(low.items.count == 50)
        #expect(low.total == 51 && low.totalIsLowerBound)
    }

    @Test func searchFallsBackFromCoToSwToEqAndRemembers() async throws {
        let service = FakeSCIMService(count: 30, quirks: .init(acceptedFilterOperators: ["eq"]))
        let users = repository(service)
        let found = try await users.listUsers(UserQuery(search: "user12"))
        #expect(found.items.map(\.id) == ["u12"])
        #expect(await users.searchMode == .equals)
        let filters = service.sent(.get).compactMap { URLComponents(url: $0.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "filter" }?.value }
        #expect(filters.map { $0.contains(" co ") } == [true, false, false])
        #expect(filters.last?.contains(" eq ") == true)
        _ = try await users.listUsers(UserQuery(search: "user3"))
        let later = service.sent(.get).last.flatMap { URLComponents(url: $0.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "filter" }?.value }
        #expect(later?.contains(" eq ") == true, "the session keeps what worked")
        #expect(SCIMSearchMode.equals.summary.contains("exact"))
    }

    @Test func anEditIsAPatchOfWhatChangedWithIfMatch() async throws {
        let service = FakeSCIMService(count: 3)
        let users = repository(service)
        var draft = try await users.user(id: "u2").draft
        draft.status = .suspended
        let saved = try await users.updateUser(id: "u2", with: draft)
        #expect(saved.status == .suspended)
        let patch = try #require(service.sent(.patch).first)
        #expect(patch.headers["If-Match"] == #"W/"1""#)
        #expect(patch.headers["Content-Type"] == "application/scim+json")
        let body = try JSONDecoder().decode(JSONValue.self, from: patch.body ?? Data())
        #expect(body[attribute: "schemas"] == .array([.string(SCIMSchemas.patchOp)]))
        #expect(body[attribute: "Operations"] == .array([scimJSON(#"{"op":"replace","path":"active","value":false}"#)]))
    }

    @Test func aPatchAnswered204IsFollowedByARead() async throws {
        let service = FakeSCIMService(count: 3, quirks: .init(patchAnswers204: true))
        let users = repository(service)
        var draft = try await users.user(id: "u1").draft
        draft.name = "Renamed"
        #expect(try await users.updateUser(id: "u1", with: draft).name == "Renamed")
        #expect(service.sent(.get).count >= 2)
    }

    @Test func withoutPatchTheWholeResourceIsPutWithUnknownAttributesKept() async throws {
        let service = FakeSCIMService(count: 1, quirks: .init(patch: false))
        let custom = #"{"keep":[1,2.5,null,"me"],"id":18446744073709551615,"pi":3.141592653589793238}"#
        service.users.withLockedValue { $0[0].set("x-custom", scimJSON(custom)) }
        let users = repository(service)
        var draft = try await users.user(id: "u1").draft
        draft.name = "New Name"
        _ = try await users.updateUser(id: "u1", with: draft)
        #expect(service.sent(.patch).isEmpty)
        let body = try #require(service.sent(.put).first?.body)
        let put = try JSONDecoder().decode(JSONValue.self, from: body)
        #expect(put[attribute: "displayName"] == .string("New Name"))
        #expect(put[attribute: "x-custom"] == scimJSON(custom))
        // Numbers a Double would round go back with every digit.
        let text = String(decoding: body, as: UTF8.self)
        #expect(text.contains("18446744073709551615") && text.contains("3.141592653589793238"), "\(text)")
    }

    @Test func aConcurrentChangeIs412AndTheFreshVersionIsReadForTheNextTry() async throws {
        let service = FakeSCIMService(count: 2)
        let users = repository(service)
        var draft = try await users.user(id: "u1").draft
        service.editBehindTheBack(id: "u1", title: "Changed elsewhere")
        draft.name = "Mine"
        await #expect(throws: APIError.self) { _ = try await users.updateUser(id: "u1", with: draft) }
        do {
            _ = try await users.updateUser(id: "u1", with: draft)
        } catch {
            Issue.record("after a 412 the next save starts from the server's version: \(error)")
        }
        let stored = service.users.withLockedValue { $0[0] }
        #expect(stored[attribute: "title"] == .string("Changed elsewhere"), "the other change is not overwritten")
        #expect(stored[attribute: "displayName"] == .string("Mine"))
    }

    @Test func aTakenUserNameShowsUnderItsFieldAndA412IsPreconditionFailed() async throws {
        let service = FakeSCIMService(count: 2)
        do {
            _ = try await repository(service).createUser(UserDraft(name: "Dup", email: "x@example.com", userName: "user1"))
            Issue.record("a taken userName must fail")
        } catch let error as APIError {
            guard case .conflict(let body) = error else { Issue.record("\(error)"); return }
            #expect(body?.code == "uniqueness")
            #expect(error.fieldErrors.first?.field == "userName")
        }
        #expect(APIError.forStatus(412, body: nil, retryAfter: nil) == .preconditionFailed(nil))
        #expect(!APIError.preconditionFailed(nil).isRetryable)
        #expect(!APIError.notImplemented(nil).isRetryable)
    }

    @Test func tooManyAsksToNarrowTheSearchAndKeepsTheServicesDetail() async throws {
        var quirks = FakeSCIMService.Quirks()
        quirks.tooManyAbove = 1000
        let users = repository(FakeSCIMService(count: 1001, quirks: quirks))
        do {
            _ = try await users.listUsers(UserQuery(perPage: 50, search: "user"))
            Issue.record("tooMany must be an error")
        } catch let error as APIError {
            let message = try #require(error.errorDescription)
            #expect(message.contains("narrow it"), "\(message)")
            #expect(message.contains("Result set exceeds 1000"))
            #expect(!error.isRetryable)
        }
    }

    @Test func deleteSendsIfMatchAndCreateSendsTheResource() async throws {
        let service = FakeSCIMService(count: 2)
        let users = repository(service)
        _ = try await users.user(id: "u2")
        try await users.deleteUser(id: "u2")
        #expect(service.sent(.delete).first?.headers["If-Match"] == #"W/"1""#)
        let created = try await users.createUser(UserDraft(name: "Ana", email: "ana@example.com"))
        #expect(created.scim?.userName == "ana@example.com")
        #expect(created.email == "ana@example.com")
    }
}
