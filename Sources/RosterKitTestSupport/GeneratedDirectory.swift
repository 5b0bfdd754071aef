import RosterKit

/// A read-only directory of `count` generated users that is never held in memory: a page is
/// made when asked for, in time proportional to the page, not the directory. For scale tests
/// (a million users), where the in-memory directory's filter-and-sort on every call would
/// cost more than the code under test.
///
/// User `n` is `User.fixture(number: n)`, so name, email and creation order are all number
/// order; a descending sort reverses it. Search and role/status filters are not supported: a
/// query with them is answered with 400, so a test cannot mistake this for a real directory.
/// It has no groups.
public actor GeneratedDirectory: Directory {
    public let count: Int

    /// Every list query received, in order.
    public private(set) var listCalls: [UserQuery] = []

    public init(count: Int) {
        self.count = max(0, count)
    }

    public func traits() async -> DirectoryTraits { .rosterAPI }

    public func listUsers(_ query: UserQuery) async throws -> Page<User> {
        listCalls.append(query)
        try Task.checkCancellation()
        guard UserQuery.perPageRange.contains(query.perPage), query.page >= 1 else {
            throw APIError.badRequest(ErrorBody(code: "bad_query", message: "page must be ≥ 1 and per_page 1…200."))
        }
        guard query.search?.isEmpty ?? true, query.role == nil, query.status == nil else {
            throw APIError.badRequest(ErrorBody(code: "unsupported", message: "GeneratedDirectory does not filter."))
        }
        let descending = [.nameDescending, .emailDescending, .createdAtDescending].contains(query.sort)
        let start = min(count, (query.page - 1) * query.perPage)
        let end = min(count, start + query.perPage)
        let items = (start..<end).map { index in User.fixture(number: descending ? count - index : index + 1) }
        return Page(items: items, page: query.page, perPage: query.perPage, total: count)
    }

    public func user(id: String) async throws -> User {
        try Task.checkCancellation()
        guard id.hasPrefix("user-"), let number = Int(id.dropFirst(5)), (1...count).contains(number) else {
            throw APIError.notFound(ErrorBody(code: "not_found", message: "No user has that id."))
        }
        return User.fixture(number: number)
    }

    public func createUser(_ draft: UserDraft, idempotencyKey: String) async throws -> User { throw Self.readOnly }
    public func updateUser(id: String, with draft: UserDraft) async throws -> User { throw Self.readOnly }
    public func deleteUser(id: String) async throws { throw Self.readOnly }

    public func listGroups(_ query: GroupQuery) async throws -> Page<Group> {
        Page(items: [], page: query.page, perPage: query.perPage, total: 0)
    }

    public func group(id: String) async throws -> Group { throw Self.noGroup }
    public func createGroup(_ draft: GroupDraft, idempotencyKey: String) async throws -> Group { throw Self.readOnly }
    public func renameGroup(id: String, to draft: GroupDraft) async throws -> Group { throw Self.readOnly }
    public func deleteGroup(id: String) async throws { throw Self.readOnly }
    public func members(of groupID: String, _ query: UserQuery) async throws -> Page<User> { throw Self.noGroup }
    public func changeMembers(of groupID: String, _ change: MembershipChange) async throws -> Group { throw Self.readOnly }

    static let noGroup = APIError.notFound(ErrorBody(code: "group_not_found", message: "This generated directory has no groups."))

    static let readOnly = APIError.forbidden(ErrorBody(code: "read_only", message: "This generated directory is read-only."))
}
