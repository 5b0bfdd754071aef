import RosterKit

/// The users marked for a bulk action: some users picked one by one, or every user of a query
/// ("all matching") minus the ones unmarked since. "All matching" is a description, not a list:
/// it costs nothing to mark a hundred thousand users, and the ids are fetched page by page
/// only when a run starts.
public struct Marks: Sendable, Equatable {
    /// The search and filters "all matching" stands for (the order does not change who).
    public struct Query: Sendable, Equatable {
        public var search: String
        public var filter: ListFilter
        /// The order to fetch them in: the list's, so the run goes down the list as shown.
        public var sort: UserSort
        /// How many matched when marked; `totalIsLowerBound` when the server had not said.
        public var total: Int
        public var totalIsLowerBound: Bool

        /// Whether `listing` shows the users of this query.
        func describes(_ listing: Listing) -> Bool {
            listing.search == search && listing.filter == filter
        }
    }

    /// Users picked one by one, in the order they were marked, with the copy the list had;
    /// looked up by id in O(1), since every row drawn asks.
    struct Picked: Sendable, Equatable {
        private(set) var order: [String] = []
        private(set) var byID: [String: User] = [:]

        var count: Int { order.count }
        var users: [User] { order.compactMap { byID[$0] } }
        func contains(_ id: String) -> Bool { byID[id] != nil }

        mutating func toggle(_ user: User) {
            if byID.removeValue(forKey: user.id) != nil {
                order.removeAll { $0 == user.id }
            } else {
                byID[user.id] = user
                order.append(user.id)
            }
        }
    }

    enum Kind: Sendable, Equatable {
        case users(Picked)
        case allMatching(Query, except: Set<String>)
    }

    private(set) var kind: Kind = .users(Picked())

    public init() {}

    public var isEmpty: Bool { count == 0 && !isLowerBound }

    /// How many users are marked (at least this many when `isLowerBound`).
    public var count: Int {
        switch kind {
        case .users(let picked): picked.count
        case .allMatching(let query, let except): max(0, query.total - except.count)
        }
    }

    public var isLowerBound: Bool {
        if case .allMatching(let query, _) = kind { return query.totalIsLowerBound }
        return false
    }

    /// "3" or "1,000" or "100+".
    public var countLabel: String {
        CountFormat.grouped(count) + (isLowerBound ? "+" : "")
    }

    /// The query behind "all matching", if that is what is marked.
    public var allMatching: Query? {
        if case .allMatching(let query, _) = kind { return query }
        return nil
    }

    /// The users marked one by one (empty for "all matching").
    public var users: [User] {
        if case .users(let picked) = kind { return picked.users }
        return []
    }

    /// Whether `user`, a row of `listing`, is marked.
    func contains(_ user: User, in listing: Listing) -> Bool {
        switch kind {
        case .users(let picked): picked.contains(user.id)
        case .allMatching(let query, let except): query.describes(listing) && !except.contains(user.id)
        }
    }

    /// Marks `user` if it is not, unmarks it if it is.
    mutating func toggle(_ user: User, in listing: Listing) {
        switch kind {
        case .users(var picked):
            picked.toggle(user)
            kind = .users(picked)
        case .allMatching(let query, var except):
            if query.describes(listing) {
                if except.remove(user.id) == nil { except.insert(user.id) }
                kind = .allMatching(query, except: except)
            } else {
                var picked = Picked() // another query is on screen: start over from this user
                picked.toggle(user)
                kind = .users(picked)
            }
        }
    }

    mutating func markAll(_ query: Query) {
        kind = .allMatching(query, except: [])
    }

    mutating func removeAll() {
        kind = .users(Picked())
    }

    /// Who a run acts on.
    var scope: BulkScope {
        switch kind {
        case .users(let picked): .users(picked.users.map { BulkTarget(user: $0, isFresh: false) })
        case .allMatching(let query, let except): .allMatching(query, except: except)
        }
    }
}
