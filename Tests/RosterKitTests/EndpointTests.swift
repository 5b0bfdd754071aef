import Foundation
import Testing
@testable import RosterKit

@Suite("Building requests")
struct EndpointTests {
    let encoder = WireFormat.makeEncoder()

    func request(_ endpoint: UserEndpoint, base: URL = testBaseURL) throws -> TransportRequest {
        try endpoint.makeRequest(baseURL: base, encoder: encoder)
    }

    func jsonObject(_ data: Data?) throws -> [String: String] {
        let object = try JSONSerialization.jsonObject(with: try #require(data)) as? [String: String]
        return try #require(object)
    }

    @Test func listSendsEveryQueryParameterUnderThePathPrefix() throws {
        let query = UserQuery(page: 3, perPage: 25, search: "ana", sort: .createdAtDescending, role: .admin, status: .invited)
        let request = try request(.list(query))
        #expect(request.method == .get)
        #expect(request.url.absoluteString
            == "https://api.example.com/roster/api/v1/users?page=3&per_page=25&q=ana&sort=-created_at&role=admin&status=invited")
        #expect(request.headers["Accept"] == "application/json")
        #expect(request.headers["Content-Type"] == nil)
        #expect(request.body == nil)
    }

    @Test func listLeavesOutAnEmptySearchAndUnsetFilters() throws {
        let request = try request(.list(UserQuery(search: "")))
        #expect(request.url.query == "page=1&per_page=50&sort=name")
    }

    @Test func aGroupFilterIsSentAsGroupAfterTheOtherFilters() throws {
        let request = try request(.list(UserQuery(search: "ana", status: .suspended, group: "g 1")))
        #expect(request.url.query == "page=1&per_page=50&q=ana&sort=name&status=suspended&group=g%201")
    }

    @Test func groupsAreLookedUpByNameUnderTheGroupsPath() throws {
        let request = try GroupEndpoint.list(GroupQuery(perPage: 20, search: "Sales Ops"))
            .makeRequest(baseURL: testBaseURL, encoder: encoder)
        #expect(request.method == .get)
        #expect(request.url.path.hasSuffix("/api/v1/groups"))
        #expect(request.url.query == "page=1&per_page=20&q=Sales%20Ops&sort=name")
    }

    @Test func queryValuesArePercentEncodedStrictly() throws {
        let request = try request(.list(UserQuery(search: "a+b&c=d é/?#")))
        #expect(request.url.query == "page=1&per_page=50&q=a%2Bb%26c%3Dd%20%C3%A9%2F%3F%23&sort=name")
    }

    @Test func getEncodesTheIdAsOneSegment() throws {
        let request = try request(.get(id: "a/b c?d"))
        #expect(request.method == .get)
        #expect(request.url.absoluteString == "https://api.example.com/roster/api/v1/users/a%2Fb%20c%3Fd")
    }

    @Test func baseURLWithoutPrefixOrTrailingSlash() throws {
        let request = try request(.get(id: "u1"), base: URL(string: "http://127.0.0.1:8080")!)
        #expect(request.url.absoluteString == "http://127.0.0.1:8080/api/v1/users/u1")
    }

    @Test func createPostsTheDraftAsSnakeCaseJSON() throws {
        let request = try request(.create(UserDraft(name: "Zoë Ångström", email: "zoe@example.com", role: .viewer, status: .invited), idempotencyKey: "k-1"))
        #expect(request.method == .post)
        #expect(request.headers["Idempotency-Key"] == "k-1")
        #expect(request.url.path == "/roster/api/v1/users")
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(try jsonObject(request.body) == ["name": "Zoë Ångström", "email": "zoe@example.com", "role": "viewer", "status": "invited"])
    }

    @Test func createLeavesOutRoleAndStatusWhenUnset() throws {
        let request = try request(.create(UserDraft(name: "Ana", email: "ana@example.com"), idempotencyKey: "k-2"))
        #expect(try jsonObject(request.body) == ["name": "Ana", "email": "ana@example.com"])
    }

