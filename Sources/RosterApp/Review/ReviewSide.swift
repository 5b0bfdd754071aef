import RosterKit

/// Reads one side of a review: every user of the directory, page by page in the largest
/// pages (`EveryPage`), each user packed into `ReviewPeople` as its page comes (the page's
/// `User`s are let go before the next is read). Progress is a `WorkProgress` (people
/// read of the directory's total, pages as requests, rate and time left), told after each page.
public struct ReviewSide: Sendable {
    public enum Position: String, Sendable { case source, target }

    public let directory: any Directory
    public let key: ReviewKey
    let clock: any Clock<Duration>

    public init(directory: any Directory, key: ReviewKey, clock: any Clock<Duration> = ContinuousClock()) {
        self.directory = directory
        self.key = key
        self.clock = clock
    }

    /// What was read: the people, and whether the directory has roles to compare.
    public struct Read: Sendable {
        public var people: ReviewPeople
        public var hasRoles: Bool
        public var progress: WorkProgress
    }

    /// Every user, as people. `progress` is told after each page, from the reading task.
    public func read(progress report: @Sendable (WorkProgress) -> Void = { _ in }) async throws -> Read {
        var people = ReviewPeople()
        var progress = WorkProgress(total: 0, isTotalKnown: false)
        var hasRoles: Bool?
        let stopwatch = Stopwatch(clock: clock)
        let query = UserQuery(page: 1, perPage: EveryPage.largestPageSize)
        try await EveryPage(directory: directory, query: query).read { page in
            try Task.checkCancellation()
            // Traits are sure only after a first load (`Directory.traits`).
            let roles: Bool
            if let hasRoles { roles = hasRoles } else {
                roles = await directory.traits().hasRoles
                hasRoles = roles
            }
            for user in page.items { people.append(ReviewPerson(user, key: key, hasRoles: roles)) }
            // Room for the whole side at the first page's bytes a person: grown once.
            if progress.requests == 0, !people.isEmpty {
                people.reserve(people: max(page.total, people.count), bytesEach: people.byteCount / people.count + 1)
            }
            progress.requests += 1
            progress.succeeded = people.count
            progress.total = max(page.total, people.count)
            progress.isTotalKnown = !page.totalIsLowerBound
            progress.elapsed = stopwatch.elapsed()
            report(progress)
            return true
        }
        progress.total = people.count
        progress.isTotalKnown = true
        progress.elapsed = stopwatch.elapsed()
        report(progress)
        return Read(people: people, hasRoles: hasRoles ?? false, progress: progress)
    }
}
