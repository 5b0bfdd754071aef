import RosterCSV
import RosterKit

/// Finds the user each row names, by email, else by login (SCIM's `userName`).
///
/// Requests: one search per row costs as many requests as the file has rows (100,000 for a
/// large file); reading the whole directory costs one per page of 100 users. So the first page
/// is read, and its total decides: when the directory's other pages are fewer than the rows,
/// every page is read and the rows matched in memory; otherwise (a few rows against a large
/// directory) each row is looked up.
struct ImportMatcher {
    let directory: any Directory

    /// The matched user per row line, and the requests it took.
    func match(_ rows: [ImportRow]) async throws -> (users: [Int: User], requests: Int) {
        let keyed = rows.filter { $0.isValid }
        guard !keyed.isEmpty else { return ([:], 0) }
        let pageSize = EveryPage.largestPageSize
        let first = try await directory.listUsers(UserQuery(page: 1, perPage: pageSize))
        let otherPages = first.totalIsLowerBound ? Int.max : max(0, first.pageCount - 1)
        if otherPages < keyed.count {
            var index = Index()
            index.add(first.items)
            var requests = 1
            if !EveryPage.isLast(first, number: 1, perPage: pageSize) {
                try await EveryPage(directory: directory, query: UserQuery(page: 2, perPage: pageSize)).read { page in
                    requests += 1
                    index.add(page.items)
                    return true
                }
            }
            return (Dictionary(uniqueKeysWithValues: keyed.compactMap { row in index.user(for: row).map { (row.line, $0) } }), requests)
        }
        var users: [Int: User] = [:]
        var requests = 1
        for row in keyed {
            try Task.checkCancellation()
            requests += 1
            let search = row.email.isEmpty ? (row.login ?? "") : row.email
            let page = try await directory.listUsers(UserQuery(perPage: 20, search: search))
            var index = Index()
            index.add(page.items)
            if let user = index.user(for: row) { users[row.line] = user }
        }
        return (users, requests)
    }

    /// Users by email and by login, in lower case.
    struct Index {
        var byEmail: [String: User] = [:]
        var byLogin: [String: User] = [:]

        mutating func add(_ users: [User]) {
            for user in users {
                byEmail[user.email.lowercased()] = user
                if let login = user.scim?.userName { byLogin[login.lowercased()] = user }
            }
        }

        func user(for row: ImportRow) -> User? {
            if !row.email.isEmpty, let user = byEmail[row.email.lowercased()] { return user }
            if let login = row.login?.lowercased() { return byLogin[login] ?? byEmail[login] }
            return nil
        }
    }
}
