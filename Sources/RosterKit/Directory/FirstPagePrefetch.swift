/// The first page of users, asked for at launch (`Directory.prefetchUsers`) and handed to the
/// first `listUsers` of the same query, so its round trips overlap the app's own start
/// (settings, journal, terminal). Dropped, and cancelled, by a list of anything else than that
/// screen's pages, so a later reload never gets this old answer; a failure is handed over like
/// an answer (an LDAP bind refused once is not tried a second time by the list). Kept by an
/// actor, which calls it from its own isolation.
public struct FirstPagePrefetch: Sendable {
    private var pending: (query: UserQuery, page: Task<Page<User>, any Error>)?
    private var listed = false

    public init() {}

    /// Starts `fetch` for `query`, unless a list has been asked already or a prefetch runs.
    public mutating func start(_ query: UserQuery, _ fetch: @escaping @Sendable () async throws -> Page<User>) {
        guard !listed, pending == nil else { return }
        pending = (query, Task { try await fetch() })
    }

    /// Before a list of `query`: the prefetched page when it is this query's, else nil (and the
    /// prefetch is dropped unless `query` is another page of the same screen).
    public mutating func take(for query: UserQuery) -> Task<Page<User>, any Error>? {
        listed = true
        guard let pending else { return nil }
        if pending.query == query {
            self.pending = nil
            return pending.page
        }
        var samePages = query
        samePages.page = pending.query.page
        if samePages != pending.query {
            self.pending = nil
            pending.page.cancel()
        }
        return nil
    }
}