    @Test func updatePutsTheDraftToTheUser() throws {
        let request = try request(.update(id: "u 1", UserDraft(name: "Ana", email: "ana@example.com", role: .admin, status: .suspended)))
        #expect(request.method == .put)
        #expect(request.url.path(percentEncoded: true) == "/roster/api/v1/users/u%201")
        #expect(try jsonObject(request.body) == ["name": "Ana", "email": "ana@example.com", "role": "admin", "status": "suspended"])
    }

    @Test func updateCarriesTheVersionItWasMadeOnAsIfMatch() throws {
        let draft = UserDraft(name: "Ana", email: "ana@example.com")
        #expect(try request(.update(id: "u1", draft, ifMatch: #"W/"2026-11-21T09:30:00.250Z""#)).headers["If-Match"]
            == #"W/"2026-11-21T09:30:00.250Z""#)
        #expect(try request(.update(id: "u1", draft)).headers["If-Match"] == nil)
        let user = User(id: "u1", name: "Ana", email: "ana@example.com", role: .member, status: .active,
                        createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 1_763_717_400.25))
        #expect(user.entityTag == #"W/"2025-11-21T09:30:00.250Z""#)
    }

    @Test func deleteAndHealth() throws {
        let delete = try request(.delete(id: "u1"))
        #expect(delete.method == .delete)
        #expect(delete.url.path == "/roster/api/v1/users/u1")
        #expect(delete.body == nil)
        #expect(delete.headers["Idempotency-Key"] == nil, "only a create carries a key")
        #expect(delete.headers["If-Match"] == nil)
        #expect(try request(.delete(id: "u1", ifMatch: #"W/"2026-11-21T09:30:00.250Z""#)).headers["If-Match"] == #"W/"2026-11-21T09:30:00.250Z""#)
        let health = try request(.health)
        #expect(health.method == .get)
        #expect(health.url.path == "/roster/api/v1/health")
    }

    @Test func aBaseURLThatIsNotHTTPIsAnInvalidRequest() {
        #expect(throws: APIError.self) { try request(.health, base: URL(string: "ftp://example.com")!) }
        #expect(throws: APIError.self) { try request(.health, base: URL(string: "file:///tmp")!) }
    }

    @Test func onlyIdempotentMethodsAreMarkedSafeToRepeat() {
        #expect(HTTPMethod.get.isIdempotent && HTTPMethod.put.isIdempotent && HTTPMethod.delete.isIdempotent)
        #expect(!HTTPMethod.post.isIdempotent)
    }

    @Test func sortCyclesThroughEverySortedOrderAndBack() {
        var sort = UserSort.default
        var seen: [UserSort] = []
        for _ in UserSort.sorted {
            seen.append(sort)
            sort = sort.next(includingDirectoryOrder: false)
        }
        #expect(seen == UserSort.sorted)
        #expect(sort == .default)
    }

    @Test func theDirectoryOrderCyclesThroughTheSortedOrdersAndBack() {
        var sort = UserSort.directory
        var seen: [UserSort] = []
        for _ in UserSort.allCases {
            sort = sort.next(includingDirectoryOrder: true)
            seen.append(sort)
        }
        #expect(seen == UserSort.sorted + [.directory])
        #expect(UserSort.directory.next(includingDirectoryOrder: false) == .name, "out of the directory order where it is not offered")
        #expect(UserSort.directory.label == "directory order")
    }

    @Test func theDirectoryOrderSendsNoSortParameter() {
        let names = UserQuery(sort: .directory).parameters.map(\.name)
        #expect(names == ["page", "per_page"])
        #expect(UserQuery(sort: .email).parameters.map(\.name) == ["page", "per_page", "sort"])
    }

    @Test func theClientSendsTokenAndUserAgent() async throws {
        let transport = ScriptedTransportHolder.ok(envelope(sampleUserJSON))
        let client = makeClient(transport, token: "t0k3n")
        _ = try await RosterAPIDirectory(client: client).user(id: "u1")
        let sent = try #require(transport.requests.first)
        #expect(sent.headers["Authorization"] == "Bearer t0k3n")
        #expect(sent.headers["User-Agent"]?.hasPrefix("Roster/") == true)
        #expect(sent.url.absoluteString == "https://api.example.com/roster/api/v1/users/u1")
    }
}
