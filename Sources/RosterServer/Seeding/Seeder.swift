import Logging

/// Fills an empty directory with demo users and their groups. A directory that has users is left alone, so
/// `--seed` is safe to keep on a server's command line.
enum Seeder {
    /// Returns how many users were added (0 when the directory was not empty).
    @discardableResult
    static func seedIfEmpty(_ store: any DirectoryStore, count: Int, logger: Logger) async throws -> Int {
        guard count > 0, try await store.isEmpty() else { return 0 }
        let started = ContinuousClock.now
        try await store.bulkInsert(DemoData.directory(userCount: count))
        logger.notice("seeded demo users", metadata: [
            "count": "\(count)", "duration": "\(ContinuousClock.now - started)",
        ])
        return count
    }
}
