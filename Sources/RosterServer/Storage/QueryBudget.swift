/// How long a read that may walk many rows may run before it is stopped and answered with a
/// 503, on either engine (`SQLiteStore.longRead`, PostgreSQL's `statement_timeout`).
enum QueryBudget {
    /// Long enough for any list a person pages through at a million users (a deep page, a
    /// search of three characters or more, a prefix-served short search); a scan for a rare
    /// one- or two-character pattern at that size takes longer and is better typed out.
    static let standard = Duration.milliseconds(250)
}
