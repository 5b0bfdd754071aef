import Foundation
import RosterKit
import Testing

/// The launcher asks for the first page before the terminal is set up
/// (`Directory.prefetchUsers`): the first list of that query gets that answer, and no other
/// list ever does.
struct FirstPagePrefetchTests {
    private func userLists(_ service: FakeSCIMService) -> Int {
        service.sent(.get).filter { $0.url.path.hasSuffix("/Users") }.count
    }

    private func directory(_ service: FakeSCIMService) -> RemoteDirectory {
        RemoteDirectory(client: makeClient(service.transport, clock: ContinuousClock(), retry: .never), choice: .scim)
    }

    @Test func theFirstListOfThePrefetchedQueryIsNotAskedAgain() async throws {
        let service = FakeSCIMService(count: 120)
        let directory = directory(service)
        let first = UserQuery(page: 1, perPage: 50)
        await directory.prefetchUsers(first)
        let page = try await directory.listUsers(first)
        #expect(page.items.first?.id == "u1" && page.items.count == 50)
        #expect(userLists(service) == 1)
        // The same query later (a reload) is asked again: the prefetched answer was used once.
        _ = try await directory.listUsers(first)
        #expect(userLists(service) == 2)
    }

    @Test func anotherScreensPageKeepsThePrefetchForItsFirstPage() async throws {
        let service = FakeSCIMService(count: 120)
        let directory = directory(service)
        await directory.prefetchUsers(UserQuery(page: 1, perPage: 50))
        let second = try await directory.listUsers(UserQuery(page: 2, perPage: 50))
        #expect(second.items.first?.id == "u51")
        let first = try await directory.listUsers(UserQuery(page: 1, perPage: 50))
        #expect(first.items.first?.id == "u1")
        #expect(userLists(service) == 2, "page 1 came from the prefetch, page 2 was asked")
    }

    @Test func aDifferentFirstListDropsThePrefetchSoNoLaterListGetsIt() async throws {
        let service = FakeSCIMService(count: 120)
        let directory = directory(service)
        let prefetched = UserQuery(page: 1, perPage: 50)
        await directory.prefetchUsers(prefetched)
        let searched = try await directory.listUsers(UserQuery(page: 1, perPage: 50, search: "User 7"))
        #expect(searched.items.allSatisfy { $0.name.contains("User 7") })
        let listsBefore = userLists(service)
        _ = try await directory.listUsers(prefetched)
        #expect(userLists(service) == listsBefore + 1, "asked anew, not the answer from the start")
    }
}
